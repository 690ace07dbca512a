// A recording loses nothing without a word. Every record read is written — applications
// by guest applicants (no listed candidate theirs) as guests, anonymised as candidates are —
// and the summary says, per kind, records seen → written. A record the scenario format
// cannot hold (a timesheet with no candidate, an application with no vacancy id) makes the
// run exit 1 naming the kind, the ids and why; --allow-loss writes the scenario without it
// and exits 0 with a warning.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { Recorder } from '../../src/record/recorder.js'
import { resolveRecordSettings, type RecordFlags } from '../../src/record/record-settings.js'
import { AUTHORIZATION, board, CREDENTIALS, json, on, steppingClock, type Breakage } from '../contract/helpers.js'

type Page = { data: Array<Record<string, unknown>>; total: number }

async function recordFrom(url: string, out: string, flags: Partial<RecordFlags> = {}) {
  let stderr = ''
  const settings = resolveRecordSettings({ baseUrl: url, ...CREDENTIALS, out, ...flags })
  const result = await new Recorder(settings, { stderr: { write: (text: string) => (stderr += text) }, clock: steppingClock() }).run()
  return { ...result, stderr }
}

async function totalOf(base: string, path: string, headers: Record<string, string> = { authorization: AUTHORIZATION }): Promise<number> {
  const answer = await fetch(`${base}/api/v1${path}`, { headers })
  return ((await answer.json()) as Page).total
}

const SOURCE = { rateLimitWindow: 0, scenarioData: { name: 'guests', counts: { candidates: 12, applications: 40, timesheets: 9, marketing: 7, jobs: 6 }, behaviour: { guestApplicants: 0.25 } } } as never

t.test('a board with guest applicants is recorded whole: seen equals written for every kind, and served, the four totals are the source\'s', async (t) => {
  const { url } = await board(t, {}, SOURCE)
  const out = join(t.testdir(), 'guests.json')
  const run = await recordFrom(url, out)
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.same(run.lost, [], 'nothing lost')
  for (const [kind, carried] of Object.entries(run.carried)) t.equal(carried.written, carried.seen, `${kind}: ${carried.seen} seen → ${carried.written} written`)
  t.ok(run.guests > 0, `${run.guests} applications are kept by guest applicants`)
  const scenario = JSON.parse(readFileSync(out, 'utf8')) as { records: { applications: Array<{ applicant?: { name?: string; email?: string } }> } }
  const guests = scenario.records.applications.filter((a) => a.applicant !== undefined)
  t.equal(guests.length, run.guests, 'the scenario holds them as guests')
  // anonymised: no guest's name in the scenario is one the source shows
  const shown = JSON.stringify(await (await fetch(`${url}/api/v1/applications/list`, { headers: { authorization: AUTHORIZATION } })).json())
  for (const guest of guests.slice(0, 5)) t.notOk(guest.applicant?.name && shown.includes(guest.applicant.name), `guest ${guest.applicant?.name} is a replaced name`)
  const copy = await createMockServer({ scenario: out, clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => copy.close())
  const served = await copy.listen(0)
  for (const path of ['/candidates/list', '/applications/list', '/timesheets/list', '/marketing/list']) {
    t.equal(await totalOf(served, path), await totalOf(url, path), `served, ${path} has the source's total`)
  }
})

/** A deployment whose applications list shows, on its first page, one application without a vacancy id. */
const noVacancyId: Breakage = {
  reply: (x, r) =>
    on(x, /^\/applications\/list$/) && !x.url.includes('page=')
      ? json(r, (b) => {
          const first = (b as Page).data[0] as { vacancy: Record<string, unknown> }
          delete first.vacancy.id
        })
      : r,
}

t.test('a record the scenario cannot hold exits 1 naming the kind, the id and why; --allow-loss writes the rest and exits 0 with a warning', async (t) => {
  const { url } = await board(t, noVacancyId, SOURCE)
  const first = (await (await fetch(`${url}/api/v1/applications/list`, { headers: { authorization: AUTHORIZATION } })).json()) as Page
  const id = String(first.data[0]?.id)
  const dir = t.testdir()
  const strict = await recordFrom(url, join(dir, 'strict.json'))
  t.equal(strict.exitCode, 1, 'exit 1')
  t.same(strict.lost.map((l) => [l.kind, l.id]), [['applications', id]], 'the lost record is named')
  t.match(strict.stderr, new RegExp(`records read and not written: 1 applications \\(${id}\\): its vacancy has no id`), 'stderr names the kind, the id and why')
  t.equal(strict.carried.applications.written, strict.carried.applications.seen - 1, 'seen → written shows it')
  const allowed = await recordFrom(url, join(dir, 'allowed.json'), { allowLoss: true })
  t.equal(allowed.exitCode, 0, '--allow-loss: exit 0')
  t.match(allowed.stderr, /warning: records read and not written/, 'with a warning')
})
