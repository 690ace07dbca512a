// What a request that met a fault a test armed (src/fake/board/armed-faults.ts) gets instead of
// (or before) the real answer: a status, a dropped connection, a delay, or a body cut
// short. The fault is taken in the fake's one onRequest hook (src/fake/shared-app.ts).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ArmedFault } from '../board/armed-faults.js'
import { isInProcess } from './in-process.js'

/** The first half of a body (a string, bytes or a download's stream), then a failure, so the connection closes short of Content-Length. */
function cutShort(body: Buffer | Readable, length: number): Readable {
  const half = Math.floor(length / 2)
  return Readable.from(
    (async function* () {
      let sent = 0
      for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
        const piece = (chunk as Buffer).subarray(0, half - sent)
        sent += piece.length
        if (piece.length > 0) yield piece
        if (sent >= half) break
      }
      await new Promise((resolve) => setImmediate(resolve))
      throw new Error('body cut short by a fault')
    })(),
    { objectMode: false },
  )
}

export interface FaultAnswers {
  /** Answers a request that met `fault` (after its delay, if any), or lets it go on with `done`. */
  meet(request: FastifyRequest, reply: FastifyReply, fault: ArmedFault, done: (error?: Error) => void): void
  /** The payload to send: cut short when the request met a truncate fault, else as it is. */
  truncate(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown
}

/**
 * What armed faults do to the requests that meet them. A delay waits out its time, or
 * less: clearing the faults, a reset or close() (`closing`) releases it.
 */
export function faultAnswers(connectionTimeout: number, closing: AbortSignal): FaultAnswers {
  const hold = async (request: FastifyRequest, ms: number) => {
    // the socket's silence timeout must not cut a delay the test asked for
    if (!isInProcess(request) && connectionTimeout > 0) request.raw.socket.setTimeout(ms + connectionTimeout)
    try {
      // the faults of the request's account: clearing them releases it
      await sleep(ms, undefined, { signal: AbortSignal.any([closing, request.board.faults.released]), ref: false })
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error
    }
  }

  /** What an armed fault does instead of (or before) the answer. */
  const apply = (request: FastifyRequest, reply: FastifyReply, fault: ArmedFault, done: () => void) => {
    if (fault.drop) {
      if (!isInProcess(request)) {
        reply.hijack()
        request.raw.socket.destroy()
        return
      }
      // in-process there is no connection to drop: say so, and let interceptBoard turn it into a network error
      reply
        .code(502)
        .header('x-jobboard-kit-fault', 'drop')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ status: 502, message: 'The connection was dropped (an armed fault).' }))
      return
    }
    if (fault.status !== undefined) {
      const body = fault.body ?? { status: fault.status, message: `An armed fault answered ${fault.status}.` }
      reply
        .code(fault.status)
        .headers(fault.retryAfter ? { ...fault.headers, 'retry-after': String(fault.retryAfter()) } : (fault.headers ?? {}))
        .type(typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8')
        .send(typeof body === 'string' ? body : JSON.stringify(body))
      return
    }
    done()
  }

  return {
    meet(request, reply, fault, done) {
      request.fault = fault
      if (!fault.delayMs) return apply(request, reply, fault, done)
      hold(request, fault.delayMs).then(
        () => apply(request, reply, fault, done),
        (error: Error) => done(error),
      )
    },
    truncate(request, reply, payload) {
      if (!request.fault?.truncate || payload === null || payload === undefined) return payload
      if (isInProcess(request)) {
        reply.header('x-jobboard-kit-fault', 'truncate')
        return payload
      }
      // a download's stream already carries its Content-Length; a body in memory gets one here
      if (payload instanceof Readable) return cutShort(payload, Number(reply.getHeader('content-length') ?? 0))
      const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload))
      reply.header('content-length', String(bytes.length))
      return cutShort(bytes, bytes.length)
    },
  }
}
