// Response schemas shared by every route: the error bodies, a file download, and the
// records with the board's extra fields declared.
import type { FastifyInstance } from 'fastify'
import { anyErrorBody } from '../../schemas/index.js'
import { withExtraFields, type ExtraFieldRecord } from '../extra-fields.js'

export const errors = { '4xx': anyErrorBody, '5xx': anyErrorBody } as const

/**
 * A record's schema with the extra fields of the board the routes are built for
 * (behaviour.extraFields): Fastify's serializer drops fields a schema does not declare.
 */
export const withExtras = <S extends object>(app: FastifyInstance, kind: ExtraFieldRecord, schema: S): S =>
  withExtraFields(schema, app.board.scenario.behaviour.extraFields[kind])

/** A raw file of the given type: sent as bytes, described for the OpenAPI document. */
export const download = (type: string) => ({ content: { [type]: { schema: { type: 'string', format: 'binary' } } } }) as const
