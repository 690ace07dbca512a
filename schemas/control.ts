// The control API's own bodies and answers (/__mock): JSON in and out, validated like
// the API's. The records added through it use the seed schemas (schemas/seeds.ts).
import type { JSONSchema } from 'json-schema-to-ts'
import { timestamp } from './common.js'
import { STATE_FORMS } from './values.js'

export const resetBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scenario: { type: 'string', minLength: 1, description: 'Another scenario, by name or path' },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
  },
} as const satisfies JSONSchema

/** What reset() takes in-process: the scenario as a name, a path or an object. */
export const resetOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scenario: { anyOf: [resetBody.properties.scenario, { type: 'object' }] },
    seed: resetBody.properties.seed,
  },
} as const satisfies JSONSchema

/** The journal's filter (GET /__mock/requests?path=). */
export const journalQuery = {
  type: 'object',
  properties: { path: { type: 'string', pattern: '^/', maxLength: 16384 } },
} as const satisfies JSONSchema

/** What GET /__mock/state takes: credentials are left out unless asked for (with the control token). */
export const stateQuery = {
  type: 'object',
  properties: {
    credentials: { type: 'boolean', default: false, description: 'Include the API credentials (needs the control token)' },
    form: { type: 'string', enum: STATE_FORMS, default: 'full', description: 'full: every record; compact: only what differs from the board the scenario and seed generate' },
  },
} as const satisfies JSONSchema

export const advanceBody = {
  type: 'object',
  additionalProperties: false,
  required: ['seconds'],
  properties: { seconds: { type: 'number', minimum: -315360000, maximum: 315360000 } },
} as const satisfies JSONSchema

export const setClockBody = {
  type: 'object',
  additionalProperties: false,
  required: ['now'],
  properties: { now: timestamp },
} as const satisfies JSONSchema

export const clockAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'now', 'mode'],
  properties: { status: { type: 'integer', const: 200 }, now: timestamp, mode: { type: 'string', enum: ['real', 'virtual'] } },
} as const satisfies JSONSchema

/**
 * Header names are HTTP tokens; values are what Node may send as a header value: tab,
 * visible ASCII, space and Latin-1 (no line breaks, NUL, DEL or `€`), so a fault cannot
 * break the response it makes. Headers that frame the message (content-length,
 * transfer-encoding, connection, ...) are refused by the controller.
 */
const headerMap = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 200 },
  additionalProperties: { type: 'string', maxLength: 8192, pattern: '^[\\t\\x20-\\x7e\\x80-\\xff]*$' },
} as const

/** A fault: the next `times` requests matching method and path get it. */
export const faultBody = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    method: { type: 'string', pattern: '^[A-Za-z]+$', maxLength: 20, description: 'Any method when left out' },
    path: {
      type: 'string',
      pattern: '^/',
      maxLength: 16384,
      description: 'The path without query string; a trailing * matches any rest (/api/v1/candidates/*)',
    },
    status: { type: 'integer', minimum: 200, maximum: 599, description: 'Answer with this status instead (1xx would leave the client waiting)' },
    body: { description: 'The body of that answer: JSON, or a string sent as is' },
    headers: headerMap,
    delayMs: { type: 'integer', minimum: 0, maximum: 600000, description: 'Wait this long before answering' },
    drop: { type: 'boolean', description: 'Close the connection without an answer' },
    truncate: { type: 'boolean', description: 'Send the real answer, cut off halfway through its body' },
    times: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 },
  },
} as const satisfies JSONSchema

/** Values of one constrained list named in a job-fields change: distinct, non-empty, one line each. */
const fieldValueNames = {
  type: 'array',
  minItems: 1,
  maxItems: 1000,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' },
} as const

/** Values by the name job/fields gives each list (salary_currencies, not salary_currency). */
const fieldValueLists = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    job_industry: fieldValueNames,
    job_type: fieldValueNames,
    contract_type: fieldValueNames,
    salary_unit: fieldValueNames,
    salary_currencies: fieldValueNames,
    job_telecommute: fieldValueNames,
  },
} as const

/**
 * POST /__mock/job-fields (and an activity's job-fields event): values job/fields stops
 * listing, and values it lists from now on. Records that hold a retired value keep it.
 */
export const jobFieldsChange = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    retire: { ...fieldValueLists, description: 'Values to take off each list: job/add refuses them from now on' },
    add: { ...fieldValueLists, description: 'Values to append to each list' },
  },
} as const satisfies JSONSchema

export const journalEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'url', 'status', 'time', 'user'],
  properties: {
    method: { type: 'string' },
    url: { type: 'string' },
    status: { type: 'integer' },
    time: timestamp,
    user: { type: 'string', description: "The API user, '' when none authenticated" },
    fault: { type: 'string', description: 'What the fake did instead of answering normally, if anything' },
  },
} as const satisfies JSONSchema
