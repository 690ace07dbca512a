// The options of `jobboard-kit proxy` (src/proxy/): the CLI's flags in camelCase, as
// createProxy takes them. host, port, control, controlToken and log are serve's own
// (schemas/options.ts), so both commands read them, and their JOBBOARD_* variables, alike.
// And the JSON report it writes at shutdown (--report): what staging broke and what the
// client broke, with the rules' ids and the spec's words.
import type { JSONSchema } from 'json-schema-to-ts'
import { timestamp } from './common.js'
import { verdictAnswer } from './control.js'
import { serverOptions } from './options.js'

const { host, port, control, controlToken, log } = serverOptions.properties

export const proxyOptions = {
  type: 'object',
  additionalProperties: false,
  required: ['to'],
  properties: {
    to: { type: 'string', minLength: 1, description: 'The deployment to stand in front of: its {base_url} (http or https), such as https://staging.example.com' },
    host,
    port,
    control,
    controlToken,
    log,
    keepLinks: {
      type: 'boolean',
      default: false,
      description:
        "Leave the upstream's origin in answer links: by default it is rewritten to the proxy's in next_page, prev_page, hrefs, job/add's job page URL and Location, so a client that follows links stays behind the proxy (the one change the proxy makes)",
    },
    upstreamTimeout: {
      type: 'integer',
      minimum: 1,
      maximum: 3600000,
      default: 30000,
      description: 'Milliseconds the upstream may take to connect, to send its answer\'s head, or between two chunks of its body, before the client gets a 504',
    },
    checkBytes: {
      type: 'integer',
      minimum: 1024,
      maximum: 268435456,
      default: 8388608,
      description: 'Bytes of a JSON answer held to rewrite its links and check it (default 8 MiB); a longer one streams through as it came and is checked by its headers and length',
    },
    profile: {
      type: 'string',
      minLength: 1,
      description:
        "Deployment profile (JSON, as contract --write-profile writes it): its points one answer shows (pageSize, lastPageNextPage, preconditionHttpStatus) are held to it; a change is a violation of the profile, not of the spec",
    },
    record: {
      type: 'string',
      minLength: 1,
      description:
        "proxy: write what passed through as a scenario the fake loads, at shutdown (personal values replaced as `record` replaces them; the records seen and written are printed, and a record read and not written makes the proxy exit 1)",
    },
    verdictExit: { type: 'boolean', default: false, description: 'proxy: exit 1 on SIGINT/SIGTERM when the client verdict fails or staging broke a rule' },
    junit: { type: 'string', minLength: 1, description: 'proxy: write JUnit XML to this file at shutdown (what staging broke, what the client broke)' },
    report: {
      type: 'string',
      minLength: 1,
      description: "proxy: write the JSON report to this file at shutdown (what staging broke and what the client broke, with the rules' ids and the spec's words; docs/proxy.md)",
    },
    reportText: { type: 'string', minLength: 1, description: 'proxy: write the same report as plain text to this file at shutdown' },
    html: { type: 'string', minLength: 1, description: 'proxy: write the page of /__mock/ui with the traffic inside as one self-contained HTML file at shutdown (for CI artifacts)' },
  },
} as const satisfies JSONSchema

/** A rule of the verdict, as GET /__mock/verdict gives it. */
const verdict = verdictAnswer.properties.rules.items.properties

/** A journal id: GET /__mock/requests/{id} while the proxy runs. */
const requestId = { type: 'integer', minimum: 1 } as const

/** The JSON report the proxy writes at shutdown (--report FILE; --report-text writes the same as text). */
export const proxyReport = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'version', 'to', 'writtenAt', 'upstreamRequests', 'outcome', 'staging', 'client'],
  properties: {
    kind: { type: 'string', const: 'jobboard-kit proxy report' },
    version: { type: 'integer', const: 1 },
    to: { type: 'string', description: 'The deployment the proxy stood in front of (--to): its base URL, which carries no credentials' },
    writtenAt: { ...timestamp, description: 'When the proxy stopped and wrote the report' },
    upstreamRequests: { type: 'integer', minimum: 0, description: 'Requests passed upstream' },
    outcome: { type: 'string', enum: ['pass', 'fail'], description: "fail when staging broke a rule or the client's verdict failed: what --verdict-exit exits 1 on" },
    staging: {
      type: 'object',
      additionalProperties: false,
      required: ['outcome', 'violations', 'rules', 'observations'],
      description: "What staging broke: each answer held to the contract kit's rules (GET /__mock/violations)",
      properties: {
        outcome: { type: 'string', enum: ['pass', 'fail'] },
        violations: { type: 'integer', minimum: 0, description: 'Violations found, those past the 10,000 kept included' },
        rules: {
          type: 'array',
          description: 'Each rule broken, in the order it was first broken',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['rule', 'basis', 'spec', 'violations'],
            properties: {
              rule: { type: 'string', description: "The rule's id: the contract kit's check it breaks (`candidates/list: the first page fits the candidate list schema`), as docs/contract.md's table names it" },
              basis: { type: 'string', enum: ['spec', 'profile'], description: "spec: the spec's words; profile: the deployment's own recorded choice (--profile) where the spec is silent" },
              spec: { type: 'array', items: { type: 'string' }, description: "The spec's words the rule rests on (or the RFC section it comes from); none when the basis is the profile" },
              violations: {
                type: 'array',
                description: 'Each answer that broke it, as GET /__mock/violations lists it',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['request', 'time', 'method', 'url', 'status', 'message'],
                  properties: {
                    request: requestId,
                    time: timestamp,
                    method: { type: 'string' },
                    url: { type: 'string', description: "The request's path and query as the client sent it, credentials cut" },
                    status: { type: 'integer', description: 'The status the upstream answered' },
                    message: { type: 'string', description: 'What the answer broke' },
                  },
                },
              },
            },
          },
        },
        observations: {
          type: 'array',
          description: 'What the answers showed that no rule fails (drift, a choice where the spec is silent)',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['topic', 'endpoint', 'summary', 'count', 'request'],
            properties: {
              topic: { type: 'string' },
              endpoint: { type: 'string' },
              summary: { type: 'string' },
              count: { type: 'integer', minimum: 1, description: 'How many answers showed it' },
              request: { ...requestId, description: 'The first request that showed it' },
            },
          },
        },
      },
    },
    client: {
      type: 'object',
      additionalProperties: false,
      required: ['outcome', 'rules', 'requests'],
      description: "What the client broke: the verdict (GET /__mock/verdict), each rule with its sentence and the spec's words",
      properties: {
        outcome: { type: 'string', enum: ['pass', 'fail'] },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'outcome', 'sentence', 'spec', 'findings'],
            properties: {
              id: { ...verdict.id, description: "The rule's id (docs/verdict.md)" },
              outcome: verdict.outcome,
              sentence: { type: 'string', description: 'What the rule asks of a client' },
              spec: { type: 'string', description: "The spec's words it rests on, and where they are" },
              // as GET /__mock/verdict gives them: a message and the journal ids of the requests concerned (see requests)
              findings: verdict.findings,
              notExercised: { type: 'string', description: 'Why the rule cannot be exercised behind a proxy, while it is not' },
            },
          },
        },
        requests: {
          type: 'object',
          description: 'The requests the findings name, by journal id: method, URL (credentials cut) and time; one the verdict did not keep is left out (GET /__mock/requests/{id} while the proxy runs)',
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'url', 'time'],
            properties: { method: { type: 'string' }, url: { type: 'string' }, time: timestamp },
          },
        },
      },
    },
  },
} as const satisfies JSONSchema
