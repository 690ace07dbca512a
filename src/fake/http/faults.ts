// Faults a test arms (POST /__mock/faults): the next matching requests get an error
// status, a delay, a dropped connection or a body cut short, instead of (or before)
// the real answer. Clearing them (faults.clear(), a reset, a restore) also releases the
// requests their delays hold: those then answer at once.
//
// faultAnswers is what a request that met a fault gets (src/fake/app.ts takes the fault in its
// one onRequest hook): a status, a dropped connection, a delay, or a body cut short.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Fault, FaultInput } from '../../core/types.js'
import { isInProcess } from './in-process.js'

export interface ArmedFault extends Fault {
  id: number
  /** How many more requests it applies to. */
  remaining: number
  /** The seconds its Retry-After says, worked out as it answers (an activity's outage: the rest of it). */
  retryAfter?: () => number
}

export class Faults {
  #armed: ArmedFault[] = []
  #next = 1
  /** Made when a held delay first asks for it: aborting one (a DOMException and its stack) on every board's start cost each account as much as the rest of its board. */
  #release: AbortController | undefined

  /** Aborted when the faults are cleared: what a held delay waits on besides its timer. */
  get released(): AbortSignal {
    this.#release ??= new AbortController()
    return this.#release.signal
  }

  add(fault: FaultInput, retryAfter?: () => number): ArmedFault {
    const armed = { ...fault, times: fault.times ?? 1, id: this.#next++, remaining: fault.times ?? 1, ...(retryAfter ? { retryAfter } : {}) }
    this.#armed.push(armed)
    return armed
  }

  /** Whether any fault is armed (the fast path leaves every request to the slow one then). */
  get armed(): boolean {
    return this.#armed.length > 0
  }

  list(): ArmedFault[] {
    return this.#armed.map(({ retryAfter: _, ...f }) => ({ ...f }))
  }

  /** Disarms one fault (an activity's outage ending); requests its delay holds go on waiting it out. */
  remove(id: number): void {
    this.#armed = this.#armed.filter((f) => f.id !== id)
  }

  clear(): void {
    this.#armed = []
    // only a delay that asked for the signal can be waiting on it
    this.#release?.abort()
    this.#release = undefined
  }

  /** The first armed fault for this request, used up by one; undefined when none applies. */
  take(method: string, url: string): ArmedFault | undefined {
    if (this.#armed.length === 0) return undefined
    const path = url.split('?')[0] as string
    const fault = this.#armed.find((f) => (f.method === undefined || f.method.toUpperCase() === method) && matches(f.path, path))
    if (!fault) return undefined
    fault.remaining -= 1
    if (fault.remaining <= 0) this.#armed = this.#armed.filter((f) => f !== fault)
    return { ...fault }
  }
}

function matches(pattern: string, path: string): boolean {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path
}

/** How the journal names what a fault did. */
export const faultKind = (fault: ArmedFault) =>
  fault.drop ? 'drop' : fault.truncate ? 'truncate' : fault.status !== undefined ? `status ${fault.status}` : `delay ${fault.delayMs ?? 0} ms`

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
