// The settings of a contract run (`jobboard-kit contract`): the flags in camelCase, each
// description its --help text. JOBBOARD_BASE_URL, JOBBOARD_USERNAME and
// JOBBOARD_PASSWORD may give the first three instead (src/contract/settings.ts).
import type { JSONSchema } from 'json-schema-to-ts'
import { scenario } from './scenario.js'

const { username, password } = scenario.properties.credentials.items.properties
const { rateLimitWindow } = scenario.properties

export const CONTRACT_GROUPS = ['fields', 'candidates', 'applications', 'timesheets', 'marketing', 'metrics', 'auth', 'jobs', 'rate-limit'] as const

export const contractOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    baseUrl: { type: 'string', minLength: 1, description: "The spec's {base_url}, without /api/v1 (env JOBBOARD_BASE_URL)" },
    username: { ...username, description: 'Basic auth user name (env JOBBOARD_USERNAME)' },
    password: { ...password, description: 'Basic auth password (env JOBBOARD_PASSWORD)' },
    writes: { type: 'boolean', default: false, description: 'Also check the job API: makes a job CONTRACT-<time> and deletes it; write checks that would repeat a full request take turns across runs (--ledger)' },
    maxWait: {
      type: 'integer',
      minimum: 0,
      maximum: 86400,
      default: 0,
      description: 'Seconds the whole run may spend waiting for rate-limit windows (Retry-after, ledger, a burst limiter) before it leaves checks unmade',
    },
    rateLimitWindow: {
      ...rateLimitWindow,
      description: "The deployment's rate-limit window in seconds, as serve's flag: each full request once per window; 0 lets one run repeat full requests and make every write check",
    },
    minCoverage: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      default: 100,
      description: 'Exit 0 when at least this percentage of the planned checks was made (and none failed); below it, exit 3',
    },
    junit: { type: 'string', minLength: 1, description: 'Write JUnit XML of every check to this file' },
    report: { type: 'string', minLength: 1, description: 'Write the JSON report (checks, observations, requests, jobs) to this file' },
    html: { type: 'string', minLength: 1, description: 'Write the run as one self-contained HTML file (summary, failing checks with the spec words, drift, coverage, requests) to this file' },
    only: {
      type: 'string',
      minLength: 1,
      description: `Run only these groups, comma-separated: ${CONTRACT_GROUPS.join(', ')} (rate-limit runs only when named)`,
    },
    ledger: { type: 'string', minLength: 1, description: 'Remember across runs, in this file: when each full request was made, whose write checks had their turn, jobs still to delete' },
    writeProfile: {
      type: 'string',
      minLength: 1,
      description: "Write the deployment's profile (its choices where the spec is silent, docs/profile.md) to this file, merged with the file's earlier points; prints what changed",
    },
    profile: {
      type: 'string',
      minLength: 1,
      description: 'Check the deployment against this profile too: a recorded point that now differs fails (without it those points are only observed)',
    },
    requestTimeout: { type: 'integer', minimum: 1, maximum: 600, default: 30, description: 'Seconds before one request is given up' },
    runTimeout: {
      type: 'integer',
      minimum: 1,
      maximum: 86400,
      description: 'Seconds the whole run may take; then it stops as on SIGTERM (deletes what it made) and exits 2',
    },
    insecure: {
      type: 'boolean',
      default: false,
      description: 'Do not verify TLS certificates (a test deployment only; a warning says so): trust a private CA with NODE_EXTRA_CA_CERTS instead',
    },
    requireComplete: {
      type: 'boolean',
      default: false,
      description: 'Exit 3 when any planned check was left unmade (rate limited, ledger, outage), whatever --min-coverage allows',
    },
    within: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      description: 'With --require-complete and --writes: exit 3 when a write check (a request case of the job API) was not made in any of the ledger\'s last N runs, this one included',
    },
  },
} as const satisfies JSONSchema
