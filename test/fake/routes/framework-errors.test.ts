// Errors Fastify and Node's HTTP parser raise themselves (a bad URL, an over-long id,
// oversized headers, a body that is not JSON or too large) answer through the one
// handler: `{status, message}`, no internal code name, stack or file path, and under
// /api/v1 the credentials are checked first.
import t, { type Test } from 'tap'
import { AUTH, board, call } from '../../helpers/board.js'
import { listening, parseAnswer, rawRequest } from '../../helpers/socket.js'

const BASIC = AUTH.authorization

/** Only status and message, with status repeating the HTTP status, and nothing internal in them. */
function catalogueBody(t: Test, status: number, body: unknown): void {
  t.same(Object.keys(body as object).sort(), ['message', 'status'], 'the body is {status, message}')
  t.equal((body as { status: number }).status, status, 'status repeats the HTTP status')
  t.notMatch(JSON.stringify(body), /FST_|ERR_|HPE_|node_modules|\.ts:|\.js:|\n\s+at /, 'no internal code, stack or path')
}

t.test('a % that escapes nothing in a path under /api/v1 answers 401 without credentials', async (t) => {
  const app = await board(t)
  const answer = await app.inject({ url: '/api/v1/candidates/details/%zz' })
  t.equal(answer.statusCode, 401)
  t.match(String(answer.headers['www-authenticate']), /^Basic /)
  catalogueBody(t, 401, answer.json())
})

t.test('a % that escapes nothing in a path answers 400 {status, message} with credentials', async (t) => {
  const app = await board(t)
  const answer = await call(app, '/api/v1/candidates/details/%zz')
  t.equal(answer.status, 400)
  catalogueBody(t, 400, answer.body)
  t.match(answer.body.message, /not a valid URL/)
})

t.test('a % in a path outside /api/v1 answers 400 {status, message} without credentials', async (t) => {
  const app = await board(t)
  const answer = await app.inject({ url: '/jobs/%' })
  t.equal(answer.statusCode, 400)
  catalogueBody(t, 400, answer.json())
})

t.test('a 150-digit id answers 414 {status, message}, after the credentials', async (t) => {
  const app = await board(t)
  const url = `/api/v1/candidates/details/${'9'.repeat(150)}`
  t.equal((await app.inject({ url })).statusCode, 401, 'without credentials: 401')
  const answer = await call(app, url)
  t.equal(answer.status, 414)
  catalogueBody(t, 414, answer.body)
})

t.test('a 20 KB query string answers 431 {status, message} over a socket', async (t) => {
  const { port } = await listening(t)
  const raw = await rawRequest(port, `GET /api/v1/candidates/list?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC}\r\n\r\n`)
  const answer = parseAnswer(raw)
  t.equal(answer.status, 431)
  catalogueBody(t, 431, JSON.parse(answer.body))
})

t.test('a 64 KB header answers 431 {status, message} over a socket', async (t) => {
  const { port } = await listening(t)
  const raw = await rawRequest(port, `GET /api/v1/metrics/list HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(65_536)}\r\n\r\n`)
  const answer = parseAnswer(raw)
  t.equal(answer.status, 431)
  t.match(answer.headers['content-type'], /application\/json/)
  catalogueBody(t, 431, JSON.parse(answer.body))
})

t.test('a request line that is not HTTP answers 400 {status, message} over a socket', async (t) => {
  const { port } = await listening(t)
  const answer = parseAnswer(await rawRequest(port, 'HELLO\r\n\r\n'))
  t.equal(answer.status, 400)
  catalogueBody(t, 400, JSON.parse(answer.body))
})

t.test('a body that is not JSON answers 400 saying so', async (t) => {
  const app = await board(t)
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload: '{"job_title": ' })
  t.equal(answer.status, 400)
  t.equal(answer.body.message, 'The body is not valid JSON.')
  catalogueBody(t, 400, answer.body)
})

t.test('valid JSON with a __proto__ key answers 412 naming the key, not "not valid JSON"', async (t) => {
  const app = await board(t)
  for (const payload of ['{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": {"polluted": 1}}}', '{"a": {"__proto__": {}}}', '{"\\u005f_proto__": {"polluted": 1}}']) {
    const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload })
    t.equal(answer.status, 412, payload)
    t.notMatch(answer.body.message, /not valid JSON/)
    t.match(answer.body.message, /__proto__|constructor/)
    catalogueBody(t, 412, answer.body)
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
})

t.test('an empty JSON body answers 400 saying it is empty', async (t) => {
  const app = await board(t)
  const answer = await call(app, { method: 'POST', url: '/__mock/clock/advance', headers: { 'content-type': 'application/json' }, payload: '' })
  t.equal(answer.status, 400)
  t.match(answer.body.message, /empty/)
})

t.test('a body over 1 MiB answers 413 {status, message}', async (t) => {
  const app = await board(t)
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ job_title: 'x'.repeat(1_100_000) }) })
  t.equal(answer.status, 413)
  catalogueBody(t, 413, answer.body)
})

t.test('a body nested deeper than 64 levels answers 412', async (t) => {
  const app = await board(t)
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload: `{"job_benefits":${'['.repeat(100)}${']'.repeat(100)}}` })
  t.equal(answer.status, 412)
  t.match(answer.body.message, /nests deeper than 64/)
})
