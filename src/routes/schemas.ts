// Response schemas shared by every route: the error bodies and a file download.
import { anyErrorBody } from '../../schemas/index.js'

export const errors = { '4xx': anyErrorBody, '5xx': anyErrorBody } as const

/** A raw file: not serialized, described for the OpenAPI document. */
export const binary = { type: 'string', format: 'binary' } as const
