// A body the fake answers before reading it (a 401 decided from the headers, a refused
// control token), sent over a real socket by a client that writes its whole request
// before it reads the answer, as Python's urllib does (with Connection: close) or its
// http.client (kept alive): the answer {status, message} is read, with no reset (EPIPE,
// ECONNRESET), whether the body comes with a Content-Length or chunked; a kept connection
// answers the next request (without credentials, a 401 too), a closed one is closed by the fake once the body is read.
import t, { type Test } from 'tap'
import { type Exchange, jsonPieces, listening, sendAll } from '../../helpers/socket.js'

const MiB = 1_048_576
const TOKEN = 'control-secret'
const JOB_ADD = 'POST /api/v1/job/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
const PUT_STATE = 'PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
const NEXT_METRICS = 'GET /api/v1/metrics/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
const NEXT_CLOCK = `GET /__mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`

/** The four ways of sending: a Content-Length or chunked, kept alive or with Connection: close. */
const WAYS = [false, true].flatMap((close) => [false, true].map((chunked) => ({ close, chunked, how: `${chunked ? 'chunked' : 'with a Content-Length'}, ${close ? 'Connection: close' : 'kept alive'}` })))

/** Sends `pieces` after `head` each way; the exchange of each, and how it was sent. */
async function eachWay(port: number, head: string, pieces: Buffer[], next: string): Promise<Array<{ how: string; close: boolean; exchange: Exchange }>> {
  const out: Array<{ how: string; close: boolean; exchange: Exchange }> = []
  for (const { close, chunked, how } of WAYS) {
    // with Connection: close, no number of answers is enough: it waits for the fake to end the connection
    const exchange = await sendAll(port, close ? `${head}Connection: close\r\n` : head, pieces, { chunked, ...(close ? { want: Number.POSITIVE_INFINITY } : { next }) })
    out.push({ how, close, exchange })
  }
  return out
}

const checkRefusal = (t: Test, { how, close, exchange }: { how: string; close: boolean; exchange: Exchange }, status: number, message: string, nextStatus: number) => {
  t.equal(exchange.error, undefined, `${how}: no reset`)
  t.ok(exchange.complete, `${how}: every byte of the body was written`)
  const [refusal] = exchange.answers
  t.equal(refusal?.status, status, `${how}: the ${status} was read`)
  const body = JSON.parse(refusal?.body ?? '{}') as { status?: number; message?: string }
  t.same(Object.keys(body).sort(), ['message', 'status'], how)
  t.equal(body.status, status, how)
  t.match(body.message, message, how)
  if (close) t.ok(exchange.closed, `${how}: the fake closed the connection once the body was read`)
  else t.equal(exchange.answers[1]?.status, nextStatus, `${how}: the next request on the same connection is answered`)
}

t.test('a 10 MB job/add without credentials reads its 401, sent each way', async (t) => {
  const { app, port } = await listening(t)
  for (const exchange of await eachWay(port, JOB_ADD, jsonPieces(10 * MiB), NEXT_METRICS)) checkRefusal(t, exchange, 401, 'Authentication required', 401)
  const jobs = await app.inject({ url: '/__mock/requests?path=/api/v1/job/add' })
  t.ok(jobs.json().data.every((entry: { status: number }) => entry.status === 401), 'no job was added')
})

t.test('a 64 MiB PUT /__mock/state without the control token reads its refusal, sent each way, and the board is unchanged', async (t) => {
  const { app, port } = await listening(t, { controlToken: TOKEN })
  const auth = { authorization: `Bearer ${TOKEN}` }
  const before = (await app.inject({ url: '/__mock/state', headers: auth })).body
  const refused = await app.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json' }, payload: '{}' })
  const { status, message } = refused.json() as { status: number; message: string }
  for (const exchange of await eachWay(port, PUT_STATE, jsonPieces(64 * MiB), NEXT_CLOCK)) checkRefusal(t, exchange, status, message, 200)
  t.equal((await app.inject({ url: '/__mock/state', headers: auth })).body, before, 'the board is unchanged')
})
