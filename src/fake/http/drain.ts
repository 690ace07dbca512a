// What the fake does with the rest of a body it refused for its size (413): it reads it
// and throws it away, at most DRAIN_BYTES and DRAIN_MS past the refusal, so that the
// answer reaches a client that is still sending. Fastify answers such a body with
// Connection: close and Node then closes the socket at once: the bytes the client still
// sends meet a closed socket, the client's system resets the connection, and most
// clients (fetch, Python's http.client, curl at times) read EPIPE or ECONNRESET instead
// of the 413 (RFC 9112 9.6, "the TCP reset problem"). Registered by src/fake/app.ts.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Socket } from 'node:net'
import { BoardError } from '../../core/errors.js'

/** Bytes of a refused body read and thrown away past the refusal, at most: 64 MiB. */
export const DRAIN_BYTES = 64 * 1024 * 1024
/** Milliseconds the fake waits for the rest of a refused body, at most: 5 s. */
export const DRAIN_MS = 5_000

/** Marks a socket whose refused body is being read, so that a late clientError does not answer on it again. */
const DRAINING = Symbol('jobboard-kit draining')
type Marked = Socket & { [DRAINING]?: boolean }

/** True while the fake reads the rest of a refused body on this socket (src/fake/http/error-style.ts asks). */
export function draining(socket: Socket): boolean {
  return (socket as Marked)[DRAINING] === true
}

/**
 * Reads and throws away the rest of a body refused for its size, within the bounds. A
 * rest that may fit in them (a chunked body, or a Content-Length within DRAIN_BYTES) is
 * answered without Connection: close: once it is read the connection serves the next
 * request (keep-alive). A Content-Length beyond them is answered, then the fake closes
 * its side (a FIN the client reads after the answer) and reads on until the bounds. At
 * the bounds, or when the client hangs up, the connection is closed.
 */
function drainRefused(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw
  const socket = raw.socket as Marked | null
  // in process (inject) there is no socket to reset; a body already read to its end needs nothing
  if (!(socket instanceof Socket) || socket.destroyed || raw.readableEnded) return
  reply.removeHeader('connection')
  const length = Number(raw.headers['content-length'])
  const beyond = Number.isSafeInteger(length) && length > DRAIN_BYTES
  if (beyond) reply.raw.once('finish', () => socket.end())
  socket[DRAINING] = true
  let read = 0
  const done = () => {
    clearTimeout(timer)
    raw.removeListener('data', count)
    raw.removeListener('end', done)
    socket.removeListener('close', done)
    socket[DRAINING] = false
  }
  const cut = () => {
    done()
    socket.destroy()
  }
  const count = (chunk: Buffer) => {
    read += chunk.length
    if (read > DRAIN_BYTES) cut()
  }
  // unref: a client that stops sending does not hold the process (or close()) for the bound
  const timer = setTimeout(cut, DRAIN_MS).unref()
  raw.on('data', count)
  raw.once('end', done)
  socket.once('close', done)
  raw.resume()
}

/**
 * The 413 of a body over its route's limit (PUT /__mock/state says its own): the limit,
 * and the body's length when its Content-Length told it before any of it was read.
 */
export function bodyTooLarge(request: FastifyRequest): BoardError {
  const limit = request.routeOptions.bodyLimit
  const length = Number(request.headers['content-length'])
  const size = Number.isSafeInteger(length) && length > limit ? `${length} bytes, ` : ''
  const mebibytes = Number((limit / 1_048_576).toFixed(2))
  return new BoardError('BODY_TOO_LARGE', `The body is too large: ${size}over the limit of ${limit} bytes (${mebibytes} MiB) that ${request.method} ${request.routeOptions.url} reads.`)
}

/** On every route: a body over its route's limit is answered (the error handlers), and its rest drained. */
export function registerDrain(app: FastifyInstance): void {
  app.addHook('onError', (request, reply, error: FastifyError, done) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') drainRefused(request, reply)
    done()
  })
}
