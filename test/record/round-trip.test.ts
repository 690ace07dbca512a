// The round trip (issue 28 item 3): a fake whose board holds every shape a scenario can
// hold — guest applicants, candidates with resumes and documents, timesheets, marketing
// records by e-mails with no account (candidate id 0), revoked and approved in the
// board's own word, applications changed after they were made, pinned jobs — is recorded
// (and again answering otherwise where the spec is silent: short months, oldest first);
// the recording, served, answers the source's four totals, the same metrics (labels,
// months and totals) and the same number of files of each kind, record for record the
// same times and actions; and the contract kit, run with the profile the recorder wrote
// beside the scenario, passes against it (exit 0).
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { ScenarioFile } from '../../src/core/types.js'
import { createMockServer } from '../../src/fake/server.js'
import { Recorder } from '../../src/record/recorder.js'
import { resolveRecordSettings } from '../../src/record/record-settings.js'
import { AUTHORIZATION, contract, CREDENTIALS, steppingClock } from '../contract/helpers.js'

type Row = Record<string, unknown> & { id?: number }
const LISTS = ['candidates', 'applications', 'timesheets', 'marketing'] as const

/** A board holding every shape a scenario can: the generated kinds, and pinned records of each. */
const SOURCE: ScenarioFile = {
  name: 'round-trip',
  seed: 11,
  counts: { jobs: 7, candidates: 16, applications: 44, timesheets: 12, resumes: 9, documents: 6, marketing: 20 },
  // a board that approves with a word of its own, and many e-mails with no account
  behaviour: { guestApplicants: 0.25, marketingApprovalAction: 'Granted' },
  mix: { unknownMarketingEmail: 0.3, revoked: 0.4 },
  records: {
    jobs: [{ id: 8, job_title: 'Equine Vet Surgeon', job_reference: 'EQ-8', job_location: 'Newmarket' }],
    candidates: [
      {
        id: 17,
        name: 'Ada Fieldhouse',
        email: 'ada.fieldhouse@example.org',
        created_at: '2025-06-01 08:00:00',
        resumes: [{ filename: 'Ada_CV.pdf', filesize: 4000 }],
        documents: [{ filename: 'Ada_passport.pdf', filesize: 9000 }, { filename: 'Ada_licence.pdf' }],
      },
    ],
    applications: [
      { id: 45, candidate_id: 17, job_id: 8, created_at: '2025-07-01 10:00:00', updated_at: '2026-10-02 11:00:00' },
      { id: 46, applicant: { name: 'Walk In', email: 'walk.in@example.net', telephone: '01234 567890' }, job_id: 8, created_at: '2025-08-01 10:00:00', updated_at: '2025-09-01 10:00:00' },
    ],
    timesheets: [{ id: 13, candidate_id: 17, created_at: '2025-09-05 12:00:00', filename: 'week-36.xlsx', filesize: 2048 }],
    marketing: [
      { candidate_id: 0, email: 'no.account@example.com', action: 'Approved', created_at: '2025-05-05 05:05:05' },
      { candidate_id: 0, email: 'no.account@example.com', action: 'Revoked', created_at: '2025-06-06 06:06:06' },
      { candidate_id: 17, action: 'Approved', created_at: '2025-06-02 09:00:00' },
    ],
  },
}

async function served(t: Test, options: Record<string, unknown>): Promise<string> {
  const server = await createMockServer({ clock: 'virtual', port: 0, ...options } as never)
  t.teardown(() => server.close())
  return server.listen(0)
}

async function get(url: string): Promise<Record<string, unknown>> {
  const answer = await fetch(url, { headers: { authorization: AUTHORIZATION } })
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`)
  return (await answer.json()) as Record<string, unknown>
}

/** Every record of a list, by next_page, and the list's total. */
async function walk(base: string, list: string): Promise<{ total: unknown; rows: Row[] }> {
  const rows: Row[] = []
  let next: unknown = `${base}/api/v1/${list}/list`
  let total: unknown
  while (typeof next === 'string' && next !== '') {
    const body = await get(next)
    total ??= body.total
    rows.push(...(body.data as Row[]))
    next = body.next_page
  }
  return { total, rows }
}

/** What the round trip must keep of a board, read over its API. */
async function look(base: string) {
  const lists = Object.fromEntries(await Promise.all(LISTS.map(async (list) => [list, await walk(base, list)] as const))) as Record<(typeof LISTS)[number], { total: unknown; rows: Row[] }>
  const candidates = lists.candidates.rows as Array<Row & Record<'resumes' | 'documents' | 'timesheets', unknown[]>>
  const count = (kind: 'resumes' | 'documents' | 'timesheets') => candidates.reduce((n, c) => n + c[kind].length, 0)
  const applications = lists.applications.rows as Array<Row & { applicant: { attachment?: { href?: unknown } } }>
  return {
    totals: Object.fromEntries(LISTS.map((list) => [list, lists[list].total])),
    metrics: (await get(`${base}/api/v1/metrics/list`)).metrics,
    files: {
      resumes: count('resumes'),
      documents: count('documents'),
      timesheets: count('timesheets'),
      'timesheets listed': lists.timesheets.rows.length,
      attachments: applications.filter((a) => typeof a.applicant.attachment?.href === 'string').length,
    },
    applications: Object.fromEntries(applications.map((a) => [String(a.id), [a.created_at, a.updated_at]])),
    marketing: (lists.marketing.rows as Array<{ action: string; created_at: string; candidate: { id: number } }>).map((m) => `${m.created_at} ${m.action} ${m.candidate.id === 0 ? 'no account' : 'candidate'}`).sort(),
  }
}

/** The board as it is, and answering otherwise where the spec is silent (short month names, oldest first, pages of 7). */
const BOARDS: Array<[string, ScenarioFile]> = [
  ['its own approval word', SOURCE],
  ['short month names, oldest first, pages of 7', { ...SOURCE, pageSize: 7, behaviour: { ...SOURCE.behaviour, monthNames: 'short', listOrder: 'oldest-first', sinceField: 'created_at' } }],
]

for (const [shape, scenario] of BOARDS) {
  t.test(`a board with every shape a scenario holds (${shape}) is recorded, served and found the same; the kit passes it with the recorded profile`, async (t) => {
    const source = await served(t, { scenarioData: scenario, rateLimitWindow: 0 })
    const before = await look(source)
    // the source holds what the round trip is about, or the test proves nothing
    t.ok(before.files.resumes > 0 && before.files.documents > 0 && before.files.timesheets > 0 && before.files.attachments > 0, `files of each kind: ${JSON.stringify(before.files)}`)
    t.ok(before.marketing.some((m) => m.endsWith('Granted no account')) && before.marketing.some((m) => m.endsWith('Revoked no account')), 'approvals and revocations by e-mails with no account')
    t.ok(Object.values(before.applications).some(([created, updated]) => updated !== created), 'applications changed after they were made')

    const out = join(t.testdir(), 'round-trip.json')
    let stderr = ''
    const settings = resolveRecordSettings({ baseUrl: source, ...CREDENTIALS, out })
    const run = await new Recorder(settings, { stderr: { write: (text: string) => (stderr += text) }, clock: steppingClock() }).run()
    t.equal(run.exitCode, 0, `record exits 0\n${stderr.split('\n').slice(-4).join('\n')}`)
    t.same(run.lost, [], 'nothing lost')
    t.ok(run.guests > 0, `${run.guests} guest applicants recorded`)
    for (const [kind, carried] of Object.entries(run.carried)) t.equal(carried.written, carried.seen, `${kind}: ${carried.seen} seen → ${carried.written} written`)

    const copy = await served(t, { scenario: out, rateLimitWindow: 0 })
    const after = await look(copy)
    t.same(after.totals, before.totals, `the four totals: ${JSON.stringify(before.totals)}`)
    t.same(after.metrics, before.metrics, 'metrics/list: the same labels, months and totals')
    t.same(after.files, before.files, `the same files of each kind: ${JSON.stringify(before.files)}`)
    t.same(after.applications, before.applications, 'every application keeps its created_at and updated_at')
    t.same(after.marketing, before.marketing, 'every marketing record keeps its time, its action in the board\'s word and whether it has an account')

    // the recording as it is (its rate limit, its behaviour), checked by the kit with the profile recorded beside it
    const kitUrl = await served(t, { scenario: out })
    const kit = await contract({ baseUrl: kitUrl, profile: run.profilePath }, { clock: steppingClock() })
    t.equal(kit.exitCode, 0, `contract --profile ${run.profilePath} exits 0${kit.failed().length > 0 ? `: ${kit.failed().join('; ')}` : ''}\n${kit.reason ?? ''}`)
    t.same(kit.failed(), [], 'no check fails')
    const pinned = kit.report.checks.filter((c) => / is as the profile records it$/.test(c.name) && c.status === 'pass').map((c) => c.name.split(' ')[0])
    // (guestApplicants only where the kit lists every candidate: not over pages of 7)
    t.ok(['marketingApprovalAction', 'monthNames', 'listOrder', 'pageSize'].every((point) => pinned.includes(point)), `the recorded points were checked and hold (${pinned.join(', ')})`)
  })
}
