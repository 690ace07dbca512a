// The Marketing record of marketing/list: a consent approval or revocation by e-mail.
import type { JSONSchema } from 'json-schema-to-ts'
import { pagedEnvelope, text, timestamp } from './common.js'

export const marketingRecord = {
  type: 'object',
  additionalProperties: false,
  required: ['candidate', 'action', 'created_at'],
  properties: {
    candidate: {
      type: 'object',
      additionalProperties: false,
      required: ['email', 'id', 'ip_address'],
      properties: {
        email: text,
        // 0 when the e-mail has no candidate account (the spec's sample; docs/behaviour.md)
        id: { type: 'integer', minimum: 0, maximum: 2147483647 },
        ip_address: text,
      },
    },
    // "action | string; `Revoked` appears": no length the spec states
    action: text,
    created_at: timestamp,
  },
} as const satisfies JSONSchema

export const marketingList = pagedEnvelope(marketingRecord)
