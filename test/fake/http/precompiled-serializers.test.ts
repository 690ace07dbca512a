// Response serializers precompiled at build time (fast-json-stringify's standalone code,
// scripts/precompile.mjs) write the same bytes as the ones built at run time; one is named
// by the schema it is built from and the library's version, so it is only taken for them; and the
// serializer compiler takes the one a bundle carries for a route's schema; the build carries
// one for each serializer a fake's GET answers compile.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import t from 'tap'
import { candidate, pagedEnvelope } from '../../../schemas/index.js'
import { carryPrecompiled } from '../../../src/core/validation.js'
import { compiledSchemaTexts, serializerCompiler, serializerName, serializerSource } from '../../../src/fake/http/serializer.js'
import { createMockServer } from '../../../src/index.js'
import { ROOT } from '../../helpers/cli.js'

const require = createRequire(import.meta.url)
const authorization = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

/** The serializer standalone code exports, as the build's file gives it. */
function fromSource(source: string): (data: unknown) => string {
  const module = { exports: undefined as unknown }
  new Function('module', 'require', source)(module, require)
  return module.exports as (data: unknown) => string
}

const INDEX = join(ROOT, 'dist', 'precompiled', 'index.cjs')

// first: the process keeps serializers by schema text, and the others compile some
t.test('the build carries a serializer for each schema a fake compiles as it answers its lists and details', { skip: existsSync(INDEX) ? false : 'dist/ is not built (npm run build)' }, async (t) => {
  const carried = new Set(Object.keys(require(INDEX) as Record<string, unknown>))
  const before = new Set(compiledSchemaTexts())
  const mock = await createMockServer({ clock: 'virtual' })
  t.teardown(() => mock.close())
  for (const list of ['candidates', 'applications', 'timesheets', 'marketing']) t.equal((await mock.app.inject({ url: `/api/v1/${list}/list`, headers: { authorization } })).statusCode, 200, `${list}/list answers`)
  t.equal((await mock.app.inject({ url: '/api/v1/candidates/details/1', headers: { authorization } })).statusCode, 200)
  const made = compiledSchemaTexts().filter((text) => !before.has(text))
  t.ok(made.length >= 4, `the answers compiled ${made.length} serializers`)
  for (const text of made) t.ok(carried.has(serializerName(JSON.parse(text))), `${serializerName(JSON.parse(text))} is in the build (rebuild with npm run build if the sources changed)`)
})

t.test('a precompiled serializer writes a page of candidates byte for byte as one built at run time', async (t) => {
  const mock = await createMockServer({ clock: 'virtual' })
  t.teardown(() => mock.close())
  const answer = await mock.app.inject({ url: '/api/v1/candidates/list', headers: { authorization } })
  t.equal(answer.statusCode, 200)
  const page = answer.json()
  const schema = pagedEnvelope(candidate)
  const source = serializerSource(schema)
  if (source === undefined) throw new Error('the list envelope needs no ajv at run time: it has standalone code')
  const built = serializerCompiler({ schema: structuredClone(schema) })
  t.equal(fromSource(source)(page), built(page), 'the same text')
  t.same(JSON.parse(fromSource(source)(page)), page, 'which is the page')
  // a value the schema holds as a scalar anyOf (next_page: a URL, false or null) is written as JSON.stringify writes it
  for (const next of [false, null, 'http://example.test/api/v1/candidates/list?page=2']) t.equal(fromSource(source)({ ...page, next_page: next }), built({ ...page, next_page: next }))
})

t.test('a precompiled serializer is named by the schema it is built from and the library, so it is only taken for them', async (t) => {
  const schema = pagedEnvelope(candidate)
  t.equal(serializerName(schema), serializerName(structuredClone(pagedEnvelope(candidate))), 'the same schema gives the same name')
  t.not(serializerName(schema), serializerName({ ...schema, description: 'x' }), 'another schema another name')
  t.not(serializerName({ ...schema, properties: { ...schema.properties, next_page: { type: 'string' } } }), serializerName(schema), 'a scalar field written another way, another name')
  t.match(serializerName(schema), /^s-[0-9a-f]{32}\.cjs$/, 'a file of its own beside the validators')
})

t.test('the serializer compiler takes the serializer a bundle carries for the schema', async (t) => {
  // a schema no other test of this process compiles: the process keeps serializers by schema text
  const schema = { type: 'object', properties: { carried: { type: 'string' } }, description: 'carried-serializer test' }
  let made = 0
  carryPrecompiled({
    [serializerName(schema)]: () => {
      made += 1
      return (data: unknown) => `carried ${JSON.stringify(data)}`
    },
  })
  t.teardown(() => carryPrecompiled({}))
  const serialize = serializerCompiler({ schema })
  t.equal(made, 0, 'nothing is taken before the first answer')
  t.equal(serialize({ carried: 'x' }), 'carried {"carried":"x"}', 'the carried serializer writes the answer')
  t.equal(made, 1)
  const other = serializerCompiler({ schema: { ...schema, description: 'another' } })
  t.equal(other({ carried: 'x' }), '{"carried":"x"}', 'another schema is built at run time')
  t.equal(made, 1, 'the carried serializer was not asked for it')
})
