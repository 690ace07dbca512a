// The example clients (examples/) against a fake under the virtual clock, through a
// small day (examples/day.ts): the correct client passes every rule; each wrong one
// fails exactly the rule it breaks (a walk cut short and a gap also leave the copy out
// of step, which the oracle then sees). Each test can fail: the verdict is the fake's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { boardAt, type Day, dayFetch, live, resumedDay, retiringDay, smallDay } from '../../examples/day.js'
import { SyncClient, type SyncOptions } from '../../examples/sync-client.js'
import { FirstPageOnlyClient } from '../../examples/wrong/first-page-only.js'
import { FormPostClient } from '../../examples/wrong/form-post.js'
import { GuessIdsClient } from '../../examples/wrong/guess-ids.js'
import { HammerClient } from '../../examples/wrong/hammer.js'
import { NoCredentialsClient } from '../../examples/wrong/no-credentials.js'
import { RedownloadClient } from '../../examples/wrong/redownload.js'
import { ResendClient } from '../../examples/wrong/resend.js'
import { RetryEarlyClient } from '../../examples/wrong/retry-early.js'
import { SinceGapClient } from '../../examples/wrong/since-gap.js'
import { SinceNewestReturnedClient } from '../../examples/wrong/since-newest-returned.js'
import { StaleCopyClient } from '../../examples/wrong/stale-copy.js'
import { StaleFieldsClient } from '../../examples/wrong/stale-fields.js'
import type { ActivityFile, ScenarioFile } from '../../src/core/types.js'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import { assertVerdict } from '../../src/watch/verdict/assert.js'
import type { DetailedVerdict } from '../../src/watch/verdict/verdict-types.js'
import { AUTH, checked } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'

/** The default board, smaller: three pages of applications, two of the other lists. */
const scenario: ScenarioFile = {
  ...(JSON.parse(readFileSync(join(ROOT, 'scenarios', 'default.json'), 'utf8')) as ScenarioFile),
  name: 'examples',
  counts: { jobs: 6, candidates: 30, applications: 60, timesheets: 30, resumes: 20, documents: 10, marketing: 30 },
}

type Client = new (options: SyncOptions) => SyncClient

async function judge(t: Test, Client: Client, day: Day = smallDay): Promise<{ verdict: DetailedVerdict; failed: string[]; idle: string[]; fake: MockServer }> {
  const activity = day.activity === undefined ? {} : { activityData: day.activity as ActivityFile }
  const fake = await createMockServer({ clock: 'virtual', scenarioData: scenario, ...activity, ...checked(t) })
  const url = await fake.listen(0)
  t.teardown(() => fake.close())
  // someone else read job/fields a moment ago: the client's first read meets a 429 it did not cause
  await fake.inject({ url: '/api/v1/job/fields', headers: AUTH })
  await fake.inject({ method: 'DELETE', url: '/__mock/requests' })
  const board = boardAt(url)
  const client = new Client({ baseUrl: url, user: 'jobboard', password: 'jobboard', now: () => fake.board.clock.now(), fetch: dayFetch(board, day) })
  client.state.jobs.push(client.jobToPost())
  await live(client, board, day)
  const copied = await fake.inject({ method: 'POST', url: '/__mock/verdict/copy', payload: client.copy() })
  t.equal(copied.statusCode, 200, 'the copy is taken')
  const verdict = fake.verdict()
  return {
    fake,
    verdict,
    failed: verdict.rules.filter((r) => r.outcome === 'fail').map((r) => r.id),
    idle: verdict.rules.filter((r) => r.outcome === 'not-exercised').map((r) => r.id),
  }
}

t.test('the correct client passes every rule it exercises, and exercises all but the two it has no cause to', async (t) => {
  const { verdict, idle } = await judge(t, SyncClient)
  assertVerdict(t, () => verdict)
  t.same(idle, ['no-unchanged-resend'], 'no job of its was refused; job/fields never changed under it')
  t.equal(verdict.outcome, 'pass')
})

t.test('the correct client passes a day on which the industry it used is retired', async (t) => {
  const { verdict } = await judge(t, SyncClient, retiringDay)
  assertVerdict(t, () => verdict)
})

t.test('a client that keeps job/fields for ever fails current-job-fields once its industry is retired, and nothing else', async (t) => {
  const { verdict, failed } = await judge(t, StaleFieldsClient, retiringDay)
  t.same(failed, ['current-job-fields'])
  t.match(verdict.rules.find((r) => r.id === 'current-job-fields')?.findings[0]?.message, /on job_industry: its values changed since the client last read job\/fields/)
})

t.test('the correct client passes a day on which a walk is cut short and the board changes while it waits', async (t) => {
  const { verdict, fake } = await judge(t, SyncClient, resumedDay())
  assertVerdict(t, () => verdict)
  const cut = fake.journal.list().filter((entry) => entry.url === '/api/v1/candidates/list?page=2').map((entry) => entry.status)
  t.same(cut, [503, 200], 'the walk met the outage on its second page and resumed there')
  t.same(fake.activity.status()?.failures, [], 'the board changed as the day says')
})

t.test('a client that takes since from the newest time a resumed walk returned fails since-no-gap and copy-in-step, and nothing else', async (t) => {
  const { verdict, failed } = await judge(t, SinceNewestReturnedClient, resumedDay())
  t.same(failed, ['since-no-gap', 'copy-in-step'])
  // the candidate changed at 09:40 was returned by the resumed walk, which began at 09:30
  t.match(verdict.rules.find((r) => r.id === 'since-no-gap')?.findings[0]?.message, /candidates\/list was walked since 2026-11-22 09:40, later than 2026-11-22 09:30/)
  // the candidate who signed up at 09:35, on the first page the walk did not read again
  t.match(verdict.rules.find((r) => r.id === 'copy-in-step')?.findings[0]?.message, /candidates: 1 missing/)
})

const wrong: Array<[string, Client, string[]]> = [
  ['sends downloads without credentials', NoCredentialsClient, ['credentials']],
  ['posts a job as a form', FormPostClient, ['post-json']],
  ['reads job/fields twice in a window', HammerClient, ['one-request-per-window']],
  ['retries a 429 after a fixed pause', RetryEarlyClient, ['retry-after']],
  ['reads only the first page of each list', FirstPageOnlyClient, ['walk-to-last-page', 'copy-in-step']],
  ['takes since from the end of its sync', SinceGapClient, ['since-no-gap', 'copy-in-step']],
  ['resends a refused job unchanged', ResendClient, ['no-unchanged-resend']],
  ['downloads every attachment each round', RedownloadClient, ['download-once']],
  ['guesses attachment ids', GuessIdsClient, ['download-listed-ids']],
  ['never replaces a record it holds', StaleCopyClient, ['copy-in-step']],
]

for (const [what, Client, rules] of wrong) {
  t.test(`a client that ${what} fails ${rules.join(' and ')}, and nothing else`, async (t) => {
    const { verdict, failed } = await judge(t, Client)
    t.same(failed, rules)
    t.equal(verdict.outcome, 'fail')
    t.throws(() => assertVerdict(() => verdict), { message: new RegExp(`FAIL ${rules[0]}: `) }, 'assertVerdict fails with the account')
  })
}

t.test('the correct client lives through the bad day (outages, slow answers, a retired industry, a burst) with no finding', async (t) => {
  const fake = await createMockServer({ clock: 'virtual', activity: 'bad-day', ...checked(t) })
  const url = await fake.listen(0)
  t.teardown(() => fake.close())
  const board = boardAt(url)
  // the activity plays the day: the client only makes its rounds, a quarter of an hour and a minute apart, past the day's end
  const day: Day = { rounds: 40, gapSeconds: 16 * 60, requestSeconds: 5 }
  // the outage holds requests 10 s: the client gives up on one after 3 s (real time), as it would after 30 s in production;
  // shorter, a loaded machine answers an ordinary download after the client gave up on it, and the retry reads as a second download
  const client = new SyncClient({ baseUrl: url, user: 'jobboard', password: 'jobboard', now: () => fake.board.clock.now(), fetch: dayFetch(board, day), timeoutMs: 3000 })
  client.state.jobs.push(client.jobToPost())
  await live(client, board, day)
  t.equal(fake.activity.status()?.pending, 0, 'the whole day was played')
  t.equal((await fake.inject({ method: 'POST', url: '/__mock/verdict/copy', payload: client.copy() })).statusCode, 200)
  const verdict = fake.verdict()
  assertVerdict(t, () => verdict)
  t.ok(fake.journal.list().some((entry) => entry.status === 503), 'the client met the outage')
  t.ok(fake.journal.list().some((entry) => entry.fault?.startsWith('delay')), 'and a held request, which it gave up on')
})
