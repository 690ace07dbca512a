// The job/add body: required fields, the coordinates rule, no type coercion, and a
// message that names the field at fault in plain words.
import t from 'tap'
import { JOB_REQUIRED, jobInput } from '../../schemas/job.js'
import { UK_LOCATIONS } from '../../schemas/values.js'
import { createAjv, explain, Validators } from '../../src/core/validation.js'
import { jobInputSample } from '../fixtures/samples.js'

const validate = createAjv().compile(jobInput)
/** The 412 message for a body that must be refused (an accepted body fails the test). */
const messageFor = (body: unknown) => (validate(body) ? 'ACCEPTED' : explain(validate.errors ?? [], 'body', body))

t.test('answers a message naming each missing required field', async (t) => {
  for (const field of JOB_REQUIRED) {
    const body: Record<string, unknown> = jobInputSample()
    delete body[field]
    t.notOk(validate(body), `refuses a body without ${field}`)
    const message = explain(validate.errors ?? [], 'body', body)
    t.match(message, field, `the message names ${field}`)
    t.match(message, /missing/, 'and says it is missing')
  }
})

t.test('says in plain words that the salary unit is invalid', async (t) => {
  const message = messageFor({ ...jobInputSample(), salary_unit: 'Per decade' })
  t.match(message, /salary unit/)
  t.match(message, /salary_unit/)
  t.match(message, /"Per decade" is not one of Per hour, Per year, Per week, Per month/)
})

t.test('does not coerce types: "1" is not the integer 1', async (t) => {
  t.match(messageFor({ ...jobInputSample(), published: '1' }), /published/)
  t.match(messageFor({ ...jobInputSample(), job_latitude: '54.3' }), /job_latitude/)
  t.match(messageFor({ ...jobInputSample(), job_benefits: 'RCVS fees' }), /job_benefits/)
})

t.test('refuses coordinates that are not a real point', async (t) => {
  t.match(messageFor({ ...jobInputSample(), job_latitude: 91 }), /job_latitude.*<= 90/)
  t.match(messageFor({ ...jobInputSample(), job_longitude: -180.5 }), /job_longitude.*>= -180/)
})

t.test('needs coordinates unless job_location is a predefined location', async (t) => {
  const { job_latitude: _lat, job_longitude: _lng, ...withoutPoint } = jobInputSample()
  t.match(messageFor(withoutPoint), /job_latitude.*unless job_location is a predefined location/)
  const predefined = UK_LOCATIONS[0]?.name as string
  t.ok(validate({ ...withoutPoint, job_location: predefined }), `accepts ${predefined} without coordinates`)
  const bound = new Validators({ job_locations: ['Kendal, Cumbria'] }).get(jobInput)
  t.ok(bound({ ...withoutPoint }), "accepts a scenario's own predefined location")
  t.notOk(bound({ ...withoutPoint, job_location: predefined }), 'and no longer the default list')
})

t.test('refuses fields the spec does not list', async (t) => {
  t.match(messageFor({ ...jobInputSample(), job_colour: 'blue' }), /job_colour.*not a known field/)
})

t.test('checks the free-text rules: numeric salary, e-mail, comma-separated keywords, URL', async (t) => {
  t.match(messageFor({ ...jobInputSample(), salary_precise: '£45,000' }), /salary_precise/)
  t.match(messageFor({ ...jobInputSample(), contact_email: 'ruth at example' }), /contact_email/)
  t.match(messageFor({ ...jobInputSample(), keywords: 'vet,,nurse' }), /keywords/)
  t.match(messageFor({ ...jobInputSample(), application_url: 'careers page' }), /application_url/)
  t.match(messageFor({ ...jobInputSample(), closing_date: '2026-02-30 17:00' }), /closing_date.*YYYY-MM-DD H:i/)
})

t.test('binds a scenario\'s constrained values in place of the spec\'s', async (t) => {
  const lists = { job_industry: ['Veterinary Surgeon', 'Farm Animal Vet'] }
  const bound = new Validators(lists).get(jobInput)
  t.ok(bound({ ...jobInputSample(), job_industry: 'Farm Animal Vet' }), 'accepts the added industry')
  t.notOk(bound({ ...jobInputSample(), job_industry: 'Registered Veterinary Nurse' }), 'refuses one the scenario dropped')
  t.ok(validate({ ...jobInputSample(), job_industry: 'Registered Veterinary Nurse' }), 'the unbound schema is unchanged')
})

t.test('mentions the other fields at fault', async (t) => {
  const message = messageFor({ ...jobInputSample(), salary_unit: 'Per decade', job_type: 'Sometimes' })
  t.match(message, /Also invalid: .*(job_type|salary_unit)/)
})
