// An activity file (scenarios/activity/, docs/activity.md): what happens on the board over
// virtual time, as a list of events at offsets from the board's start. The fake plays
// each event as its clock passes it (src/fake/activity/). Each event's record is a seed of
// the control API's adds (schemas/seeds.ts), so a played record is made as an added one is.
import type { JSONSchema } from 'json-schema-to-ts'
import { id } from './common.js'
import { jobFieldsChange } from './control.js'
import { applicationSeed, candidateSeed, marketingSeed, timesheetSeed } from './seeds.js'

/**
 * A time from the board's start, or a length of time: `+H:MM` or `+H:MM:SS`, hours up
 * to 999 (`+09:30` is nine and a half hours after the start).
 */
export const activityOffset = {
  type: 'string',
  pattern: '^\\+[0-9]{1,3}:[0-5][0-9](:[0-5][0-9])?$',
  description: '+H:MM or +H:MM:SS from the board\'s start (or, for a length, of time)',
} as const satisfies JSONSchema

/** The events an activity may hold, in the order docs/activity.md tells them. */
export const ACTIVITY_EVENTS = [
  'new-candidate',
  'update-candidate',
  'new-application',
  'new-timesheet',
  'marketing-approval',
  'marketing-revocation',
  'job-fields',
  'outage',
  'timeouts',
  'burst',
] as const

const {
  id: _id,
  identifier: _identifier,
  email: _email,
  signup_email: _signup,
  created_at: _created,
  updated_at: _updated,
  marketing_opted_in: _opted,
  resumes: _resumes,
  documents: _documents,
  ...candidateEditable
} = candidateSeed.properties

/** A change to a candidate: the fields it sets (not its id, e-mail, files or times); updated_at becomes the time it is played. */
export const candidateUpdate = {
  type: 'object',
  additionalProperties: false,
  required: ['changes'],
  properties: {
    id: { ...id, description: 'The candidate to change; a candidate of the board drawn by the seed when left out' },
    changes: { type: 'object', additionalProperties: false, minProperties: 1, properties: candidateEditable },
  },
} as const satisfies JSONSchema

const { action: _action, ...marketingFields } = marketingSeed.properties
const marketingChoice = { ...marketingSeed, properties: marketingFields } as const

/** A path of the API an outage or timeouts hit: as a fault's (a trailing * matches any rest). */
const faultPath = { type: 'string', pattern: '^/', maxLength: 2048, description: 'The path without query string; a trailing * matches any rest' } as const
const faultMethod = { type: 'string', pattern: '^[A-Za-z]+$', maxLength: 20, description: 'Any method when left out' } as const

/** An application of a burst: ids are the board's, one after another. */
const { id: _applicationId, ...burstFields } = applicationSeed.properties
const burstSeed = { ...applicationSeed, properties: burstFields } as const

const at = activityOffset
const event = <E extends (typeof ACTIVITY_EVENTS)[number]>(name: E) => ({ type: 'string', const: name }) as const
const note = { type: 'string', maxLength: 500, description: 'What the event stands for, for the reader' } as const

/** An event that adds one record, made from the seed given (every field optional). */
const recordEvent = <E extends (typeof ACTIVITY_EVENTS)[number], R extends object>(name: E, record: R) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['at', 'event'],
    properties: { at, event: event(name), note, record },
  }) as const

/** Each event's own schema, by name. */
export const activityEvents = {
  'new-candidate': recordEvent('new-candidate', candidateSeed),
  'update-candidate': {
    type: 'object',
    additionalProperties: false,
    required: ['at', 'event', 'changes'],
    properties: { at, event: event('update-candidate'), note, ...candidateUpdate.properties },
  },
  'new-application': recordEvent('new-application', applicationSeed),
  'new-timesheet': recordEvent('new-timesheet', timesheetSeed),
  'marketing-approval': recordEvent('marketing-approval', marketingChoice),
  'marketing-revocation': recordEvent('marketing-revocation', marketingChoice),
  'job-fields': {
    type: 'object',
    additionalProperties: false,
    required: ['at', 'event'],
    minProperties: 3,
    properties: { at, event: event('job-fields'), note, ...jobFieldsChange.properties },
  },
  outage: {
    type: 'object',
    additionalProperties: false,
    required: ['at', 'event', 'path', 'for'],
    properties: {
      at,
      event: event('outage'),
      note,
      path: faultPath,
      method: faultMethod,
      status: { type: 'integer', minimum: 500, maximum: 599, default: 503, description: 'The status every matching request gets' },
      for: { ...activityOffset, description: 'How long the outage lasts, in board time' },
    },
  },
  timeouts: {
    type: 'object',
    additionalProperties: false,
    required: ['at', 'event', 'path', 'for'],
    properties: {
      at,
      event: event('timeouts'),
      note,
      path: faultPath,
      method: faultMethod,
      delayMs: {
        type: 'integer',
        minimum: 1,
        maximum: 600000,
        default: 60000,
        description: 'Real milliseconds each matching request is held before it is answered (not scaled by --clock-speed: a client times out in its own time)',
      },
      for: { ...activityOffset, description: 'How long requests are held, in board time' },
    },
  },
  burst: {
    type: 'object',
    additionalProperties: false,
    required: ['at', 'event', 'count'],
    properties: {
      at,
      event: event('burst'),
      note,
      count: { type: 'integer', minimum: 1, maximum: 10000, description: 'New applications made' },
      over: { ...activityOffset, description: 'Spread evenly over this long (default: all at once)' },
      record: burstSeed,
    },
  },
} as const satisfies Record<(typeof ACTIVITY_EVENTS)[number], JSONSchema>

/** An activity file: checked first as this outline, then each event against its own schema. */
export const activityFile = {
  type: 'object',
  additionalProperties: false,
  required: ['events'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string', maxLength: 2000 },
    events: {
      type: 'array',
      maxItems: 100000,
      items: {
        type: 'object',
        required: ['at', 'event'],
        properties: { at, event: { type: 'string', enum: ACTIVITY_EVENTS } },
      },
    },
  },
} as const satisfies JSONSchema
