// Validators precompiled at build time (ajv's standalone code) answer as the ones
// compiled at run time: same verdict, same defaults filled in, same errors, formats
// included. The build writes them from standaloneSource; here they are made the same way.
import t from 'tap'
import { createRequire } from 'node:module'
import { scenario, serverOptions, storedJob } from '../../schemas/index.js'
import { jobInput } from '../../schemas/job.js'
import { pagedQuery } from '../../schemas/query.js'
import { bindFieldValues, createAjv, loadStandalone, precompiledName, standaloneSource, TEXT_POLICY, type AjvPolicy } from '../../src/core/validation.js'
import { boardLists, loadScenario, SCENARIO_POLICY } from '../../src/fake/scenario.js'

const require = createRequire(import.meta.url)

/** Runs both validators on a copy of each input and answers what each made of it. */
function both(policy: AjvPolicy, schema: object, inputs: unknown[]) {
  const precompiled = loadStandalone(standaloneSource(policy, schema), require)
  const compiled = createAjv(policy).compile(schema)
  return inputs.map((input) => {
    const a = structuredClone(input)
    const b = structuredClone(input)
    return { precompiled: { ok: precompiled(a), data: a, errors: precompiled.errors ?? null }, compiled: { ok: compiled(b), data: b, errors: compiled.errors ?? null } }
  })
}

t.test('an options validator fills in the same defaults and refuses the same options', async (t) => {
  const results = both(SCENARIO_POLICY, serverOptions, [{}, { port: 4011, clock: 'virtual' }, { port: 'x' }, { nope: 1 }, { now: '2026-02-30 10:00:00' }])
  t.equal(results.filter((r) => r.precompiled.ok).length, 2, 'two of the inputs are valid options')
  for (const { precompiled, compiled } of results) t.same(precompiled, compiled)
})

t.test('a scenario validator with a board\'s lists bound in answers as the compiled one', async (t) => {
  const loaded = loadScenario('edge-cases')
  const schema = bindFieldValues(scenario, boardLists(loaded))
  const good = structuredClone(loaded) as Record<string, unknown>
  const results = both(SCENARIO_POLICY, schema, [good, { ...good, seed: -1 }, { ...good, mix: 'lots' }, { name: 'bare' }])
  t.ok(results[0]?.precompiled.ok, 'the shipped scenario is valid')
  t.notOk(results[1]?.precompiled.ok, 'a negative seed is not')
  for (const { precompiled, compiled } of results) t.same(precompiled, compiled)
})

t.test('a record validator checks formats and constrained lists as the compiled one', async (t) => {
  const schema = bindFieldValues(storedJob, boardLists(loadScenario('default')))
  const results = both({ ownSchemas: true }, schema, [{}, { id: 1, created_at: '2026-02-30 10:00:00' }])
  for (const { precompiled, compiled } of results) t.same(precompiled, compiled)
  const job = both({ ownSchemas: true }, jobInput, [{ job_title: 'x', salary_unit: 'Per decade' }])[0]
  t.notOk(job?.precompiled.ok, 'a job with an unknown salary unit is refused')
  t.same(job?.precompiled, job?.compiled)
})

t.test('a query validator coerces text as the compiled one', async (t) => {
  const results = both(TEXT_POLICY, pagedQuery, [{ page: '2' }, { page: 'two' }, { since: '2026-11-22 09:30' }, { since: '2026-11-22T09:30' }])
  t.same(results[0]?.precompiled.data, { page: 2 }, 'page=2 becomes a number')
  for (const { precompiled, compiled } of results) t.same(precompiled, compiled)
})

t.test('a precompiled validator is named by its schema and policy, so it is only taken for them', async (t) => {
  t.equal(precompiledName(TEXT_POLICY, pagedQuery), precompiledName(TEXT_POLICY, structuredClone(pagedQuery)), 'the same schema text gives the same name')
  t.not(precompiledName(TEXT_POLICY, pagedQuery), precompiledName({ ownSchemas: true }, pagedQuery), 'another policy another name')
  t.not(precompiledName(SCENARIO_POLICY, serverOptions), precompiledName(SCENARIO_POLICY, { ...serverOptions, description: 'x' }), 'another schema another name')
})
