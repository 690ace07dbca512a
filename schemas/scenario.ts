// The scenario file format (scenarios/*.json): a board's seed, size, settings and
// pinned records. Loaded with defaults applied, so a scenario says only what differs.
import type { JSONSchema } from 'json-schema-to-ts'
import { behaviour } from './behaviour.js'
import { timestamp, url } from './common.js'
import { applicationSeed, candidateSeed, jobSeed, marketingSeed, timesheetSeed } from './seeds.js'
import { FIELD_VALUES, METRIC_LABELS } from './values.js'

const count = (fallback: number) => ({ type: 'integer', minimum: 0, maximum: 10_000_000, default: fallback }) as const
const rate = (fallback: number) => ({ type: 'number', minimum: 0, maximum: 1, default: fallback }) as const
const valueList = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } } as const

/**
 * The metrics a board counts from the records its lists show: a scenario pins their
 * records, never their values (metricValues), so the lists and the metrics agree.
 */
export const LISTED_METRICS = ['Registrations', 'Applications', 'Timesheets', 'Consent opt-ins', 'Consent opt-outs'] as const

export const credential = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  properties: {
    // Basic auth cannot carry a colon in the user name
    username: { type: 'string', minLength: 1, pattern: '^[^:]+$' },
    password: { type: 'string', minLength: 1 },
  },
} as const satisfies JSONSchema

/** What an account name may be: a Basic user name and a path segment (`/__mock/accounts/{name}`). */
export const ACCOUNT_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'

/**
 * One account a fake serves (src/fake/accounts.ts): a board of its own whose one API user is
 * its name. The same declaration as `serve --account NAME:PASSWORD[:SCENARIO]` and
 * `createMockServer({ accounts })`; the accounts' rules (src/fake/scenario.ts,
 * `accountsProblem`) read their bounds from here.
 */
export const account = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: ACCOUNT_NAME_PATTERN },
    /** Default: the option password, else the scenario's first credential's. */
    password: { type: 'string', minLength: 1 },
    /** A shipped scenario's name or a path (relative to the declaring file's folder); default: the declaring scenario. */
    scenario: { type: 'string', minLength: 1 },
    /** Default: the fake's seed (or the scenario's), plus the account's position (from 0) × the account seed step (default 0). */
    seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
  },
} as const satisfies JSONSchema

export const predefinedLocation = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'latitude', 'longitude'],
  properties: {
    name: { type: 'string', minLength: 1 },
    latitude: { type: 'number', minimum: -90, maximum: 90 },
    longitude: { type: 'number', minimum: -180, maximum: 180 },
  },
} as const satisfies JSONSchema

/** What a scenario written by `jobboard-kit record` says of its recording (scenario.recording). */
export const recordingInfo = {
  type: 'object',
  additionalProperties: false,
  required: ['complete'],
  properties: {
    /** Scheme, host and port of the deployment recorded (never credentials). */
    origin: { type: 'string' },
    recorded_at: { type: 'string' },
    /** False while the recording is partial: a later run with the same --out goes on from `progress`. */
    complete: { type: 'boolean' },
    /** Why the run stopped short, when it did. */
    reason: { type: 'string' },
    sample: { type: 'integer', minimum: 1 },
    /** What a later run needs to go on: per list the next page to fetch, and links between records; ids and URLs only. */
    progress: { type: 'object' },
  },
} as const satisfies JSONSchema

export const scenario = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
    description: { type: 'string', default: '' },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295, default: 1 },
    /** The end of the generated history and the virtual clock's start. */
    now: { ...timestamp, default: '2026-11-22 09:30:00' },
    historyMonths: { type: 'integer', minimum: 1, maximum: 120, default: 24 },
    counts: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        jobs: count(12),
        candidates: count(48),
        applications: count(180),
        timesheets: count(72),
        resumes: count(40),
        documents: count(30),
        marketing: count(96),
      },
    },
    pageSize: { type: 'integer', minimum: 1, maximum: 1000, default: 25 },
    credentials: {
      type: 'array',
      minItems: 1,
      items: credential,
      default: [{ username: 'jobboard', password: 'jobboard' }],
    },
    /** Seconds for which each full request may be made once; 0 turns the limit off. */
    rateLimitWindow: { type: 'integer', minimum: 0, maximum: 86400, default: 900 },
    publicBaseUrl: url,
    fieldValues: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: Object.fromEntries(Object.keys(FIELD_VALUES).map((k) => [k, valueList])) as {
        [K in keyof typeof FIELD_VALUES]: typeof valueList
      },
    },
    predefinedLocations: { type: 'array', items: predefinedLocation },
    /** How often the edge cases the spec names appear in generated records. */
    mix: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        emptyAddress: rate(0.08),
        emptyCoordinates: rate(0.12),
        withoutFiles: rate(0.15),
        withoutApplications: rate(0.15),
        revoked: rate(0.3),
        unknownMarketingEmail: rate(0.12),
        sectorOnly: rate(0.25),
      },
    },
    /** Months of history of the metrics the store does not count itself, by label. */
    metricMonths: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: Object.fromEntries(
        METRIC_LABELS.map((label) => [label, { type: 'integer', minimum: 1, maximum: 120 }]),
      ) as { [K in (typeof METRIC_LABELS)[number]]: { type: 'integer'; minimum: 1; maximum: 120 } },
    },
    /**
     * Monthly values of the metrics the board does not count from the records its lists
     * show, by label then month (`YYYY-MM`): what a recording read from metrics/list. A
     * pinned label lists exactly these months (0 where a month between them is not given)
     * instead of generated ones; what the board receives later adds to them.
     */
    metricValues: {
      type: 'object',
      default: {},
      propertyNames: { type: 'string', minLength: 1, maxLength: 100 },
      additionalProperties: {
        type: 'object',
        maxProperties: 1200,
        propertyNames: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
        additionalProperties: { type: 'integer', minimum: 0, maximum: 2147483647 },
      },
    },
    records: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        jobs: { type: 'array', items: jobSeed },
        candidates: { type: 'array', items: candidateSeed },
        applications: { type: 'array', items: applicationSeed },
        timesheets: { type: 'array', items: timesheetSeed },
        marketing: { type: 'array', items: marketingSeed },
      },
    },
    behaviour,
    /**
     * The accounts a fake started on this scenario serves, each a board of its own; the
     * `accounts` option (`serve --account`, `--accounts`, `createMockServer({ accounts })`)
     * replaces this list. Read once, when the fake starts: a board's own scenario holds none.
     */
    accounts: { type: 'array', items: account },
    /**
     * What separates the seeds of the accounts given without one: account K (from 1) is on
     * the seed plus (K - 1) × this step. 0 (the default): every account on the same board;
     * 1: each on a board of its own (what earlier versions did). The `accountSeedStep` option
     * (`serve --account-seed-step`) wins over it.
     */
    accountSeedStep: { type: 'integer', minimum: 0, maximum: 4294967295 },
    /** Set by `jobboard-kit record`: where the scenario was recorded from, and whether the recording is whole. */
    recording: recordingInfo,
  },
} as const satisfies JSONSchema
