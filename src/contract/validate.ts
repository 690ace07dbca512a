// Answers against the schemas: ajv with every error, the board's current constrained
// values bound in (job/fields), and each error sorted into a failure or drift. A field
// the schemas do not know (additionalProperties) is drift: an observation for the
// report, not a failure, since a service may add fields without breaking a client.
import type { ErrorObject } from 'ajv'
import { listsOf, type FieldValues } from '../../schemas/values.js'
import { explain, fieldOf, Validators } from '../validation.js'

export interface DriftField {
  /** The field with array positions folded: `data[].candidate.middle_name`. */
  field: string
  /** A short rendering of one value seen there. */
  example: string
}

export interface SchemaVerdict {
  /** One sentence per distinct problem, naming the field. */
  failures: string[]
  drift: DriftField[]
}

const fold = (field: string) => field.replace(/\[[0-9]+\]/g, '[]')

/** A value in at most 80 characters, for a message or the report. */
export function short(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function valueAt(data: unknown, instancePath: string, child?: string): unknown {
  let node = data
  const parts = instancePath.split('/').slice(1)
  if (child !== undefined) parts.push(child)
  for (const raw of parts) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}

/** Errors inside an anyOf say what each branch wanted; the anyOf's own error says it once. */
function withoutBranchNoise(errors: readonly ErrorObject[]): ErrorObject[] {
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath))
  return errors.filter((e) => e.keyword === 'anyOf' || !(anyOfAt.has(e.instancePath) && /\/anyOf\//.test(e.schemaPath)))
}

function sentence(error: ErrorObject, data: unknown): string {
  if (error.keyword === 'anyOf') {
    const field = fieldOf(error)
    return `The field ${field} is invalid: ${short(valueAt(data, error.instancePath))} is none of the forms the spec allows.`
  }
  return explain([error], 'record', data)
}

/** Validates answers; one instance per run, bound to the values job/fields gave (or the spec's). */
export class AnswerValidator {
  readonly #validators: Validators

  constructor(values: FieldValues) {
    this.#validators = new Validators(listsOf(values))
  }

  check(schema: object, data: unknown): SchemaVerdict {
    const validate = this.#validators.get(schema)
    if (validate(data)) return { failures: [], drift: [] }
    const errors = withoutBranchNoise(validate.errors ?? [])
    const drift = new Map<string, DriftField>()
    const failures = new Map<string, { message: string; more: number }>()
    for (const error of errors) {
      if (error.keyword === 'additionalProperties') {
        const field = fieldOf(error)
        const key = fold(field)
        const example = short(valueAt(data, error.instancePath, String((error.params as { additionalProperty: string }).additionalProperty)))
        if (!drift.has(key)) drift.set(key, { field: key, example })
        continue
      }
      // the same problem in every record is one failure, not one per record
      const key = `${error.keyword} ${fold(fieldOf(error))}`
      const seen = failures.get(key)
      if (seen) seen.more++
      else failures.set(key, { message: sentence(error, data), more: 0 })
    }
    return {
      failures: [...failures.values()].map(({ message, more }) => (more === 0 ? message : `${message} (and ${more} more like it)`)),
      drift: [...drift.values()],
    }
  }
}
