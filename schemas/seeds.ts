// Partial records that a scenario pins and that the control API adds: the fields
// given are kept, the rest is generated consistently with the board (links, files,
// metrics). Linking fields (candidate_id, job_id) name records that must exist.
import type { JSONSchema } from 'json-schema-to-ts'
import { email, id, timestamp } from './common.js'
import { candidate } from './candidate.js'
import { jobFields, JOB_STATES } from './job.js'
import { marketingRecord } from './marketing.js'
import { MARKETING_ACTIONS } from './values.js'

/** A file a seed may name: its original name and size in bytes (up to 10 MiB). */
const fileSeed = {
  type: 'object',
  additionalProperties: false,
  properties: {
    filename: { type: 'string', minLength: 1, maxLength: 200 },
    filesize: { type: 'integer', minimum: 0, maximum: 10485760 },
  },
} as const satisfies JSONSchema

const { timesheets: _t, resumes: _r, documents: _d, applications: _a, consent: _c, ...candidateScalars } =
  candidate.properties

export const candidateSeed = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...candidateScalars,
    resumes: { type: 'array', maxItems: 20, items: fileSeed },
    documents: { type: 'array', maxItems: 20, items: fileSeed },
  },
} as const satisfies JSONSchema

export const jobSeed = {
  type: 'object',
  additionalProperties: false,
  properties: { ...jobFields, id, state: { type: 'string', enum: JOB_STATES }, created_at: timestamp },
} as const satisfies JSONSchema

/**
 * The applicant of an application by a guest: a person of its own, with no candidate
 * account (the spec's Application carries its applicant's name, e-mail and telephone
 * itself). Fields left out are generated; `{}` is a guest made up whole.
 */
export const guestApplicant = {
  type: 'object',
  additionalProperties: false,
  description: 'An applicant with no candidate account; fields left out are generated',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    email,
    telephone: { type: 'string', maxLength: 100 },
  },
} as const satisfies JSONSchema

export const applicationSeed = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id,
    /** The candidate who applied; not with `applicant`. */
    candidate_id: id,
    /** A guest applicant instead of a candidate; not with `candidate_id`. */
    applicant: guestApplicant,
    job_id: id,
    created_at: timestamp,
    /** When it last changed (a client's `since` may read it): not before created_at; left out, it is created_at or drawn. */
    updated_at: timestamp,
    cover_letter: { type: 'string' },
    attachment_filename: fileSeed.properties.filename,
    attachment_filesize: fileSeed.properties.filesize,
  },
} as const satisfies JSONSchema

export const timesheetSeed = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id,
    candidate_id: id,
    created_at: timestamp,
    ...fileSeed.properties,
  },
} as const satisfies JSONSchema

export const marketingSeed = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // 0 for an e-mail with no account, as in the Marketing record
    candidate_id: marketingRecord.properties.candidate.properties.id,
    email,
    action: { type: 'string', enum: MARKETING_ACTIONS },
    ip_address: { type: 'string' },
    created_at: timestamp,
  },
} as const satisfies JSONSchema
