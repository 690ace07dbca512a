// An in-memory collection that validates every record it writes and keeps the indexes
// lists need: a map by id, ids in ascending order, and (time, id) pairs in time order
// for `since`. A list request costs a binary search and a slice, never a scan.
import type { ValidateFunction } from 'ajv'
import { BoardError } from '../core/errors.js'
import { deepFreeze } from '../core/freeze.js'
import { explain } from '../core/validation.js'

/** Ids in the order a list gives them (newest first), without copying the whole index. */
export interface IdList {
  readonly length: number
  slice(start: number, end: number): number[]
}

/** A descending view of an ascending array segment [from, to). */
class DescendingView implements IdList {
  constructor(
    private readonly ascending: ArrayLike<number>,
    private readonly from: number,
    private readonly to: number,
  ) {}

  get length(): number {
    return this.to - this.from
  }

  slice(start: number, end: number): number[] {
    const out: number[] = []
    const last = Math.min(end, this.length)
    for (let i = Math.max(0, start); i < last; i++) out.push(this.ascending[this.to - 1 - i] as number)
    return out
  }
}

/** First index in a sorted array whose value is >= target. */
export function lowerBound<T>(sorted: readonly T[], target: T): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as T) < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Insert position for (time, id) in parallel arrays sorted by time, then id. */
function timeSlot(times: readonly string[], ids: readonly number[], time: string, id: number): number {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const t = times[mid] as string
    if (t < time || (t === time && (ids[mid] as number) < id)) lo = mid + 1
    else hi = mid
  }
  return lo
}

export class Collection<T extends object> {
  /** Records indexed by id: ids are small dense integers, so an array beats a Map at a million. */
  readonly #byId: Array<T | undefined> = []
  #size = 0
  readonly #ids: number[] = []
  readonly #times: string[] = []
  readonly #timeIds: number[] = []
  readonly #validate: ValidateFunction
  readonly #timeOf: (record: T) => string
  /** True while time order and id order agree, so a `since` tail is already newest first. */
  #ordered = true
  readonly #sinceCache = new Map<string, IdList>()
  readonly #order: 'id' | 'time'
  #version = 0

  /**
   * `order` is what "newest first" means for the collection's lists: highest id (the
   * spec's applications), or latest time (marketing records, which have no id).
   */
  constructor(
    readonly name: string,
    validate: ValidateFunction,
    timeOf: (record: T) => string,
    order: 'id' | 'time' = 'id',
  ) {
    this.#validate = validate
    this.#timeOf = timeOf
    this.#order = order
  }

  get size(): number {
    return this.#size
  }

  get lastId(): number {
    return this.#ids[this.#ids.length - 1] ?? 0
  }

  get(id: number): T | undefined {
    return this.#byId[id]
  }

  has(id: number): boolean {
    return this.#byId[id] !== undefined
  }

  /** Records in ascending id order. */
  *values(): IterableIterator<T> {
    for (const id of this.#ids) yield this.#byId[id] as T
  }

  /** Refuses a record its schema does not accept: the fake must never serve one. */
  #check(record: unknown): T {
    if (!this.#validate(record)) {
      throw new BoardError('INTERNAL', `${this.name}: refused to store an invalid record: ${explain(this.#validate.errors ?? [], 'record', record)}`)
    }
    return deepFreeze(record) as T
  }

  #indexTime(id: number, time: string): void {
    const at = timeSlot(this.#times, this.#timeIds, time, id)
    if (at !== this.#times.length) this.#ordered = false
    else if (this.#timeIds.length > 0 && id < (this.#timeIds[this.#timeIds.length - 1] as number)) this.#ordered = false
    this.#times.splice(at, 0, time)
    this.#timeIds.splice(at, 0, id)
  }

  #unindexTime(id: number, time: string): void {
    const at = timeSlot(this.#times, this.#timeIds, time, id)
    if (this.#timeIds[at] !== id) throw new BoardError('INTERNAL', `${this.name}: time index lost record ${id}`)
    this.#times.splice(at, 1)
    this.#timeIds.splice(at, 1)
    // a removal can only restore order, but checking costs a scan: recompute lazily on reload
  }

  #changed(): void {
    this.#sinceCache.clear()
    this.#version += 1
  }

  /** Bumped by every write: what a cached answer built from this collection is checked against. */
  get version(): number {
    return this.#version
  }

  insert(id: number, record: unknown): T {
    if (this.has(id)) throw new BoardError('INTERNAL', `${this.name}: id ${id} is taken`)
    const stored = this.#check(record)
    this.#byId[id] = stored
    this.#size += 1
    if (id > this.lastId) this.#ids.push(id)
    else this.#ids.splice(lowerBound(this.#ids, id), 0, id)
    this.#indexTime(id, this.#timeOf(stored))
    this.#changed()
    return stored
  }

  replace(id: number, record: unknown): T {
    const old = this.#byId[id]
    if (!old) throw new BoardError('INTERNAL', `${this.name}: no record ${id} to replace`)
    const stored = this.#check(record)
    this.#byId[id] = stored
    const before = this.#timeOf(old)
    const after = this.#timeOf(stored)
    if (before !== after) {
      this.#unindexTime(id, before)
      this.#indexTime(id, after)
    }
    this.#changed()
    return stored
  }

  delete(id: number): boolean {
    const old = this.#byId[id]
    if (!old) return false
    this.#byId[id] = undefined
    this.#size -= 1
    this.#ids.splice(lowerBound(this.#ids, id), 1)
    this.#unindexTime(id, this.#timeOf(old))
    this.#changed()
    return true
  }

  /**
   * Loads many records at once (a board being built or imported): validates each, then
   * sorts the indexes once instead of inserting one by one.
   */
  load(entries: Iterable<readonly [number, unknown]>): void {
    if (this.#size > 0) throw new BoardError('INTERNAL', `${this.name}: load() fills an empty collection only`)
    const ids: number[] = []
    for (const [id, record] of entries) {
      if (this.has(id)) throw new BoardError('INTERNAL', `${this.name}: id ${id} is taken`)
      this.#byId[id] = this.#check(record)
      this.#size += 1
      ids.push(id)
    }
    this.#ids.length = 0
    for (const id of Int32Array.from(ids).sort()) this.#ids.push(id)
    const pairs = this.#ids.map((id) => [this.#timeOf(this.#byId[id] as T), id] as const)
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))
    this.#times.length = 0
    this.#timeIds.length = 0
    this.#ordered = true
    for (let i = 0; i < pairs.length; i++) {
      const [time, id] = pairs[i] as readonly [string, number]
      this.#times.push(time)
      this.#timeIds.push(id)
      if (this.#ids[i] !== id) this.#ordered = false
    }
    this.#changed()
  }

  /** Every id, newest first: by id, or by time for a collection ordered by time. */
  all(): IdList {
    if (this.#order === 'time') return new DescendingView(this.#timeIds, 0, this.#timeIds.length)
    return new DescendingView(this.#ids, 0, this.#ids.length)
  }

  /** Ids whose time is at or after `since` (a timestamp), newest first. */
  since(since: string): IdList {
    const from = lowerBound(this.#times, since)
    if (this.#ordered || this.#order === 'time') return new DescendingView(this.#timeIds, from, this.#timeIds.length)
    let ids = this.#sinceCache.get(since)
    if (!ids) {
      // a typed array sorts numbers natively, several times faster than a comparator on a large tail
      const sorted = Int32Array.from(this.#timeIds.slice(from)).sort()
      ids = new DescendingView(sorted, 0, sorted.length)
      if (this.#sinceCache.size >= 64) this.#sinceCache.delete(this.#sinceCache.keys().next().value as string)
      this.#sinceCache.set(since, ids)
    }
    return ids
  }

  /** The time a record is indexed by. */
  timeOf(record: T): string {
    return this.#timeOf(record)
  }
}
