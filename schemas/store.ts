// Records the fake keeps beside the API's own: a candidate's file (resume, document or
// timesheet) before it is shown as a File entry or a Timesheet list entry.
import type { JSONSchema } from 'json-schema-to-ts'
import { id, timestamp } from './common.js'

/** The kinds of a candidate's files, each with its download path /candidates/{kind}/{id}. */
export const FILE_KINDS = ['timesheet', 'resume', 'document'] as const
export type FileKind = (typeof FILE_KINDS)[number]

export const storedFile = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind', 'candidate_id', 'filename', 'filesize', 'created_at'],
  properties: {
    id,
    kind: { type: 'string', enum: FILE_KINDS },
    candidate_id: id,
    filename: { type: 'string', minLength: 1 },
    filesize: { type: 'integer', minimum: 0 },
    created_at: timestamp,
  },
} as const satisfies JSONSchema
