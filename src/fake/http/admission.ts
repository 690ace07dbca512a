// The API's one synchronous onRequest path, before the route's own (the answer cache,
// src/fake/http/answers.ts): the credentials (basic-auth.ts), then a `Prefer: code=NNN` (prefer.ts),
// then the rate limit (the board's limiter, rate-limit.ts). A refusal answers at once;
// under the `success` policy a failed answer gives its window back once sent.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { boardError } from '../../core/errors.js'
import { sendError, type ErrorPolicy } from './error-answer.js'
import type { Auth } from './basic-auth.js'
import { preferenceAsked } from './prefer.js'
import { requestKey } from '../board/windows.js'

export function apiAdmission(auth: Auth, preferOn: boolean, statusPolicy: ErrorPolicy): onRequestHookHandler {
  const admitted = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    // the windows of the request's account
    const board = request.board
    if (preferOn) {
      const asked = preferenceAsked(request, board)
      if (asked) return done(asked)
    }
    if (board.limiter.enabled) {
      const key = requestKey(request.apiUser, request.method, request.url)
      const admission = board.limiter.admit(key)
      if (!admission.admitted) {
        // the verdict tells the client's own windows from those opened before its journal began
        request.windowOpened = admission.opened
        sendError(request, reply, boardError.rateLimited(admission.retryAfter), statusPolicy)
        return
      }
      request.limitKey = key
    }
    done()
  }
  return (request, reply, done) => auth.check(request, reply, done, () => admitted(request, reply, done))
}

/** After the answer: the rate-limit window the request opened learns its status. */
export function settleLimit(request: FastifyRequest, status: number): void {
  if (request.limitKey !== undefined) request.board.limiter.settle(request.limitKey, status)
}
