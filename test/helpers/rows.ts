// A minimal record kind for testing the store's Collection apart from the API's schemas.
import type { FromSchema } from 'json-schema-to-ts'
import { createAjv } from '../../src/core/validation.js'
import { Collection } from '../../src/fake/store/collection.js'

export const rowSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'at', 'n'],
  properties: { id: { type: 'integer' }, at: { type: 'string', format: 'timestamp' }, n: { type: 'integer' } },
} as const

export type Row = FromSchema<typeof rowSchema>

/** An empty collection of rows, validated against rowSchema and timed by `at`. */
export const rowCollection = () => new Collection<Row>('rows', () => createAjv().compile(rowSchema), (r) => r.at)
