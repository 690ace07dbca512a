// Extra record fields (behaviour.extraFields): the record schemas with them declared, so
// the store validates them and the serializer keeps them, and their values, made in the
// shape of each field's example from a seeded faker.
import type { Faker } from '@faker-js/faker'
import type { JSONSchema } from 'json-schema-to-ts'
import type { EXTRA_FIELD_RECORDS } from '../../../schemas/behaviour.js'
import type { boardState, compactBoardState } from '../../../schemas/state.js'
import type { DeepReadonly } from '../../core/freeze.js'
import { drawFrom, sameShape } from '../../core/shape.js'
import type { ExtraField } from '../../core/types.js'

export type ExtraFieldRecord = keyof typeof EXTRA_FIELD_RECORDS
export type ExtraFields = DeepReadonly<Record<string, ExtraField>>

const VALUE_SCHEMA: Record<ExtraField['type'], JSONSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
  array: { type: 'array', items: {} },
  object: { type: 'object', additionalProperties: true },
}

/** `schema` (a record's, with `properties` and `required`) with the extra fields declared and required. */
export function withExtraFields<S extends object>(schema: S, fields: ExtraFields | undefined): S {
  const names = Object.keys(fields ?? {})
  if (!fields || names.length === 0) return schema
  const base = schema as { properties: object; required?: readonly string[] }
  return {
    ...schema,
    required: [...(base.required ?? []), ...names],
    properties: { ...base.properties, ...Object.fromEntries(names.map((name) => [name, VALUE_SCHEMA[(fields[name] as DeepReadonly<ExtraField>).type]])) },
  }
}

/** Values for the extra fields a record lacks, each in its example's shape. */
export function extraValues(record: object, fields: ExtraFields | undefined, faker: Faker): Record<string, unknown> {
  if (!fields) return {}
  const draw = drawFrom(faker)
  const out: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(fields)) if (!(name in record)) out[name] = sameShape(field.example, draw)
  return out
}

type SavedRecords = typeof boardState.properties.store.properties

/** A saved board's lists of records with the extra fields declared (marketing records as given, or wrapped as `{id, record}`). */
function recordsWithExtraFields<M extends { items: object }>(
  records: Pick<SavedRecords, 'candidates' | 'applications' | 'timesheets'> & { marketing: M },
  fields: DeepReadonly<Partial<Record<ExtraFieldRecord, Record<string, ExtraField>>>>,
  marketingItem: (item: M['items'], extend: <S extends object>(schema: S) => S) => M['items'],
) {
  const { candidates, applications, timesheets, marketing } = records
  return {
    candidates: { ...candidates, items: withExtraFields(candidates.items, fields.candidate) },
    applications: {
      ...applications,
      items: {
        ...applications.items,
        properties: { ...applications.items.properties, record: withExtraFields(applications.items.properties.record, fields.application) },
      },
    },
    timesheets: { ...timesheets, items: withExtraFields(timesheets.items, fields.timesheet) },
    marketing: { ...marketing, items: marketingItem(marketing.items, (schema) => withExtraFields(schema, fields.marketing)) },
  }
}

/** The saved-board schema with a board's extra fields declared on its records, so a saved board restores. */
export function stateWithExtraFields(
  schema: typeof boardState,
  fields: DeepReadonly<Partial<Record<ExtraFieldRecord, Record<string, ExtraField>>>>,
): typeof boardState {
  const store = schema.properties.store
  return {
    ...schema,
    properties: {
      ...schema.properties,
      store: { ...store, properties: { ...store.properties, ...recordsWithExtraFields(store.properties, fields, (item, extend) => extend(item)) } },
    },
  }
}

/** The compact saved-board schema with a board's extra fields declared on its written records. */
export function compactStateWithExtraFields(
  schema: typeof compactBoardState,
  fields: DeepReadonly<Partial<Record<ExtraFieldRecord, Record<string, ExtraField>>>>,
): typeof compactBoardState {
  const store = schema.properties.store
  const written = store.properties.written
  const records = recordsWithExtraFields(written.properties, fields, (item, extend) => ({
    ...item,
    properties: { ...item.properties, record: extend(item.properties.record) },
  }))
  return {
    ...schema,
    properties: {
      ...schema.properties,
      store: { ...store, properties: { ...store.properties, written: { ...written, properties: { ...written.properties, ...records } } } },
    },
  }
}
