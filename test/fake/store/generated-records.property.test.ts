// Properties of the procedural board: records are made on demand rather than validated
// one by one at load, so these check, for many seeds, scenarios and ids, that every kind
// of generated record is valid against its schema and is the same whenever it is made.
import fc from 'fast-check'
import t from 'tap'
import { application, candidate, marketingRecord, storedFile, storedJob, timesheet } from '../../../schemas/index.js'
import { createClock } from '../../../src/core/clock.js'
import { explain } from '../../../src/core/validation.js'
import { parseTime } from '../../../src/core/time.js'
import { CompiledSchemas, loadScenario, type LoadedScenario } from '../../../src/fake/scenario.js'
import { Store } from '../../../src/fake/store/store.js'
import { withExtraFields } from '../../../src/fake/store/extra-fields.js'
import { PROPERTY_SEED } from '../../helpers/hostile.js'
import { runs } from '../../helpers/deep.js'

const compiled = new CompiledSchemas()
const scenarios = ['default', 'edge-cases'].map((name) => loadScenario(name, { compiled }))

const boards = fc.record({
  base: fc.constantFrom(...scenarios),
  seed: fc.integer({ min: 0, max: 4294967295 }),
  counts: fc.record({
    jobs: fc.integer({ min: 1, max: 12 }),
    candidates: fc.integer({ min: 1, max: 60 }),
    applications: fc.integer({ min: 0, max: 240 }),
    timesheets: fc.integer({ min: 0, max: 60 }),
    resumes: fc.integer({ min: 0, max: 40 }),
    documents: fc.integer({ min: 0, max: 40 }),
    marketing: fc.integer({ min: 0, max: 90 }),
  }),
  sinceField: fc.constantFrom('updated_at', 'created_at'),
  monthNames: fc.constantFrom('long', 'short'),
  ids: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 12 }),
})

function build(base: LoadedScenario, seed: number, counts: object, behaviour: object): Store {
  const scenario = { ...base, seed, counts: { ...base.counts, ...counts }, behaviour: { ...base.behaviour, ...behaviour } } as LoadedScenario
  return Store.generate(scenario, createClock('virtual', parseTime(scenario.now)), compiled)
}

t.test('generated records of every kind are valid against their schemas, for many seeds and ids', async (t) => {
  let checked = 0
  const numRuns = runs(60)
  fc.assert(
    fc.property(boards, ({ base, seed, counts, sinceField, monthNames, ids }) => {
      const store = build(base, seed, counts, { sinceField, monthNames })
      const extra = store.scenario.behaviour.extraFields
      const kinds = [
        ['jobs', store.jobs, storedJob],
        ['candidates', store.candidates, withExtraFields(candidate, extra.candidate)],
        ['applications', store.applications, withExtraFields(application, extra.application)],
        ['timesheets', store.timesheets, withExtraFields(timesheet, extra.timesheet)],
        ['marketing', store.marketing, withExtraFields(marketingRecord, extra.marketing)],
        ['resumes', store.files.resume, storedFile],
        ['documents', store.files.document, storedFile],
      ] as const
      for (const [name, collection, schema] of kinds) {
        const validate = store.validators.get(schema)
        // the ids asked for, and the first and the last of the kind
        for (const id of [...ids, 1, collection.lastId]) {
          const record = collection.get(id)
          if (record === undefined) continue
          checked += 1
          if (!validate(record)) throw new Error(`${name} ${id} (seed ${seed}): ${explain(validate.errors ?? [], 'record', record)}`)
        }
      }
    }),
    { seed: PROPERTY_SEED, numRuns },
  )
  // some 9 records of each of 7 kinds per board
  t.ok(checked > numRuns * 8, `${checked} generated records checked on ${numRuns} boards`)
})

t.test('a generated record is the same whenever it is made, whatever was made before it', async (t) => {
  fc.assert(
    fc.property(boards, ({ base, seed, counts, ids }) => {
      const one = build(base, seed, counts, {})
      const two = build(base, seed, counts, {})
      // the second board makes the records in the opposite order, and its last ones first
      const kinds = (s: Store) => [s.jobs, s.candidates, s.applications, s.timesheets, s.marketing, s.files.resume, s.files.document]
      const order = [...ids, 1].reverse()
      const second = kinds(two).map((c) => order.map((id) => JSON.stringify(c.get(id))))
      const first = kinds(one).map((c) => [...ids, 1].map((id) => JSON.stringify(c.get(id))).reverse())
      if (JSON.stringify(first) !== JSON.stringify(second)) throw new Error(`seed ${seed}: records differ by the order they were made in`)
    }),
    { seed: PROPERTY_SEED, numRuns: runs(30) },
  )
  t.pass('the same records, in any order of making')
})
