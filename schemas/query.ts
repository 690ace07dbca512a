// The query and path parameters of the read endpoints. Query strings arrive as text,
// so these are validated with type coercion (src/validation.ts); unknown parameters
// are ignored, as a web server would.
import type { JSONSchema } from 'json-schema-to-ts'
import { id } from './common.js'

export const since = {
  type: 'string',
  format: 'since',
  description: 'Only records changed at or after this minute: `YYYY-MM-DD HH:MM` (UTC; a space may be sent as `+`)',
} as const satisfies JSONSchema
export const page = {
  type: 'integer',
  minimum: 1,
  maximum: 2147483647,
  description: 'The page to answer, from 1 (the default); follow `next_page` rather than counting',
} as const satisfies JSONSchema

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id },
} as const satisfies JSONSchema

export const pagedQuery = {
  type: 'object',
  properties: { since, page },
} as const satisfies JSONSchema

export const applicationsQuery = {
  type: 'object',
  properties: { since, vacancy: { ...id, description: 'Only applications for this vacancy (job id)' }, page },
} as const satisfies JSONSchema
