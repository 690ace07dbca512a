// The job write API: the job/add body and its answer, the id bodies of close, expire
// and delete, the repost body, the job/fields answer, and the job as the fake stores it.
import type { JSONSchema } from 'json-schema-to-ts'
import { constrained, email, flag, id, jobDate, messageAnswer, timestamp, url } from './common.js'
import { type FIELD_VALUES, UK_LOCATIONS } from './values.js'

const requiredText = { type: 'string', minLength: 1 } as const
const freeText = { type: 'string' } as const
const textItems = { type: 'array', items: freeText } as const

/** The fields of job/add, each with its rule. */
export const jobFields = {
  published: flag,
  featured: flag,
  job_title: requiredText,
  job_reference: requiredText,
  job_industry: constrained('job_industry'),
  job_telecommute: constrained('job_telecommute'),
  job_location: requiredText,
  job_latitude: { type: 'number', minimum: -90, maximum: 90 },
  job_longitude: { type: 'number', minimum: -180, maximum: 180 },
  job_type: constrained('job_type'),
  contract_type: constrained('contract_type'),
  job_description: requiredText,
  contact_name: requiredText,
  contact_email: email,
  salary_visible: requiredText,
  salary_precise: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
  salary_unit: constrained('salary_unit'),
  salary_currency: constrained('salary_currencies'),
  require_cv: flag,
  available_from: jobDate,
  closing_date: jobDate,
  close_automatically: flag,
  expiry_date: jobDate,
  hot: flag,
  internal: flag,
  // "comma-separated list": items with something in them; the example is what the kit sends as the documented form
  keywords: { type: 'string', pattern: '^[^,]*[^,\\s][^,]*(,[^,]*[^,\\s][^,]*)*$', examples: ['vets,locum,night shifts'] },
  job_hours: freeText,
  job_duration: freeText,
  job_skills: freeText,
  job_benefits: textItems,
  job_requirements: textItems,
  job_responsibilities: textItems,
  salary_benefits: freeText,
  application_url: url,
} as const satisfies Record<string, JSONSchema>

/** Required by job/add, except the coordinates, which `jobLocationRule` requires. */
export const JOB_REQUIRED = [
  'published',
  'featured',
  'job_title',
  'job_reference',
  'job_industry',
  'job_telecommute',
  'job_location',
  'job_type',
  'contract_type',
  'job_description',
  'contact_name',
  'contact_email',
  'salary_visible',
  'salary_precise',
  'salary_unit',
  'salary_currency',
  'require_cv',
] as const

/**
 * Coordinates are required unless job_location is on the predefined list; that list
 * belongs to the scenario, so bindFieldValues replaces the enum at run time.
 */
const jobLocationRule = {
  if: {
    required: ['job_location'],
    properties: {
      job_location: { enum: UK_LOCATIONS.map((l) => l.name), $comment: 'constrained:job_locations' },
    },
  },
  // the coordinates' rules are jobFields'; naming them here too (as any value) tells OpenAPI
  // linters that the properties required are defined ones
  else: { required: ['job_latitude', 'job_longitude'], properties: { job_latitude: true, job_longitude: true } },
} as const

/** The body of POST /job/add. */
export const jobInput = {
  type: 'object',
  required: JOB_REQUIRED,
  properties: jobFields,
  additionalProperties: false,
  ...jobLocationRule,
} as const satisfies JSONSchema

/**
 * job/add when behaviour.unknownJobFields is "ignore": the same rules, but fields
 * outside the spec's list pass validation (and are then dropped, not stored).
 */
export const jobInputLenient = { ...jobInput, additionalProperties: true } as const satisfies JSONSchema

/** The body of close, expire and delete: `{id}`. */
export const jobIdBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id },
} as const satisfies JSONSchema

/** The body of close and expire on a deployment that names the job `job_id` (behaviour.closeExpireIdField). */
export const jobIdFieldBody = {
  type: 'object',
  additionalProperties: false,
  required: ['job_id'],
  properties: { job_id: id },
} as const satisfies JSONSchema

/** The body of repost: `{id, closing_date?}`. */
export const jobRepostBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id, closing_date: jobDate },
} as const satisfies JSONSchema

/** job/add's answer on success: the public page URL in `message`, and the new id. */
export const jobAddAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'message', 'id'],
  properties: { status: { type: 'integer', const: 200 }, message: { type: 'string', minLength: 1 }, id },
} as const satisfies JSONSchema

export const jobMessageAnswer = messageAnswer

const valueList = <K extends keyof typeof FIELD_VALUES>(list: K) =>
  ({ type: 'array', minItems: 1, uniqueItems: true, items: constrained(list) }) as const

/** The constrained lists job/fields gives, each in the spec's order. */
const fieldLists = {
  type: 'object',
  additionalProperties: false,
  required: ['job_industry', 'job_type', 'contract_type', 'salary_unit', 'salary_currencies', 'job_telecommute'],
  properties: {
    job_industry: valueList('job_industry'),
    job_type: valueList('job_type'),
    contract_type: valueList('contract_type'),
    salary_unit: valueList('salary_unit'),
    salary_currencies: valueList('salary_currencies'),
    job_telecommute: valueList('job_telecommute'),
  },
} as const satisfies JSONSchema

/**
 * GET /job/fields: the spec does not show the shape. The fake answers
 * `{status: 200, data: {<list name>: [values]}}` (docs/behaviour.md).
 */
export const jobFieldsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'data'],
  properties: { status: { type: 'integer', const: 200 }, data: fieldLists },
} as const satisfies JSONSchema

/** job/fields on a deployment that gives the lists beside `status` (behaviour.jobFieldsShape "top-level"). */
export const jobFieldsTopLevelAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', ...fieldLists.required],
  properties: { status: { type: 'integer', const: 200 }, ...fieldLists.properties },
} as const satisfies JSONSchema

export const JOB_STATES = ['published', 'unpublished', 'expired'] as const

/**
 * A job as the fake keeps it: what job/add accepted, the industry split into sector
 * and sub-sector, its state and its times. The spec shows no read of a job.
 */
export const storedJob = {
  type: 'object',
  additionalProperties: false,
  required: [...JOB_REQUIRED, 'id', 'sector', 'sub_sector', 'state', 'created_at', 'updated_at'],
  properties: {
    ...jobFields,
    id,
    sector: { type: 'string', minLength: 1 },
    sub_sector: { type: 'string' },
    state: { type: 'string', enum: JOB_STATES },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const satisfies JSONSchema
