// POST /job/add: every rule of the spec refuses a body that breaks it with 412 and a
// message naming the field; a valid body answers 200 with the page URL and the id.
import t from 'tap'
import { JOB_REQUIRED } from '../../../schemas/job.js'
import { board, call } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

const post = (app: Parameters<typeof call>[0], payload: unknown, url = '/api/v1/job/add') => call(app, { method: 'POST', url, payload: payload as object })

t.test('answers 200 with the public page URL and the new id', async (t) => {
  const app = await board(t, { publicBaseUrl: 'https://board.example.com' })
  const answer = await post(app, jobInputSample())
  t.equal(answer.status, 200)
  t.match(answer.body, { status: 200, id: Number })
  t.equal(answer.body.message, `https://board.example.com/jobs/${answer.body.id}`)
  t.ok(answer.body.id > app.board.scenario.counts.jobs, 'after the existing jobs')
  const second = await post(app, jobInputSample())
  t.equal(second.body.id, answer.body.id + 1, 'ids count up')
})

const BROKEN: Array<[string, string, unknown]> = [
  ['published', 'published', 2],
  ['published', 'published', '1'],
  ['featured', 'featured', true],
  ['require_cv', 'require_cv', -1],
  ['hot', 'hot', 3],
  ['internal', 'internal', '0'],
  ['close_automatically', 'close_automatically', 1.5],
  ['job_industry', 'job_industry', 'Veterinary Surgeon/Dentist'],
  ['job_industry', 'job_industry', 'Veterinary Surgeon / Small Animal Vet Surgeon'],
  ['job_type', 'job_type', 'Full-time'],
  ['contract_type', 'contract_type', 'permanent'],
  ['salary_unit', 'salary unit', 'Per decade'],
  ['salary_currency', 'salary currency', 'EUR'],
  ['job_telecommute', 'job_telecommute', 'maybe'],
  ['contact_email', 'contact_email', 'ruth.hughes.example.co.uk'],
  ['salary_precise', 'salary_precise', '£50,000'],
  ['salary_precise', 'salary_precise', 50000],
  ['job_latitude', 'job_latitude', 95],
  ['job_latitude', 'job_latitude', '54.32'],
  ['job_longitude', 'job_longitude', 181],
  ['available_from', 'available_from', '2026-12-01'],
  ['closing_date', 'closing_date', '2026-12-22 17:00:00'],
  ['expiry_date', 'expiry_date', '2027-02-30 17:00'],
  ['job_benefits', 'job_benefits', 'RCVS fees, CPD'],
  ['job_requirements', 'job_requirements', [1, 2]],
  ['job_responsibilities', 'job_responsibilities', 'Consulting'],
  ['keywords', 'keywords', 'vet,,nurse'],
  ['keywords', 'keywords', ['vet', 'nurse']],
  ['application_url', 'application_url', 'apply on our site'],
  ['job_title', 'job_title', ''],
  ['job_title', 'job_title', 42],
  ['job_description', 'job_description', null],
  ['job_reference', 'job_reference', ''],
  ['job_location', 'job_location', ''],
  ['contact_name', 'contact_name', ''],
  ['salary_visible', 'salary_visible', 45000],
  ['job_hours', 'job_hours', 40],
  ['job_duration', 'job_duration', ['6 months']],
  ['job_skills', 'job_skills', { surgery: true }],
  ['salary_benefits', 'salary_benefits', false],
]

// one fake for all of them: a refused body leaves the board as it was
let refusing: ReturnType<typeof board> | undefined
const root = t
for (const [field, named, value] of BROKEN) {
  t.test(`answers 412 naming ${field} when it is ${JSON.stringify(value)}`, async (t) => {
    if (refusing === undefined) refusing = board(root)
    const app = await refusing
    const answer = await post(app, { ...jobInputSample(), [field]: value })
    t.equal(answer.status, 412)
    t.equal(answer.body.status, 412)
    t.match(answer.body.message, named)
    t.match(answer.body.message, field, 'and names the field as written')
  })
}

t.test('says in plain words that the salary unit is invalid', async (t) => {
  const app = await board(t)
  const answer = await post(app, { ...jobInputSample(), salary_unit: 'Per decade' })
  t.match(answer.body.message, /^The salary unit \(field salary_unit\) is invalid: "Per decade" is not one of Per hour, Per year, Per week, Per month\.$/)
})

t.test('answers 412 naming each required field when it is missing', async (t) => {
  const app = await board(t)
  for (const field of JOB_REQUIRED) {
    const body: Record<string, unknown> = jobInputSample()
    delete body[field]
    const answer = await post(app, body)
    t.equal(answer.status, 412, field)
    t.match(answer.body.message, new RegExp(`field ${field}\\)? is missing`), `${field} is named missing`)
  }
})

t.test('needs coordinates unless job_location is a predefined location', async (t) => {
  const app = await board(t)
  const { job_latitude: _a, job_longitude: _b, ...body } = jobInputSample()
  const refused = await post(app, body)
  t.equal(refused.status, 412)
  t.match(refused.body.message, /job_latitude.*unless job_location is a predefined location/)
  const accepted = await post(app, { ...body, job_location: 'Harrogate' })
  t.equal(accepted.status, 200, 'Harrogate is on the predefined list')
  const job = app.board.store.jobs.get(accepted.body.id)
  t.match(job, { job_latitude: 53.9921, job_longitude: -1.5418 }, "the job gets the location's coordinates")
})

t.test('accepts a sector alone or <Sector>/<Sub_sector>, and stores both parts', async (t) => {
  const app = await board(t)
  for (const [industry, sector, sub] of <Array<[string, string, string]>>[
    ['Veterinary Admin / Other', 'Veterinary Admin / Other', ''],
    ['Veterinary Admin / Other/Vet Care Assistant', 'Veterinary Admin / Other', 'Vet Care Assistant'],
    ['Registered Veterinary Nurse/Night RVN', 'Registered Veterinary Nurse', 'Night RVN'],
  ]) {
    const answer = await post(app, { ...jobInputSample(), job_industry: industry })
    t.equal(answer.status, 200, industry)
    t.match(app.board.store.jobs.get(answer.body.id), { job_industry: industry, sector, sub_sector: sub })
  }
})

t.test('refuses fields the spec does not list, or drops them when told to ignore them', async (t) => {
  const strict = await board(t)
  const refused = await post(strict, { ...jobInputSample(), colour: 'blue' })
  t.equal(refused.status, 412)
  t.match(refused.body.message, /colour.*not a known field/)
  const lenient = await board(t, { unknownJobFields: 'ignore' })
  const accepted = await post(lenient, { ...jobInputSample(), colour: 'blue' })
  t.equal(accepted.status, 200)
  t.notOk('colour' in (lenient.board.store.jobs.get(accepted.body.id) as object), 'the field is not stored')
  t.equal((await post(lenient, { ...jobInputSample(), salary_unit: 'Per decade' })).status, 412, 'the other rules still hold')
})

t.test('answers a clear 4xx to bodies that are not a JSON job', async (t) => {
  const app = await board(t)
  const cases: Array<[string, { payload?: string; headers?: Record<string, string> }, number]> = [
    ['malformed JSON', { payload: '{"published": 1,', headers: { 'content-type': 'application/json' } }, 400],
    ['an empty body', { payload: '', headers: { 'content-type': 'application/json' } }, 400],
    ['a form', { payload: 'published=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415],
    ['a JSON array', { payload: '[1,2]', headers: { 'content-type': 'application/json' } }, 412],
    ['JSON null', { payload: 'null', headers: { 'content-type': 'application/json' } }, 412],
  ]
  for (const [why, request, status] of cases) {
    const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', ...request })
    t.equal(answer.status, status, why)
    t.match(answer.body, { status, message: String }, `${why} gets a JSON message`)
  }
  t.equal(app.board.store.jobs.size, app.board.scenario.counts.jobs, 'no job was added')
})

t.test('job/fields answers the current lists, and a scenario can change them', async (t) => {
  const app = await board(t)
  const fields = await call(app, '/api/v1/job/fields')
  t.equal(fields.status, 200)
  t.match(fields.body.data.salary_unit, ['Per hour', 'Per year', 'Per week', 'Per month'])
  const changed = await board(t, {
    scenarioData: { name: 'more-industries', fieldValues: { job_industry: ['Farm Animal Vet', 'Farm Animal Vet/Dairy'], salary_unit: ['Per year'] } },
  })
  const data = (await call(changed, '/api/v1/job/fields')).body.data
  t.same(data.job_industry, ['Farm Animal Vet', 'Farm Animal Vet/Dairy'])
  t.same(data.salary_unit, ['Per year'])
  t.equal((await post(changed, { ...jobInputSample(), job_industry: 'Farm Animal Vet/Dairy' })).status, 200, 'the new industry is accepted')
  t.equal((await post(changed, { ...jobInputSample(), job_industry: 'Veterinary Surgeon' })).status, 412, 'a dropped one is refused')
  t.equal((await post(changed, { ...jobInputSample(), salary_unit: 'Per hour' })).status, 412, 'so is a dropped unit')
})

t.test('answers 415 to a POST that is not sent as application/json, body or not', async (t) => {
  const app = await board(t)
  for (const headers of [{ 'content-type': 'text/plain' }, {}, { 'content-type': 'application/jsonx' }] as Array<Record<string, string>>) {
    const answer = await call(app, { method: 'POST', url: '/api/v1/job/close', headers, payload: JSON.stringify({ id: 1 }) })
    t.equal(answer.status, 415, JSON.stringify(headers))
    t.match(answer.body, { status: 415, message: /application\/json/ })
  }
  const bare = await app.inject({ method: 'POST', url: '/api/v1/job/close', headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
  t.equal(bare.statusCode, 415, 'a POST with no body and no type')
  t.equal((await call(app, { method: 'POST', url: '/api/v1/job/close', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: JSON.stringify({ id: 1 }) })).status, 200)
})

t.test('a board without predefined locations needs coordinates for every job', async (t) => {
  const app = await board(t, { scenarioData: { name: 'nowhere', predefinedLocations: [], counts: { jobs: 1, candidates: 1, applications: 0 } } })
  const { job_latitude: _a, job_longitude: _b, ...withoutPoint } = jobInputSample()
  t.equal((await post(app, { ...withoutPoint, job_location: 'Harrogate' })).status, 412, 'Harrogate is not predefined here')
  t.equal((await post(app, jobInputSample())).status, 200, 'with coordinates it is fine')
})
