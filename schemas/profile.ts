// A deployment profile: what one deployment of the API chose where the spec is silent.
// The contract kit writes it from what it saw; the fake reads it and answers the same
// way. Its points are the fake's behaviour knobs plus the scenario settings the spec
// leaves open (page size, rate-limit window), derived from those schemas here, so a new
// knob is a new profile point without another edit; and the few points the fake cannot
// answer by (NOT_HONOURED: a burst limiter, what job/add answers a value the spec's words
// leave open), recorded and compared by the kit alone.
import type { JSONSchema } from 'json-schema-to-ts'
import { behaviourProperties, FROM_THE_RECORDS } from './behaviour.js'
import { timestamp, url } from './common.js'
import { scenario } from './scenario.js'

/** Every spec-silent point, by name, with the schema of its value (and the fake's default). */
export const profilePointValues = {
  ...behaviourProperties,
  pageSize: { ...scenario.properties.pageSize, description: 'Records per page of every paged list' },
  rateLimitWindow: {
    ...scenario.properties.rateLimitWindow,
    description: 'Seconds in which each full request may be made once (the spec: 15 minutes); 0 means no limit was met',
  },
  burstLimit: {
    anyOf: [
      { type: 'boolean', const: false },
      {
        type: 'object',
        additionalProperties: false,
        required: ['retryAfter', 'concurrency', 'spacingSeconds'],
        properties: {
          /** The longest short Retry-after (seconds) of the limiter's 429s. */
          retryAfter: { type: 'integer', minimum: 0, maximum: 60 },
          /** The pace the kit had to take: requests at once, and seconds between two starts. */
          concurrency: { type: 'integer', minimum: 1, maximum: 64 },
          spacingSeconds: { type: 'number', minimum: 0, maximum: 60 },
        },
      },
    ],
    default: false,
    description: 'A burst limiter: 429s with a short Retry-after (60 s at most) to requests made once in the run, and the pace the kit took; false when none was met',
  },
  openJobValues: {
    type: 'object',
    maxProperties: 32,
    propertyNames: { type: 'string', pattern: '^job/[a-z]+ [a-z_]+ [a-z-]+$' },
    additionalProperties: { type: 'string', enum: ['accepted', 'refused'] },
    default: {},
    description:
      "What job/add and repost answer each value the spec's words leave open (a date in another form, an empty keyword, a longitude past ±180, coordinates left out), by request case (src/contract/cases.ts OPEN_CASES): accepted or refused",
  },
} as const satisfies Record<string, JSONSchema>

export type ProfilePointName = keyof typeof profilePointValues
export const PROFILE_POINTS = Object.keys(profilePointValues) as ProfilePointName[]

/**
 * Whether a point is read from the records themselves (its definition's `$comment` says
 * FROM_THE_RECORDS): records that arrive move its value, so `contract --profile` holds it
 * to its kind (a value of the same JSON type the point's schema allows), not its value.
 */
export const heldToKind = (point: ProfilePointName): boolean => {
  const comment = (profilePointValues[point] as { $comment?: unknown }).$comment
  return typeof comment === 'string' && comment.startsWith(FROM_THE_RECORDS)
}

/**
 * The points the kit records but the fake does not answer by, and why: a profile may hold them,
 * `serve --profile` starts with them and leaves them aside (docs/profile.md).
 */
export const NOT_HONOURED: Readonly<Partial<Record<ProfilePointName, string>>> = {
  burstLimit: 'the fake limits each full request once per rateLimitWindow and has no burst limiter',
  openJobValues: "the fake refuses every value its schemas' reading of the spec refuses, the ones the spec's words leave open too",
}

/** How the kit knows a point's value: it saw the answer, it reasoned from other answers, or it could not tell. */
export const SEEN = ['directly', 'inferred', 'not-seen'] as const

/** One recorded point: its value (absent when not seen), how it is known, and where and when. */
const point = <Value extends JSONSchema>(value: Value) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['seen'],
    properties: {
      value,
      seen: { type: 'string', enum: SEEN },
      /** The request that showed it, as `GET /api/v1/...`. */
      request: { type: 'string', pattern: '^(GET|POST|PUT|DELETE|PATCH|HEAD) /' },
      date: timestamp,
      note: { type: 'string' },
    },
  }) as const

type PointSchemas = { [K in ProfilePointName]: ReturnType<typeof point<Omit<(typeof profilePointValues)[K], 'default'>>> }

// a point's value has no default: a profile that does not give it does not pin it
const pointSchemas = Object.fromEntries(
  Object.entries(profilePointValues).map(([name, { default: _default, ...value }]) => [name, point(value as JSONSchema)]),
) as unknown as PointSchemas

export const PROFILE_KIND = 'jobboard-kit deployment profile'

export const profileFile = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'version', 'deployment', 'points'],
  properties: {
    $schema: { type: 'string' },
    kind: { type: 'string', const: PROFILE_KIND },
    version: { type: 'integer', const: 1 },
    deployment: {
      type: 'object',
      additionalProperties: false,
      required: ['origin'],
      properties: {
        /** Where the API was found: scheme, host and port (no credentials). */
        origin: url,
        /** When the profile was last written. */
        recorded_at: timestamp,
        /** The jobboard-kit version that wrote it. */
        kit_version: { type: 'string' },
      },
    },
    /** A profile may hold some points only: a point left out is not pinned. */
    points: { type: 'object', additionalProperties: false, properties: pointSchemas },
  },
} as const satisfies JSONSchema
