// The catalogue of coded errors (the code, its status, the error classes and the errors
// every product throws by name); turning one into the API's `{status, message}` answer is
// the fake's (src/fake/http/error-answer.ts), which alone builds an error body.
import type { ErrorObject } from 'ajv'
import { explain, firstField, type Part } from './validation.js'

export const ERROR_CODES = {
  /** Fields of a posted body are invalid (the spec's 412). */
  INVALID_FIELD: 412,
  /** A query or path parameter is invalid. */
  INVALID_PARAMETER: 412,
  /** Missing or wrong credentials. */
  UNAUTHORIZED: 401,
  /** A record that does not exist or no longer does. */
  NOT_FOUND: 404,
  /** A path no endpoint answers. */
  NO_ROUTE: 404,
  /** The same full request again within the rate-limit window. */
  RATE_LIMITED: 429,
  /** A body that is not JSON. */
  MALFORMED_BODY: 400,
  /** A POST without `Content-Type: application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A body over the size limit. */
  BODY_TOO_LARGE: 413,
  /** A request line or header Node's parser refuses, or a path Fastify cannot decode (`%zz`). */
  BAD_REQUEST: 400,
  /** A request whose body or headers did not arrive within requestTimeout. */
  REQUEST_TIMEOUT: 408,
  /** A path parameter longer than the router reads (a 150-digit id). */
  URI_TOO_LONG: 414,
  /** Request line and headers over Node's header size limit (16 KiB). */
  HEADERS_TOO_LARGE: 431,
  /** An Expect header other than 100-continue. */
  EXPECTATION_FAILED: 417,
  /** A control API call that needs the control token to be set and given (credentials in a state export). */
  CONTROL_FORBIDDEN: 403,
  /** A request that arrived while the fake is closing. */
  SHUTTING_DOWN: 503,
  /** A control API call that lacks the token. */
  CONTROL_TOKEN: 401,
  /** A control API call that does not fit the board (e.g. a record linking to nothing). */
  CONTROL_CONFLICT: 409,
  /** An answer a test asked for (Prefer: code=NNN, or a fault). */
  INJECTED: 500,
  /** A bug in the fake: never expected, always logged. */
  INTERNAL: 500,
} as const

export type ErrorCode = keyof typeof ERROR_CODES

export class BoardError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly headers: Readonly<Record<string, string>>

  constructor(code: ErrorCode, message: string, options: { status?: number; headers?: Record<string, string> } = {}) {
    super(message)
    this.name = 'BoardError'
    this.code = code
    this.status = options.status ?? ERROR_CODES[code]
    this.headers = options.headers ?? {}
  }
}

/**
 * What a test handed the fake (an in-process helper's argument, a control API body, a
 * scenario or a saved state) that it refuses: `field` names the part at fault
 * (`candidate_id`, `headers.x-trace`, `store.files[3].filesize`; '' for the whole input),
 * `reason` says why in a sentence. Over HTTP it answers `{status, message}`: 412, or
 * 409 for a record that links to nothing. Nothing is stored when it is thrown.
 */
export class BoardInputError extends BoardError {
  readonly field: string
  readonly reason: string

  constructor(field: string, reason: string, code: 'INVALID_FIELD' | 'CONTROL_CONFLICT' = 'INVALID_FIELD') {
    super(code, reason)
    this.name = 'BoardInputError'
    this.field = field
    this.reason = reason
  }
}

/**
 * An error that is an answer, not a fault (a 429 per repeated request, a 401, a 404):
 * nothing reads its stack, and capturing one under Fastify's hooks costs more than the
 * rest of the answer.
 */
function withoutStack<T extends Error>(make: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}

const mebibytes = (bytes: number) => `${Number((bytes / 1_048_576).toFixed(2))} MiB`

export const boardError = {
  invalidField: (message: string, field = '') => new BoardInputError(field, message),
  /** The first schema error of an input, as a BoardInputError naming its field. */
  invalidInput: (errors: readonly ErrorObject[], part: Part, data: unknown, prefix = '') =>
    new BoardInputError(firstField(errors), `${prefix}${explain(errors, part, data)}`),
  invalidParameter: (message: string) => withoutStack(() => new BoardError('INVALID_PARAMETER', message)),
  unauthorized: (realm: string, message = 'Authentication required: send HTTP Basic credentials.') =>
    withoutStack(() => new BoardError('UNAUTHORIZED', message, { headers: { 'www-authenticate': `Basic realm="${realm}", charset="UTF-8"` } })),
  notFound: (what: string, id: number | string) => withoutStack(() => new BoardError('NOT_FOUND', `${what} ${id} was not found.`)),
  noRoute: (method: string, url: string) =>
    withoutStack(() => new BoardError('NO_ROUTE', `No endpoint answers ${method} ${url.split('?')[0] ?? url}.`)),
  rateLimited: (retryAfter: number) =>
    withoutStack(
      () =>
        new BoardError(
          'RATE_LIMITED',
          `Too many requests: this request may be made once per rate-limit window; retry after ${retryAfter} seconds.`,
          { headers: { 'retry-after': String(retryAfter) } },
        ),
    ),
  controlToken: () =>
    new BoardError('CONTROL_TOKEN', 'The control API needs the control token: send Authorization: Bearer <token>.', {
      headers: { 'www-authenticate': 'Bearer realm="jobboard-kit control"' },
    }),
  controlConflict: (message: string, field = '') => new BoardInputError(field, message, 'CONTROL_CONFLICT'),
  /** HTTP/1.1 requires a Host header (RFC 9112 3.2); Node's own 400 for its absence has no body. */
  noHost: () =>
    withoutStack(() => new BoardError('BAD_REQUEST', 'The request has no Host header, which HTTP/1.1 requires.', { headers: { connection: 'close' } })),
  controlForbidden: (message: string) => new BoardError('CONTROL_FORBIDDEN', message),
  /**
   * A saved board over options.stateBodyLimit: the limit, and the flag that raises it up
   * to `max`, or (a board no limit takes, such as the large scenario's full state) only
   * the compact form, whose size follows the writes, not the board.
   */
  stateTooLarge: (limit: number, max: number, length?: number) => {
    const size = length === undefined ? 'is' : `is ${length} bytes,`
    const compact = 'save the board in the compact form (GET /__mock/state?form=compact), whose size follows the writes, not the board.'
    return new BoardError(
      'BODY_TOO_LARGE',
      length !== undefined && length > max
        ? `The saved board ${size} more than any state body limit takes (at most ${max} bytes, ${mebibytes(max)}): ${compact}`
        : `The saved board ${size} over the state body limit of ${limit} bytes (${mebibytes(limit)}): start the fake with ` +
            `--state-body-limit (stateBodyLimit, up to ${mebibytes(max)}) to raise it, or ${compact}`,
    )
  },
  fullStateTooLarge: (estimate: number, max: number) =>
    boardError.controlConflict(
      `The board's full state would be about ${mebibytes(estimate)}, more than PUT /__mock/state takes back at any limit (${mebibytes(max)}): ` +
        'save the board in the compact form (GET /__mock/state?form=compact), whose size follows the writes, not the board.',
      'form',
    ),
  shuttingDown: () =>
    new BoardError('SHUTTING_DOWN', 'The fake is shutting down: it takes no new request.', { headers: { connection: 'close' } }),
  injected: (status: number, message: string, headers: Record<string, string> = {}) =>
    new BoardError('INJECTED', message, { status, headers }),
}

/** A bad option, flag or environment variable: its message names it and says why (the CLI prints it as a usage error, exit 2). */
export class OptionsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OptionsError'
  }
}
