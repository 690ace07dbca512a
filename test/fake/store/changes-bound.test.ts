// An account's changes are bounded (maxChanges): once its writes hold that many records
// written or deleted over its generated board, a write is refused with a 412 naming the
// bound, before it changes anything; a reset drops the changes and frees the room, and
// another account on the same board is not touched.
import t from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { basic, checked } from '../../helpers/board.js'

const JOB = {
  published: 1, featured: 0, job_title: 'Locum Vet', job_reference: 'L-1', job_industry: 'Veterinary Surgeon', job_telecommute: 'no',
  job_location: 'York', job_type: 'Full time', contract_type: 'Locum', job_description: 'Cover', contact_name: 'A', contact_email: 'a@example.com',
  salary_visible: '£50/h', salary_precise: '50', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 0,
}

t.test('a write past the bound is refused naming it, changes nothing, and a reset frees the room', async (t) => {
  const accounts = [{ name: 'worker-1', password: 'p' }, { name: 'worker-2', password: 'p' }]
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, maxChanges: 3, accounts, ...checked(t) })
  t.teardown(() => mock.close())
  const one = mock.account('worker-1')
  for (const name of ['Ada Lovelace', 'Grace Hopper', 'Mary Somerville']) one.store.addCandidate({ name })
  const total = one.store.candidates().total
  t.throws(() => one.store.addCandidate({ name: 'Emmy Noether' }), { field: 'maxChanges', message: /holds 3 records written or deleted .*--max-changes 3.*reset/ })
  const overHttp = await mock.inject({ method: 'POST', url: '/__mock/accounts/worker-1/candidates', payload: { name: 'Hedy Lamarr' } })
  t.equal(overHttp.statusCode, 412)
  t.match(overHttp.json(), { status: 412, message: /maxChanges/ })
  const api = await mock.inject({ method: 'POST', url: '/api/v1/job/add', payload: JOB, headers: { authorization: basic('worker-1', 'p') } })
  t.equal(api.statusCode, 412, 'job/add through the API too')
  t.match(api.json(), { status: 412, message: /maxChanges/ })
  t.equal(one.store.candidates().total, total, 'nothing was written')
  t.equal(mock.account('worker-2').store.addCandidate({ name: 'Lise Meitner' }).name, 'Lise Meitner', "another account's room is its own")
  one.reset()
  t.equal(one.store.addCandidate({ name: 'Emmy Noether' }).name, 'Emmy Noether', 'a reset drops the changes')
})

t.test('records loaded from a saved board do not count against the bound', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, maxChanges: 2, ...checked(t) })
  t.teardown(() => mock.close())
  const full = mock.exportState()
  mock.importState(full)
  t.ok(mock.store.candidates().total > 2, 'the whole board is written, as restored')
  t.equal(mock.store.addCandidate({ name: 'Ada Lovelace' }).name, 'Ada Lovelace')
})
