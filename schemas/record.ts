// The settings of `jobboard-kit record` (docs/record.md): the flags in camelCase, each
// description its --help text. JOBBOARD_BASE_URL, JOBBOARD_USERNAME and
// JOBBOARD_PASSWORD may give the first three instead, as for `contract`.
import type { JSONSchema } from 'json-schema-to-ts'
import { contractOptions } from './contract.js'

const { baseUrl, username, password, maxWait, rateLimitWindow, requestTimeout } = contractOptions.properties

export const recordOptions = {
  type: 'object',
  additionalProperties: false,
  required: ['out'],
  properties: {
    baseUrl,
    username,
    password,
    out: { type: 'string', minLength: 1, pattern: '\\.json$', description: 'Write the scenario to this .json file (its profile goes beside it, as NAME.profile.json)' },
    sample: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000_000,
      description: 'Record at most this many records of each list (the first pages); the rest of each total is generated',
    },
    ledger: {
      type: 'string',
      minLength: 1,
      description: 'Remember across runs, in this file, when each full request was made: a run cut short goes on from where it stopped without repeating a request inside its window',
    },
    maxWait: { ...maxWait, description: 'Seconds the run may spend waiting for rate-limit windows before it stops, incomplete (run it again later to go on)' },
    rateLimitWindow: { ...rateLimitWindow, description: "The deployment's rate-limit window in seconds: each full request once per window" },
    requestTimeout,
    allowLoss: {
      type: 'boolean',
      default: false,
      description: 'Write the scenario and exit 0 though some records read cannot be carried over (they are still named on stderr); without it such a loss exits 1',
    },
    maxPages: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      default: 100_000,
      description: 'Pages of one list the run follows next_page through at most: a chain longer than its total says is stopped anyway',
    },
  },
} as const satisfies JSONSchema
