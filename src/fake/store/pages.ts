// Paging of the board's lists: a page is a slice of an id list (newest first, or
// reversed for behaviour.listOrder oldest-first), never a copy of the whole list.
import type { IdList } from './collection.js'

/** One page of a list: the records, the total matching count, and whether pages follow. */
export interface Page<T> {
  items: T[]
  total: number
  page: number
  hasNext: boolean
  /** True when `page` lies past the last page (and the list is not empty). */
  beyond: boolean
}

/** The same ids in the opposite order, oldest first (behaviour.listOrder). */
export function oldestFirst(ids: IdList): IdList {
  return {
    length: ids.length,
    slice: (start, end) => ids.slice(Math.max(0, ids.length - Math.min(end, ids.length)), ids.length - Math.max(0, start)).reverse(),
  }
}

export function pageOf<T>(ids: IdList, page: number, size: number, get: (id: number) => T): Page<T> {
  const start = (page - 1) * size
  const items = ids.slice(start, start + size).map(get)
  // page 1 of an empty list is that list, not a page past its end
  return { items, total: ids.length, page, hasNext: start + size < ids.length, beyond: page > Math.max(1, Math.ceil(ids.length / size)) }
}

