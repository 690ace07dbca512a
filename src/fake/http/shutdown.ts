// Closing a fake: new requests get a 503 at once, those in flight finish (held delays
// are released), and after shutdownTimeout the connections still open are closed. A
// delay fault must not keep a closed fake's process alive either. Registered by src/fake/app.ts.
import type { Socket } from 'node:net'
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
  // Node's own closeIdleConnections can take a keep-alive connection for busy once a client
  // gave up on a held request on another (its parser is reused with the old request's
  // state): close() then waited seconds for the client to hang up. The fake counts what is
  // in flight on each connection itself, and closes those with nothing in flight.
  const inFlight = new Map<Socket, number>()
  app.server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0)
    socket.once('close', () => inFlight.delete(socket))
  })
  app.server.on('request', (request, response) => {
    const socket = request.socket
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1)
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1
      if (inFlight.has(socket)) inFlight.set(socket, left)
    })
  })
  app.addHook('preClose', async () => {
    state.closing = true
    aborter.abort()
    for (const [socket, count] of inFlight) if (count === 0) socket.destroy()
    // only a server that listened has connections to close; the timer goes with the server (it
    // held the whole closed fake for shutdownTimeout: a suite's fakes, closed one after another, piled up)
    if (shutdownTimeout > 0 && app.server.listening) {
      const cut = setTimeout(() => app.server.closeAllConnections(), shutdownTimeout).unref()
      app.server.once('close', () => clearTimeout(cut))
    }
  })
  app.addHook('onClose', async () => aborter.abort())
  return state
}
