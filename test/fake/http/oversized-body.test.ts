// A body over its limit, sent over a real socket by a client that writes its whole
// request before it reads the answer (as Python's http.client does) or that reads while
// it writes (fetch): the 413 {status, message} reaches it, saying the limit, instead of a
// reset (EPIPE, ECONNRESET); with a Content-Length and chunked, and the kept-alive
// connection then answers the next request. A client that stops sending is closed after
// the drain's idle time; a rest beyond the drain's bytes (1 GiB): test/slow/drain-bound.test.ts.
import t, { type Test } from 'tap'
import { DRAIN_IDLE_MS } from '../../../src/fake/http/drain.js'
import { AUTH } from '../../helpers/board.js'
import { type Exchange, jsonPieces, lengthOf, listening, sendAll } from '../../helpers/socket.js'

const MiB = 1_048_576
const JOB_ADD = `POST /api/v1/job/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\n`
const PUT_STATE = 'PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
const NEXT_API = `GET /api/v1/metrics/list HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`
const NEXT_CONTROL = 'GET /__mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

const check413 = (t: Test, exchange: Exchange, limit: RegExp | string) => {
  t.equal(exchange.error, undefined, 'no reset: every byte was written and the answer read')
  const [refusal] = exchange.answers
  t.equal(refusal?.status, 413, 'the first answer is the 413')
  const body = JSON.parse(refusal?.body ?? '{}') as { status?: number; message?: string }
  t.same(Object.keys(body).sort(), ['message', 'status'])
  t.equal(body.status, 413)
  t.match(body.message, limit, 'the message says the limit')
}

t.test('a 10 MB job/add with a Content-Length reads 413 naming the 1 MiB limit, and the connection answers the next request', async (t) => {
  const { port } = await listening(t)
  const pieces = jsonPieces(10_000_000)
  const exchange = await sendAll(port, JOB_ADD, pieces, { next: NEXT_API })
  check413(t, exchange, `The body is too large: ${lengthOf(pieces)} bytes, over the limit of 1048576 bytes (1 MiB) that POST /api/v1/job/add reads.`)
  t.equal(exchange.answers[1]?.status, 200, 'the next request on the same connection is answered')
  t.match(JSON.parse(exchange.answers[1]?.body ?? '{}'), { status: 200 })
})

t.test('a chunked 10 MB job/add reads 413 naming the limit, and the connection answers the next request', async (t) => {
  const { port } = await listening(t)
  const exchange = await sendAll(port, JOB_ADD, jsonPieces(10_000_000), { chunked: true, next: NEXT_API })
  check413(t, exchange, 'The body is too large: over the limit of 1048576 bytes (1 MiB) that POST /api/v1/job/add reads.')
  t.equal(exchange.answers[1]?.status, 200, 'the next request on the same connection is answered')
})

t.test('a state over --state-body-limit reads 413 naming the limit, with a Content-Length and chunked, and the next request is answered', async (t) => {
  const { app, port } = await listening(t, { stateBodyLimit: MiB })
  const before = (await app.inject({ url: '/__mock/state' })).body
  const pieces = jsonPieces(6 * MiB)
  for (const chunked of [false, true]) {
    const exchange = await sendAll(port, PUT_STATE, pieces, { chunked, next: NEXT_CONTROL })
    check413(t, exchange, 'over the state body limit of 1048576 bytes (1 MiB): start the fake with --state-body-limit')
    t.equal(exchange.answers[1]?.status, 200, `${chunked ? 'chunked' : 'Content-Length'}: the next request on the same connection is answered`)
  }
  t.equal((await app.inject({ url: '/__mock/state' })).body, before, 'the board is unchanged')
})

t.test('a 64 MiB state, written whole before the answer is read, reads its 413 with a Content-Length and chunked, kept alive or with Connection: close', async (t) => {
  const { app, port } = await listening(t)
  const before = (await app.inject({ url: '/__mock/state' })).body
  // 64 MiB of text in the JSON: the body is a little over 64 MiB, four times the default state body limit
  const pieces = jsonPieces(64 * MiB)
  for (const close of [false, true]) {
    for (const chunked of [false, true]) {
      const head = close ? `${PUT_STATE}Connection: close\r\n` : PUT_STATE
      // with Connection: close, no number of answers is enough: it waits for the fake to end the connection
      const exchange = await sendAll(port, head, pieces, { chunked, ...(close ? { want: Number.POSITIVE_INFINITY } : { next: NEXT_CONTROL }) })
      const how = `${chunked ? 'chunked' : 'with a Content-Length'}, ${close ? 'Connection: close' : 'kept alive'}`
      check413(t, exchange, 'over the state body limit of 16777216 bytes (16 MiB): start the fake with --state-body-limit')
      t.ok(exchange.complete, `${how}: every byte was written`)
      if (close) t.ok(exchange.closed, `${how}: the fake closed the connection after the answer`)
      else t.equal(exchange.answers[1]?.status, 200, `${how}: the next request on the same connection is answered`)
    }
  }
  t.equal((await app.inject({ url: '/__mock/state' })).body, before, 'the board is unchanged')
})

t.test('fetch, which reads while it sends, gets the 413 and its message, and its pool\'s next request is answered', async (t) => {
  const { port } = await listening(t, { stateBodyLimit: MiB })
  const base = `http://127.0.0.1:${port}`
  for (let round = 0; round < 3; round++) {
    const refused = await fetch(`${base}/api/v1/job/add`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ job_title: 'x'.repeat(10_000_000) }),
    })
    t.equal(refused.status, 413)
    t.match(await refused.json(), { status: 413, message: /over the limit of 1048576 bytes \(1 MiB\)/ })
    const state = await fetch(`${base}/__mock/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: `{"pad":"${'x'.repeat(3 * MiB)}"}` })
    t.equal(state.status, 413)
    t.match(await state.json(), { status: 413, message: /over the state body limit of 1048576 bytes/ })
    const next = await fetch(`${base}/api/v1/metrics/list`, { headers: AUTH })
    t.equal(next.status, 200, `round ${round}: the next request is answered`)
    await next.arrayBuffer()
  }
})

t.test('a client that stops sending the rest of a refused body is answered, and the connection is closed once it has sent nothing for the drain\'s idle time', async (t) => {
  const { port } = await listening(t)
  const pieces = jsonPieces(8 * MiB)
  // 2 MiB of the 8 MiB it announced, then silence; no number of answers is enough: it waits for the fake to end the connection
  const exchange = await sendAll(port, JOB_ADD, pieces, { stopAt: 2 * MiB, want: Number.POSITIVE_INFINITY, waitMs: DRAIN_IDLE_MS + 5_000 })
  t.equal(exchange.error, undefined)
  t.equal(exchange.answers[0]?.status, 413, 'the 413 was read')
  t.ok(exchange.closed, 'the fake closed the connection')
  t.ok((exchange.closedAfter ?? 0) >= DRAIN_IDLE_MS - 500, `closed ${exchange.closedAfter} ms after the last byte: it waited for the rest`)
  t.ok((exchange.closedAfter ?? Infinity) < DRAIN_IDLE_MS + 3_000, 'and no longer than the bound')
})
