// The knobs for what the spec leaves open, where a real deployment might differ from
// the fake's default. A scenario sets them under `behaviour`; options and CLI flags
// override them. docs/behaviour.md explains each default.
import type { JSONSchema } from 'json-schema-to-ts'

export const behaviourProperties = {
  /** What `next_page` holds on the last page. */
  lastPageNextPage: { type: 'string', enum: ['false', 'null', 'omit'], default: 'false' },
  /** A page past the last: an empty page (200) or 404. */
  outOfRangePage: { type: 'string', enum: ['empty', 'not-found'], default: 'empty' },
  /** Whether candidates/list is paged like the other lists. */
  pageCandidates: { type: 'boolean', default: true },
  /** The field `since` compares for candidates and applications (timesheets and marketing have only created_at). */
  sinceField: { type: 'string', enum: ['updated_at', 'created_at'], default: 'updated_at' },
  /** Which answers use up a URL's rate-limit window: every answer but 401/429, or only 2xx ones. */
  rateLimitCounts: { type: 'string', enum: ['all', 'success'], default: 'all' },
  /** job/add fields outside the spec's list: refused with 412, or ignored. */
  unknownJobFields: { type: 'string', enum: ['reject', 'ignore'], default: 'reject' },
  /** The HTTP status of 404 and 412 JSON errors: the same as the body's status, or 200. */
  errorHttpStatus: { type: 'string', enum: ['mirror', 'ok'], default: 'mirror' },
  /** The Content-Type of timesheet downloads (the spec: "a timesheet-specific octet-stream type"). */
  timesheetContentType: {
    type: 'string',
    pattern: '^[a-z]+/[a-z0-9.+-]+$',
    default: 'application/x-timesheet-octet-stream',
  },
} as const satisfies Record<string, JSONSchema>

export const behaviour = {
  type: 'object',
  additionalProperties: false,
  properties: behaviourProperties,
  default: {},
} as const satisfies JSONSchema
