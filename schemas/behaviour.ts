// The knobs for what the spec leaves open, where a real deployment might differ from
// the fake's default. A scenario sets them under `behaviour`; options and CLI flags
// override them. docs/behaviour.md explains each default.
import type { JSONSchema } from 'json-schema-to-ts'

export const behaviourProperties = {
  lastPageNextPage: {
    type: 'string',
    enum: ['false', 'null', 'omit'],
    default: 'false',
    description: "What next_page holds on a list's last page: false, null, or no next_page at all",
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
    description: "HTTP status of 404 and 412 JSON errors: the body's status, or 200",
  },
  timesheetContentType: {
    type: 'string',
    pattern: '^[a-z]+/[a-z0-9.+-]+$',
    default: 'application/x-timesheet-octet-stream',
    description: 'Content-Type of timesheet downloads',
  },
} as const satisfies Record<string, JSONSchema>

export const behaviour = {
  type: 'object',
  additionalProperties: false,
  properties: behaviourProperties,
  default: {},
} as const satisfies JSONSchema
