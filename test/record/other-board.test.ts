// `record` on a deployment we did not write: the second server (test/helpers/other-board.ts),
// in both styles, with a long and a one-letter password, and one the answers and the
// profile hold as a key (`date`: the profile written beside the recording stays one). The recording must hold every
// record the deployment lists, guest applicants included (applications whose applicant
// is no listed candidate: the spec never says an applicant is one), so that served, it
// answers the source's four totals; and no file it writes holds the password. Issue 28.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { main } from '../../src/cli/main.js'
import { createMockServer } from '../../src/fake/server.js'
import { loadScenario } from '../../src/fake/scenario.js'
import { SHORT_PASSWORD } from '../../src/contract/redact.js'
import { loadProfile } from '../../src/profile/deployment-profile.js'
import { profilePathOf } from '../../src/record/recorder.js'
import { AUTHORIZATION } from '../contract/helpers.js'
import { captureIo } from '../helpers/cli.js'
import { startOtherBoard } from '../helpers/other-board.js'

const SHAPES = [
  { shape: 'a long password', username: 'staging-sync', password: 'Tr0ub4dor:&"correct/horse"-battery-staple-2026' },
  { shape: 'a one-letter password', username: 'u', password: 'p' },
  { shape: 'a password the answers and the profile hold as a key', username: 'jobboard', password: 'date' },
] as const

const LISTS = ['candidates', 'applications', 'timesheets', 'marketing'] as const

async function servedTotals(t: Test, scenario: string): Promise<Record<string, unknown>> {
  const url = await serveFile(t, scenario)
  const totals: Record<string, unknown> = {}
  for (const list of LISTS) {
    const body = (await (await fetch(`${url}/api/v1/${list}/list`, { headers: { authorization: AUTHORIZATION } })).json()) as { total?: unknown }
    totals[list] = body.total
  }
  return totals
}

async function serveFile(t: Test, scenario: string): Promise<string> {
  const copy = await createMockServer({ scenario, clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => copy.close())
  return copy.listen(0)
}

type Row = Record<string, unknown>

/** Every record of a list, walked by next_page. */
async function walk(url: string, authorization: string): Promise<Row[]> {
  const rows: Row[] = []
  let next: unknown = url
  while (typeof next === 'string' && next !== '') {
    const body = (await (await fetch(next, { headers: { authorization } })).json()) as { data: Row[]; next_page?: unknown }
    rows.push(...body.data)
    next = body.next_page
  }
  return rows
}

for (const style of ['a', 'b'] as const) {
  for (const { shape, username, password } of SHAPES) {
    t.test(`style ${style}, ${shape}: record keeps every record, and served, the recording answers the source's totals`, async (t) => {
      const source = await startOtherBoard({ style, username, password })
      t.teardown(() => source.close())
      const counts = source.counts()
      t.ok(counts.guestApplications > 0, `the source holds ${counts.guestApplications} guest applications`)
      const dir = t.testdir()
      const out = join(dir, 'staging.json')
      const captured = captureIo()
      const code = await main([process.execPath, 'jobboard-kit', 'record', '--base-url', source.url, '--username', username, '--password', password, '--out', out], captured.io)
      t.equal(code, 0, `record exits 0\n${captured.stderr().split('\n').slice(-6).join('\n')}`)
      const scenario = loadScenario(out)
      t.equal(scenario.recording?.complete, true, 'the recording says it is complete')
      const records = scenario.records as Record<string, unknown[] | undefined>
      for (const list of LISTS) t.equal(records[list]?.length ?? 0, counts[list], `${list}: every record of the source is written${list === 'applications' ? ', guests included' : ''}`)

      t.doesNotThrow(() => loadProfile(profilePathOf(out)), 'the profile written beside it is a profile')
      const served = await servedTotals(t, out)
      for (const list of LISTS) t.equal(served[list], counts[list], `served, ${list} total ${counts[list]} as the source`)

      // a short password is hidden where it stands alone in text, never as a key (docs/contract.md)
      if (password.length >= SHORT_PASSWORD) {
        const files = readdirSync(dir).map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }))
        files.push({ name: 'stdout and stderr', text: captured.stdout() + captured.stderr() })
        for (const { name, text } of files) {
          for (const secret of [password, encodeURIComponent(password), JSON.stringify(password).slice(1, -1), Buffer.from(`${username}:${password}`).toString('base64')]) {
            t.notOk(text.includes(secret), `${name} holds no form of the password`)
          }
        }
      }
    })
  }
}

t.test('style a: served, the recording keeps what each record says of time and consent', async (t) => {
  const { username, password } = SHAPES[0]
  const source = await startOtherBoard({ style: 'a', username, password, rateLimitWindow: 0 })
  t.teardown(() => source.close())
  const out = join(t.testdir(), 'staging.json')
  const code = await main([process.execPath, 'jobboard-kit', 'record', '--base-url', source.url, '--username', username, '--password', password, '--out', out], captureIo().io)
  t.equal(code, 0)
  const own = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
  const served = await serveFile(t, out)
  const [before, after] = [await walk(`${source.url}/api/v1/applications/list`, own), await walk(`${served}/api/v1/applications/list`, AUTHORIZATION)]
  const stamps = (rows: Row[]) => Object.fromEntries(rows.map((r) => [String(r.id), [r.created_at, r.updated_at]]))
  const recorded = stamps(after)
  const kept = Object.entries(stamps(before)).filter(([id]) => id in recorded)
  t.ok(kept.length > 0, `${kept.length} applications to compare`)
  const changed = kept.filter(([id, times]) => JSON.stringify(recorded[id]) !== JSON.stringify(times)).map(([id, times]) => `${id}: ${JSON.stringify(times)} → ${JSON.stringify(recorded[id])}`)
  t.same(changed, [], "every application keeps its created_at and updated_at (a client's since reads updated_at)")
  const actions = async (url: string, authorization: string) => (await walk(`${url}/api/v1/marketing/list`, authorization)).map((r) => r.action).sort()
  t.same(await actions(served, AUTHORIZATION), await actions(source.url, own), 'every marketing record keeps its action')
})
