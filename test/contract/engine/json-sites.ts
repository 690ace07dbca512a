// Where the JSON operators of the deviation engine fit an answer: every member of its
// body as a path (`data.3.timesheets.0.filename`), named by its pattern (`data[].timesheets[].filename`),
// and which rotation group it belongs to: a member of a resource's record belongs to that
// resource (Candidate, Application, …) wherever the record is answered (a list's pages, a
// detail), any other member to the kind of answer it is in (the envelope of a list page,
// a refusal's body). See engine.ts for why sites are spread over a group's exchanges.
import type { Recorded } from './transcript.js'

export type Path = ReadonlyArray<string | number>

export interface Member {
  path: Path
  /** The path with array indices left out: `data[].email`. */
  pattern: string
  value: unknown
}

/** The resources whose records the spec's tables describe, by the API path that answers them. */
export const RESOURCES: ReadonlyArray<{ name: string; path: RegExp; records: string }> = [
  { name: 'Candidate', path: /^\/candidates\/(list|details\/[0-9]+)$/, records: 'data' },
  { name: 'Application', path: /^\/applications\/(list|details\/[0-9]+)$/, records: 'data' },
  { name: 'Timesheet list entry', path: /^\/timesheets\/list$/, records: 'data' },
  { name: 'Marketing record', path: /^\/marketing\/list$/, records: 'data' },
  { name: 'Metric', path: /^\/metrics\/list$/, records: 'metrics' },
]

export const patternOf = (path: Path) => path.map((key) => (typeof key === 'number' ? '[]' : `.${key}`)).join('').replace(/^\./, '')

/** Every member of a JSON value, depth first, arrays' elements as members too. */
export function members(value: unknown, path: Path = [], out: Member[] = []): Member[] {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) visit(item, [...path, i], out)
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) visit(item, [...path, key], out)
  return out
}

function visit(value: unknown, path: Path, out: Member[]): void {
  // an array's elements are reached through their members: the element itself is not a member a record names
  if (typeof path.at(-1) === 'string') out.push({ path, pattern: patternOf(path), value })
  members(value, path, out)
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The resource a 200 answer's records are, if they are a resource's. */
export function resourceOf(x: Pick<Recorded, 'path' | 'reply'>): (typeof RESOURCES)[number] | undefined {
  return x.reply.status === 200 ? RESOURCES.find((r) => r.path.test(x.path)) : undefined
}

/**
 * Where a member belongs: `record <Resource>` and its path within the record
 * (`timesheets[].filename`) when it is inside a record of the answer's resource; else
 * `<kind> body` and its pattern.
 */
export function placeOf(x: Pick<Recorded, 'path' | 'reply' | 'kind'>, path: Path): { group: string; key: string; record: Path | undefined } {
  const resource = resourceOf(x)
  if (resource !== undefined && path[0] === resource.records && typeof path[1] === 'number' && path.length > 2) {
    return { group: `record ${resource.name}`, key: patternOf(path.slice(2)), record: path.slice(0, 2) }
  }
  return { group: `${x.kind} body`, key: patternOf(path), record: undefined }
}

/** The value at a path, or undefined. */
export function at(value: unknown, path: Path): unknown {
  let here = value
  for (const key of path) {
    if (here === null || typeof here !== 'object') return undefined
    here = (here as Record<string | number, unknown>)[key]
  }
  return here
}

/** A deep copy of `value` with the member at `path` set (or, with `drop`, taken out). */
export function setAt(value: unknown, path: Path, next: unknown, drop = false): unknown {
  const copy = structuredClone(value)
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown> | unknown[]
  const last = path.at(-1) as string | number
  if (drop) {
    if (Array.isArray(parent)) parent.splice(last as number, 1)
    else delete (parent as Record<string, unknown>)[last]
  } else (parent as Record<string | number, unknown>)[last] = next
  return copy
}

const TIMESTAMP = /^([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}:[0-9]{2}:[0-9]{2})$/
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** What another form of a value is, and its name: a timestamp in ISO 8601, a number as text, text as a number, a month by its number. */
export function otherForm(value: unknown): { form: string; value: unknown } | undefined {
  if (typeof value === 'number') return { form: 'a number as text', value: String(value) }
  if (typeof value !== 'string') return undefined
  const stamp = TIMESTAMP.exec(value)
  if (stamp) return { form: 'a timestamp in ISO 8601', value: `${stamp[1]}T${stamp[2]}Z` }
  const date = DATE.exec(value)
  if (date) return { form: 'a date as DD/MM/YYYY', value: `${date[3]}/${date[2]}/${date[1]}` }
  if (/^-?[0-9]+(\.[0-9]+)?$/.test(value)) return { form: 'numeric text as a number', value: Number(value) }
  const month = MONTHS.findIndex((m) => m.toLowerCase() === value.toLowerCase() || m.slice(0, 3).toLowerCase() === value.toLowerCase())
  if (month >= 0) return { form: 'a month by its number', value: String(month + 1) }
  return undefined
}

/** A value of another JSON type: a string for a number, a number for a string, a string for an object, array or boolean. */
export function otherType(value: unknown): unknown {
  if (typeof value === 'string') return 12345
  if (typeof value === 'number') return { value }
  if (typeof value === 'boolean') return value ? 1 : 0
  if (Array.isArray(value)) return 'not a list'
  if (isObject(value)) return 'not an object'
  return 'a value'
}

/** The value emptied: '' for a string, [] for an array, {} for an object; undefined when it has nothing to empty. */
export function emptied(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? undefined : ''
  if (Array.isArray(value)) return value.length === 0 ? undefined : []
  if (isObject(value)) return Object.keys(value).length === 0 ? undefined : {}
  return undefined
}

/** The value in another case (upper case, or lower where it is all upper); undefined when case changes nothing. */
export function otherCase(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const upper = value.toUpperCase()
  const changed = upper === value ? value.toLowerCase() : upper
  return changed === value ? undefined : changed
}

/** Whether a string is an absolute http(s) URL. */
export const isUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//.test(value)
