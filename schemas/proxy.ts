// The options of `jobboard-kit proxy` (src/proxy/): the CLI's flags in camelCase, as
// createProxy takes them. host, port, control, controlToken and log are serve's own
// (schemas/options.ts), so both commands read them, and their JOBBOARD_* variables, alike.
import type { JSONSchema } from 'json-schema-to-ts'
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
    report: { type: 'string', minLength: 1, description: 'proxy: write a plain-text report to this file at shutdown (what staging broke, what the client broke)' },
    html: { type: 'string', minLength: 1, description: 'proxy: write the page of /__mock/ui with the traffic inside as one self-contained HTML file at shutdown (for CI artifacts)' },
  },
} as const satisfies JSONSchema
