// The constrained values after a change (POST /__mock/job-fields, an activity's job-fields
// event): values retired taken off their list, values added appended. Refuses, naming the
// field, a value retired that is not listed, added that is, or a list left empty.
import { FIELD_NAMES, type FieldName, type FieldValues } from '../../schemas/values.js'
import { boardError } from '../core/errors.js'
import type { JobFieldsChange } from '../core/types.js'
import type { BoardLists } from './scenario.js'

export function nextFieldValues(store: { readonly lists: BoardLists }, change: JobFieldsChange): FieldValues {
  const next = Object.fromEntries(FIELD_NAMES.map((name) => [name, [...store.lists[name]]])) as Record<FieldName, string[]>
  for (const name of FIELD_NAMES) {
    const retire = change.retire?.[name] ?? []
    const add = change.add?.[name] ?? []
    retire.forEach((value, i) => {
      const field = `retire.${name}[${i}]`
      if (!next[name].includes(value)) throw boardError.invalidField(`The value "${value}" (field ${field}) is not listed now, so it cannot be retired.`, field)
      if (add.includes(value)) throw boardError.invalidField(`The value "${value}" (field ${field}) is both retired and added.`, field)
    })
    add.forEach((value, i) => {
      const field = `add.${name}[${i}]`
      if (next[name].includes(value)) throw boardError.invalidField(`The value "${value}" (field ${field}) is listed already.`, field)
    })
    next[name] = [...next[name].filter((value) => !retire.includes(value)), ...add]
    if (next[name].length === 0) {
      throw boardError.invalidField(`Retiring every value of ${name} (field retire.${name}) would leave job/fields an empty list; add one in its place.`, `retire.${name}`)
    }
  }
  return next
}
