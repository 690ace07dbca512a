// The knobs for what the spec leaves open, where a real deployment might differ from
// the fake's default. A scenario sets them under `behaviour`; a deployment profile
// (schemas/profile.ts) records them; options and CLI flags override both.
// docs/behaviour.md explains each default. Every default is the fake's answer before
// the knob existed, so adding a knob changes no answer; one on purpose aside:
// guestApplicants' 0.1 puts guests on every generated board, so that every client meets
// an application by no candidate without asking (0 gives the boards of before).
import type { JSONSchema } from 'json-schema-to-ts'
import { application } from './application.js'
import { candidate } from './candidate.js'
import { marketingRecord } from './marketing.js'
import { timesheet } from './timesheet.js'
import { METRIC_LABELS } from './values.js'

/**
 * Marks (as the `$comment` of a knob, which is the definition of the profile point of
 * that name) a point a run reads from the records themselves rather than from a choice
 * the deployment made: records that arrive between two runs, or during one, move its
 * value while the deployment chooses nothing new. `contract --profile` holds such a point
 * to its kind, not its value (schemas/profile.ts `heldToKind`, docs/profile.md).
 */
export const FROM_THE_RECORDS = 'read from the records: '

/** How an error answer's body is sent: the `{status, message}` JSON, the message as text/plain, or no body. */
export const ERROR_BODY_TYPES = ['json', 'text', 'empty'] as const
const errorBodyType = (what: string) =>
  ({
    type: 'string',
    enum: ERROR_BODY_TYPES,
    default: 'json',
    description: `Body of ${what}: {status, message} JSON, the message as text/plain, or no body`,
  }) as const

const CONTENT_TYPE = '^[a-z]+/[a-z0-9.+-]+$'

/** The JSON types an extra record field may have, each with an example of that type. */
export const EXTRA_FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'] as const
const typed = <T extends (typeof EXTRA_FIELD_TYPES)[number], E extends JSONSchema>(type: T, example: E) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['type', 'example'],
    properties: { type: { type: 'string', const: type }, example },
  }) as const
export const extraField = {
  anyOf: [
    typed('string', { type: 'string', maxLength: 1000 }),
    typed('integer', { type: 'integer' }),
    typed('number', { type: 'number' }),
    typed('boolean', { type: 'boolean' }),
    typed('null', { type: 'null' }),
    typed('array', { type: 'array', maxItems: 20 }),
    typed('object', { type: 'object', maxProperties: 20 }),
  ],
} as const satisfies JSONSchema

/**
 * Extra top-level fields of one kind of record: name → type and example. A field the
 * spec lists is no extra, and a prototype key is no name: a saved board carrying one
 * could not be sent back (JSON bodies refuse them).
 */
const extraFieldsOf = (record: { properties: object }) =>
  ({
    type: 'object',
    maxProperties: 32,
    propertyNames: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$',
      not: { enum: [...Object.keys(record.properties), '__proto__', 'constructor', 'prototype'] },
    },
    additionalProperties: extraField,
  }) as const

/**
 * The top-level keys the spec names for each kind of answer: what a deployment adds
 * beyond them (`per_page` or `message` on a list, `code` on an error) is envelopeKeys.
 */
export const ENVELOPE_KEYS = {
  list: ['status', 'total', 'data', 'next_page', 'prev_page'],
  details: ['status', 'total', 'data'],
  jobAdd: ['status', 'message', 'id'],
  jobOperation: ['status', 'message'],
  metrics: ['status', 'metrics'],
  error: ['status', 'message'],
} as const
export type EnvelopeKind = keyof typeof ENVELOPE_KEYS
const envelopeKeysOf = (kind: EnvelopeKind) =>
  ({
    type: 'array',
    maxItems: 32,
    uniqueItems: true,
    // a key the spec names for the kind is no added one, and a prototype key is no name
    items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$', not: { enum: [...ENVELOPE_KEYS[kind], '__proto__', 'constructor', 'prototype'] } },
  }) as const

/** The records that may carry extra fields, by the name a profile gives them. */
export const EXTRA_FIELD_RECORDS = { candidate, application, timesheet, marketing: marketingRecord } as const

export const behaviourProperties = {
  lastPageNextPage: {
    type: 'string',
    enum: ['false', 'null', 'empty', 'omit'],
    default: 'false',
    description: "What next_page holds on a list's last page: false, null, the empty string, or no next_page at all",
  },
  outOfRangePage: {
    type: 'string',
    enum: ['empty', 'not-found'],
    default: 'empty',
    description: 'A page past the last: an empty page (200) or 404',
  },
  pageCandidates: {
    type: 'boolean',
    default: true,
    description: 'Page candidates/list like the other lists (otherwise one page holds every candidate)',
  },
  sinceField: {
    type: 'string',
    enum: ['updated_at', 'created_at'],
    default: 'updated_at',
    description: 'The field since compares for candidates and applications (timesheets and marketing use created_at)',
  },
  rateLimitCounts: {
    type: 'string',
    enum: ['all', 'success'],
    default: 'all',
    description: "Which answers use up a request's rate-limit window: all (4xx too) or only successful ones",
  },
  unknownJobFields: {
    type: 'string',
    enum: ['reject', 'ignore'],
    default: 'reject',
    description: "job/add fields outside the spec's list: refused with 412, or ignored",
  },
  errorHttpStatus: {
    type: 'string',
    enum: ['mirror', 'ok'],
    default: 'mirror',
    description: "HTTP status of 404 JSON errors: the body's status, or 200",
  },
  preconditionHttpStatus: {
    type: 'integer',
    enum: [412, 200, 400, 422],
    default: 412,
    description: 'HTTP status line of a JSON error whose body says status 412 (an invalid posted field, a malformed since): 412, 200, 400 or 422',
  },
  timesheetContentType: {
    type: 'string',
    pattern: '^[a-z]+/[a-z0-9.+-]+$',
    default: 'application/x-timesheet-octet-stream',
    description: 'Content-Type of timesheet downloads',
  },
  resumeContentType: {
    type: 'string',
    pattern: CONTENT_TYPE,
    default: 'application/octet-stream',
    description: 'Content-Type of resume downloads',
  },
  documentContentType: {
    type: 'string',
    pattern: CONTENT_TYPE,
    default: 'application/octet-stream',
    description: 'Content-Type of document downloads',
  },
  notFoundBody: errorBodyType('a 404 for an unknown id (or a page under outOfRangePage not-found)'),
  malformedSince: {
    type: 'string',
    enum: ['refuse', 'ignore'],
    default: 'refuse',
    description: 'A since that is not YYYY-MM-DD HH:MM: refused with 412 naming since, or ignored (the whole list)',
  },
  rateLimitBody: errorBodyType('a 429 (Retry-after is sent either way)'),
  authStatus: {
    type: 'integer',
    enum: [401, 403],
    default: 401,
    description: 'HTTP status of a request with missing or wrong credentials',
  },
  authChallenge: {
    type: 'boolean',
    default: true,
    description: 'Send WWW-Authenticate: Basic with an auth refusal answered 403 (a 401 always carries it: RFC 9110 §11.6.1)',
  },
  authBody: errorBodyType('an auth refusal'),
  monthNames: {
    type: 'string',
    enum: ['long', 'short'],
    default: 'long',
    description: "Month names in metrics and candidates' available_from_month: long (November) or short (Nov)",
  },
  jobFieldsShape: {
    type: 'string',
    enum: ['data', 'top-level'],
    default: 'data',
    description: 'job/fields answer: {status, data: {lists}} or {status, <lists>} at the top level',
  },
  listOrder: {
    type: 'string',
    enum: ['newest-first', 'oldest-first'],
    default: 'newest-first',
    description: 'Order of candidates/list, timesheets/list and marketing/list (applications are newest first by the spec)',
  },
  closeExpireIdField: {
    type: 'string',
    enum: ['id', 'job_id'],
    default: 'id',
    description: 'The field that names the job in the body of job/close and job/expire: {id} or {job_id}',
  },
  extraFields: {
    type: 'object',
    additionalProperties: false,
    default: {},
    description: "Fields records carry beyond the spec's, per record kind: name → {type, example}; values are generated in the example's shape",
    properties: {
      candidate: extraFieldsOf(EXTRA_FIELD_RECORDS.candidate),
      application: extraFieldsOf(EXTRA_FIELD_RECORDS.application),
      timesheet: extraFieldsOf(EXTRA_FIELD_RECORDS.timesheet),
      marketing: extraFieldsOf(EXTRA_FIELD_RECORDS.marketing),
    },
  },
  guestApplicants: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0.1,
    description:
      'Share of generated applications made by guests: applicants with no candidate account, listed under no candidate (0 to 1)',
    $comment: `${FROM_THE_RECORDS}the share of guests among the applications a run lists moves with every application that arrives, a guest's or a candidate's`,
  },
  marketingApprovalAction: {
    type: 'string',
    // any word but the one the spec shows for a revocation
    pattern: '^(?!Revoked$)[^\\u0000-\\u001f]{1,100}$',
    default: 'Approved',
    description: "The action word of a marketing record (and a candidate's consent value) that approves: the spec shows Revoked only",
  },
  extraMetricLabels: {
    type: 'array',
    maxItems: 20,
    uniqueItems: true,
    // a label the spec names is no extra one
    items: { type: 'string', pattern: '^[^\\u0000-\\u001f]{1,100}$', not: { enum: METRIC_LABELS } },
    default: [],
    description: 'Labels metrics/list answers beyond the ten the spec names, after them, each with months of its own',
  },
  envelopeKeys: {
    type: 'object',
    additionalProperties: false,
    default: {},
    description:
      "Top-level keys each kind of answer carries beyond the spec's (list, details, jobAdd, jobOperation, metrics, error): the set each showed; the fake sends each as null",
    properties: {
      list: envelopeKeysOf('list'),
      details: envelopeKeysOf('details'),
      jobAdd: envelopeKeysOf('jobAdd'),
      jobOperation: envelopeKeysOf('jobOperation'),
      metrics: envelopeKeysOf('metrics'),
      error: envelopeKeysOf('error'),
    },
  },
} as const satisfies Record<string, JSONSchema>

export const behaviour = {
  type: 'object',
  additionalProperties: false,
  properties: behaviourProperties,
  default: {},
} as const satisfies JSONSchema
