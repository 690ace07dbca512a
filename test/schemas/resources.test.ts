// Every resource and answer schema accepts a valid sample and refuses it once each
// constrained value, format and pattern in it is broken.
import t from 'tap'
import * as S from '../../schemas/index.js'
import { createAjv } from '../../src/core/validation.js'
import { breakingValues, pathText, ruledValues, setAt } from '../helpers/schema-walk.js'
import * as samples from '../fixtures/samples.js'

const ajv = createAjv()
const list = <T>(item: T) => ({ status: 200, total: 1, data: [item] })

const cases: Array<[string, object, () => unknown]> = [
  ['job/add body', S.jobInput, samples.jobInputSample],
  ['job/add answer', S.jobAddAnswer, samples.jobAddAnswerSample],
  ['job/fields answer', S.jobFieldsAnswer, samples.jobFieldsAnswerSample],
  ['job id body', S.jobIdBody, () => ({ id: 42 })],
  ['job repost body', S.jobRepostBody, () => ({ id: 42, closing_date: '2026-12-22 17:00' })],
  ['message answer', S.messageAnswer, () => ({ status: 200, message: 'The job has been deleted.' })],
  ['Candidate', S.candidate, samples.candidateSample],
  ['candidates/list answer', S.candidateList, () => ({ ...list(samples.candidateSample()), next_page: false })],
  ['candidates/details answer', S.candidateDetail, () => list(samples.candidateSample())],
  ['Application', S.application, samples.applicationSample],
  [
    'applications/list answer',
    S.applicationList,
    () => ({ ...list(samples.applicationSample()), next_page: 'https://board.example.com/api/v1/applications/list?page=2' }),
  ],
  ['applications/details answer', S.applicationDetail, () => {
    const { href: _, ...detail } = samples.applicationSample()
    return list(detail)
  }],
  ['Timesheet list entry', S.timesheet, samples.timesheetSample],
  [
    'timesheets/list answer',
    S.timesheetList,
    () => ({
      ...list(samples.timesheetSample()),
      next_page: 'https://board.example.com/api/v1/timesheets/list?page=3',
      prev_page: 'https://board.example.com/api/v1/timesheets/list?page=1',
    }),
  ],
  ['Marketing record', S.marketingRecord, samples.marketingSample],
  ['marketing/list answer', S.marketingList, () => ({ ...list(samples.marketingSample()), next_page: false })],
  ['Metric', S.metric, samples.metricSample],
  ['metrics/list answer', S.metricsAnswer, () => ({ status: 200, metrics: [samples.metricSample()] })],
  ['401 body', S.unauthorizedBody, () => ({ status: 401, message: 'Authentication required.' })],
  ['404 body', S.notFoundBody, () => ({ status: 404, message: 'Candidate 9 was not found.' })],
  ['412 body', S.preconditionFailedBody, () => ({ status: 412, message: 'The salary unit is invalid.' })],
  ['429 body', S.tooManyRequestsBody, () => ({ status: 429, message: 'Too many requests.' })],
  ['stored job', S.storedJob, () => ({ ...samples.jobInputSample(), id: 42, sector: 'Veterinary Surgeon', sub_sector: 'Small Animal Vet Surgeon', state: 'published', created_at: '2026-11-22 09:30:00', updated_at: '2026-11-22 09:30:00' })],
  ['stored file', S.storedFile, () => ({ id: 6, kind: 'resume', candidate_id: 17, filename: 'Amy_Pond_CV.pdf', filesize: 20480, created_at: '2026-03-04 10:11:12' })],
  ['candidate seed', S.candidateSeed, () => ({ name: 'Amy Pond', email: 'amy.pond@example.org', created_at: '2026-01-01 10:00:00', sector_disciplines: ['Veterinary Surgeon'], resumes: [{ filename: 'cv.pdf', filesize: 3000 }] })],
  ['job seed', S.jobSeed, () => ({ id: 3, salary_unit: 'Per hour', state: 'expired', created_at: '2026-01-01 10:00:00' })],
  ['application seed', S.applicationSeed, () => ({ id: 9, candidate_id: 1, job_id: 2, created_at: '2026-01-01 10:00:00', attachment_filename: 'cv.pdf', attachment_filesize: 4000 })],
  ['timesheet seed', S.timesheetSeed, () => ({ id: 9, candidate_id: 1, created_at: '2026-01-01 10:00:00', filename: 'week-1.xlsx', filesize: 4000 })],
  ['marketing seed', S.marketingSeed, () => ({ candidate_id: 0, email: 'no.account@example.org', action: 'Revoked', created_at: '2026-01-01 10:00:00' })],
  ['control: reset body', S.resetBody, () => ({ scenario: 'empty', seed: 3 })],
  ['control: clock advance body', S.advanceBody, () => ({ seconds: 900 })],
  ['control: clock set body', S.setClockBody, () => ({ now: '2026-12-01 00:00:00' })],
  ['control: clock answer', S.clockAnswer, () => ({ status: 200, now: '2026-12-01 00:00:00', mode: 'virtual' })],
  ['control: fault', S.faultBody, () => ({ method: 'GET', path: '/api/v1/candidates/*', status: 503, body: { x: 1 }, headers: { 'retry-after': '5' }, delayMs: 10, times: 2 })],
  ['control: journal entry', S.journalEntry, () => ({ method: 'GET', url: '/api/v1/metrics/list', status: 200, time: '2026-11-22 09:30:00', user: 'jobboard', fault: 'drop' })],
  ['contract ledger', S.ledgerFile, () => ({
    kind: 'jobboard-kit contract ledger',
    version: 1,
    requests: { 'jobboard GET https://b.example/api/v1/metrics/list': { at: '2026-11-22T09:30:00.000Z', until: '2026-11-22T09:45:00.000Z' } },
    writes: { 'jobboard https://b.example': { lifecycle: '2026-11-22T09:30:00.000Z' } },
    pending: [{ deployment: 'jobboard https://b.example', id: 42, reference: 'CONTRACT-20261122093000', since: '2026-11-22T09:31:00.000Z', why: 'its delete window is spent' }],
    deleted: { 'jobboard https://b.example': 41 },
  })],
  ['query of a paged list', S.pagedQuery, () => ({ since: '2026-11-01 00:00', page: 2 })],
  ['query of applications/list', S.applicationsQuery, () => ({ since: '2026-11-01 00:00', vacancy: 3, page: 2 })],
]

for (const [name, schema, sample] of cases) {
  t.test(name, async (t) => {
    const validate = ajv.compile(schema)
    t.ok(validate(sample()), `accepts a valid sample: ${ajv.errorsText(validate.errors)}`)

    const ruled = ruledValues(schema, sample())
    for (const { path, node, value } of ruled) {
      for (const broken of breakingValues(node, value)) {
        const data = sample()
        setAt(data, path, broken.value)
        t.notOk(validate(data), `refuses ${pathText(path) || 'the value'} as ${broken.why} (${JSON.stringify(broken.value)})`)
      }
      if (Array.isArray(node.enum)) {
        for (const allowed of node.enum) {
          const data = sample()
          // an item of a list is tried alone, so that uniqueItems does not get in the way
          const last = path[path.length - 1]
          if (typeof last === 'number') setAt(data, path.slice(0, -1), [allowed])
          else setAt(data, path, allowed)
          t.ok(validate(data), `accepts ${pathText(path)} = ${JSON.stringify(allowed)}`)
        }
      }
    }

    const withExtra = sample() as Record<string, unknown>
    withExtra.undocumented_field = 'x'
    if (name.startsWith('query')) t.ok(validate(withExtra), 'ignores a query parameter it does not know')
    else t.notOk(validate(withExtra), 'refuses a field the schema does not declare')
  })
}

t.test('the walk finds every constrained job field and format', async (t) => {
  const paths = ruledValues(S.jobInput, samples.jobInputSample()).map((r) => pathText(r.path))
  for (const field of [
    'job_industry',
    'job_type',
    'contract_type',
    'salary_unit',
    'salary_currency',
    'job_telecommute',
    'published',
    'featured',
    'require_cv',
    'hot',
    'internal',
    'close_automatically',
    'contact_email',
    'salary_precise',
    'available_from',
    'closing_date',
    'expiry_date',
    'keywords',
    'application_url',
  ]) {
    t.ok(paths.includes(field), `covers ${field}`)
  }
  const candidatePaths = ruledValues(S.candidate, samples.candidateSample()).map((r) => pathText(r.path))
  for (const field of ['last_login', 'created_at', 'updated_at', 'available_from', 'timesheets[0].created_at', 'applications[0].application_date', 'consent[0].date', 'sector_disciplines[0]']) {
    t.ok(candidatePaths.includes(field), `covers candidate ${field}`)
  }
})
