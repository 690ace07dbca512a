// Build step after tsc (`npm run build`): writes ajv's standalone code for the schemas a
// fake compiles as it starts, so that a start-up loads validators instead of compiling
// them (src/core/validation.ts, compileSchema). The schemas come from the built schemas/
// (the one source of truth); each file is named by a digest of the schema's text and
// policy, so a validator is taken only for the very schema it was made from.
// `--sources` (scripts/test-prepare.mjs, for `npm test` on a tree with no build): the same
// files made from the TypeScript sources, in a process that loads them through
// test/helpers/register.mjs's hooks; the digests are the same, so are the files.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'

const sources = process.argv.includes('--sources')
const dist = new URL(sources ? '../' : '../dist/', import.meta.url)
/** A module of the build (dist/…/x.js), or its source (…/x.ts) with --sources. */
const built = (path) => import(new URL(sources ? path.replace(/\.js$/, '.ts') : path, dist).href)
const { PRECOMPILED_DIR, bindFieldValues, standaloneSource, precompiledName, TEXT_POLICY } = await built('src/core/validation.js')
// from here on every schema is compiled at run time: the files are being made
rmSync(PRECOMPILED_DIR, { recursive: true, force: true })
const { boardLists, boundScenarioSchema, CHECKED_SCENARIOS, checkScenarios, loadScenario, SCENARIO_POLICY, scenarioListsSchema, scenarioNames } = await built('src/fake/scenario.js')
const { withExtraFields } = await built('src/fake/store/extra-fields.js')
const schemas = await built('schemas/index.js')

/** [policy, schema] pairs, one per validator a fake of a shipped scenario compiles as it starts or on its first job write. */
const targets = [
  [SCENARIO_POLICY, schemas.serverOptions],
  [SCENARIO_POLICY, scenarioListsSchema],
  [{ ownSchemas: true }, schemas.profileFile],
]
for (const name of scenarioNames()) {
  const scenario = loadScenario(name)
  const lists = boardLists(scenario)
  const extra = scenario.behaviour.extraFields
  targets.push([SCENARIO_POLICY, boundScenarioSchema(lists)])
  const records = [
    schemas.storedJob,
    withExtraFields(schemas.candidate, extra.candidate),
    withExtraFields(schemas.application, extra.application),
    withExtraFields(schemas.timesheet, extra.timesheet),
    withExtraFields(schemas.marketingRecord, extra.marketing),
    schemas.storedFile,
    schemas.jobInput,
    schemas.jobInputLenient,
    schemas.jobIdBody,
    schemas.jobIdFieldBody,
  ]
  // the store's policy (src/core/validation.ts, Validators): no coercion, no defaults
  for (const schema of records) targets.push([{ ownSchemas: true }, bindFieldValues(schema, lists)])
}

// query strings and path parameters of the API's read routes, coerced from text (src/fake/app.ts)
for (const schema of [schemas.pagedQuery, schemas.applicationsQuery, schemas.idParams]) targets.push([TEXT_POLICY, schema])

mkdirSync(PRECOMPILED_DIR, { recursive: true })
const written = new Set()
for (const [policy, schema] of targets) {
  const file = precompiledName(policy, schema)
  if (written.has(file)) continue
  written.add(file)
  writeFileSync(`${PRECOMPILED_DIR}${file}`, standaloneSource(policy, schema))
}
const validators = written.size

// The response serializers (src/fake/http/serializer.ts) a fake of the shipped scenarios
// compiles: read off a default fake driven through every GET of its OpenAPI document (a
// 200, or the 404 of an id it lacks), a request without credentials (a 401) and an unknown
// id (a 404); the shipped scenarios add no fields to the records, so their routes answer
// with the same schemas. A serializer that needs ajv at run time is left to be built then.
const { createMockServer } = await built('src/fake/server.js')
const { compiledSchemaTexts, serializerName, serializerSource } = await built('src/fake/http/serializer.js')
const { API_PREFIX } = await built('schemas/common.js')
const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, verdict: false })
const authorization = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`
const document = JSON.parse((await mock.app.inject({ url: '/openapi.json' })).body)
for (const [path, operations] of Object.entries(document.paths)) {
  if (operations.get !== undefined) await mock.app.inject({ url: path.replace(/\{[^}]+\}/g, '1'), headers: { authorization } })
}
await mock.app.inject({ url: `${API_PREFIX}/candidates/list` })
await mock.app.inject({ url: `${API_PREFIX}/candidates/details/999999999`, headers: { authorization } })
await mock.close()
for (const text of compiledSchemaTexts()) {
  const schema = JSON.parse(text)
  const file = serializerName(schema)
  const source = serializerSource(schema)
  if (source === undefined || written.has(file)) continue
  written.add(file)
  writeFileSync(`${PRECOMPILED_DIR}${file}`, source)
}

// every file above, for the bundle to carry (scripts/bundle.mjs): a thunk each, so only those used are run
const table = [...written].map((file) => `  ${JSON.stringify(file)}: () => require(${JSON.stringify(`./${file}`)}),`)
writeFileSync(`${PRECOMPILED_DIR}index.cjs`, ['// Written by scripts/precompile.mjs: the precompiled validators by file name; do not edit.', 'module.exports = {', ...table, '}', ''].join('\n'))
// the shipped scenarios, checked here once: a fake taking one of them by name skips its validation
const checked = checkScenarios()
writeFileSync(CHECKED_SCENARIOS, JSON.stringify(checked))
process.stdout.write(`precompiled ${validators} validators and ${written.size - validators} serializers, and checked ${Object.keys(checked).length} scenarios into ${PRECOMPILED_DIR}\n`)
