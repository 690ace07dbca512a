// Raw HTTP over a real socket, for what inject cannot send: malformed request lines,
// oversized headers, bodies that trickle in, large bodies written whole before the answer is read.
import type { FastifyInstance } from 'fastify'
import { connect, createServer, type Socket } from 'node:net'
import type { Test } from 'tap'
import { buildApp, type BuildOptions } from '../../src/fake/app.js'

/** A fake listening on 127.0.0.1 with a free port, closed when the test ends. */
export async function listening(t: Test, options: BuildOptions = {}): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildApp({ clock: 'virtual', rateLimitWindow: 0, ...options })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return { app, port: address.port }
}

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Parses the first HTTP answer of raw bytes (Content-Length framed). */
export function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n')
  const [line = '', ...lines] = raw.slice(0, end).split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  const length = Number(headers['content-length'] ?? raw.length)
  return { status: Number(line.split(' ')[1]), headers, body: raw.slice(end + 4, end + 4 + length) }
}

/** Writes raw bytes and collects everything until the server closes the connection (or `waitMs` passes). */
export function rawRequest(port: number, text: string, waitMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(received)
    }, waitMs)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('error', (error) => {
      clearTimeout(timer)
      if (received) resolve(received)
      else reject(error)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.write(text, 'latin1')
  })
}

/** A port that was free a moment ago, for a process told its port (JOBBOARD_PORT, a container's). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A JSON body of about `bytes` bytes (`{"job_title":"xxx…"}`), as pieces of one reused 64 KiB buffer (the test holds no more). */
export function jsonPieces(bytes: number): Buffer[] {
  const piece = Buffer.alloc(65_536, 'x')
  const pieces = [Buffer.from('{"job_title":"')]
  for (let sent = 0; sent < bytes; sent += piece.length) pieces.push(piece)
  pieces.push(Buffer.from('"}'))
  return pieces
}
export const lengthOf = (pieces: Buffer[]) => pieces.reduce((sum, piece) => sum + piece.length, 0)

/** The answers in raw bytes, each framed by its Content-Length. */
export function parseAnswers(raw: string): RawAnswer[] {
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

export interface Exchange {
  answers: RawAnswer[]
  /** The socket's error, if any (EPIPE, ECONNRESET: the answer lost). */
  error?: string
  /** Whether the fake closed the connection. */
  closed: boolean
  /** Milliseconds from the last byte written to the close, if it closed. */
  closedAfter?: number
  written: number
  /** Whether every byte of the request (and `next`) was written before the connection ended. */
  complete: boolean
}

/**
 * Writes `head`, then every piece (with the socket's backpressure; chunked frames each
 * piece, `stopAt` stops after that many bytes), then `next`, writing on through a FIN as
 * a client that writes its whole request first does; and only then looks at what came
 * back: once `want` answers have come, the fake ended the connection (its FIN, or with
 * `untilClose` its close), or `waitMs` passed.
 */
export function sendAll(port: number, head: string, pieces: Buffer[], options: { chunked?: boolean; next?: string; want?: number; waitMs?: number; stopAt?: number; untilClose?: boolean } = {}): Promise<Exchange> {
  const { chunked = false, next = '', want = next ? 2 : 1, waitMs = 15_000, stopAt = Number.POSITIVE_INFINITY, untilClose = false } = options
  return new Promise((resolve) => {
    // half-open: the fake's FIN does not end the client's side
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    let received = ''
    let error: string | undefined
    let written = 0
    let complete = false
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
        complete,
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
      if (next !== '' && !(await write(next))) return
      complete = true
    }
    socket.once('connect', () =>
      request().then(() => {
        writing = false
        if (enough() || (closedAt !== undefined && !untilClose)) finish()
      }),
    )
  })
}
