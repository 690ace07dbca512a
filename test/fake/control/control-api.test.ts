// The control API over a real socket, as a consumer's test suite uses it: time, records,
// the journal, faults, reset and state, outside the API's auth and rate limit.
import http from 'node:http'
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../../src/fake/server.js'
import type { BoardState } from '../../../src/core/types.js'
import { checked, type Json } from '../../helpers/board.js'

const AUTH = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

async function served(t: Test, options: Parameters<typeof createMockServer>[0] = {}): Promise<{ mock: MockServer; url: string }> {
  const mock = await createMockServer({ clock: 'virtual', ...checked(t), ...options })
  const url = await mock.listen(0)
  t.teardown(() => mock.close())
  return { mock, url }
}

const json = async (url: string, init: RequestInit = {}) => {
  const type: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' }
  const response = await fetch(url, { ...init, headers: { ...type, ...((init.headers as Record<string, string>) ?? {}) } })
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json }
}
const post = (url: string, body: unknown = {}) => json(url, { method: 'POST', body: JSON.stringify(body) })

t.test('a request refused with 429 succeeds after advancing the clock by its Retry-after', async (t) => {
  const { url } = await served(t)
  t.equal((await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })).status, 200)
  const refused = await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })
  t.equal(refused.status, 429)
  const wait = Number(refused.headers.get('retry-after'))
  t.equal(wait, 900)
  const clock = await post(`${url}/__mock/clock/advance`, { seconds: wait })
  t.same(clock.body, { status: 200, now: '2026-11-22 09:45:00', mode: 'virtual' })
  t.equal((await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })).status, 200)
})

t.test('the clock stands still until told, and can be set', async (t) => {
  const { url } = await served(t)
  t.same((await json(`${url}/__mock/clock`)).body, { status: 200, now: '2026-11-22 09:30:00', mode: 'virtual' })
  t.same((await json(`${url}/__mock/clock`)).body.now, '2026-11-22 09:30:00', 'still')
  t.equal((await post(`${url}/__mock/clock/set`, { now: '2027-03-01 08:00:00' })).body.now, '2027-03-01 08:00:00')
  const bad = await post(`${url}/__mock/clock/set`, { now: '2027-03-01T08:00:00Z' })
  t.equal(bad.status, 412)
  t.match(bad.body.message, /now/)
})

t.test('a record added through the control API shows up in since, in its candidate and in metrics', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  await post(`${url}/__mock/clock/set`, { now: '2026-12-03 10:00:00' })
  const candidate = await post(`${url}/__mock/candidates`, { name: 'Ada Lovelace', city: 'London' })
  t.equal(candidate.status, 201)
  t.match(candidate.body.data, { id: candidate.body.id, name: 'Ada Lovelace', city: 'London', created_at: '2026-12-03 10:00:00', email: /^ada\.lovelace/ })
  await post(`${url}/__mock/clock/advance`, { seconds: 60 })
  const application = await post(`${url}/__mock/applications`, { candidate_id: candidate.body.id, job_id: 3 })
  t.equal(application.status, 201)
  t.match(application.body.data, { created_at: '2026-12-03 10:01:00', applicant: { name: 'Ada Lovelace' }, vacancy: { id: 3 } })

  const since = await json(`${url}/api/v1/applications/list?since=2026-12-03+10:00`, { headers: AUTH })
  t.same(since.body.data.map((a: { id: number }) => a.id), [application.body.id], 'a since sync picks it up')
  const candidates = await json(`${url}/api/v1/candidates/list?since=2026-12-03+10:01`, { headers: AUTH })
  t.same(candidates.body.data.map((c: { id: number }) => c.id), [candidate.body.id], 'the candidate changed with it')
  const entry = candidates.body.data[0].applications[0]
  t.equal(entry.href, `${url}/api/v1/applications/details/${application.body.id}`, "the candidate's links point at it")
  t.equal((await fetch(entry.href, { headers: AUTH })).status, 200, 'and resolve')
  const metrics = (await json(`${url}/api/v1/metrics/list`, { headers: AUTH })).body.metrics
  const december = (label: string) => metrics.find((m: { label: string }) => m.label === label).aggregations[0]
  t.same(december('Applications'), { year: '2026', month: 'December', total: 1 })
  t.same(december('Registrations'), { year: '2026', month: 'December', total: 1 })

  const timesheet = await post(`${url}/__mock/timesheets`, { candidate_id: candidate.body.id, filename: 'week-49.xlsx', filesize: 4096 })
  const download = await fetch(timesheet.body.data.attachment.href, { headers: AUTH })
  t.equal(download.headers.get('content-length'), '4096')
  t.equal(download.headers.get('content-disposition'), 'attachment; filename="week-49.xlsx"')
  const consent = await post(`${url}/__mock/marketing`, { candidate_id: candidate.body.id, action: 'Approved' })
  t.match(consent.body.data, { candidate: { id: candidate.body.id }, action: 'Approved' })
  const details = (await json(`${url}/api/v1/candidates/details/${candidate.body.id}`, { headers: AUTH })).body.data[0]
  t.equal(details.marketing_opted_in, 1)
  t.equal(details.timesheets[0].filename, 'week-49.xlsx')
  const stranger = await post(`${url}/__mock/marketing`, { email: 'nobody@example.org', action: 'Revoked' })
  t.equal(stranger.body.data.candidate.id, 0, 'an e-mail with no account gets id 0')
})

t.test('refuses records that do not fit the board, with a reason', async (t) => {
  const { url } = await served(t)
  const orphan = await post(`${url}/__mock/applications`, { candidate_id: 99999 })
  t.equal(orphan.status, 409)
  t.match(orphan.body.message, /Candidate 99999 does not exist/)
  const bad = await post(`${url}/__mock/candidates`, { email: 'not an email' })
  t.equal(bad.status, 412)
  t.match(bad.body.message, /email/)
  const taken = await post(`${url}/__mock/candidates`, { id: 1 })
  t.equal(taken.status, 409)
})

t.test('the journal lists the requests made, filtered by path, and can be emptied', async (t) => {
  const { url } = await served(t)
  await fetch(`${url}/api/v1/candidates/list?page=2`, { headers: AUTH })
  await fetch(`${url}/api/v1/applications/list`)
  await fetch(`${url}/api/v1/candidates/details/4`, { headers: AUTH })
  const all = (await json(`${url}/__mock/requests`)).body
  t.equal(all.total, 3)
  t.same(all.data[0], { id: 1, method: 'GET', url: '/api/v1/candidates/list?page=2', status: 200, time: '2026-11-22 09:30:00', user: 'jobboard', nextPage: false })
  t.match(all.data[1], { url: '/api/v1/applications/list', status: 401, user: '' })
  const candidates = (await json(`${url}/__mock/requests?path=/api/v1/candidates`)).body
  t.same(candidates.data.map((e: { url: string }) => e.url), ['/api/v1/candidates/list?page=2', '/api/v1/candidates/details/4'])
  t.equal((await json(`${url}/__mock/requests`, { method: 'DELETE' })).status, 200)
  t.equal((await json(`${url}/__mock/requests`)).body.total, 0)
})

t.test('a status fault answers that status and body, once by default', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  const armed = await post(`${url}/__mock/faults`, { path: '/api/v1/metrics/list', status: 503, body: { error: 'maintenance' }, headers: { 'retry-after': '30' } })
  t.equal(armed.status, 201)
  const failed = await fetch(`${url}/api/v1/metrics/list`, { headers: AUTH })
  t.equal(failed.status, 503)
  t.equal(failed.headers.get('retry-after'), '30')
  t.same(await failed.json(), { error: 'maintenance' })
  t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: AUTH })).status, 200, 'then the real answer')
  await post(`${url}/__mock/faults`, { method: 'GET', path: '/api/v1/candidates/*', status: 500, times: 2 })
  t.equal((await fetch(`${url}/api/v1/candidates/details/1`, { headers: AUTH })).status, 500, 'a wildcard path')
  t.equal((await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })).status, 500, 'twice')
  t.equal((await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })).status, 200)
  t.match((await json(`${url}/__mock/requests`)).body.data[0], { status: 503, fault: 'status 503' }, 'the journal says what happened')
})

t.test('a delay fault holds the answer back', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  // held for ten minutes, then released by clearing the faults (a delay that runs out by
  // itself is in test/routes/timeouts.test.ts): no test waits for a delay to pass
  await post(`${url}/__mock/faults`, { path: '/api/v1/metrics/list', delayMs: 600_000 })
  const order: string[] = []
  const slow = fetch(`${url}/api/v1/metrics/list`, { headers: AUTH }).then((r) => order.push(`slow ${r.status}`))
  await fetch(`${url}/api/v1/job/fields`, { headers: AUTH }).then((r) => order.push(`quick ${r.status}`))
  t.same(order, ['quick 200'], 'a request made after it is answered while it is held')
  t.equal((await fetch(`${url}/__mock/faults`, { method: 'DELETE' })).status, 200)
  await slow
  t.same(order, ['quick 200', 'slow 200'], 'a request made after it is answered before it')
  await post(`${url}/__mock/faults`, { path: '/api/v1/metrics/list', delayMs: 5000 })
  await t.rejects(fetch(`${url}/api/v1/metrics/list`, { headers: AUTH, signal: AbortSignal.timeout(300) }), 'a client with a short timeout gives up')
})

t.test('a drop fault closes the connection without an answer', async (t) => {
  const { url } = await served(t)
  await post(`${url}/__mock/faults`, { path: '/api/v1/metrics/list', drop: true, times: 2 })
  await t.rejects(fetch(`${url}/api/v1/metrics/list`, { headers: AUTH }), { message: 'fetch failed' })
  await t.rejects(
    new Promise((resolve, reject) => http.get(`${url}/api/v1/metrics/list`, { headers: AUTH }, resolve).on('error', reject)),
    { code: 'ECONNRESET' },
  )
  t.match((await json(`${url}/__mock/requests`)).body.data[0], { status: 0, fault: 'drop' })
})

t.test('a truncate fault sends the answer cut off short of its Content-Length', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  await post(`${url}/__mock/faults`, { path: '/api/v1/candidates/resume/1', truncate: true, times: 2 })
  const response = await fetch(`${url}/api/v1/candidates/resume/1`, { headers: AUTH })
  t.equal(response.status, 200, 'the status and headers arrive')
  t.ok(Number(response.headers.get('content-length')) > 0)
  await t.rejects(response.arrayBuffer(), 'reading the body fails')
  const received = await new Promise<{ length: number; aborted: boolean }>((resolve) => {
    http.get(`${url}/api/v1/candidates/resume/1`, { headers: AUTH }, (r) => {
      let length = 0
      r.on('data', (c: Buffer) => (length += c.length))
      r.on('error', () => resolve({ length, aborted: true }))
      r.on('end', () => resolve({ length, aborted: false }))
    })
  })
  t.ok(received.aborted, 'node:http sees the response aborted')
  const full = await fetch(`${url}/api/v1/candidates/resume/1`, { headers: AUTH })
  t.ok(received.length < Number(full.headers.get('content-length')), 'having received less than the whole file')
})

t.test('faults can be listed and disarmed', async (t) => {
  const { url } = await served(t)
  await post(`${url}/__mock/faults`, { path: '/api/v1/metrics/list', status: 500, times: 3 })
  t.match((await json(`${url}/__mock/faults`)).body, { total: 1, data: [{ path: '/api/v1/metrics/list', remaining: 3 }] })
  await json(`${url}/__mock/faults`, { method: 'DELETE' })
  t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: AUTH })).status, 200)
  const bad = await post(`${url}/__mock/faults`, { path: 'no-slash', status: 999 })
  t.equal(bad.status, 412)
})

t.test('reset gives a fresh board, clock, rate limit and journal, or another scenario', async (t) => {
  const { url } = await served(t)
  await post(`${url}/__mock/candidates`, {})
  await post(`${url}/__mock/clock/advance`, { seconds: 3600 })
  await fetch(`${url}/api/v1/metrics/list`, { headers: AUTH })
  const reset = await post(`${url}/__mock/reset`)
  t.same(reset.body, { status: 200, scenario: 'default', seed: 20261122, now: '2026-11-22 09:30:00' })
  t.equal((await json(`${url}/api/v1/candidates/list`, { headers: AUTH })).body.total, 48, 'the added candidate is gone')
  t.equal((await json(`${url}/__mock/requests`)).body.total, 1, 'the journal starts again')
  t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: AUTH })).status, 200, 'the window is closed again')
  const other = await post(`${url}/__mock/reset`, { scenario: 'empty' })
  t.equal(other.body.scenario, 'empty')
  t.equal((await json(`${url}/api/v1/job/fields`, { headers: AUTH })).status, 200)
  t.equal((await json(`${url}/api/v1/candidates/list?page=1`, { headers: AUTH })).body.total, 0)
  const bad = await post(`${url}/__mock/reset`, { scenario: 'no-such-board' })
  t.equal(bad.status, 412)
  t.match(bad.body.message, /no-such-board/)
  t.equal((await json(`${url}/__mock/rate-limits`)).status, 200)
})

t.test('export then import gives back byte-identical list answers', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  await post(`${url}/__mock/clock/advance`, { seconds: 86_400 })
  await post(`${url}/__mock/candidates`, { name: 'Grace Hopper' })
  await post(`${url}/__mock/applications`, {})
  await fetch(`${url}/api/v1/job/close`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ id: 2 }) })
  const urls = ['/api/v1/candidates/list', '/api/v1/candidates/list?page=2', '/api/v1/applications/list', '/api/v1/timesheets/list?page=2', '/api/v1/marketing/list', '/api/v1/metrics/list', '/jobs/2']
  const read = async () => Promise.all(urls.map(async (u) => Buffer.from(await (await fetch(`${url}${u}`, { headers: AUTH })).arrayBuffer())))
  const before = await read()
  const state = await (await fetch(`${url}/__mock/state`)).text()
  await post(`${url}/__mock/reset`, { scenario: 'empty' })
  t.notOk((await read())[0]?.equals(before[0] as Buffer), 'the board changed in between')
  const restored = await json(`${url}/__mock/state`, { method: 'PUT', body: state })
  t.equal(restored.status, 200)
  const after = await read()
  for (const [i, u] of urls.entries()) t.ok(after[i]?.equals(before[i] as Buffer), `${u} is byte-identical`)
  t.equal((await json(`${url}/__mock/clock`)).body.now, '2026-11-23 09:30:00', 'the clock came back too')
  const again = await post(`${url}/__mock/candidates`, {})
  t.equal(again.body.id, 50, 'and the board goes on from where it was')
})

t.test('refuses a state that is not one, and keeps the board', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  const state = (await (await fetch(`${url}/__mock/state`)).json()) as BoardState
  for (const [why, bad] of [
    ['not a state', { hello: 'world' }],
    ['a broken record', { ...state, store: { ...state.store, candidates: [{ ...state.store.candidates[0], email: 'nope' }] } }],
    ['an application of nobody', { ...state, store: { ...state.store, candidates: [] } }],
  ] as const) {
    const answer = await json(`${url}/__mock/state`, { method: 'PUT', body: JSON.stringify(bad) })
    t.equal(answer.status, 412, why)
    t.match(answer.body.message, /state is invalid/, `${why}: says so`)
  }
  t.equal((await json(`${url}/api/v1/candidates/list`, { headers: AUTH })).body.total, 48, 'the board is as it was')
})

t.test('is not behind Basic auth nor the rate limit, and can be turned off', async (t) => {
  const { url } = await served(t)
  for (let i = 0; i < 3; i++) t.equal((await fetch(`${url}/__mock/clock`)).status, 200)
  const off = await served(t, { control: false })
  t.equal((await fetch(`${off.url}/__mock/clock`)).status, 404)
})

t.test('needs the token when one is set', async (t) => {
  const { url } = await served(t, { controlToken: 'sesame-sesame' })
  const refused = await fetch(`${url}/__mock/clock`)
  t.equal(refused.status, 401)
  t.match(await refused.json(), { status: 401, message: /control token/ })
  t.equal((await fetch(`${url}/__mock/clock`, { headers: { authorization: 'Bearer wrong-token' } })).status, 401)
  t.equal((await fetch(`${url}/__mock/clock`, { headers: { authorization: 'Bearer sesame-sesame' } })).status, 200)
})

t.test('refuses to start on a non-loopback host without a token', async (t) => {
  for (const host of ['0.0.0.0', '::', '192.168.1.10', 'board.internal']) {
    const mock = await createMockServer({ host })
    await t.rejects(mock.listen(0), { name: 'ServerError', message: /control token/ }, host)
    await mock.close()
  }
  const closed = await createMockServer({ host: '0.0.0.0', control: false })
  t.teardown(() => closed.close())
  t.equal(closed.options.control, false, 'without the control API the host needs no token')
})

t.test('GET /__mock indexes both APIs from their routes', async (t) => {
  const { url } = await served(t, { scenario: 'empty' })
  const index = (await json(`${url}/__mock`)).body
  for (const route of ['POST /__mock/reset', 'GET /__mock/state', 'PUT /__mock/state', 'POST /__mock/faults']) t.ok(index.control.includes(route), route)
  t.ok(index.api.includes('POST /api/v1/job/add'))
  t.equal(index.api.length, 18, 'every API endpoint of the spec')
})

t.test('a board saved on one server restores on another with working links', async (t) => {
  const one = await served(t, { rateLimitWindow: 0 })
  const two = await served(t, { rateLimitWindow: 0, scenario: 'empty' })
  const state = await (await fetch(`${one.url}/__mock/state`)).text()
  t.notMatch(state, one.url, 'the saved board holds no server address')
  t.equal((await json(`${two.url}/__mock/state`, { method: 'PUT', body: state })).status, 200)
  const list = (await json(`${two.url}/api/v1/applications/list`, { headers: AUTH })).body
  t.ok(list.data[0].href.startsWith(`${two.url}/`), 'links lead to the server it was restored on')
  t.equal((await fetch(list.data[0].href, { headers: AUTH })).status, 200)
})

t.test('a reset after a restore rebuilds the restored scenario', async (t) => {
  const edge = await served(t, { scenario: 'edge-cases' })
  const plain = await served(t)
  const state = await (await fetch(`${edge.url}/__mock/state`)).text()
  await json(`${plain.url}/__mock/state`, { method: 'PUT', body: state })
  t.match((await post(`${plain.url}/__mock/reset`)).body, { scenario: 'edge-cases', seed: 404 })
})

t.test('the journal records answers cut short and requests the client gave up on', async (t) => {
  const { mock, url } = await served(t, { rateLimitWindow: 0 })
  await post(`${url}/__mock/faults`, { path: '/api/v1/candidates/resume/1', truncate: true })
  await fetch(`${url}/api/v1/candidates/resume/1`, { headers: AUTH }).then((r) => r.arrayBuffer()).catch(() => undefined)
  await post(`${url}/__mock/faults`, { path: '/api/v1/metrics/list', delayMs: 1000 })
  await fetch(`${url}/api/v1/metrics/list`, { headers: AUTH, signal: AbortSignal.timeout(200) }).catch(() => undefined)
  // the journal hears of the closed connection as the socket closes: wait for it, not for a time
  for (let i = 0; i < 100 && mock.journal.list().length < 2; i++) await new Promise((resolve) => setImmediate(resolve))
  const entries = (await json(`${url}/__mock/requests`)).body.data
  t.match(entries, [
    { url: '/api/v1/candidates/resume/1', status: 200, fault: 'truncate' },
    { url: '/api/v1/metrics/list', status: 0, fault: 'delay 1000 ms' },
  ])
})

t.test('refuses faults that would break the fake itself', async (t) => {
  const { url } = await served(t)
  for (const fault of [
    { path: '/api/v1/metrics/list', status: 101 },
    { path: '/api/v1/metrics/list', status: 503, headers: { 'bad header': 'x' } },
    { path: '/api/v1/metrics/list', status: 503, headers: { 'x-ok': 'line\r\nbreak' } },
  ]) {
    t.equal((await post(`${url}/__mock/faults`, fault)).status, 412, JSON.stringify(fault))
  }
})

t.test('marketing added with a past time lists in time order, and id and e-mail must agree', async (t) => {
  const { url } = await served(t, { rateLimitWindow: 0 })
  await post(`${url}/__mock/marketing`, { email: 'old@example.org', action: 'Approved', created_at: '2025-01-01 00:00:00' })
  const first = (await json(`${url}/api/v1/marketing/list`, { headers: AUTH })).body.data[0]
  t.not(first.candidate.email, 'old@example.org', 'a record from the past is not listed first')
  const candidate = (await json(`${url}/api/v1/candidates/details/3`, { headers: AUTH })).body.data[0]
  const zero = await post(`${url}/__mock/marketing`, { candidate_id: 0, email: candidate.email })
  t.equal(zero.status, 409)
  t.match(zero.body.message, /belongs to candidate 3/)
  t.equal((await post(`${url}/__mock/marketing`, { candidate_id: 4, email: candidate.email })).status, 409)
})

t.test('answers 409, not 500, when no id is left', async (t) => {
  const { url } = await served(t)
  t.equal((await post(`${url}/__mock/candidates`, { id: 2147483647 })).status, 201)
  const full = await post(`${url}/__mock/candidates`, {})
  t.equal(full.status, 409)
  t.match(full.body.message, /No candidate id is left/)
})

t.test('refuses a state with links that lead nowhere or labels it does not know', async (t) => {
  const { url } = await served(t)
  const state = (await (await fetch(`${url}/__mock/state`)).json()) as BoardState
  const entry = state.store.candidates.find((c) => c.applications.length > 0)?.applications[0]
  if (!entry) throw new Error('the default board has no candidate with an application')
  entry.href = entry.href.replace(/\d+$/, '999999')
  const broken = await json(`${url}/__mock/state`, { method: 'PUT', body: JSON.stringify(state) })
  t.equal(broken.status, 412)
  t.match(broken.body.message, /not one of their applications/)
  const fresh = (await (await fetch(`${url}/__mock/state`)).json()) as BoardState
  fresh.store.metrics.counts['Made up'] = { '2026-01': 1 }
  t.equal((await json(`${url}/__mock/state`, { method: 'PUT', body: JSON.stringify(fresh) })).status, 412)
})
