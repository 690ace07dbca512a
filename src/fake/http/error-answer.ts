// The one place that turns any thrown error into the API's `{status, message}` answer and
// sends it (sendError), from the coded errors of the catalogue (src/core/errors.ts), the
// framework's refusals and what Node's parser refuses before Fastify sees a request
// (clientErrorResponse). How a board styles an answer (its status, body type, headers) is
// error-style.ts's ErrorPolicy. Nothing else builds an error body.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { createRequire } from 'node:module'
import { BoardError, ERROR_CODES, type ErrorCode } from '../../core/errors.js'
import { explain, type Part } from '../../core/validation.js'

// node:http's reason phrases, read through require: an ES import of node:http builds its
// ES facade, which on Node 24 evaluates every lazy export and so loads undici (about
// 25 ms of a start) though no fetch is made (docs/architecture.md, start-up)
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http')

const FASTIFY_CODES: Record<string, { code: ErrorCode; message: (e: FastifyError) => string }> = {
  FST_BASIC_AUTH_MISSING_OR_BAD_AUTHORIZATION_HEADER: {
    code: 'UNAUTHORIZED',
    message: () => 'Authentication required: send HTTP Basic credentials (Authorization: Basic ...).',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: () => 'The body must be JSON, sent with Content-Type: application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'MALFORMED_BODY', message: () => 'The Content-Length does not match the body.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'MALFORMED_BODY',
    message: () => 'The body is empty; a JSON object is required.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'BODY_TOO_LARGE', message: () => 'The body is too large.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_BODY', message: () => 'The body is not valid JSON.' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: () => 'The path is not a valid URL: a % must start an escape such as %20.' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', message: () => 'A path parameter is too long (over 100 characters).' },
  FST_ERR_CTP_INVALID_CONTENT_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: () => 'The Content-Type header is not valid.' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'BAD_REQUEST', message: () => 'The request could not be routed.' },
}

/**
 * What Node refuses before Fastify sees a request, by error code: its parser's errors,
 * and (by names of the fake's own) the requests Node would answer with a bare status.
 */
const CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time (requestTimeout).' },
  HPE_HEADER_OVERFLOW: { code: 'HEADERS_TOO_LARGE', message: 'The request line and headers are too large (over 16 KiB).' },
  CONNECT: { code: 'BAD_REQUEST', message: 'The fake is not a proxy: it answers no CONNECT request.' },
  EXPECT: { code: 'EXPECTATION_FAILED', message: 'The Expect header asks for what the fake does not do: only Expect: 100-continue is met.' },
}

/** The status and `{status, message}` text of a request Node refuses (`clientError`, CONNECT, Expect). */
export function clientErrorBody(error: { code?: string }): { status: number; body: string } {
  const known = (error.code && CLIENT_ERRORS[error.code]) || { code: 'BAD_REQUEST' as const, message: 'The request is not valid HTTP.' }
  const status = ERROR_CODES[known.code]
  return { status, body: JSON.stringify({ status, message: known.message }) }
}

/**
 * The bytes to write on a socket whose request Node's parser refused (`clientError`):
 * a whole HTTP answer with the `{status, message}` body, then the connection closes.
 * No request was parsed, so no credentials can be checked.
 */
export function clientErrorResponse(error: { code?: string }): string {
  const { status, body } = clientErrorBody(error)
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
}

export interface ErrorAnswer {
  /** The catalogue code, when the error is one of the catalogue's. */
  code?: ErrorCode
  status: number
  message: string
  headers: Record<string, string>
  /** True for errors the fake did not mean to give: logged as bugs. */
  unexpected: boolean
}

/** Turns anything thrown while answering into the status, message and headers to send. */
export function toErrorAnswer(error: unknown, input: (part: Part) => unknown = () => undefined): ErrorAnswer {
  if (error instanceof BoardError) {
    return { code: error.code, status: error.status, message: error.message, headers: { ...error.headers }, unexpected: false }
  }
  const fastifyError = error as FastifyError & { validationContext?: string }
  if (fastifyError?.validation) {
    const part = (fastifyError.validationContext ?? 'body') as Part
    return {
      status: 412,
      message: explain(fastifyError.validation as Parameters<typeof explain>[0], part, input(part)),
      headers: {},
      unexpected: false,
    }
  }
  const known = fastifyError?.code ? FASTIFY_CODES[fastifyError.code] : undefined
  if (known) {
    return { code: known.code, status: ERROR_CODES[known.code], message: known.message(fastifyError), headers: {}, unexpected: false }
  }
  // other framework refusals carry their 4xx; their own messages may name internals, so they are not passed on
  if (fastifyError?.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { status: fastifyError.statusCode, message: `The request was refused (HTTP ${fastifyError.statusCode}).`, headers: {}, unexpected: true }
  }
  return { status: 500, message: 'The fake failed to answer this request; this is a bug in jobboard-kit.', headers: {}, unexpected: true }
}

/**
 * How an error is sent (docs/behaviour.md, the knobs of schemas/behaviour.ts): the
 * status its body says, the HTTP status, the body type, and headers to leave out.
 */
export interface ErrorStyle {
  status: number
  httpStatus: number
  body: 'json' | 'text' | 'empty'
  omitHeaders?: readonly string[]
}
export type ErrorPolicy = (answer: ErrorAnswer, request: FastifyRequest) => ErrorStyle

const asIs: ErrorPolicy = (answer) => ({ status: answer.status, httpStatus: answer.status, body: 'json' })

/** Sends an error answer. The one place a `{status, message}` body is made. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown, policy: ErrorPolicy = asIs): FastifyReply {
  const answer = toErrorAnswer(error, (part) =>
    part === 'body' ? request.body : part === 'querystring' ? request.query : part === 'params' ? request.params : undefined,
  )
  if (answer.unexpected) request.log.error({ err: error }, 'unexpected error')
  const style = policy(answer, request)
  reply.code(style.httpStatus).headers(answer.headers)
  for (const header of style.omitHeaders ?? []) reply.removeHeader(header)
  if (style.body === 'empty') return reply.removeHeader('content-type').send()
  if (style.body === 'text') return reply.type('text/plain; charset=utf-8').send(answer.message)
  return (
    reply
      .type('application/json; charset=utf-8')
      // serialized here: under errorHttpStatus "ok" the route's 200 schema must not apply to an error
      .send(JSON.stringify({ status: style.status, message: answer.message }))
  )
}
