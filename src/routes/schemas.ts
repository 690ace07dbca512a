// Response schemas shared by every route: the error bodies and a file download.
import { anyErrorBody } from '../../schemas/index.js'

export const errors = { '4xx': anyErrorBody, '5xx': anyErrorBody } as const

/** A raw file of the given type: sent as bytes, described for the OpenAPI document. */
export const download = (type: string) => ({ content: { [type]: { schema: { type: 'string', format: 'binary' } } } }) as const
