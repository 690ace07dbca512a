// The control route /__mock/job-fields: constrained values retired and added at run time,
// with the journal, the rate-limit windows and the records that used a retired value kept.
import t from 'tap'
import { board, call } from '../../helpers/board.js'
import { control } from '../../helpers/state.js'
import { jobInputSample } from '../../fixtures/samples.js'

const NIGHT = 'Veterinary Surgeon/Night Vet Surgeon'
const PHYSIO = 'Veterinary Physiotherapist'

t.test('a retired industry is refused by job/add with 412 naming job_industry, and job/fields lists the new set', async (t) => {
  const app = await board(t)
  const before = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: NIGHT } })
  t.equal(before.status, 200, 'the value is taken before it is retired')
  const changed = await control(app, '/__mock/job-fields', { retire: { job_industry: [NIGHT] }, add: { job_industry: [PHYSIO] } })
  t.equal(changed.statusCode, 200, changed.body)
  t.same(changed.json().retired.job_industry, [NIGHT])
  const refused = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: NIGHT } })
  t.equal(refused.status, 412)
  t.match(refused.body.message, /job_industry/)
  const fields = await call(app, '/api/v1/job/fields')
  t.notOk(fields.body.data.job_industry.includes(NIGHT), 'the retired value is not listed')
  t.equal(fields.body.data.job_industry.at(-1), PHYSIO, 'the added value is listed last')
  const added = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: PHYSIO } })
  t.equal(added.status, 200, 'the added value is taken')
})

t.test('the journal, the rate-limit windows and a record with the retired value stay as they were', async (t) => {
  const app = await board(t, { rateLimitWindow: 900 })
  const job = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: NIGHT } })
  t.equal(job.status, 200)
  t.equal((await call(app, '/api/v1/candidates/list')).status, 200)
  const journal = (await app.inject('/__mock/requests')).json().total
  const windows = (await app.inject('/__mock/rate-limits')).json().total
  t.equal((await control(app, '/__mock/job-fields', { retire: { job_industry: [NIGHT] } })).statusCode, 200)
  t.equal((await app.inject('/__mock/requests')).json().total, journal, 'the journal is kept')
  t.equal((await app.inject('/__mock/rate-limits')).json().total, windows, 'the windows are kept')
  t.equal((await call(app, '/api/v1/candidates/list')).status, 429, 'a window still open still refuses')
  // the job made with the retired value can still change state: it is held to every value ever listed
  const closed = await call(app, { method: 'POST', url: '/api/v1/job/close', payload: { id: job.body.id } })
  t.equal(closed.status, 200, closed.body.message)
  t.equal(app.board.store.jobs.get(job.body.id)?.job_industry, NIGHT, 'the record keeps its value')
})

t.test('GET /__mock/job-fields answers the current values and those retired', async (t) => {
  const app = await board(t)
  const first = (await app.inject('/__mock/job-fields')).json()
  t.equal(first.status, 200)
  t.same(first.retired.job_type, [])
  await control(app, '/__mock/job-fields', { retire: { job_type: ['Night time'] } })
  const after = (await app.inject('/__mock/job-fields')).json()
  t.same(after.data.job_type, ['Full time', 'Part time'])
  t.same(after.retired.job_type, ['Night time'])
})

const refusals: Array<[string, unknown, RegExp]> = [
  ['answers 412 naming retire.job_type[0] for a value not listed', { retire: { job_type: ['Nope'] } }, /retire\.job_type\[0\]/],
  ['answers 412 naming add.salary_unit[0] for a value listed already', { add: { salary_unit: ['Per hour'] } }, /add\.salary_unit\[0\]/],
  ['answers 412 naming retire.salary_currencies for a list left empty', { retire: { salary_currencies: ['GBP'] } }, /retire\.salary_currencies/],
  ['answers 412 naming retire.job_tyype for an unknown list', { retire: { job_tyype: ['x'] } }, /job_tyype/],
  ['answers 412 naming add.job_type[0] for an empty value', { add: { job_type: [''] } }, /add\.job_type\[0\]/],
  ['answers 412 for an empty change', {}, /body/i],
  ['answers 412 naming retire.job_type[0] for a value both retired and added', { retire: { job_type: ['Part time'] }, add: { job_type: ['Part time'] } }, /retire\.job_type\[0\]/],
]
for (const [name, body, field] of refusals) {
  t.test(name, async (t) => {
    const app = await board(t)
    const answer = await control(app, '/__mock/job-fields', body)
    t.equal(answer.statusCode, 412, answer.body)
    t.equal(answer.json().status, 412)
    t.match(answer.json().message, field)
    t.same((await app.inject('/__mock/job-fields')).json().retired.job_type, [], 'nothing changed')
  })
}

t.test('the in-process jobFields.change does what the route does', async (t) => {
  const { createMockServer } = await import('../../../src/fake/server.js')
  const server = await createMockServer({ clock: 'virtual' })
  t.teardown(() => server.close())
  const view = server.jobFields.change({ add: { contract_type: ['Zero hours'] } })
  t.equal(view.data.contract_type.at(-1), 'Zero hours')
  t.throws(() => server.jobFields.change({ add: { contract_type: ['Zero hours'] } }), { name: 'BoardInputError', message: /add\.contract_type\[0\]/ })
})

for (const form of ['full', 'compact'] as const) {
  t.test(`a ${form} saved board keeps the values changed at run time and restores on a fresh fake`, async (t) => {
    const app = await board(t)
    await control(app, '/__mock/job-fields', { add: { job_industry: [PHYSIO, 'Veterinary Dentist'] } })
    const physio = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: PHYSIO } })
    const dentist = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: 'Veterinary Dentist' } })
    await control(app, '/__mock/job-fields', { retire: { job_industry: ['Veterinary Dentist', NIGHT] } })
    const before = (await app.inject('/__mock/job-fields')).json()
    const saved = (await app.inject(`/__mock/state?form=${form}`)).body
    t.ok(JSON.parse(saved).jobFields, 'the state holds the changed values')
    const fresh = await board(t)
    const put = await fresh.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json' }, payload: saved })
    t.equal(put.statusCode, 200, put.body.slice(0, 300))
    t.same((await fresh.inject('/__mock/job-fields')).json(), before, 'job/fields and the retired values are as saved')
    t.equal(fresh.board.store.jobs.get(physio.body.id)?.job_industry, PHYSIO)
    t.equal(fresh.board.store.jobs.get(dentist.body.id)?.job_industry, 'Veterinary Dentist', 'a record with a value added and retired again restores')
    const refused = await call(fresh, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), job_industry: NIGHT } })
    t.equal(refused.status, 412, 'a retired value is still refused')
    t.equal((await fresh.inject(`/__mock/state?form=${form}`)).body, saved, 'and it saves the same state again')
  })
}

t.test('a saved board whose jobFields break their schema is refused naming jobFields', async (t) => {
  const app = await board(t)
  const state = JSON.parse((await app.inject('/__mock/state')).body)
  const put = await app.inject({ method: 'PUT', url: '/__mock/state', payload: { ...state, jobFields: { current: { job_type: [] } } } })
  t.equal(put.statusCode, 412)
  t.match(put.json().message, /jobFields/)
})
