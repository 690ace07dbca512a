// The gate of every write a caller asks the store for (job/add, the control API's adds):
// the input must fit its schema, with this board's lists, before anything is made, or a
// BoardInputError names the field and nothing changes.
import { boardError } from '../../core/errors.js'
import { parseTime } from '../../core/time.js'
import type { Validators } from '../../core/validation.js'

export function checkInput<T>(validators: Validators, schema: object, input: unknown): T {
  const validate = validators.get(schema)
  if (!validate(input)) throw boardError.invalidInput(validate.errors ?? [], 'body', input)
  // the timestamp format reads any year; a record before the epoch would stretch the metrics back centuries
  const created = (input as { created_at?: string }).created_at
  if (created !== undefined && parseTime(created) < 0) {
    throw boardError.invalidField(`The created at (field created_at) is invalid: "${created}" lies before 1970.`, 'created_at')
  }
  return input as T
}
