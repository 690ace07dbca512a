// Prefer: code=NNN answers that status once, as the route documents it, without
// touching the board or the rate limit; --prefer off ignores the header.
import t from 'tap'
import { board, call } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

t.test('answers each documented status with its JSON body and headers', async (t) => {
  const app = await board(t, { rateLimitWindow: 900 })
  const ask = (code: string, url = '/api/v1/candidates/details/1') => call(app, { url, headers: { prefer: `code=${code}` } })
  const unauthorized = await ask('401')
  t.equal(unauthorized.status, 401)
  t.match(unauthorized.headers['www-authenticate'], /^Basic realm="jobboard-kit"/)
  t.same((await ask('404')).body, { status: 404, message: 'The record was not found (asked for with Prefer: code=404).' })
  t.equal((await ask('412')).body.status, 412)
  const limited = await ask('429')
  t.equal(limited.status, 429)
  t.equal(limited.headers['retry-after'], '900', 'the window when no retry-after is asked for')
  t.equal((await call(app, { url: '/api/v1/candidates/details/2', headers: { prefer: 'code=429; retry-after=5' } })).headers['retry-after'], '5')
  t.equal((await ask('500')).status, 500)
  const unavailable = await ask('503')
  t.equal(unavailable.status, 503)
  t.ok(unavailable.headers['retry-after'])
  t.equal((await call(app, '/api/v1/candidates/details/1')).status, 200, 'none of them used up the window')
})

t.test('refuses a status the route does not document, naming those it does', async (t) => {
  const app = await board(t)
  const answer = await call(app, { url: '/api/v1/metrics/list', headers: { prefer: 'code=404' } })
  t.equal(answer.status, 400)
  t.equal(answer.body.message, 'Prefer: code=404 is not an answer GET /api/v1/metrics/list documents; it documents 400, 401, 429, 500, 503.')
  const job = await call(app, { method: 'POST', url: '/api/v1/job/close', payload: { id: 1 }, headers: { prefer: 'code=404' } })
  t.equal(job.status, 404, 'job/close documents 404 for an unknown id')
  const add = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: jobInputSample(), headers: { prefer: 'code=412' } })
  t.equal(add.status, 412)
  t.equal(app.board.store.jobs.size, app.board.scenario.counts.jobs, 'and added nothing')
  t.equal((await call(app, { url: '/api/v1/metrics/list', headers: { prefer: 'code=abc' } })).status, 400)
})

t.test('answers 413 on a route that takes a body, as a body too large would', async (t) => {
  const app = await board(t)
  const add = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: jobInputSample(), headers: { prefer: 'code=413' } })
  t.same(add.body, { status: 413, message: 'The body is too large (asked for with Prefer: code=413).' })
  t.equal((await call(app, { url: '/api/v1/metrics/list', headers: { prefer: 'code=413' } })).status, 400, 'and not on one without')
})

t.test('still asks for credentials first', async (t) => {
  const app = await board(t)
  t.equal((await app.inject({ url: '/api/v1/metrics/list', headers: { prefer: 'code=500' } })).statusCode, 401)
})

t.test('ignores the header when told to', async (t) => {
  const app = await board(t, { prefer: false })
  t.equal((await call(app, { url: '/api/v1/metrics/list', headers: { prefer: 'code=503' } })).status, 200)
})

t.test('leaves other preferences alone', async (t) => {
  const app = await board(t)
  t.equal((await call(app, { url: '/api/v1/metrics/list', headers: { prefer: 'return=minimal' } })).status, 200)
})
