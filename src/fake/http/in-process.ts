// Requests made without a socket: app.inject and interceptBoard (nock) reach the fake
// in-process, so what a socket would tell (its timeout, its origin) is told otherwise.
import type { FastifyRequest } from 'fastify'
import { Socket } from 'node:net'

/** True for a request made with app.inject (or interceptBoard), which has no real socket. */
export function isInProcess(request: FastifyRequest): boolean {
  return !(request.raw.socket instanceof Socket)
}

/** The header through which interceptBoard tells the fake the origin its client called. */
export const ORIGIN_HEADER = 'x-jobboard-kit-origin'
