// The verdict's rules, each broken and kept by requests made in-process under the
// virtual clock: GET /__mock/verdict names the rule, its findings and the journal ids.
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../../src/fake/server.js'
import { AUTH, basic, checked, type Json } from '../../helpers/board.js'

const server = async (tt: Test, options = {}): Promise<MockServer> => {
  const fake = await createMockServer({ clock: 'virtual', ...checked(tt), ...options })
  tt.teardown(() => fake.close())
  return fake
}

const get = (fake: MockServer, url: string, headers: Record<string, string> = AUTH) => fake.inject({ url, headers })
const verdict = async (fake: MockServer, query = ''): Promise<Json> => (await fake.inject(`/__mock/verdict${query}`)).json()
const rule = (answer: Json, id: string): Json => answer.rules.find((r: Json) => r.id === id)
const advance = (fake: MockServer, seconds: number) => fake.clock.advance(seconds)

t.test('a fresh journal leaves every rule not exercised and the verdict passing', async (t) => {
  const fake = await server(t)
  const answer = await verdict(fake)
  t.equal(answer.status, 200)
  t.equal(answer.outcome, 'pass')
  t.ok(answer.rules.every((r: Json) => r.outcome === 'not-exercised'), 'nothing was exercised')
})

t.test('answers a request without credentials as a credentials finding naming its journal id', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/metrics/list', {})
  const answer = await verdict(fake)
  t.equal(answer.outcome, 'fail')
  const found = rule(answer, 'credentials')
  t.equal(found.outcome, 'fail')
  t.same(found.findings[0].requests, [fake.journal.list()[0]?.id])
  t.match(found.findings[0].message, /without Basic credentials/)
})

t.test('a request answered by an injected fault keeps the user it was sent as, and is no credentials finding', async (t) => {
  const fake = await server(t)
  fake.faults.add({ path: '/api/v1/metrics/list', status: 503 })
  const answer = await get(fake, '/api/v1/metrics/list')
  t.equal(answer.statusCode, 503)
  t.equal(fake.journal.list()[0]?.user, 'jobboard', 'the journal names the user of the credentials sent')
  t.equal(rule(await verdict(fake), 'credentials').outcome, 'pass')
})

t.test('a POST sent as a form is a post-json finding', async (t) => {
  const fake = await server(t)
  await fake.inject({ method: 'POST', url: '/api/v1/job/delete', headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'id=1' })
  const found = rule(await verdict(fake), 'post-json')
  t.equal(found.outcome, 'fail')
  t.match(found.findings[0].message, /application\/x-www-form-urlencoded/)
  t.equal(fake.journal.list()[0]?.contentType, 'application/x-www-form-urlencoded', 'the journal keeps the content type')
})

t.test('a URL asked again inside the window is one finding, and a retry before Retry-after another rule', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/metrics/list')
  advance(fake, 10)
  const limited = await get(fake, '/api/v1/metrics/list')
  t.equal(limited.statusCode, 429)
  let answer = await verdict(fake)
  t.equal(rule(answer, 'one-request-per-window').outcome, 'fail')
  t.equal(rule(answer, 'retry-after').outcome, 'not-exercised')
  t.equal(fake.journal.list()[1]?.retryAfter, 890, 'the journal keeps Retry-after')
  advance(fake, 2)
  await get(fake, '/api/v1/metrics/list')
  answer = await verdict(fake)
  t.equal(rule(answer, 'one-request-per-window').findings.length, 1, 'the retry is not counted twice')
  const retry = rule(answer, 'retry-after')
  t.equal(retry.outcome, 'fail')
  t.match(retry.findings[0].message, /retried 2 s after a 429 whose Retry-after asked for 890 s/)
  t.same(retry.findings[0].requests, [2, 3])
})

t.test('a retry once Retry-after has passed keeps both rules', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/metrics/list')
  fake.journal.clear()
  // the window was opened before the journal began: its 429 is not this client's doing
  const limited = await get(fake, '/api/v1/metrics/list')
  t.equal(limited.statusCode, 429)
  advance(fake, Number(limited.headers['retry-after']))
  t.equal((await get(fake, '/api/v1/metrics/list')).statusCode, 200)
  const answer = await verdict(fake)
  t.equal(rule(answer, 'one-request-per-window').outcome, 'pass')
  t.equal(rule(answer, 'retry-after').outcome, 'pass')
})

t.test('a walk that stops before the last page fails walk-to-last-page; walking on to it passes', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/applications/list')
  t.equal(fake.journal.list()[0]?.nextPage, true, 'the journal says the page has a next one')
  let found = rule(await verdict(fake), 'walk-to-last-page')
  t.equal(found.outcome, 'fail')
  t.match(found.findings[0].message, /walked to page 1 and no further/)
  for (let page = 2; page <= 8; page++) await get(fake, `/api/v1/applications/list?page=${page}`)
  t.equal(fake.journal.list().at(-1)?.nextPage, false)
  found = rule(await verdict(fake), 'walk-to-last-page')
  t.equal(found.outcome, 'pass')
})

t.test('a since later than the start of the previous complete walk is a gap; a malformed since a finding', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/timesheets/list?since=2026-11-22+00:00')
  t.equal(fake.journal.list()[0]?.nextPage, false, 'the first walk is complete on one page')
  advance(fake, 3600)
  // the previous complete walk began at 09:30: since 09:45 skips a quarter of an hour
  await get(fake, '/api/v1/timesheets/list?since=2026-11-22+09:45')
  let found = rule(await verdict(fake), 'since-no-gap')
  t.equal(found.outcome, 'fail')
  t.match(found.findings[0].message, /since 2026-11-22 09:45, later than 2026-11-22 09:30/)
  await get(fake, '/api/v1/timesheets/list?since=yesterday')
  found = rule(await verdict(fake), 'since-no-gap')
  t.equal(found.findings.length, 2)
  t.match(found.findings[1].message, /not YYYY-MM-DD HH:MM/)
})

t.test('a since at the start of the previous walk, to the minute, leaves no gap', async (t) => {
  const fake = await server(t)
  advance(fake, 42)
  await get(fake, '/api/v1/timesheets/list?since=2026-11-22+00:00')
  t.equal(fake.journal.list()[0]?.nextPage, false, 'the first walk is complete on one page')
  advance(fake, 3600)
  await get(fake, '/api/v1/timesheets/list?since=2026-11-22+09:30')
  t.equal(rule(await verdict(fake), 'since-no-gap').outcome, 'pass')
})

t.test('a refused job write sent again unchanged is a finding; a fixed one is not', async (t) => {
  const fake = await server(t, { rateLimitWindow: 0 })
  const post = (payload: object) => fake.inject({ method: 'POST', url: '/api/v1/job/add', headers: AUTH, payload })
  t.equal((await post({ job_title: 'Vet' })).statusCode, 412)
  t.equal((await post({ job_title: 'Vet' })).statusCode, 412)
  const found = rule(await verdict(fake), 'no-unchanged-resend')
  t.equal(found.outcome, 'fail')
  t.same(found.findings[0].requests, [1, 2])
  t.equal(fake.journal.list()[0]?.digest, fake.journal.list()[1]?.digest, 'one body, one digest')
})

t.test('a 412 on a constrained value the client never read from job/fields is a current-job-fields finding', async (t) => {
  const fake = await server(t, { rateLimitWindow: 0 })
  const job = { job_title: 'Vet', job_industry: 'Astronaut' }
  await fake.inject({ method: 'POST', url: '/api/v1/job/add', headers: AUTH, payload: job })
  const found = rule(await verdict(fake), 'current-job-fields')
  t.equal(found.outcome, 'fail')
  t.match(found.findings[0].message, /on job_industry: the client never read job\/fields/)
})

t.test('a 412 on a value the client read as current is not a current-job-fields finding', async (t) => {
  const fake = await server(t, { rateLimitWindow: 0 })
  await get(fake, '/api/v1/job/fields')
  await fake.inject({ method: 'POST', url: '/api/v1/job/add', headers: AUTH, payload: { job_industry: 'Astronaut' } })
  t.equal(rule(await verdict(fake), 'current-job-fields').outcome, 'pass')
})

t.test('a file downloaded twice fails download-once; a guessed id fails download-listed-ids', async (t) => {
  const fake = await server(t, { rateLimitWindow: 0 })
  await get(fake, '/api/v1/applications/attachment/1')
  await get(fake, '/api/v1/applications/attachment/1')
  await get(fake, '/api/v1/applications/attachment/99999')
  const answer = await verdict(fake)
  t.equal(rule(answer, 'download-once').outcome, 'fail')
  t.same(rule(answer, 'download-once').findings[0].requests, [1, 2])
  t.equal(rule(answer, 'download-listed-ids').outcome, 'fail')
  t.same(rule(answer, 'download-listed-ids').findings[0].requests, [3])
})

t.test('?user= judges one credential; the verdict changes nothing on the board', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/metrics/list', { authorization: basic('someone', 'else') })
  const before = JSON.stringify(fake.exportState())
  t.equal(rule(await verdict(fake, '?user=jobboard'), 'credentials').outcome, 'not-exercised')
  t.equal(rule(await verdict(fake, '?user=someone'), 'credentials').outcome, 'pass')
  t.equal(JSON.stringify(fake.exportState()), before)
  t.equal(fake.journal.list().length, 1, 'the verdict is not journaled')
})

t.test('a reset or an emptied journal starts the verdict afresh', async (t) => {
  const fake = await server(t)
  await get(fake, '/api/v1/metrics/list', {})
  t.equal((await verdict(fake)).outcome, 'fail')
  await fake.inject({ method: 'DELETE', url: '/__mock/requests' })
  t.equal((await verdict(fake)).outcome, 'pass')
  await get(fake, '/api/v1/metrics/list', {})
  fake.reset()
  t.equal((await verdict(fake)).outcome, 'pass')
})

t.test('with the verdict off, GET /__mock/verdict says so with a 4xx naming verdict', async (t) => {
  const fake = await server(t, { verdict: false })
  const answer = await fake.inject('/__mock/verdict')
  t.ok(answer.statusCode >= 400 && answer.statusCode < 500)
  t.match(answer.json(), { status: answer.statusCode, message: /verdict/ })
})

t.test('a repeat of a URL whose answer a fault cut short is forgiven once; Retry-after still holds after its 429', async (t) => {
  const fake = await server(t)
  fake.faults.add({ path: '/api/v1/metrics/list', truncate: true })
  const cut = await fake.inject({ url: '/api/v1/metrics/list', headers: AUTH }).catch(() => undefined)
  t.ok(cut === undefined || cut.statusCode === 200, 'the answer was cut short')
  advance(fake, 5)
  t.equal((await get(fake, '/api/v1/metrics/list')).statusCode, 429)
  let answer = await verdict(fake)
  t.equal(rule(answer, 'one-request-per-window').outcome, 'pass', 'the client had no whole answer to keep')
  advance(fake, 5)
  await get(fake, '/api/v1/metrics/list')
  answer = await verdict(fake)
  t.equal(rule(answer, 'retry-after').outcome, 'fail')
})

t.test('a 412 on a constrained field whose values changed since the client read job/fields is a current-job-fields finding', async (t) => {
  // the board's values change at run time only once the activity branch's /__mock/job-fields lands: fed to the evaluator here
  const { VerdictEvaluator } = await import('../../../src/watch/verdict/evaluator.js')
  const evaluator = new VerdictEvaluator({ windowSeconds: () => 900, now: () => 0 })
  const base = { method: 'GET', status: 200, user: 'jobboard', credentials: true }
  evaluator.observe({ ...base, id: 1, url: '/api/v1/job/fields', time: 1_000, fieldsRead: { job_industry: 'before', job_type: 'same' } })
  evaluator.observe({ ...base, id: 2, method: 'POST', url: '/api/v1/job/add', status: 412, time: 2_000, contentType: 'application/json', digest: 'a', staleFields: { job_type: 'same' } })
  t.equal(evaluator.verdict().rules.find((r) => r.id === 'current-job-fields')?.outcome, 'pass', 'a value the client read as current is its own mistake')
  evaluator.observe({ ...base, id: 3, method: 'POST', url: '/api/v1/job/add', status: 412, time: 3_000, contentType: 'application/json', digest: 'b', staleFields: { job_industry: 'after' } })
  const rule = evaluator.verdict().rules.find((r) => r.id === 'current-job-fields')
  t.equal(rule?.outcome, 'fail')
  t.match(rule?.findings[0]?.message, /on job_industry: its values changed since the client last read job\/fields/)
  t.same(rule?.findings[0]?.requests, [3])
})
