// A body over its limit, sent over a real socket by a client that writes its whole
// request before it reads the answer (as Python's http.client does) or that reads while
// it writes (fetch): the 413 {status, message} reaches it, saying the limit, instead of a
// reset (EPIPE, ECONNRESET); with a Content-Length and chunked, and the kept-alive
// connection then answers the next request. A rest beyond the drain's bounds is read
// up to them, then the connection is closed.
import { connect } from 'node:net'
import t, { type Test } from 'tap'
import { DRAIN_BYTES, DRAIN_MS } from '../../../src/fake/http/drain.js'
import { AUTH } from '../../helpers/board.js'
import { listening, type RawAnswer } from '../../helpers/socket.js'

const MiB = 1_048_576
const JOB_ADD = `POST /api/v1/job/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\n`
const PUT_STATE = 'PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
const NEXT_API = `GET /api/v1/metrics/list HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`
const NEXT_CONTROL = 'GET /__mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

/** A JSON body of about `bytes` bytes, as pieces of one reused 64 KiB buffer (the test holds no more). */
function jsonPieces(bytes: number): Buffer[] {
  const piece = Buffer.alloc(65_536, 'x')
  const pieces = [Buffer.from('{"job_title":"')]
  for (let sent = 0; sent < bytes; sent += piece.length) pieces.push(piece)
  pieces.push(Buffer.from('"}'))
  return pieces
}
const lengthOf = (pieces: Buffer[]) => pieces.reduce((sum, piece) => sum + piece.length, 0)

/** The answers in raw bytes, each framed by its Content-Length. */
function parseAnswers(raw: string): RawAnswer[] {
  const answers: RawAnswer[] = []
  let rest = raw
  while (rest.includes('\r\n\r\n')) {
    const end = rest.indexOf('\r\n\r\n')
    const [line = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
    const length = Number(headers['content-length'] ?? 0)
    if (rest.length < end + 4 + length) break
    answers.push({ status: Number(line.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) })
    rest = rest.slice(end + 4 + length)
  }
  return answers
}

interface Exchange {
  answers: RawAnswer[]
  /** The socket's error, if any (EPIPE, ECONNRESET: the answer lost). */
  error?: string
  /** Whether the fake closed the connection. */
  closed: boolean
  /** Milliseconds from the last byte written to the close, if it closed. */
  closedAfter?: number
  written: number
}

/**
 * Writes `head`, then every piece (with the socket's backpressure; chunked frames each
 * piece, `stopAt` stops after that many bytes), then `next`, writing on through a FIN as
 * a client that writes its whole request first does; and only then looks at what came
 * back: once `want` answers have come, the fake ended the connection (its FIN, or with
 * `untilClose` its close), or `waitMs` passed.
 */
function sendAll(port: number, head: string, pieces: Buffer[], options: { chunked?: boolean; next?: string; want?: number; waitMs?: number; stopAt?: number; untilClose?: boolean } = {}): Promise<Exchange> {
  const { chunked = false, next = '', want = next ? 2 : 1, waitMs = 15_000, stopAt = Number.POSITIVE_INFINITY, untilClose = false } = options
  return new Promise((resolve) => {
    // half-open: the fake's FIN does not end the client's side
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    let received = ''
    let error: string | undefined
    let written = 0
    let lastWrite = Date.now()
    let closedAt: number | undefined
    let writing = true
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({
        answers: parseAnswers(received),
        closed: closedAt !== undefined,
        written,
        ...(error === undefined ? {} : { error }),
        ...(closedAt === undefined ? {} : { closedAfter: closedAt - lastWrite }),
      })
    }
    const timer = setTimeout(finish, waitMs)
    const enough = () => !writing && parseAnswers(received).length >= want
    socket.setEncoding('latin1')
    socket.on('data', (text: string) => {
      received += text
      if (enough()) finish()
    })
    socket.on('error', (e: Error & { code?: string }) => {
      error = e.code ?? e.message
    })
    socket.on('end', () => {
      closedAt ??= Date.now()
      if (!writing && !untilClose) finish()
    })
    socket.on('close', () => {
      closedAt ??= Date.now()
      finish()
    })
    const write = (bytes: Buffer | string) =>
      new Promise<boolean>((done) => {
        if (socket.destroyed) return done(false)
        written += Buffer.byteLength(bytes)
        lastWrite = Date.now()
        if (socket.write(bytes)) return done(true)
        const go = () => {
          socket.off('close', stop)
          done(!socket.destroyed)
        }
        const stop = () => {
          socket.off('drain', go)
          done(false)
        }
        socket.once('drain', go)
        socket.once('close', stop)
      })
    const request = async () => {
      const framing = chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${lengthOf(pieces)}\r\n\r\n`
      if (!(await write(head + framing))) return
      for (const piece of pieces) {
        if (written >= stopAt) return
        if (chunked && !(await write(`${piece.length.toString(16)}\r\n`))) return
        if (!(await write(piece))) return
        if (chunked && !(await write('\r\n'))) return
      }
      if (chunked && !(await write('0\r\n\r\n'))) return
      if (next !== '') await write(next)
    }
    socket.once('connect', () =>
      request().then(() => {
        writing = false
        if (enough() || (closedAt !== undefined && !untilClose)) finish()
      }),
    )
  })
}

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

t.test('a Content-Length beyond what the fake drains is answered at once, then read up to the bound and closed', async (t) => {
  const { port } = await listening(t)
  // says 100 MiB more than the drain takes; the client stops writing once the fake closes
  const total = DRAIN_BYTES + 100 * MiB
  const piece = Buffer.alloc(MiB, 'x')
  const pieces = Array.from({ length: total / MiB }, () => piece)
  const exchange = await sendAll(port, JOB_ADD, pieces, { want: 1, untilClose: true })
  t.equal(exchange.answers[0]?.status, 413, 'the 413 was read')
  t.match(JSON.parse(exchange.answers[0]?.body ?? '{}').message, `The body is too large: ${total} bytes, over the limit of 1048576 bytes (1 MiB)`)
  t.ok(exchange.closed, 'the fake closed the connection')
  t.ok(exchange.written >= DRAIN_BYTES, `the client wrote ${Math.round(exchange.written / MiB)} MiB before the close: the fake read on`)
  t.ok(exchange.written < total, 'and closed before the whole body')
})

t.test('a client that stops sending the rest of a refused body is answered, and the connection is closed after the drain\'s time', async (t) => {
  const { port } = await listening(t)
  const pieces = jsonPieces(8 * MiB)
  // 2 MiB of the 8 MiB it announced, then silence; no number of answers is enough: it waits for the fake to end the connection
  const exchange = await sendAll(port, JOB_ADD, pieces, { stopAt: 2 * MiB, want: Number.POSITIVE_INFINITY, waitMs: DRAIN_MS + 5_000 })
  t.equal(exchange.error, undefined)
  t.equal(exchange.answers[0]?.status, 413, 'the 413 was read')
  t.ok(exchange.closed, 'the fake closed the connection')
  t.ok((exchange.closedAfter ?? 0) >= DRAIN_MS - 500, `closed ${exchange.closedAfter} ms after the last byte: it waited for the rest`)
  t.ok((exchange.closedAfter ?? Infinity) < DRAIN_MS + 3_000, 'and no longer than the bound')
})
