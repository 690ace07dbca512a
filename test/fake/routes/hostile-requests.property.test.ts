// Properties over every API route with hostile paths, ids, query strings, headers and
// bodies: no 5xx (no fault asked for one), every error body is `{status, message}`,
// Object.prototype stays clean, and the fake still answers afterwards.
import fc from 'fast-check'
import t, { type Test } from 'tap'
import { AUTH, board, call } from '../../helpers/board.js'
import { headerValue, hostileString, hostileText, PROPERTY_SEED, prototypeClean } from '../../helpers/hostile.js'
import { listening, parseAnswer, rawRequest } from '../../helpers/socket.js'
import { runs } from '../../helpers/deep.js'

/** An answer fits the catalogue: below 500, and an error carries exactly {status, message}. */
function fits(t: Test, what: string, status: number, type: unknown, body: string): boolean {
  if (status >= 500) return t.fail(`${what} → ${status}: ${body.slice(0, 200)}`)
  if (status < 400) return true
  if (!/json/.test(String(type ?? ''))) return t.fail(`${what} → ${status} without a JSON body`)
  const parsed = JSON.parse(body) as Record<string, unknown>
  const keys = Object.keys(parsed).sort().join(',')
  if (keys !== 'message,status' || parsed.status !== status || typeof parsed.message !== 'string' || parsed.message === '') {
    return t.fail(`${what} → ${status} with body ${body.slice(0, 200)}`)
  }
  return true
}
/** Percent-encodes any string, lone surrogates included (as U+FFFD). */
const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))

const routes = (app: Awaited<ReturnType<typeof board>>) => app.endpoints.filter((e) => e.url.startsWith('/api/v1/') && e.method !== 'HEAD')

t.test('no hostile path, id or query string makes any API route answer 5xx or leave the catalogue', async (t) => {
  const app = await board(t)
  const endpoints = routes(app)
  let failures = 0
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...endpoints),
      hostileString,
      fc.array(fc.tuple(hostileString, hostileString), { maxLength: 3 }),
      fc.boolean(),
      async (endpoint, id, query, percentEncode) => {
        // the raw path keeps what a client could send unencoded: no controls, spaces, non-ASCII, # or ?
        // biome-ignore lint/suspicious/noControlCharactersInRegex: it removes control characters on purpose
        const segment = percentEncode ? encode(id) : id.replace(/[\u0000-\u0020\u007f-\uffff#?]/g, '')
        const path = endpoint.url.replace(':id', segment)
        const search = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')
        const answer = await app.inject({ method: endpoint.method as 'GET', url: `${path}${search ? `?${search}` : ''}`, headers: AUTH })
        if (!fits(t, `${endpoint.method} ${path}`, answer.statusCode, answer.headers['content-type'], answer.body)) failures += 1
      },
    ),
    { numRuns: runs(300), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0, 'every answer fits the catalogue')
  t.ok(prototypeClean(), 'Object.prototype is unpolluted')
  t.equal((await call(app, '/api/v1/metrics/list')).status, 200, 'the fake still answers')
})

t.test('no hostile header makes any API route answer 5xx or leave the catalogue', async (t) => {
  const app = await board(t)
  const endpoints = routes(app)
  let failures = 0
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...endpoints),
      fc.dictionary(fc.constantFrom('authorization', 'prefer', 'content-type', 'host', 'x-forwarded-host', 'x-jobboard-kit-origin', 'accept', 'x-any'), headerValue, { maxKeys: 4 }),
      async (endpoint, headers) => {
        const answer = await app.inject({ method: endpoint.method as 'GET', url: endpoint.url.replace(':id', '1'), headers })
        if (!fits(t, `${endpoint.method} ${endpoint.url} ${JSON.stringify(headers)}`, answer.statusCode, answer.headers['content-type'], answer.body)) failures += 1
      },
    ),
    { numRuns: runs(200), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0, 'every answer fits the catalogue')
})

t.test('no hostile body makes a POST route answer 5xx, and a refused body changes nothing', async (t) => {
  const app = await board(t)
  const posts = routes(app).filter((e) => e.method === 'POST')
  let failures = 0
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...posts), hostileText, async (endpoint, payload) => {
      const before = JSON.stringify(app.controller.exportState())
      const answer = await app.inject({ method: 'POST', url: endpoint.url, headers: { ...AUTH, 'content-type': 'application/json' }, payload })
      if (!fits(t, `POST ${endpoint.url} ${payload.slice(0, 80)}`, answer.statusCode, answer.headers['content-type'], answer.body)) failures += 1
      if (answer.statusCode >= 400 && JSON.stringify(app.controller.exportState()) !== before) failures += t.fail(`POST ${endpoint.url} refused but changed the board`) ? 0 : 1
    }),
    { numRuns: runs(250), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0)
  t.ok(prototypeClean(), 'Object.prototype is unpolluted')
  t.equal((await call(app, '/api/v1/job/fields')).status, 200, 'the fake still answers')
})

t.test('no hostile request line or header over a socket gets a 5xx or a body outside the catalogue', async (t) => {
  const { port } = await listening(t)
  let failures = 0
  const unit = fc.constantFrom('a', '/', '%', ' ', '?', '=', '\u0000', '\u007f', '\u00ff', ':', 'H', '\t')
  await fc.assert(
    fc.asyncProperty(fc.string({ unit, maxLength: 40 }), fc.string({ unit, maxLength: 40 }), async (target, header) => {
      const raw = await rawRequest(port, `GET /api/v1/${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\nX-Odd: ${header}\r\nConnection: close\r\n\r\n`)
      if (raw === '') return
      const answer = parseAnswer(raw)
      if (!fits(t, `GET /api/v1/${JSON.stringify(target)}`, answer.status, answer.headers['content-type'], answer.body)) failures += 1
    }),
    { numRuns: runs(60), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0)
  const after = await fetch(`http://127.0.0.1:${port}/api/v1/metrics/list`, { headers: AUTH })
  t.equal(after.status, 200, 'the fake still answers over its socket')
})
