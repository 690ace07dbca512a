// How this board sends its errors, from its behaviour knobs: the HTTP status of 404
// bodies (errorHttpStatus) and of 412 bodies (preconditionHttpStatus), the body type of unknown ids, 429s and auth refusals,
// and the status and challenge of an auth refusal. error-answer.ts sends what this decides.
// The app's error answers go through it: its error handler, the 404 of paths no route
// answers, and framework errors met before routing; what Node's parser refuses is
// answered on the socket, and so are the requests Node would answer with a bare status
// (no Host, an unmet Expect, CONNECT).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Board } from '../board/board.js'
import { boardError } from '../../core/errors.js'
import { API_PREFIX } from '../store/record-links.js'
import type { Auth } from './basic-auth.js'
import { bodyTooLarge, draining } from './drain.js'
import { clientErrorBody, clientErrorResponse, sendError, type ErrorAnswer, type ErrorPolicy, type ErrorStyle } from './error-answer.js'

export function errorPolicy(board: Board): ErrorPolicy {
  return (answer: ErrorAnswer, request): ErrorStyle => {
    // the request's account's choices; `board` (the first account's) before onRequest chose one
    const behaviour = ((request.board as Board | null) ?? board).scenario.behaviour
    const inApi = request.url.startsWith(`${API_PREFIX}/`)
    const plain: ErrorStyle = { status: answer.status, httpStatus: answer.status, body: 'json' }
    if (!inApi) return plain
    switch (answer.code) {
      case 'UNAUTHORIZED': {
        const status = behaviour.authStatus
        // a 401 carries its challenge whatever authChallenge says (RFC 9110 §11.6.1: "MUST"); a 403 may go without (its "MAY")
        return { status, httpStatus: status, body: behaviour.authBody, omitHeaders: behaviour.authChallenge || status === 401 ? [] : ['www-authenticate'] }
      }
      case 'RATE_LIMITED':
        return { ...plain, body: behaviour.rateLimitBody }
      default: {
        // a 404's status line follows errorHttpStatus, a 412's preconditionHttpStatus: deployments choose each apart
        const httpStatus =
          answer.status === 404 && behaviour.errorHttpStatus === 'ok' ? 200 : answer.status === 412 ? behaviour.preconditionHttpStatus : answer.status
        return { ...plain, httpStatus, body: answer.code === 'NOT_FOUND' ? behaviour.notFoundBody : 'json' }
      }
    }
  }
}

const underApi = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`)

/**
 * Framework errors met before routing (a % that escapes nothing, an over-long id) answer
 * through the one error handler too, after the credentials under /api/v1. `auth` is there
 * once the app has registered it.
 */
export function frameworkErrorHandler(policy: ErrorPolicy, auth: () => Auth | undefined) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const authenticate = auth()?.authenticate
    const check = underApi(request.url) && authenticate ? authenticate(request, reply) : Promise.resolve()
    check.then(
      () => sendError(request, reply, error, policy),
      (refusal: unknown) => sendError(request, reply, refusal, policy),
    )
  }
}

/**
 * Fastify's schemaErrorFormatter: the error a failed validation answers with. Its text is
 * never sent (the answer explains error.validation, src/core/validation.ts), so none is
 * built from the errors and no stack is captured (a few µs of every 412: the error of an
 * invalid job lists every field). Fastify adds `validation` and the status to it.
 */
export function validationError(_errors: unknown, dataVar: string): Error {
  const error = Object.create(Error.prototype) as Error
  error.message = `The request's ${dataVar} does not fit its schema.`
  return error
}

/** What Node's parser refuses (a 16 KiB header, a body that never ends) never reaches Fastify: answered on the socket. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  // the rest of a refused body, still arriving when requestTimeout ends: its 413 was the answer
  if (draining(socket)) {
    socket.destroy()
    return
  }
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !pending?.headersSent) socket.end(clientErrorResponse(error))
  else socket.destroy()
}

/**
 * Requests Node answers itself with a bare status, or not at all, when nothing listens
 * for them: an Expect other than 100-continue (Node's empty 417) and CONNECT (Node drops
 * the connection). Both get `{status, message}`, as what its parser refuses does.
 */
export function answerNodeRefusals(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const { status, body } = clientErrorBody({ code: 'EXPECT' })
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body)
  })
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    if (socket.writable) socket.end(clientErrorResponse({ code: 'CONNECT' }))
    else socket.destroy()
  })
}

/** HTTP/1.1 requires a Host header: asked of Node's server (requireHostHeader: false) so that its absence is answered here. */
export function hostRequired(request: FastifyRequest, reply: FastifyReply, policy: ErrorPolicy): boolean {
  const raw = request.raw
  if (raw.headers.host !== undefined || raw.httpVersionMajor !== 1 || raw.httpVersionMinor < 1) return false
  sendError(request, reply, boardError.noHost(), policy)
  return true
}

/** The one error handler, and (`notFound`) the 404 of paths no route answers (the whole API is behind auth, those paths included). */
export function registerErrorAnswers(app: FastifyInstance, policy: ErrorPolicy, auth: Auth, notFound = true): void {
  app.setErrorHandler((error, request, reply) =>
    sendError(request, reply, (error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? bodyTooLarge(request) : error, policy),
  )
  if (!notFound) return
  app.setNotFoundHandler(
    {
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (underApi(request.url)) await auth.authenticate(request, reply)
      },
    },
    async (request, reply) => sendError(request, reply, boardError.noRoute(request.method, request.url), policy),
  )
}
