// The Timesheet list entry of timesheets/list.
import type { JSONSchema } from 'json-schema-to-ts'
import { id, text, timestamp, twoWayPagedEnvelope, url } from './common.js'

export const timesheet = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'attachment', 'created_at', 'candidate'],
  properties: {
    id,
    attachment: {
      type: 'object',
      additionalProperties: false,
      required: ['href', 'filename', 'filesize'],
      properties: {
        href: url,
        filename: { type: 'string', minLength: 1 },
        filesize: { type: 'integer', minimum: 0 },
      },
    },
    created_at: timestamp,
    candidate: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name', 'email', 'href'],
      properties: { id, name: text, email: text, href: url },
    },
  },
} as const satisfies JSONSchema

export const timesheetList = twoWayPagedEnvelope(timesheet)
