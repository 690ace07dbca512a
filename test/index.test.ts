// The package entry exports the schemas, and types derived from them.
import t from 'tap'
import * as entry from '../src/index.js'
import type { Application, Candidate, JobInput, MarketingRecord, Metric, Timesheet } from '../src/index.js'
import { applicationSample, candidateSample, jobInputSample, marketingSample, metricSample, timesheetSample } from './fixtures/samples.js'

t.test('exports every resource schema', async (t) => {
  for (const name of ['jobInput', 'candidate', 'application', 'timesheet', 'marketingRecord', 'metric', 'scenario', 'serverOptions'] as const) {
    t.type(entry.schemas[name], 'object', name)
  }
})

t.test('the exported types are those of the schemas', async (t) => {
  // compile-time: the samples are typed by src/core/types.ts; these assignments fail tsc if the entry's types drift
  const samples: [JobInput, Candidate, Application, Timesheet, MarketingRecord, Metric] = [
    jobInputSample(),
    candidateSample(),
    applicationSample(),
    timesheetSample(),
    marketingSample(),
    metricSample(),
  ]
  const ajv = entry.createAjv()
  const schemas = [entry.schemas.jobInput, entry.schemas.candidate, entry.schemas.application, entry.schemas.timesheet, entry.schemas.marketingRecord, entry.schemas.metric]
  for (const [i, sample] of samples.entries()) t.ok(ajv.validate(schemas[i] as object, sample), `sample ${i} validates`)
})

t.test('exports the verdict: its rules and the assertion for tests', async (t) => {
  t.type(entry.assertVerdict, 'function')
  t.ok(entry.RULES.some((rule) => rule.id === 'retry-after'), 'the catalogue')
  t.type(entry.verdictText, 'function')
})
