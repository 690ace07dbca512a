// The options of the fake: the CLI's flags in camelCase, as createMockServer takes
// them. Validated with defaults filled in, then frozen (src/options.ts). Settings left
// out fall back to the scenario's.
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
    /** A scenario name from scenarios/, or a path to a scenario file. */
    scenario: { type: 'string', minLength: 1, default: 'default' },
    seed,
    /** Where the virtual clock starts; defaults to the scenario's `now`. */
    now: timestamp,
    pageSize,
    username: scenario.properties.credentials.items.properties.username,
    password: scenario.properties.credentials.items.properties.password,
    rateLimitWindow,
    clock: { type: 'string', enum: ['real', 'virtual'], default: 'real' },
    publicBaseUrl: url,
    host: { type: 'string', minLength: 1, default: '127.0.0.1' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 4010 },
    /** The /__mock control API. */
    control: { type: 'boolean', default: true },
    controlToken: { type: 'string', minLength: 8 },
    /** Honour `Prefer: code=NNN`. */
    prefer: { type: 'boolean', default: true },
    /** Trust X-Forwarded-* headers for the origin of links. */
    trustProxy: { type: 'boolean', default: false },
    logger: { type: 'boolean', default: false },
    ...behaviourOverrides,
  },
} as const satisfies JSONSchema
