// The Application of applications/list and applications/details/{id}.
import type { JSONSchema } from 'json-schema-to-ts'
import { id, listEnvelope, pagedEnvelope, text, timestamp, url } from './common.js'

export const application = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'href', 'created_at', 'updated_at', 'applicant', 'vacancy'],
  properties: {
    id,
    href: url,
    created_at: timestamp,
    updated_at: timestamp,
    applicant: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'email', 'telephone', 'cover_letter', 'attachment'],
      properties: {
        name: text,
        email: text,
        telephone: text,
        cover_letter: text,
        attachment: {
          type: 'object',
          additionalProperties: false,
          required: ['href', 'filename'],
          properties: { href: url, filename: { type: 'string', minLength: 1 } },
        },
      },
    },
    vacancy: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'title', 'location', 'salary', 'reference'],
      properties: { id, title: text, location: text, salary: text, reference: text },
    },
  },
} as const satisfies JSONSchema

const { href: _href, ...detailProperties } = application.properties

/**
 * The spec gives `href` "(in list items)": applications/details/{id} answers the
 * application without it. (A service that adds it there shows up as drift, not failure.)
 */
export const applicationInDetail = {
  ...application,
  required: ['id', 'created_at', 'updated_at', 'applicant', 'vacancy'],
  properties: detailProperties,
} as const satisfies JSONSchema

export const applicationList = pagedEnvelope(application)
export const applicationDetail = listEnvelope(applicationInDetail)
