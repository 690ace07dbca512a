// Where a job/fields answer keeps its six constrained lists: the spec does not show its
// shape, so they are looked for wherever they are (under `data`, at the top level, named
// after a list or after the job/add field it governs). Read by the kit's job/fields group
// (groups/fields-checks.ts), its checks of one answer (answer.ts) and its profile, and by the
// tools above the kit that read a deployment's answers (the recorder, the proxy).
import { FIELD_NAMES, FIELD_OF_LIST, FIELD_VALUES, type FieldName, type FieldValues } from '../../schemas/values.js'
import { isRec, type Rec } from './records.js'

/** job/add's field for a list, which a service might use as the list's name too. */
/** A list may be named after the field it governs (salary_currency for salary_currencies). */
const ALIASES: Partial<Record<FieldName, string>> = Object.fromEntries(
  Object.entries(FIELD_OF_LIST).filter(([list, field]) => list !== field),
)

export interface FieldLists {
  /** Where the lists were found: `data`, or `(top level)`. */
  path: string
  lists: Partial<Record<FieldName, unknown>>
}

export const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string')

function listsIn(node: Rec): Partial<Record<FieldName, unknown>> {
  const lists: Partial<Record<FieldName, unknown>> = {}
  for (const name of FIELD_NAMES) {
    const alias = ALIASES[name]
    if (name in node) lists[name] = node[name]
    else if (alias !== undefined && alias in node) lists[name] = node[alias]
  }
  return lists
}

/** The object holding most of the lists, searched to three levels down. */
export function findFieldLists(body: unknown): FieldLists | undefined {
  let best: FieldLists | undefined
  const visit = (node: unknown, path: string, depth: number) => {
    if (!isRec(node) || depth > 3) return
    const lists = listsIn(node)
    const found = Object.values(lists).filter(isStrings).length
    if (found > 0 && (!best || found > Object.values(best.lists).filter(isStrings).length)) best = { path: path === '' ? '(top level)' : path, lists }
    for (const [key, value] of Object.entries(node)) visit(value, path === '' ? key : `${path}.${key}`, depth + 1)
  }
  visit(body, '', 0)
  return best
}

/** The values to bind: the lists found, the spec's for any list missing or malformed. */
export function valuesFrom(found: FieldLists | undefined): FieldValues {
  const values: Record<string, readonly string[]> = { ...FIELD_VALUES }
  for (const name of FIELD_NAMES) {
    const list = found?.lists[name]
    if (isStrings(list) && list.length > 0) values[name] = list
  }
  return values as FieldValues
}
