// Building blocks shared by the resource schemas: scalar shapes, the File entry, the
// response envelopes and the error body. Every schema is a plain `as const` object so
// that json-schema-to-ts can derive its type (see src/types.ts).
import type { JSONSchema } from 'json-schema-to-ts'
import { FIELD_VALUES, SECTOR_DISCIPLINES, type DerivedName, type FieldName } from './values.js'

/** Every path of the API begins with this, after the {base_url}. */
export const API_PREFIX = '/api/v1'

/** Every path of the control API (and of the page and the health check the fake and the proxy answer) begins with this: never sent upstream, never journalled. */
export const CONTROL_PREFIX = '/__mock'

/** Marks a string node whose enum is a constrained list; bindFieldValues swaps in a scenario's values. */
export const CONSTRAINED_PREFIX = 'constrained:'

export const constrained = <K extends FieldName>(list: K) =>
  ({ type: 'string', enum: FIELD_VALUES[list], $comment: `${CONSTRAINED_PREFIX}${list}` }) as const

export const derived = <K extends DerivedName>(list: K) =>
  ({ type: 'string', enum: SECTOR_DISCIPLINES, $comment: `${CONSTRAINED_PREFIX}${list}` }) as const

export const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const satisfies JSONSchema
export const timestamp = { type: 'string', format: 'timestamp' } as const satisfies JSONSchema
export const jobDate = { type: 'string', format: 'job-date' } as const satisfies JSONSchema
export const url = { type: 'string', format: 'uri' } as const satisfies JSONSchema
export const email = { type: 'string', format: 'email' } as const satisfies JSONSchema
export const flag = { type: 'integer', enum: [0, 1] } as const satisfies JSONSchema
export const text = { type: 'string' } as const satisfies JSONSchema
export const texts = { type: 'array', items: text } as const satisfies JSONSchema
/** Whole bytes written as decimal text, as File entries give `filesize`. */
export const byteCountText = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' } as const satisfies JSONSchema
/** A coordinate as text, or empty when the board has none. */
export const coordinateText = {
  type: 'string',
  pattern: '^$|^-?[0-9]{1,3}(\\.[0-9]+)?$',
} as const satisfies JSONSchema

/** A candidate's file (timesheet, resume or document) as listed on the candidate. */
export const fileEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['filename', 'href', 'filesize', 'created_at'],
  properties: {
    filename: { type: 'string', minLength: 1 },
    href: url,
    filesize: byteCountText,
    created_at: timestamp,
  },
} as const satisfies JSONSchema

const ok = { type: 'integer', const: 200 } as const
const count = { type: 'integer', minimum: 0 } as const

/** `{status, total, data}`: the answer of a list or detail endpoint. */
export const listEnvelope = <Item extends JSONSchema>(item: Item) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['status', 'total', 'data'],
    properties: { status: ok, total: count, data: { type: 'array', items: item } },
  }) as const

/**
 * What `next_page` may hold. A URL while there is a next page; on the last page the
 * spec does not say, so the fake answers false by default (like `prev_page`) and may be
 * told to answer null, the empty string (as a PHP board that prints an empty link does)
 * or leave the field out (docs/behaviour.md).
 */
export const nextPage = {
  anyOf: [url, { const: false }, { type: 'null' }, { const: '' }],
  description:
    'The full URL of the next page of the same list (its `since` and `vacancy`, and `page` one higher); on the last page `false` (or `null`, the empty string, or left out, as the board is set up)',
} as const satisfies JSONSchema
/** `prev_page`: a URL, or false on the first page, as the spec says. */
export const prevPage = {
  anyOf: [url, { const: false }],
  description: 'The full URL of the previous page of the same list; `false` on the first page',
} as const satisfies JSONSchema

/** `{status, total, data, next_page}`: a paged list. */
export const pagedEnvelope = <Item extends JSONSchema>(item: Item) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['status', 'total', 'data'],
    properties: { status: ok, total: count, data: { type: 'array', items: item }, next_page: nextPage },
  }) as const

/** The timesheets list, which also carries `prev_page`. */
export const twoWayPagedEnvelope = <Item extends JSONSchema>(item: Item) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['status', 'total', 'data', 'prev_page'],
    properties: {
      status: ok,
      total: count,
      data: { type: 'array', items: item },
      next_page: nextPage,
      prev_page: prevPage,
    },
  }) as const

/** `{status: 200, message}`: the answer of close, expire, repost and delete. */
export const messageAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message'],
  properties: { status: ok, message: { type: 'string', minLength: 1 } },
} as const satisfies JSONSchema

/** `{status, message}` of an error; `status` repeats the HTTP status. */
export const errorBody = <Code extends number>(code: Code) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['status', 'message'],
    properties: { status: { type: 'integer', const: code }, message: { type: 'string', minLength: 1 } },
  }) as const

/** Any error body: what a client can rely on whatever the code. */
export const anyErrorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message'],
  properties: { status: { type: 'integer', minimum: 400, maximum: 599 }, message: { type: 'string', minLength: 1 } },
} as const satisfies JSONSchema
