// Accounts are isolated: random interleavings of two accounts' API requests (right and
// wrong passwords, reads and writes) and control calls (over /__mock/accounts/{name}/…
// and in process) never change the other account's board, clock, rate-limit windows,
// faults or journal, and never answer 5xx.
import fc from 'fast-check'
import t from 'tap'
import { basic, board } from '../helpers/board.js'
import { runs } from '../helpers/deep.js'
import { PROPERTY_SEED } from '../helpers/hostile.js'

const ACCOUNTS = [
  { name: 'worker-1', password: 'one' },
  { name: 'worker-2', password: 'two' },
] as const
type Name = (typeof ACCOUNTS)[number]['name']

const JOB = {
  published: 1, featured: 0, job_title: 'Locum Vet', job_reference: 'L-1', job_industry: 'Veterinary Surgeon', job_telecommute: 'no',
  job_location: 'York', job_type: 'Full time', contract_type: 'Locum', job_description: 'Cover', contact_name: 'A', contact_email: 'a@example.com',
  salary_visible: '£50/h', salary_precise: '50', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 0,
}

/** One step: an API request with the account's credentials (or a wrong password), or a control call on the account. */
type Step =
  | { kind: 'api'; method: 'GET' | 'POST'; url: string; payload?: object; wrongPassword?: boolean }
  | { kind: 'control'; method: 'GET' | 'POST' | 'DELETE'; path: string; payload?: object }
  | { kind: 'in-process'; call: 'advance' | 'fault' | 'candidate' | 'clear-requests' }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>(
    { kind: 'api', method: 'GET', url: '/api/v1/candidates/list' },
    { kind: 'api', method: 'GET', url: '/api/v1/metrics/list' },
    { kind: 'api', method: 'GET', url: '/api/v1/job/fields' },
    { kind: 'api', method: 'GET', url: '/api/v1/applications/list?since=2026-11-01+00:00' },
    { kind: 'api', method: 'POST', url: '/api/v1/job/add', payload: JOB },
    { kind: 'api', method: 'GET', url: '/api/v1/metrics/list', wrongPassword: true },
    { kind: 'control', method: 'POST', path: 'faults', payload: { path: '/api/v1/*', status: 503, times: 2 } },
    { kind: 'control', method: 'DELETE', path: 'faults' },
    { kind: 'control', method: 'DELETE', path: 'requests' },
    { kind: 'control', method: 'DELETE', path: 'rate-limits' },
    { kind: 'control', method: 'POST', path: 'reset', payload: {} },
    { kind: 'control', method: 'POST', path: 'candidates', payload: { name: 'Ada Lovelace' } },
    { kind: 'control', method: 'POST', path: 'job-fields', payload: { retire: { job_type: ['Night time'] } } },
    { kind: 'control', method: 'GET', path: 'verdict' },
    { kind: 'in-process', call: 'advance' },
    { kind: 'in-process', call: 'fault' },
    { kind: 'in-process', call: 'candidate' },
    { kind: 'in-process', call: 'clear-requests' },
  ),
  fc.integer({ min: 1, max: 60 }).map<Step>((id) => ({ kind: 'api', method: 'GET', url: `/api/v1/candidates/details/${id}` })),
  fc.integer({ min: 1, max: 20 }).map<Step>((id) => ({ kind: 'api', method: 'POST', url: '/api/v1/job/close', payload: { id } })),
  fc.integer({ min: 1, max: 4000 }).map<Step>((seconds) => ({ kind: 'control', method: 'POST', path: 'clock/advance', payload: { seconds } })),
)

t.test("no interleaving of two accounts' requests and control calls changes the other account", async (t) => {
  let failures = 0
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom<Name>('worker-1', 'worker-2'), step), { minLength: 1, maxLength: 16 }), async (steps) => {
      const app = await board(t, { accounts: ACCOUNTS.map((a) => ({ ...a })), rateLimitWindow: 900 })
      const controller = (name: Name) => app.accounts.require(name).controller
      // everything of an account another's request could disturb
      const snapshot = (name: Name) => {
        const own = controller(name)
        return JSON.stringify({
          state: own.exportState({ form: 'compact' }),
          now: own.clock.now(),
          journal: own.requests(),
          windows: own.rateLimits(),
          faults: own.faults(),
        })
      }
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
