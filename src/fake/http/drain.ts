// A bounded lingering close: what the fake does with the rest of a body it answered
// before reading it (a 401 or 429 decided from the headers, a 413 for its size, a refusal
// of the control token, a fault): it reads that rest and throws it away, at most
// DRAIN_BYTES, DRAIN_MS in all and DRAIN_IDLE_MS without a byte, so that the answer
// reaches a client that is still sending. Node's server has no lingering close: a
// connection it does not keep (the client sent Connection: close, as Python's urllib does,
// or HTTP/1.0; Fastify's 413 says Connection: close; the fake is shutting down) is closed as
// the answer is written, and the bytes the client still sends meet a closed socket: the
// client's system resets the connection and most clients (urllib, Python's http.client,
// fetch, curl at times) read EPIPE or ECONNRESET instead of the answer (RFC 9112 9.6, "the
// TCP reset problem"). A connection Node keeps is read to the body's end without a bound.
// The journal's onSend (src/fake/app.ts) calls lingerOnUnread; registerDrain keeps a 413's
// connection open when its rest fits the bounds.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { BoardError } from '../../core/errors.js'

/**
 * Bytes of an unread body read and thrown away past the answer, at most: 1 GiB, twice the
 * largest state body limit (500 MiB), so that a saved board refused for its size is read
 * to its end and its 413 read, whatever the limit.
 */
export const DRAIN_BYTES = 1024 * 1024 * 1024
/** Milliseconds the fake reads the rest of an unread body in all, at most: 30 s (nginx's lingering_time). */
export const DRAIN_MS = 30_000
/** Milliseconds the fake waits for the next byte of that rest: 5 s (nginx's lingering_timeout). */
export const DRAIN_IDLE_MS = 5_000

/** Marks a socket whose unread body is being read, so that a late clientError does not answer on it again. */
const DRAINING = Symbol('jobboard-kit draining')
type Marked = Socket & { [DRAINING]?: boolean }

/** True while the fake reads the rest of an unread body on this socket (src/fake/http/error-style.ts asks). */
export function draining(socket: Socket): boolean {
  return (socket as Marked)[DRAINING] === true
}

/**
 * Reads and throws away the rest of `raw`'s body within the bounds, once its answer is on
 * its way. A connection Node keeps serves the next request once the rest is read. One it
 * closes (destroySoon, as the answer finishes) has only the fake's side ended there: a FIN
 * after the answer, read by the client; the connection closes once the rest is read. A
 * Content-Length beyond the bounds is answered and its side ended alike. At the bounds,
 * or when the client hangs up, the connection is closed.
 */
function linger(raw: IncomingMessage, response: ServerResponse): void {
  const socket = raw.socket as Marked | null
  // in process (inject) there is no socket to reset
  if (!(socket instanceof Socket) || socket.destroyed || socket[DRAINING] === true) return
  const length = Number(raw.headers['content-length'])
  const ending = Number.isSafeInteger(length) && length > DRAIN_BYTES
  let ended = false
  const end = () => {
    ended = true
    if (socket.writable) socket.end()
  }
  if (ending) response.once('finish', end)
  // Node closes a connection it does not keep with destroySoon as the answer finishes; until
  // the rest is read, that ends the fake's side only (this own property hides Socket's)
  socket.destroySoon = end
  socket[DRAINING] = true
  let read = 0
  const settle = () => {
    clearTimeout(idle)
    clearTimeout(total)
    raw.removeListener('data', count)
    raw.removeListener('end', done)
    response.removeListener('finish', recount)
    response.removeListener('finish', end)
    socket.removeListener('close', settle)
    Reflect.deleteProperty(socket, 'destroySoon')
    socket[DRAINING] = false
  }
  // the rest is read: a connection whose side was ended closes once the answer is out
  const done = () => {
    settle()
    if (ended) socket.destroySoon()
  }
  const cut = () => {
    settle()
    socket.destroy()
  }
  const count = (chunk: Buffer) => {
    read += chunk.length
    if (read > DRAIN_BYTES) cut()
    else idle.refresh()
  }
  // Node drops the 'data' listeners of a body no one read (IncomingMessage._dump) as the answer finishes
  const recount = () => {
    if (!raw.listeners('data').includes(count)) raw.on('data', count)
  }
  // unref: a client that stops sending does not hold the process (or close()) for the bounds
  const idle = setTimeout(cut, DRAIN_IDLE_MS).unref()
  const total = setTimeout(cut, DRAIN_MS).unref()
  raw.on('data', count)
  raw.once('end', done)
  response.once('finish', recount)
  socket.once('close', settle)
  raw.resume()
}

/**
 * Called as each answer is sent (the one onSend of src/fake/app.ts): a request whose body
 * is not read to its end yet has the rest read and thrown away within the bounds. A
 * request without a body costs two header reads.
 */
export function lingerOnUnread(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw
  if (raw.complete) return
  const headers = raw.headers
  if (headers['transfer-encoding'] === undefined && !(Number(headers['content-length']) > 0)) return
  linger(raw, reply.raw)
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

/**
 * On every route: a body over its route's limit keeps its connection (Fastify answers it
 * with Connection: close), its rest read by the lingering close; a rest beyond the bounds
 * ends it there.
 */
export function registerDrain(app: FastifyInstance): void {
  app.addHook('onError', (request, reply, error: FastifyError, done) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && !request.raw.complete) reply.removeHeader('connection')
    done()
  })
}
