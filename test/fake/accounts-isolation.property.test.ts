// Accounts are isolated: random interleavings of two accounts' API requests (right and
// wrong passwords, reads and writes) and control calls (over /__mock/accounts/{name}/…
// and in process) never change the other account's board, clock, rate-limit windows,
// faults or journal, and never answer 5xx.
import fc from 'fast-check'
import t from 'tap'
import { basic, board } from '../helpers/board.js'
import { runs } from '../helpers/deep.js'
import { PROPERTY_SEED } from '../helpers/hostile.js'
import { snapshotOf, step } from '../helpers/isolation-steps.js'

const ACCOUNTS = [
  { name: 'worker-1', password: 'one' },
  { name: 'worker-2', password: 'two' },
] as const
type Name = (typeof ACCOUNTS)[number]['name']

t.test("no interleaving of two accounts' requests and control calls changes the other account", async (t) => {
  let failures = 0
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom<Name>('worker-1', 'worker-2'), step), { minLength: 1, maxLength: 16 }), async (steps) => {
      const app = await board(t, { accounts: ACCOUNTS.map((a) => ({ ...a })), rateLimitWindow: 900 })
      const controller = (name: Name) => app.accounts.require(name).controller
      // everything of an account another's request could disturb
      const snapshot = (name: Name) => snapshotOf(controller(name))
      for (const [name, one] of steps) {
        const other: Name = name === 'worker-1' ? 'worker-2' : 'worker-1'
        const password = ACCOUNTS.find((a) => a.name === name)?.password as string
        const before = snapshot(other)
        let status = 200
        let what = ''
        if (one.kind === 'api') {
          what = `${name} ${one.method} ${one.url}`
          const answer = await app.inject({
            method: one.method,
            url: one.url,
            headers: { authorization: basic(name, one.wrongPassword ? `${password}-wrong` : password) },
            ...(one.payload ? { payload: one.payload } : {}),
          })
          status = answer.statusCode
        } else if (one.kind === 'control') {
          what = `${one.method} /__mock/accounts/${name}/${one.path}`
          const answer = await app.inject({ method: one.method, url: `/__mock/accounts/${name}/${one.path}`, ...(one.payload ? { payload: one.payload } : {}) })
          status = answer.statusCode
        } else {
          what = `${name} in process: ${one.call}`
          const own = controller(name)
          if (one.call === 'advance') own.clock.advance(900)
          else if (one.call === 'fault') own.addFault({ path: '/api/v1/metrics/list', status: 502 })
          else if (one.call === 'candidate') own.addCandidate({ name: 'Grace Hopper' })
          else own.clearRequests()
        }
        if (status >= 500 && status !== 502 && status !== 503) {
          failures += 1
          t.fail(`${what} answered ${status}`)
        }
        if (snapshot(other) !== before) {
          failures += 1
          t.fail(`${what} changed ${other}'s board, clock, windows, faults or journal`, { steps: steps.map(([n, s]) => `${n} ${JSON.stringify(s)}`) })
        }
        if (failures > 0) break
      }
      await app.close()
      return failures === 0
    }),
    { numRuns: runs(150), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0)
})
