// The options of the fake: the CLI's flags in camelCase, as createMockServer takes
// them. Validated with defaults filled in, then frozen (src/fake/options.ts). Settings left
// out fall back to the scenario's. Each description is the flag's --help text.
import type { JSONSchema } from 'json-schema-to-ts'
import { behaviourProperties } from './behaviour.js'
import { timestamp, url } from './common.js'
import { scenario } from './scenario.js'

const { default: _d1, ...seed } = scenario.properties.seed
const { default: _d2, ...pageSize } = scenario.properties.pageSize
const { default: _d3, ...rateLimitWindow } = scenario.properties.rateLimitWindow

/** The behaviour knobs without defaults: an option left out keeps the scenario's value. */
const behaviourOverrides = Object.fromEntries(
  Object.entries(behaviourProperties).map(([key, { default: _, ...rest }]) => [key, rest]),
) as { [K in keyof typeof behaviourProperties]: Omit<(typeof behaviourProperties)[K], 'default'> }

export const serverOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scenario: { type: 'string', minLength: 1, default: 'default', description: 'Scenario name (scenarios/) or path to a scenario file' },
    seed: { ...seed, description: "Seed of the generated board (default: the scenario's)" },
    accountSeedStep: {
      ...scenario.properties.accountSeedStep,
      description: "Seed step between accounts given without a seed: account K is on the seed + (K - 1) x this step; 0, the same board for every account (default: the scenario's, else 0)",
    },
    maxChanges: {
      type: 'integer',
      minimum: 1,
      maximum: 100000000,
      default: 100000,
      description: 'Records a board (each account\'s) may add, change or delete over its generated one before a write is refused; a reset drops them',
    },
    now: { ...timestamp, description: "Start time of the clock and end of the generated history (default: the scenario's)" },
    pageSize: { ...pageSize, description: "Records per page of every list (default: the scenario's)" },
    username: { ...scenario.properties.credentials.items.properties.username, description: 'Basic auth user name (default: the scenario\'s, jobboard)' },
    password: { ...scenario.properties.credentials.items.properties.password, description: 'Basic auth password (default: the scenario\'s, jobboard)' },
    rateLimitWindow: { ...rateLimitWindow, description: 'Seconds each full request may be made once in; 0 turns the limit off (default: 900)' },
    clock: { type: 'string', enum: ['real', 'virtual'], default: 'real', description: 'real: the machine\'s time; virtual: stands still until advanced' },
    clockSpeed: {
      type: 'integer',
      minimum: 1,
      maximum: 86400,
      default: 1,
      description: 'Board seconds per real second of the real clock (600: a 10-hour day in a minute); Retry-After headers are divided by it',
    },
    activity: {
      type: 'string',
      minLength: 1,
      description: 'Activity (scenarios/activity/) or path to an activity file (.json, .yaml) played as the clock passes its events',
    },
    publicBaseUrl: { ...url, description: 'Origin of links, paging URLs and job pages (default: the origin a request came in on)' },
    host: { type: 'string', minLength: 1, default: '127.0.0.1', description: 'Interface to listen on' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 4010, description: 'Port to listen on; 0 picks a free one' },
    control: { type: 'boolean', default: true, description: 'Serve the /__mock control API' },
    controlToken: { type: 'string', minLength: 8, description: 'Bearer token of the control API (required off loopback)' },
    prefer: { type: 'boolean', default: true, description: 'Honour Prefer: code=NNN request headers' },
    trustProxy: { type: 'boolean', default: false, description: 'Trust X-Forwarded-* headers for the origin of links' },
    log: {
      type: 'string',
      enum: ['pretty', 'json', 'off'],
      description: "Request log on stdout: pretty (one line per request), json (Fastify's JSON lines), off (default: pretty on a terminal, else off)",
    },
    logger: { type: 'boolean', default: false, description: 'Deprecated: --logger on is --log json' },
    profile: { type: 'string', minLength: 1, description: 'Deployment profile (JSON) whose points set the knobs below; a knob given as well wins' },
    requestTimeout: {
      type: 'integer',
      minimum: 0,
      maximum: 3600000,
      default: 30000,
      description: 'Milliseconds a request (headers and body) may take to arrive before a 408; 0 waits forever',
    },
    connectionTimeout: {
      type: 'integer',
      minimum: 0,
      maximum: 3600000,
      default: 60000,
      description: 'Milliseconds a connection may stay silent before it is closed (a delay fault extends it); 0 never closes it',
    },
    shutdownTimeout: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 5000,
      description: 'Milliseconds close() and SIGTERM wait for requests in flight before closing their connections',
    },
    stateBodyLimit: {
      type: 'integer',
      minimum: 1048576,
      // below the longest string V8 makes (2^29 - 24 characters): the body is read as one
      maximum: 524288000,
      default: 16777216,
      description: 'Bytes a saved board sent to PUT /__mock/state may hold, 1 MiB to 500 MiB (default 16 MiB: the default board saves in 0.35 MB)',
    },
    rateLimitMaxWindows: {
      type: 'integer',
      minimum: 1,
      maximum: 10000000,
      default: 100000,
      description: 'Rate-limit windows kept open at most; past it the oldest is dropped first',
    },
    verdict: { type: 'boolean', default: true, description: "Judge the client's requests against the API's rules as they come (GET /__mock/verdict)" },
    verdictJson: { type: 'string', minLength: 1, description: 'serve: write the verdict as JSON to this file at shutdown' },
    verdictJunit: { type: 'string', minLength: 1, description: 'serve: write the verdict as JUnit XML to this file at shutdown (one test case per rule)' },
    verdictHtml: {
      type: 'string',
      minLength: 1,
      description: "serve: write the verdict and the timeline of the day as one self-contained HTML file at shutdown (the page of /__mock/ui, for CI artifacts)",
    },
    verdictExit: { type: 'boolean', default: false, description: 'serve: exit 1 on SIGINT/SIGTERM when the verdict fails' },
    ...behaviourOverrides,
  },
} as const satisfies JSONSchema
