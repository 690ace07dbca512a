// The settings of a contract run (`jobboard-kit contract`): the flags in camelCase, each
// description its --help text. JOBBOARD_BASE_URL, JOBBOARD_USERNAME and
// JOBBOARD_PASSWORD may give the first three instead (src/contract/settings.ts).
import type { JSONSchema } from 'json-schema-to-ts'
import { scenario } from './scenario.js'

const { username, password } = scenario.properties.credentials.items.properties

export const CONTRACT_GROUPS = ['fields', 'candidates', 'applications', 'timesheets', 'marketing', 'metrics', 'auth', 'jobs', 'rate-limit'] as const

export const contractOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    baseUrl: { type: 'string', minLength: 1, description: "The spec's {base_url}, without /api/v1 (env JOBBOARD_BASE_URL)" },
    username: { ...username, description: 'Basic auth user name (env JOBBOARD_USERNAME)' },
    password: { ...password, description: 'Basic auth password (env JOBBOARD_PASSWORD)' },
    writes: { type: 'boolean', default: false, description: 'Also check the job API: makes a job CONTRACT-<time> and deletes it' },
    maxWait: {
      type: 'integer',
      minimum: 0,
      maximum: 86400,
      default: 0,
      description: 'Seconds to wait for a rate-limit window (Retry-after, ledger) before skipping',
    },
    junit: { type: 'string', minLength: 1, description: 'Write JUnit XML of every check to this file' },
    report: { type: 'string', minLength: 1, description: 'Write the JSON report (checks, observations, requests, jobs) to this file' },
    only: {
      type: 'string',
      minLength: 1,
      description: `Run only these groups, comma-separated: ${CONTRACT_GROUPS.join(', ')} (rate-limit runs only when named)`,
    },
    ledger: { type: 'string', minLength: 1, description: 'Remember when each full request was made, across runs, in this file' },
    requestTimeout: { type: 'integer', minimum: 1, maximum: 600, default: 30, description: 'Seconds before one request is given up' },
  },
} as const satisfies JSONSchema
