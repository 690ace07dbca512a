// Accounts on one scenario and seed that have written nothing share the answers kept for
// their board; an account that wrote, or that imported a saved board (even one with no
// record written, whose metrics and ids moved on), answers its own.
import t from 'tap'
import type { JobInput } from '../../src/core/types.js'
import { createMockServer } from '../../src/fake/server.js'
import { basic, checked } from '../helpers/board.js'

const JOB: JobInput = {
  published: 1, featured: 0, job_title: 'Locum Vet', job_reference: 'L-1', job_industry: 'Veterinary Surgeon', job_telecommute: 'no',
  job_location: 'York', job_type: 'Full time', contract_type: 'Locum', job_description: 'Cover', contact_name: 'A', contact_email: 'a@example.com',
  salary_visible: '£50/h', salary_precise: '50', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 0,
}
const accounts = ['worker-1', 'worker-2', 'worker-3'].map((name) => ({ name, password: 'p' }))

t.test('an account that imported a board whose job was added and deleted answers its own metrics', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, accounts, ...checked(t) })
  t.teardown(() => mock.close())
  const metrics = async (name: string) => (await mock.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic(name, 'p') } })).body
  const before = await metrics('worker-1')
  t.equal(await metrics('worker-2'), before, 'two accounts on one board answer the same bytes')
  const job = mock.account('worker-1').store.addJob(JOB)
  const deleted = await mock.inject({ method: 'POST', url: '/api/v1/job/delete', payload: { id: job.id }, headers: { authorization: basic('worker-1', 'p') } })
  t.equal(deleted.statusCode, 200)
  const moved = await metrics('worker-1')
  t.not(moved, before, 'the added job is counted though it is deleted')
  const saved = mock.account('worker-1').exportState({ form: 'compact' })
  t.same(saved.store.written.jobs, [], 'nothing of the job is written')
  mock.account('worker-2').importState(saved)
  t.equal(await metrics('worker-2'), moved, "the import's metrics, not the shared board's")
  t.equal(await metrics('worker-3'), before, 'an account still on the shared board answers as before')
  mock.account('worker-2').reset()
  t.equal(await metrics('worker-2'), before, 'a reset puts it back on the shared board')
})
