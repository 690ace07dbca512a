// The fake compiles its schemas without checking them against the draft-07 meta-schema
// (src/core/validation.ts, for start-up time): this test is where they are checked.
import t from 'tap'
import { Ajv } from 'ajv'
import * as schemas from '../../schemas/index.js'
import { pagedEnvelope, twoWayPagedEnvelope, listEnvelope, errorBody } from '../../schemas/index.js'

const isSchema = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && ['type', 'properties', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref'].some((key) => key in value)

t.test('every schema the fake compiles is valid draft-07', async (t) => {
  const ajv = new Ajv({ strict: false, validateSchema: true })
  const named = Object.entries(schemas).filter(([, value]) => isSchema(value))
  t.ok(named.length > 20, `${named.length} schemas found`)
  const built: Array<[string, unknown]> = [
    ['pagedEnvelope(candidate)', pagedEnvelope(schemas.candidate)],
    ['twoWayPagedEnvelope(timesheet)', twoWayPagedEnvelope(schemas.timesheet)],
    ['listEnvelope(application)', listEnvelope(schemas.application)],
    ['errorBody(412)', errorBody(412)],
  ]
  for (const [name, schema] of [...named, ...built] as Array<[string, object]>) {
    t.ok(ajv.validateSchema(schema), `${name}: ${ajv.errorsText(ajv.errors)}`)
  }
})

t.test('a schema that breaks the meta-schema is caught', async (t) => {
  const ajv = new Ajv({ strict: false, validateSchema: true })
  t.notOk(ajv.validateSchema({ type: 'object', properties: { n: { type: 'integr' } } }), 'a misspelt type fails')
})
