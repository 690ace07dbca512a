// The origin a request's links are written on: the scenario's public base URL, or the
// one the request came in on (its Host and scheme; an in-process request's, as its
// caller says). Read by the routes' answers, the kept answers' keys and the fast path.
import type { FastifyRequest } from 'fastify'
import type { Board } from '../board/board.js'
import { isInProcess, ORIGIN_HEADER } from './in-process.js'

/**
 * The origin links point at: the public base URL, or the one the request came in on.
 * An in-process request has no socket to say whether it was https, so the caller may say.
 */
export function baseUrl(request: FastifyRequest): string {
  // the request's account's board; the first account's for one refused before onRequest chose one
  const board = (request.board as Board | null) ?? request.server.board
  const given = board.scenario.publicBaseUrl
  if (given !== undefined) return given
  const told = request.headers[ORIGIN_HEADER]
  if (typeof told === 'string' && isInProcess(request) && /^https?:\/\/[^/\s"\\]+$/.test(told)) return told
  return hostOrigin(board, request.host, request.protocol)
}

/** The origin of a request that came in on a socket with this Host: the store's own when the Host is no host. */
export function hostOrigin(board: Board, host: string, protocol: string): string {
  // a Host that is no host (empty, or holding quotes) must not end up inside JSON links
  return HOST.test(host) ? `${protocol}://${host}` : board.store.links.base
}

/** A host name or IP literal, with an optional port. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/
