// A whole board saved as JSON (GET /__mock/state) and restored from it (PUT): the
// effective scenario, the clock, and every record with the links the API does not show
// (the full form), or only what differs from the board the scenario and seed generate
// (the compact form, GET /__mock/state?form=compact).
import type { JSONSchema } from 'json-schema-to-ts'
import { id, timestamp } from './common.js'
import { candidate } from './candidate.js'
import { application } from './application.js'
import { timesheet } from './timesheet.js'
import { marketingRecord } from './marketing.js'
import { storedJob } from './job.js'
import { storedFile } from './store.js'
import { scenario } from './scenario.js'
import { METRIC_LABELS } from './values.js'

/**
 * The largest file a saved board may describe: 50 MiB. Downloads are streamed, so this
 * bounds the time a download takes rather than memory; the API's own schemas leave sizes
 * open (a real board may hold larger files).
 */
export const MAX_FILE_SIZE = 52428800
const fileSize = { type: 'integer', minimum: 0, maximum: MAX_FILE_SIZE } as const

/** A stored file of a saved board, its size bounded. */
const boundedFile = {
  ...storedFile,
  properties: { ...storedFile.properties, filesize: fileSize },
} as const satisfies JSONSchema

/** A timesheet of a saved board, its attachment's size bounded. */
const boundedTimesheet = {
  ...timesheet,
  properties: {
    ...timesheet.properties,
    attachment: {
      ...timesheet.properties.attachment,
      properties: { ...timesheet.properties.attachment.properties, filesize: fileSize },
    },
  },
} as const satisfies JSONSchema

/**
 * The id the next job gets: one past the largest id once a job holds it, so that a board
 * whose ids are used up saves and restores (its job/add is refused).
 */
const nextJobId = { type: 'integer', minimum: 1, maximum: id.maximum + 1 } as const

const month = { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' } as const

export const metricsState = {
  type: 'object',
  additionalProperties: false,
  required: ['counts', 'starts'],
  properties: {
    counts: {
      type: 'object',
      propertyNames: { enum: METRIC_LABELS },
      additionalProperties: { type: 'object', propertyNames: month, additionalProperties: { type: 'integer', minimum: 0 } },
    },
    starts: { type: 'object', propertyNames: { enum: METRIC_LABELS }, additionalProperties: month },
  },
} as const satisfies JSONSchema

export const storeState = {
  type: 'object',
  additionalProperties: false,
  required: ['jobs', 'deletedJobs', 'nextJobId', 'candidates', 'applications', 'timesheets', 'files', 'marketing', 'metrics', 'adds'],
  properties: {
    jobs: { type: 'array', items: storedJob },
    deletedJobs: { type: 'array', items: id },
    nextJobId,
    candidates: { type: 'array', items: candidate },
    applications: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['candidate_id', 'record'],
        properties: {
          // 0: an applicant with no candidate account (a guest), listed under no candidate
          candidate_id: { type: 'integer', minimum: 0, maximum: id.maximum },
          attachment_filesize: fileSize,
          record: application,
        },
      },
    },
    timesheets: { type: 'array', items: boundedTimesheet },
    files: { type: 'array', items: boundedFile },
    marketing: { type: 'array', items: marketingRecord },
    metrics: metricsState,
    adds: { type: 'integer', minimum: 0 },
  },
} as const satisfies JSONSchema

const { jobs, candidates, applications, timesheets, files, marketing } = storeState.properties

/**
 * What a board holds beyond the one its scenario and seed generate: the records written
 * over it (adds, job writes, the candidates those change), the generated jobs deleted,
 * and the counters. Marketing records have no id of their own, so each carries the one
 * the board keeps it by.
 */
export const compactStoreState = {
  type: 'object',
  additionalProperties: false,
  required: ['generated', 'written', 'deleted', 'deletedJobs', 'nextJobId', 'metrics', 'adds'],
  properties: {
    generated: {
      type: 'boolean',
      description: 'true: the written records lie over the board the scenario and seed generate; false: they are the whole board (one restored from a full state)',
    },
    written: {
      type: 'object',
      additionalProperties: false,
      required: ['jobs', 'candidates', 'applications', 'timesheets', 'files', 'marketing'],
      properties: {
        jobs,
        candidates,
        applications,
        timesheets,
        files,
        marketing: {
          type: 'array',
          items: { type: 'object', additionalProperties: false, required: ['id', 'record'], properties: { id, record: marketing.items } },
        },
      },
    },
    deleted: {
      type: 'object',
      additionalProperties: false,
      required: ['jobs'],
      // jobs are the only records a board deletes
      properties: { jobs: { type: 'array', items: id, description: 'Generated jobs deleted (job/delete); each is in deletedJobs too' } },
    },
    deletedJobs: storeState.properties.deletedJobs,
    nextJobId,
    metrics: metricsState,
    adds: storeState.properties.adds,
  },
} as const satisfies JSONSchema

/** One constrained list as saved: distinct values, each one line. */
const savedValues = { type: 'array', minItems: 1, maxItems: 10000, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } } as const
const savedLists = {
  type: 'object',
  additionalProperties: false,
  required: ['job_industry', 'job_type', 'contract_type', 'salary_unit', 'salary_currencies', 'job_telecommute'],
  properties: {
    job_industry: savedValues,
    job_type: savedValues,
    contract_type: savedValues,
    salary_unit: savedValues,
    salary_currencies: savedValues,
    job_telecommute: savedValues,
  },
} as const

/**
 * Constrained values changed at run time (POST /__mock/job-fields): the values listed when
 * the board was saved, and every value listed since it was made (what its records may
 * hold). Left out when the values are the scenario's.
 */
export const jobFieldsState = {
  type: 'object',
  additionalProperties: false,
  required: ['current', 'known'],
  properties: {
    current: savedLists,
    known: { ...savedLists, required: [...savedLists.required, 'sector_disciplines'], properties: { ...savedLists.properties, sector_disciplines: savedValues } },
  },
} as const satisfies JSONSchema

export const boardState = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'scenario', 'clock', 'store'],
  properties: {
    format: { const: 'jobboard-kit/state' },
    version: { const: 1 },
    scenario,
    clock: { type: 'object', additionalProperties: false, required: ['now'], properties: { now: timestamp } },
    jobFields: jobFieldsState,
    store: storeState,
  },
} as const satisfies JSONSchema

/** A board saved in the compact form: `form: "compact"` says the store holds only what was written. */
export const compactBoardState = {
  ...boardState,
  required: ['format', 'version', 'form', 'scenario', 'clock', 'store'],
  properties: {
    format: boardState.properties.format,
    version: boardState.properties.version,
    form: { const: 'compact' },
    scenario: boardState.properties.scenario,
    clock: boardState.properties.clock,
    jobFields: jobFieldsState,
    store: compactStoreState,
  },
} as const satisfies JSONSchema
