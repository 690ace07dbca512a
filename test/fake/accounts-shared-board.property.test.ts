// Accounts on one scenario and seed share the board generated from it (built once per
// process, src/fake/store/shared.ts) and keep only their own changes over it: random
// interleavings of writes (API and control, in process and over HTTP), run-time value
// changes, clock moves, resets and state imports over three accounts leave each account
// exactly where a board of its own, built alone, is after the same steps, and leave the
// shared board as it was generated. The board built alone is a twin fake restored from a
// full saved board (every record its own copy, nothing generated under it), given each
// step its account was given; its reset is that saved board imported again.
import fc from 'fast-check'
import t from 'tap'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import type { BoardState, JobInput } from '../../src/core/types.js'
import { basic } from '../helpers/board.js'
import { runs } from '../helpers/deep.js'
import { PROPERTY_SEED } from '../helpers/hostile.js'

const NAMES = ['worker-1', 'worker-2', 'worker-3'] as const
type Name = (typeof NAMES)[number]
const PASSWORD = 'secret'
const OPTIONS = { clock: 'virtual', rateLimitWindow: 0, seed: 36 } as const

const JOB: JobInput = {
  published: 1, featured: 0, job_title: 'Locum Vet', job_reference: 'L-1', job_industry: 'Veterinary Surgeon', job_telecommute: 'no',
  job_location: 'York', job_type: 'Full time', contract_type: 'Locum', job_description: 'Cover', contact_name: 'A', contact_email: 'a@example.com',
  salary_visible: '£50/h', salary_precise: '50', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 0,
}

/** One step on one account, given the same way to its twin. */
type Step =
  | { kind: 'api'; method: 'GET' | 'POST'; url: string; payload?: object }
  | { kind: 'control'; method: 'POST' | 'DELETE'; path: string; payload?: object }
  | { kind: 'add'; what: 'candidate' | 'application' | 'timesheet' | 'marketing' }
  | { kind: 'advance'; seconds: number }
  | { kind: 'reset' }
  /** A job added and deleted again: no record left written, but the metrics and the ids moved on. */
  | { kind: 'churn' }
  | { kind: 'import'; from: Name; form: 'full' | 'compact' }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>(
    { kind: 'api', method: 'POST', url: '/api/v1/job/add', payload: JOB },
    { kind: 'control', method: 'POST', path: 'candidates', payload: { name: 'Ada Lovelace' } },
    { kind: 'control', method: 'POST', path: 'job-fields', payload: { retire: { job_type: ['Night time'] } } },
    { kind: 'control', method: 'DELETE', path: 'requests' },
    { kind: 'add', what: 'candidate' },
    { kind: 'add', what: 'application' },
    { kind: 'add', what: 'timesheet' },
    { kind: 'add', what: 'marketing' },
    { kind: 'reset' },
    { kind: 'churn' },
  ),
  fc.integer({ min: 1, max: 20 }).map<Step>((id) => ({ kind: 'api', method: 'POST', url: '/api/v1/job/close', payload: { id } })),
  fc.integer({ min: 1, max: 20 }).map<Step>((id) => ({ kind: 'api', method: 'POST', url: '/api/v1/job/delete', payload: { id } })),
  fc.integer({ min: 60, max: 40 * 86_400 }).map<Step>((seconds) => ({ kind: 'advance', seconds })),
  fc.record({ from: fc.constantFrom<Name>(...NAMES), form: fc.constantFrom<'full' | 'compact'>('full', 'compact') }).map<Step>(({ from, form }) => ({ kind: 'import', from, form })),
)

/** What an account shows: its whole saved board (records, clock, values) and a few answers as bytes. */
async function seen(mock: MockServer, name: Name, viaAccount: boolean): Promise<string> {
  const control = viaAccount ? mock.account(name) : mock
  const ask = (url: string) => mock.inject({ url, headers: { authorization: basic(name, PASSWORD) } }).then((a) => `${a.statusCode} ${a.body}`)
  return JSON.stringify({
    state: control.exportState(),
    answers: [
      await ask('/api/v1/candidates/list'),
      await ask('/api/v1/applications/list?page=2'),
      await ask('/api/v1/metrics/list'),
      await ask('/api/v1/job/fields'),
      await ask('/api/v1/candidates/details/1'),
    ],
  })
}

t.test("no interleaving of three accounts' steps makes one differ from a board of its own built alone, or changes the shared board", async (t) => {
  // the board every account starts on, saved whole: what a twin restores, and what a later fake must still generate
  const pristine = await createMockServer({ ...OPTIONS, accounts: [{ name: NAMES[0], password: PASSWORD }] })
  // saved without credentials: a twin that imports it keeps its own account's
  const saved = pristine.exportState() as BoardState
  await pristine.close()
  let failures = 0
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom<Name>(...NAMES), step), { minLength: 1, maxLength: 8 }), async (steps) => {
      const mock = await createMockServer({ ...OPTIONS, accounts: NAMES.map((name) => ({ name, password: PASSWORD })) })
      const twins = new Map<Name, MockServer>()
      for (const name of NAMES) {
        const twin = await createMockServer({ ...OPTIONS, accounts: [{ name, password: PASSWORD }] })
        twin.importState(structuredClone(saved))
        twins.set(name, twin)
      }
      try {
        for (const [name, one] of steps) {
          const account = mock.account(name)
          const twin = twins.get(name) as MockServer
          // the same step on the account and on its twin; a refusal is the same refusal on both
          const both = async (onAccount: () => unknown, onTwin: () => unknown) => {
            const outcome = async (run: () => unknown) => {
              try {
                const value = await run()
                return `ok ${JSON.stringify(value ?? null)}`
              } catch (error) {
                return `refused ${(error as Error).message}`
              }
            }
            return [await outcome(onAccount), await outcome(onTwin)] as const
          }
          let outcomes: readonly [string, string]
          if (one.kind === 'api') {
            const request = { method: one.method, url: one.url, headers: { authorization: basic(name, PASSWORD) }, ...(one.payload ? { payload: one.payload } : {}) }
            outcomes = await both(
              async () => (await mock.inject(request)).body,
              async () => (await twin.inject(request)).body,
            )
          } else if (one.kind === 'control') {
            const request = (prefix: string) => ({ method: one.method, url: `${prefix}/${one.path}`, ...(one.payload ? { payload: one.payload } : {}) })
            outcomes = await both(
              async () => (await mock.inject(request(`/__mock/accounts/${name}`))).body,
              async () => (await twin.inject(request('/__mock'))).body,
            )
          } else if (one.kind === 'add') {
            const add = (store: MockServer['store']) =>
              one.what === 'candidate' ? store.addCandidate() : one.what === 'application' ? store.addApplication() : one.what === 'timesheet' ? store.addTimesheet() : store.addMarketing()
            outcomes = await both(
              () => add(account.store),
              () => add(twin.store),
            )
          } else if (one.kind === 'advance') {
            outcomes = await both(
              () => account.clock.advance(one.seconds),
              () => twin.clock.advance(one.seconds),
            )
          } else if (one.kind === 'churn') {
            const churn = async (server: MockServer, control: MockServer['store']) => {
              const job = control.addJob(JOB)
              const deleted = await server.inject({ method: 'POST', url: '/api/v1/job/delete', payload: { id: job.id }, headers: { authorization: basic(name, PASSWORD) } })
              return `${job.id} ${deleted.statusCode}`
            }
            outcomes = await both(
              () => churn(mock, account.store),
              () => churn(twin, twin.store),
            )
          } else if (one.kind === 'reset') {
            outcomes = await both(
              () => account.reset(),
              () => twin.importState(structuredClone(saved)),
            )
          } else {
            // the state another account (or this one) is in now, saved and imported here
            const state = mock.account(one.from).exportState({ form: one.form })
            outcomes = await both(
              () => account.importState(structuredClone(state) as never),
              () => twin.importState(structuredClone(state) as never),
            )
          }
          const what = `${name}: ${JSON.stringify(one)}`
          if (outcomes[0] !== outcomes[1]) {
            failures += 1
            t.fail(`${what} answered otherwise than on a board of its own`, { account: outcomes[0].slice(0, 400), alone: outcomes[1].slice(0, 400) })
          }
          for (const other of NAMES) {
            const [shown, alone] = [await seen(mock, other, true), await seen(twins.get(other) as MockServer, other, false)]
            if (shown !== alone) {
              failures += 1
              t.fail(`after ${what}, ${other} differs from a board of its own built alone`, { steps: steps.map(([n, s]) => `${n} ${JSON.stringify(s)}`) })
            }
          }
          if (failures > 0) break
        }
        // whatever the accounts did, a fake starting now on the scenario and seed starts on the board as generated
        const later = await createMockServer({ ...OPTIONS, accounts: [{ name: NAMES[0], password: PASSWORD }] })
        const fresh = JSON.stringify(later.exportState())
        await later.close()
        if (fresh !== JSON.stringify(saved)) {
          failures += 1
          t.fail('an account changed the shared board', { steps: steps.map(([n, s]) => `${n} ${JSON.stringify(s)}`) })
        }
      } finally {
        await mock.close()
        for (const twin of twins.values()) await twin.close()
      }
      return failures === 0
    }),
    { numRuns: runs(60, 6), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0)
})
