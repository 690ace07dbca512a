// Answers against the schemas: ajv with every error, the board's current constrained
// values bound in (job/fields), and each error sorted into a failure, drift or another
// observation. The schemas are the fake's, which makes one choice where the spec allows
// several; what the spec leaves open is observed here, not failed:
// - a field the schemas do not know (additionalProperties): drift, since a service may
//   add fields without breaking a client;
// - a month written as another month name (`Nov`, `november`): the spec says "month name";
// - a metric label beyond the ten the spec names;
// - a sector_disciplines value today's job/fields does not list: values come and go.
// A constrained value the spec or job/fields lists in another casing still fails.
import type { ErrorObject } from 'ajv'
import { listsOf, MONTH_NAMES, SECTOR_DISCIPLINES, type FieldValues } from '../../schemas/values.js'
import { explain, fieldOf, Validators } from '../core/validation.js'

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
  /** Choices the spec leaves open, as seen: one sentence each. */
  choices: Array<{ topic: 'month-style' | 'metric-label' | 'field-values'; summary: string }>
}

/** The month (0 to 11) a month name of any usual style names (`November`, `Nov`, `nov.`, `Sept`), or undefined. */
export function monthNumber(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const word = value.trim().replace(/\.$/, '').toLowerCase()
  if (word.length < 3) return undefined
  const at = MONTH_NAMES.findIndex((name) => name.toLowerCase() === word || (name.toLowerCase().startsWith(word) && (word.length === 3 || word === 'sept')))
  return at < 0 ? undefined : at
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
  if (error.keyword === 'enum' && /(^|\.)(month|available_from_month)$/.test(fold(fieldOf(error)))) {
    return `The field ${fieldOf(error)} is ${short(valueAt(data, error.instancePath))}: expected a month name, such as "November".`
  }
  if (error.keyword === 'enum' && /sector_disciplines\[[0-9]+\]$/.test(fieldOf(error))) {
    return `The field ${fieldOf(error)} is ${short(valueAt(data, error.instancePath))}: expected <Sector>::<Discipline> or a sector alone, in the casing job/fields or the spec gives.`
  }
  if (error.keyword === 'anyOf') {
    const field = fieldOf(error)
    return `The field ${field} is invalid: ${short(valueAt(data, error.instancePath))} is none of the forms the spec allows.`
  }
  return explain([error], 'record', data)
}

/** The long month names the fake writes: a value among them is no other style. */
const LONG_MONTHS: ReadonlySet<string> = new Set(MONTH_NAMES)

/** Month fields (`month`, `available_from_month`) written in another style than the long names, one choice per field and value style. */
export function monthStyles(data: unknown): Array<SchemaVerdict['choices'][number]> {
  const found = new Map<string, SchemaVerdict['choices'][number]>()
  // every answer of a proxy goes through here, a walk of every object of it: a field's name is
  // written only where a month or an object is found, the keys read without a list made of them
  const visit = (node: unknown, path: string, depth: number) => {
    if (depth > 6 || node === null || typeof node !== 'object') return
    if (Array.isArray(node)) {
      const items = `${path}[]`
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i]
        if (item !== null && typeof item === 'object') visit(item, items, depth + 1)
      }
      return
    }
    const record = node as Record<string, unknown>
    for (const key in record) {
      const value = record[key]
      if (typeof value === 'string') {
        if ((key === 'month' || key === 'available_from_month') && !LONG_MONTHS.has(value)) {
          const field = path === '' ? key : `${path}.${key}`
          const month = monthNumber(value)
          if (month !== undefined && !found.has(field)) found.set(field, { topic: 'month-style', summary: `${field} is written ${short(value)} (the fake writes ${MONTH_NAMES[month]})` })
        }
      } else if (value !== null && typeof value === 'object') visit(value, path === '' ? key : `${path}.${key}`, depth + 1)
    }
  }
  visit(data, '', 0)
  return [...found.values()]
}

let sharedValidators: Map<string, Validators> | undefined
/**
 * The compiled validators of a set of lists, shared by every run of this process (a suite
 * or a proxy makes many runs on the same lists, and compiling an answer's schema costs far
 * more than running it). A validator is a pure function of its schema and lists; the four
 * sets used last are kept.
 */
function validatorsOf(lists: ReturnType<typeof listsOf>): Validators {
  sharedValidators ??= new Map()
  const key = JSON.stringify(lists)
  const found = sharedValidators.get(key) ?? new Validators(lists)
  // the most recently used stays longest
  sharedValidators.delete(key)
  sharedValidators.set(key, found)
  if (sharedValidators.size > 4) sharedValidators.delete(sharedValidators.keys().next().value as string)
  return found
}

/** Validates answers; one instance per run, bound to the values job/fields gave (or the spec's). */
export class AnswerValidator {
  readonly #validators: Validators
  /** Every sector_disciplines spelling the spec or today's job/fields gives: a value in another casing fails. */
  readonly #known: readonly string[]

  constructor(values: FieldValues) {
    const lists = listsOf(values)
    this.#validators = validatorsOf(lists)
    this.#known = [...new Set([...lists.sector_disciplines, ...SECTOR_DISCIPLINES])]
  }

  /** An enum error the spec allows, as an observation; undefined when it is a failure. */
  #choice(error: ErrorObject, data: unknown): SchemaVerdict['choices'][number] | undefined {
    if (error.keyword !== 'enum') return undefined
    const field = fold(fieldOf(error))
    const value = valueAt(data, error.instancePath)
    if (/(^|\.)(month|available_from_month)$/.test(field) && monthNumber(value) !== undefined) {
      return { topic: 'month-style', summary: `${field} is written ${short(value)} (the fake writes ${MONTH_NAMES[monthNumber(value) as number]})` }
    }
    if (/^metrics\[\]\.label$/.test(field) && typeof value === 'string') {
      return { topic: 'metric-label', summary: `a label the spec does not name: ${short(value)}` }
    }
    if (/sector_disciplines\[\]$/.test(field) && typeof value === 'string') {
      const cased = this.#known.find((known) => known.toLowerCase() === value.toLowerCase())
      // the spec fixes the form, `<Sector>::<Discipline>` or the sector alone; the values come from job/fields
      const formed = /^[^:]+::[^:]+$/.test(value) || (!value.includes('::') && !/\S\/\S/.test(value))
      return cased === undefined && formed ? { topic: 'field-values', summary: `${field} holds ${short(value)}, which today's job/fields does not list` } : undefined
    }
    return undefined
  }

  check(schema: object, data: unknown): SchemaVerdict {
    const validate = this.#validators.get(schema)
    // the schemas accept short month names too (a deployment's choice): noted whether or not the answer fits
    const choices = new Map<string, SchemaVerdict['choices'][number]>(monthStyles(data).map((choice) => [choice.summary, choice]))
    if (validate(data)) return { failures: [], drift: [], choices: [...choices.values()] }
    const errors = withoutBranchNoise(validate.errors ?? [])
    const drift = new Map<string, DriftField>()
    const failures = new Map<string, { message: string; more: number }>()
    for (const error of errors) {
      const choice = this.#choice(error, data)
      if (choice) {
        choices.set(choice.summary, choice)
        continue
      }
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
      choices: [...choices.values()],
    }
  }
}
