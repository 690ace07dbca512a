// Properties over every in-process helper of createMockServer with hostile arguments:
// each call returns or throws a BoardInputError, a refused call leaves the saved board
// byte-identical, Object.prototype stays clean, and the fake still answers.
import fc from 'fast-check'
import t from 'tap'
import { applicationSeed, candidateSeed, faultBody, jobInput, marketingSeed, timesheetSeed } from '../../../schemas/index.js'
import { BoardInputError, createMockServer, type MockServer } from '../../../src/index.js'
import { AUTH } from '../../helpers/board.js'
import { hostileKey, hostileString, hostileValue, PROPERTY_SEED, prototypeClean } from '../../helpers/hostile.js'
import { runs } from '../../helpers/deep.js'

type Call = [name: string, act: (server: MockServer) => unknown]

const seedOf = (schema: { properties: object }) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...Object.keys(schema.properties)), hostileKey), hostileValue, { maxKeys: 4 })

const calls: fc.Arbitrary<Call> = fc.oneof(
  seedOf(candidateSeed).map((seed): Call => [`addCandidate(${JSON.stringify(seed)})`, (s) => s.store.addCandidate(seed as never)]),
  seedOf(applicationSeed).map((seed): Call => [`addApplication(${JSON.stringify(seed)})`, (s) => s.store.addApplication(seed as never)]),
  seedOf(timesheetSeed).map((seed): Call => [`addTimesheet(${JSON.stringify(seed)})`, (s) => s.store.addTimesheet(seed as never)]),
  seedOf(marketingSeed).map((seed): Call => [`addMarketing(${JSON.stringify(seed)})`, (s) => s.store.addMarketing(seed as never)]),
  seedOf(jobInput).map((seed): Call => [`addJob(${JSON.stringify(seed)})`, (s) => s.store.addJob(seed as never)]),
  seedOf(faultBody).map((seed): Call => [`faults.add(${JSON.stringify(seed)})`, (s) => s.faults.add(seed as never)]),
  hostileValue.map((v): Call => [`clock.advance(${JSON.stringify(v)})`, (s) => s.clock.advance(v as never)]),
  fc.oneof(fc.double(), fc.integer()).map((v): Call => [`clock.advance(${v})`, (s) => s.clock.advance(v)]),
  hostileString.map((v): Call => [`clock.set(${JSON.stringify(v)})`, (s) => s.clock.set(v)]),
  hostileValue.map((v): Call => [`reset({seed: ${JSON.stringify(v)}})`, (s) => s.reset({ seed: v as never })]),
  hostileValue.map((v): Call => [`importState(${JSON.stringify(v)?.slice(0, 80)})`, (s) => s.importState(v as never)]),
  hostileValue.map((v): Call => [`journal.list(${JSON.stringify(v)})`, (s) => s.journal.list(v as never)]),
)

t.test('every in-process helper returns or throws a BoardInputError, and a refusal changes nothing', async (t) => {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => server.close())
  let failures = 0
  let refused = 0
  await fc.assert(
    fc.asyncProperty(calls, async ([name, act]) => {
      const before = JSON.stringify(server.exportState())
      try {
        act(server)
      } catch (error) {
        if (!(error instanceof BoardInputError)) {
          failures += 1
          return void t.fail(`${name} threw ${String(error)}`)
        }
        refused += 1
        if (JSON.stringify(server.exportState()) !== before) {
          failures += 1
          t.fail(`${name} was refused but changed the board`)
        }
      }
      server.faults.clear()
    }),
    { numRuns: runs(400), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0, 'nothing but BoardInputError is thrown, and refusals change nothing')
  t.ok(refused > 0, `${refused} calls were refused`)
  t.ok(prototypeClean(), 'Object.prototype is unpolluted')
  const answer = await server.inject({ url: '/api/v1/candidates/list', headers: AUTH })
  t.equal(answer.statusCode, 200, 'the fake still answers')
  const state = server.exportState()
  server.importState(state)
  t.equal(JSON.stringify(server.exportState()), JSON.stringify(state), 'the board still saves and restores')
})
