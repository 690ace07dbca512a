// The rate limit: each full request (method, path, query string, per credential) once
// per window; the next gets 429 with Retry-after; time comes from the virtual clock.
import t from 'tap'
import { AUTH, basic, board, call } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

const limited = (t: Parameters<typeof board>[0], options: Parameters<typeof board>[1] = {}) => board(t, { rateLimitWindow: 900, ...options })

t.test('answers the same URL twice with 429 and the seconds left in Retry-after', async (t) => {
  const app = await limited(t)
  t.equal((await call(app, '/api/v1/applications/list?page=2')).status, 200)
  app.board.clock.advance(100)
  const refused = await call(app, '/api/v1/applications/list?page=2')
  t.equal(refused.status, 429)
  t.equal(refused.headers['retry-after'], '800')
  t.match(refused.body, { status: 429, message: /retry after 800 seconds/ })
  app.board.clock.advance(799.5)
  t.equal((await call(app, '/api/v1/applications/list?page=2')).headers['retry-after'], '1', 'at least 1 second while the window is open')
})

t.test('counts other pages, paths, query values and methods separately', async (t) => {
  const app = await limited(t)
  for (const url of [
    '/api/v1/applications/list?page=1',
    '/api/v1/applications/list?page=2',
    '/api/v1/applications/list',
    '/api/v1/applications/list?page=1&since=2026-01-01+00:00',
    '/api/v1/candidates/resume/1',
    '/api/v1/candidates/document/1',
    '/api/v1/candidates/timesheet/1',
    '/api/v1/candidates/timesheets/download/1',
  ]) {
    t.equal((await call(app, url)).status, 200, url)
  }
  t.equal((await call(app, { method: 'HEAD', url: '/api/v1/candidates/resume/1' })).status, 200, 'HEAD is not GET')
})

t.test('lets the request through again once the window has passed', async (t) => {
  const app = await limited(t)
  await call(app, '/api/v1/metrics/list')
  const refused = await call(app, '/api/v1/metrics/list')
  app.board.clock.advance(Number(refused.headers['retry-after']))
  t.equal((await call(app, '/api/v1/metrics/list')).status, 200)
  t.equal((await call(app, '/api/v1/metrics/list')).status, 429, 'and that opens a new window')
})

t.test('refused requests do not restart the window', async (t) => {
  const app = await limited(t)
  await call(app, '/api/v1/metrics/list')
  for (let i = 0; i < 5; i++) {
    app.board.clock.advance(100)
    t.equal((await call(app, '/api/v1/metrics/list')).status, 429)
  }
  app.board.clock.advance(400)
  t.equal((await call(app, '/api/v1/metrics/list')).status, 200, '900 s after the first, not after the last refusal')
})

t.test('never answers 429 with a window of 0', async (t) => {
  const app = await board(t, { rateLimitWindow: 0 })
  for (let i = 0; i < 20; i++) t.equal((await call(app, '/api/v1/metrics/list')).status, 200)
})

t.test('limits two credentials separately', async (t) => {
  const app = await limited(t, {
    scenarioData: { name: 'two', counts: { candidates: 3, applications: 2, jobs: 1 }, credentials: [{ username: 'one', password: 'x' }, { username: 'two', password: 'y' }] },
  })
  const as = (user: string, password: string) => call(app, { url: '/api/v1/metrics/list', headers: { authorization: basic(user, password) } })
  t.equal((await as('one', 'x')).status, 200)
  t.equal((await as('two', 'y')).status, 200, "the other credential's window is its own")
  t.equal((await as('one', 'x')).status, 429)
  t.equal((await as('two', 'y')).status, 429)
})

t.test('counts writes: job/add twice in a window answers 429, whatever the body', async (t) => {
  const app = await limited(t)
  const add = (payload: object) => call(app, { method: 'POST', url: '/api/v1/job/add', payload })
  t.equal((await add(jobInputSample())).status, 200)
  const again = await add({ ...jobInputSample(), job_title: 'Another job' })
  t.equal(again.status, 429)
  t.ok(Number(again.headers['retry-after']) > 0)
  t.equal(app.board.store.jobs.size, app.board.scenario.counts.jobs + 1, 'the refused add added nothing')
})

t.test('counts failed answers by default, and not when told to count successes only', async (t) => {
  const strict = await limited(t)
  t.equal((await call(strict, '/api/v1/candidates/details/9999')).status, 404)
  t.equal((await call(strict, '/api/v1/candidates/details/9999')).status, 429, 'a 404 used up the window')
  const lenient = await limited(t, { rateLimitCounts: 'success' })
  t.equal((await call(lenient, '/api/v1/candidates/details/9999')).status, 404)
  t.equal((await call(lenient, '/api/v1/candidates/details/9999')).status, 404, 'a 404 gave its window back')
  t.equal((await call(lenient, '/api/v1/candidates/details/1')).status, 200)
  t.equal((await call(lenient, '/api/v1/candidates/details/1')).status, 429, 'a 200 did not')
})

t.test('does not count requests refused for their credentials', async (t) => {
  const app = await limited(t)
  t.equal((await app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic('jobboard', 'wrong') } })).statusCode, 401)
  t.equal((await app.inject({ url: '/api/v1/metrics/list', headers: AUTH })).statusCode, 200)
})

t.test('leaves public job pages unlimited', async (t) => {
  const app = await limited(t)
  for (let i = 0; i < 3; i++) t.equal((await app.inject('/jobs/999')).statusCode, 404)
})

t.test('takes its window from the scenario, and options over it', async (t) => {
  const scenario = await board(t, { scenarioData: { name: 'short', rateLimitWindow: 60, counts: { candidates: 1, applications: 0, jobs: 1 } }, rateLimitWindow: undefined })
  await call(scenario, '/api/v1/metrics/list')
  t.equal((await call(scenario, '/api/v1/metrics/list')).headers['retry-after'], '60')
})

t.test('keeps every open window while many thousands are open, and forgets closed ones', async (t) => {
  const app = await limited(t, { scenario: 'empty' })
  const limiter = app.board.limiter
  let admitted = 0
  for (let i = 0; i < 25_000; i++) if (limiter.admit(`key ${i}`).admitted) admitted += 1
  t.equal(admitted, 25_000, 'each new request admitted')
  t.equal(limiter.open().length, 25_000, 'all open')
  t.equal(limiter.admit('key 7').admitted, false, 'an early one is still refused')
  app.board.clock.advance(901)
  for (let i = 0; i < 25_000; i++) limiter.admit(`other ${i}`)
  t.equal(limiter.open().length, 25_000, 'the closed windows are gone, the new ones open')
  t.equal(limiter.admit('key 7').admitted, true, 'and a closed window admits again')
})

t.test('setting the clock back lifts no window', async (t) => {
  const app = await limited(t)
  await call(app, '/api/v1/metrics/list')
  app.board.clock.advance(-60)
  const refused = await call(app, '/api/v1/metrics/list')
  t.equal(refused.status, 429)
  t.equal(refused.headers['retry-after'], '960', 'the window still ends where it did')
})
