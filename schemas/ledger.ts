// The contract kit's ledger file (--ledger): when each full request was last made and
// when its rate-limit window opens again, kept by CI between runs.
import type { JSONSchema } from 'json-schema-to-ts'

export const LEDGER_KIND = 'jobboard-kit contract ledger'

export const ledgerEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'until'],
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When the request was made' },
    until: { type: 'string', format: 'date-time', description: 'When it may be made again' },
  },
} as const satisfies JSONSchema

export const ledgerFile = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'version', 'requests'],
  properties: {
    kind: { const: LEDGER_KIND },
    version: { const: 1 },
    /** By `<user> <METHOD> <full URL>`. */
    requests: { type: 'object', additionalProperties: ledgerEntry },
  },
} as const satisfies JSONSchema
