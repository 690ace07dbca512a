// The Metric of metrics/list and its `{status, metrics}` envelope.
import type { JSONSchema } from 'json-schema-to-ts'
import { METRIC_LABELS, MONTH_NAME_VALUES } from './values.js'

const count = { type: 'integer', minimum: 0 } as const

export const metric = {
  type: 'object',
  additionalProperties: false,
  required: ['label', 'total', 'aggregations'],
  properties: {
    label: { type: 'string', enum: METRIC_LABELS },
    total: count,
    aggregations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['year', 'month', 'total'],
        properties: {
          year: { type: 'string', pattern: '^[0-9]{4}$' },
          month: { type: 'string', enum: MONTH_NAME_VALUES },
          total: count,
        },
      },
    },
  },
} as const satisfies JSONSchema

export const metricsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'metrics'],
  properties: { status: { type: 'integer', const: 200 }, metrics: { type: 'array', items: metric } },
} as const satisfies JSONSchema
