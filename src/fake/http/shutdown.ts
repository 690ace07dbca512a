// Closing a fake: new requests get a 503 at once, those in flight finish (held delays
// are released), and after shutdownTimeout the connections still open are closed. A
// delay fault must not keep a closed fake's process alive either. Registered by src/fake/app.ts.
import type { FastifyInstance } from 'fastify'

export interface Shutdown {
  /** True once close() has begun: requests are refused, answers say Connection: close. */
  readonly closing: boolean
  /** Aborted when close() begins: what a held delay waits on besides its timer. */
  readonly signal: AbortSignal
}

export function registerShutdown(app: FastifyInstance, shutdownTimeout: number): Shutdown {
  const aborter = new AbortController()
  const state = { closing: false, signal: aborter.signal }
  app.addHook('preClose', async () => {
    state.closing = true
    aborter.abort()
    if (shutdownTimeout > 0) setTimeout(() => app.server.closeAllConnections(), shutdownTimeout).unref()
  })
  app.addHook('onClose', async () => aborter.abort())
  return state
}
