// The answers of the API's routes as the OpenAPI document gives them: each route's
// success schema (declared beside the route) plus every error status src/fake/http/prefer.ts
// reads off its schema, with the error body and the headers that go with it. app.ts
// applies `withErrorAnswers` to every API route, so no route lists its errors by hand.
import type { FastifySchema } from 'fastify'
import { errorBody } from '../../../schemas/index.js'
import { routeErrors } from '../http/prefer.js'
import type { FastifyInstance } from 'fastify'
import { withExtraFields, type ExtraFieldRecord } from '../store/extra-fields.js'

const JSON_TYPE = 'application/json'

const WHAT: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  404: 'Not found',
  412: 'Invalid input',
  413: 'Body too large',
  415: 'Unsupported media type',
  429: 'Rate limited',
  500: 'Server error',
  503: 'Service unavailable',
}

const retryAfter = { type: 'string', pattern: '^[0-9]+$', description: 'Whole seconds to wait before making this request again' }

/** The headers each error status always carries. */
const HEADERS: Record<number, Record<string, object>> = {
  401: {
    'WWW-Authenticate': { type: 'string', description: 'The Basic challenge: `Basic realm="jobboard-kit", charset="UTF-8"`' },
  },
  429: { 'Retry-After': retryAfter },
  503: { 'Retry-After': retryAfter },
}


/** The JSON answer of one error status: `{status, message}` with `status` equal to the HTTP status. */
function errorAnswer(code: number, reasons: readonly string[]) {
  return {
    description: `${WHAT[code] ?? 'Error'}: ${reasons.join('; or ')}.`,
    ...(HEADERS[code] ? { headers: HEADERS[code] } : {}),
    content: { [JSON_TYPE]: { schema: errorBody(code) } },
  }
}

/**
 * Each error list's answers, made once per process and shared by the routes of every fake
 * (a later fake made them again for each of its routes). Read-only: Fastify marks only the
 * route's own schema object as visited, never the answers it holds, and the OpenAPI
 * document is made from a copy (src/fake/openapi-document.ts).
 */
const ERROR_ANSWERS = new WeakMap<ReadonlyMap<number, readonly string[]>, Record<string, ReturnType<typeof errorAnswer>>>()

/** The route's schema with an answer for every error status it documents. */
export function withErrorAnswers(method: string, schema: FastifySchema | undefined): FastifySchema {
  const reasons = routeErrors(method, schema)
  let errors = ERROR_ANSWERS.get(reasons)
  if (errors === undefined) {
    errors = Object.fromEntries([...reasons].map(([code, why]) => [code, errorAnswer(code, why)]))
    ERROR_ANSWERS.set(reasons, errors)
  }
  return { ...schema, response: { ...errors, ...(schema?.response as object | undefined) } }
}

/** A JSON success answer, with what it holds in words. */
export const answer = <S extends object>(description: string, schema: S) => ({ ...schema, description }) as S & { description: string }

/** A raw file of the given type, with the download headers the spec lists. */
export const download = (type: string, what: string) =>
  ({
    description: `The ${what} itself, as raw bytes.`,
    headers: {
      'Content-Type': { type: 'string', description: `\`${type}\`` },
      'Content-Length': { type: 'string', pattern: '^[0-9]+$', description: 'The size of the file in bytes' },
      'Content-Disposition': {
        type: 'string',
        pattern: '^attachment; filename=',
        description: '`attachment; filename="<original name>"`, plus an RFC 5987 `filename*` when the name is not plain ASCII',
      },
      'Content-Transfer-Encoding': { type: 'string', const: 'binary', description: 'Always `binary`' },
    },
    content: { [type]: { schema: { type: 'string', format: 'binary' } } },
  }) as const

/**
 * A record's schema with the extra fields of the board the routes are built for
 * (behaviour.extraFields): Fastify's serializer drops fields a schema does not declare.
 */
export const withExtras = <S extends object>(app: FastifyInstance, kind: ExtraFieldRecord, schema: S): S =>
  withExtraFields(schema, app.board.scenario.behaviour.extraFields[kind])
