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

t.test('an HTTP/1.1 request without a Host header answers 400 {status, message} over a socket, in and out of /api/v1', async (t) => {
  const { port } = await listening(t)
  for (const path of ['/__mock/clock', '/api/v1/metrics/list', '/jobs/1']) {
    const raw = await rawRequest(port, `GET ${path} HTTP/1.1\r\nAuthorization: ${BASIC}\r\n\r\n`)
    const answer = parseAnswer(raw)
    t.equal(answer.status, 400, path)
    t.match(answer.headers['content-type'], /application\/json/)
    t.equal(answer.headers.connection, 'close')
    t.same(JSON.parse(answer.body), { status: 400, message: 'The request has no Host header, which HTTP/1.1 requires.' })
  }
})

t.test('an HTTP/1.0 request without a Host header is answered as usual over a socket', async (t) => {
  const { port } = await listening(t)
  const answer = parseAnswer(await rawRequest(port, 'GET /__mock/clock HTTP/1.0\r\n\r\n'))
  t.equal(answer.status, 200)
  t.equal(JSON.parse(answer.body).mode, 'virtual')
})

t.test('an Expect header other than 100-continue answers 417 {status, message} over a socket', async (t) => {
  const { port } = await listening(t)
  const answer = parseAnswer(await rawRequest(port, 'GET /__mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\nConnection: close\r\n\r\n'))
  t.equal(answer.status, 417)
  t.match(answer.headers['content-type'], /application\/json/)
  catalogueBody(t, 417, JSON.parse(answer.body))
  t.match(JSON.parse(answer.body).message, /Expect/)
})

t.test('a CONNECT request answers 400 {status, message} over a socket instead of a dropped connection', async (t) => {
  const { port } = await listening(t)
  const answer = parseAnswer(await rawRequest(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'))
  t.equal(answer.status, 400)
  t.same(JSON.parse(answer.body), { status: 400, message: 'The fake is not a proxy: it answers no CONNECT request.' })
})

t.test('a request in a version Node does not speak answers 400 {status, message} over a socket', async (t) => {
  const { port } = await listening(t)
  for (const text of ['GET / HTTP/1.7\r\nHost: x\r\n\r\n', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']) {
    const answer = parseAnswer(await rawRequest(port, text))
    t.equal(answer.status, 400, JSON.stringify(text))
    catalogueBody(t, 400, JSON.parse(answer.body))
  }
})

t.test('a body that is not JSON answers 400 saying so', async (t) => {
  const app = await board(t)
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload: '{"job_title": ' })
  t.equal(answer.status, 400)
  t.equal(answer.body.message, 'The body is not valid JSON.')
  catalogueBody(t, 400, answer.body)
})

t.test('valid JSON with a __proto__, constructor or prototype key answers 412 naming the key and its path, not "not valid JSON"', async (t) => {
  const app = await board(t)
  const cases: Array<[string, string, string]> = [
    ['{"__proto__": {"polluted": 1}}', '__proto__', 'at the top level'],
    ['{"constructor": {"prototype": {"polluted": 1}}}', 'constructor', 'at the top level'],
    ['{"constructor": 1}', 'constructor', 'at the top level'],
    ['{"job_title": "x", "prototype": {}}', 'prototype', 'at the top level'],
    ['{"a": {"__proto__": {}}}', '__proto__', 'at a.__proto__'],
    ['{"job_benefits": [{"b": [{"prototype": 1}]}]}', 'prototype', 'at job_benefits[0].b[0].prototype'],
    ['{"\\u005f_proto__": {"polluted": 1}}', '__proto__', 'at the top level'],
    ['{"a": {"\\u0063onstructor": {}}}', 'constructor', 'at a.constructor'],
  ]
  for (const [payload, key, where] of cases) {
    const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload })
    t.equal(answer.status, 412, payload)
    t.notMatch(answer.body.message, /not valid JSON/)
    t.match(answer.body.message, `the key ${key} (${where})`, payload)
    catalogueBody(t, 412, answer.body)
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
})

t.test('the word constructor or prototype as a value, not a key, is taken', async (t) => {
  const app = await board(t)
  const answer = await app.inject({ method: 'POST', url: '/__mock/reset', headers: { 'content-type': 'application/json' }, payload: '{"scenario": "default", "seed": 7}' })
  t.equal(answer.statusCode, 200)
  const fault = await app.inject({
    method: 'POST',
    url: '/__mock/faults',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ path: '/api/v1/metrics/list', status: 500, body: { status: 500, message: 'constructor prototype __proto__' } }),
  })
  t.equal(fault.statusCode, 201, fault.body)
})

t.test('every control API door refuses a prototype key with the same 412, PUT /__mock/state included', async (t) => {
  const app = await board(t)
  const state = JSON.parse((await app.inject({ url: '/__mock/state' })).body) as { store: Record<string, unknown> }
  const bodies: Array<[string, string, string]> = [
    ['PUT', '/__mock/state', JSON.stringify(state).replace('"store":{', '"store":{"constructor":{"prototype":{"polluted":1}},')],
    ['PUT', '/__mock/state', JSON.stringify(state).replace('"store":{', '"store":{"__proto__":{"polluted":1},')],
    ['POST', '/__mock/reset', '{"prototype": {"polluted": 1}}'],
    ['POST', '/__mock/candidates', '{"name": "Ada", "constructor": {}}'],
    ['POST', '/__mock/faults', '{"path": "/api/v1/metrics/list", "status": 500, "body": {"constructor": {"prototype": {}}}}'],
    ['POST', '/__mock/clock/advance', '{"seconds": 60, "__proto__": {"seconds": 1}}'],
  ]
  const before = (await app.inject({ url: '/__mock/state' })).body
  for (const [method, url, payload] of bodies) {
    const answer = await app.inject({ method: method as 'PUT' | 'POST', url, headers: { 'content-type': 'application/json' }, payload })
    t.equal(answer.statusCode, 412, `${method} ${url}`)
    t.match(answer.json().message, /the key (__proto__|constructor|prototype) \(at /, `${method} ${url}`)
    catalogueBody(t, 412, answer.json())
  }
  t.equal((await app.inject({ url: '/__mock/state' })).body, before, 'the board is as it was')
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
