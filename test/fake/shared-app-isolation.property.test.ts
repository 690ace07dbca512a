// Fakes of one shape share one app (src/fake/shared-app.ts: its routes, hooks and kept
// answers) and are isolated all the same: random interleavings of two such fakes' API
// requests (right and wrong passwords, reads and writes) and control calls (over HTTP and in
// process) never change the other fake's board, clock, rate-limit windows, faults or
// journal; and the first one answers every step, and ends, as a fake that shares nothing
// with them answers the same steps alone.
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { buildApp } from '../../src/fake/app.js'
import { basic, checked, PASSWORD, USER } from '../helpers/board.js'
import { runs } from '../helpers/deep.js'
import { PROPERTY_SEED } from '../helpers/hostile.js'
import { snapshotOf, type Step, step } from '../helpers/isolation-steps.js'

const OPTIONS = { clock: 'virtual', rateLimitWindow: 900 } as const

/** Everything of a fake another's request could disturb. */
const snapshot = (app: FastifyInstance) => snapshotOf(app.controller)

/** Takes one step on a fake: its answer's status and body ('' in process). */
async function take(app: FastifyInstance, one: Step): Promise<{ what: string; status: number; body: string }> {
  if (one.kind === 'api') {
    const answer = await app.inject({
      method: one.method,
      url: one.url,
      headers: { authorization: basic(USER, one.wrongPassword ? `${PASSWORD}-wrong` : PASSWORD) },
      ...(one.payload ? { payload: one.payload } : {}),
    })
    return { what: `${one.method} ${one.url}`, status: answer.statusCode, body: answer.body }
  }
  if (one.kind === 'control') {
    const answer = await app.inject({ method: one.method, url: `/__mock/${one.path}`, ...(one.payload ? { payload: one.payload } : {}) })
    return { what: `${one.method} /__mock/${one.path}`, status: answer.statusCode, body: answer.body }
  }
  const own = app.controller
  if (one.call === 'advance') own.clock.advance(900)
  else if (one.call === 'fault') own.addFault({ path: '/api/v1/metrics/list', status: 502 })
  else if (one.call === 'candidate') own.addCandidate({ name: 'Grace Hopper' })
  else own.clearRequests()
  return { what: `in process: ${one.call}`, status: 200, body: '' }
}

t.test("no interleaving of two fakes of one shape changes the other, and each answers as a fake built alone", async (t) => {
  let failures = 0
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(0, 1), step), { minLength: 1, maxLength: 16 }), async (steps) => {
      // both checked with the suite's validators: one shape, one app; the lone fake is not checked, so its app is another
      const fakes = [await buildApp({ ...OPTIONS, ...checked(t) }), await buildApp({ ...OPTIONS, ...checked(t) })] as const
      const alone = await buildApp({ ...OPTIONS })
      const fail = (message: string) => {
        failures += 1
        t.fail(message, { steps: steps.map(([n, s]) => `${n} ${JSON.stringify(s)}`) })
      }
      for (const [which, one] of steps) {
        const other = fakes[which === 0 ? 1 : 0]
        const before = snapshot(other)
        const answer = await take(fakes[which], one)
        if (answer.status >= 500 && answer.status !== 502 && answer.status !== 503) fail(`fake ${which}: ${answer.what} answered ${answer.status}`)
        if (snapshot(other) !== before) fail(`fake ${which}: ${answer.what} changed the other fake's board, clock, windows, faults or journal`)
        if (which === 0) {
          const lone = await take(alone, one)
          if (lone.status !== answer.status || lone.body !== answer.body) fail(`fake 0: ${answer.what} answered ${answer.status} ${answer.body.slice(0, 200)}; alone, ${lone.status} ${lone.body.slice(0, 200)}`)
        }
        if (failures > 0) break
      }
      if (failures === 0 && snapshot(fakes[0]) !== snapshot(alone)) fail('fake 0 ended other than the fake that took its steps alone')
      for (const app of [...fakes, alone]) await app.close()
      return failures === 0
    }),
    { numRuns: runs(150), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0)
})
