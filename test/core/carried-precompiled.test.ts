// The bundled package carries its precompiled validators (scripts/bundle.mjs calls
// carryPrecompiled at load): compileSchema takes the carried one for the very schema and
// policy it was made from, and compiles any other schema as from source.
import { createRequire } from 'node:module'
import t from 'tap'
import { pagedQuery } from '../../schemas/query.js'
import { carryPrecompiled, compileSchema, loadStandalone, precompiledName, standaloneSource, TEXT_POLICY } from '../../src/core/validation.js'

const require = createRequire(import.meta.url)

t.test('a bundle that carries validators', async (t) => {
  let made = 0
  carryPrecompiled({
    [precompiledName(TEXT_POLICY, pagedQuery)]: () => () => {
      made += 1
      return loadStandalone(standaloneSource(TEXT_POLICY, pagedQuery), require)
    },
  })

  t.test('gives the carried validator for its schema and policy', async (t) => {
    const validate = compileSchema(TEXT_POLICY, structuredClone(pagedQuery))
    t.equal(made, 1, 'the carried factory made it')
    const query = { page: '2' }
    t.ok(validate(query), 'page=2 is a valid query')
    t.same(query, { page: 2 }, 'and is coerced to a number, as the query policy says')
  })

  t.test('compiles a schema it does not carry', async (t) => {
    const validate = compileSchema(TEXT_POLICY, { type: 'object', properties: { n: { type: 'integer' } } })
    t.equal(made, 1, 'the carried factory was not asked')
    t.notOk(validate({ n: 'x' }), 'n=x is refused')
  })

  t.test('compiles its schema under another policy', async (t) => {
    const validate = compileSchema({ ownSchemas: true }, pagedQuery)
    t.equal(made, 1, 'the carried factory was not asked')
    const query = { page: '2' }
    t.notOk(validate(query), 'page="2" is not coerced without the query policy')
  })
})
