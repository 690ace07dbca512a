// The records of one kind: a generated base (ids 1..count, made on demand from the
// board's seed, their times in typed arrays) under an overlay of written records
// (control-API adds, job writes, touched candidates, imported states), with tombstones
// for deletes. Every overlay write is validated against the schema; base records are
// checked by property tests instead (test/store/*.property.test.ts). A list request
// costs a binary search on the times and a slice, never a sort or a scan of the board.
import type { ValidateFunction } from 'ajv'
import { BoardError } from '../../core/errors.js'
import { deepFreeze } from '../../core/freeze.js'
import { parseTime } from '../../core/time.js'
import { explain } from '../../core/validation.js'

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

/** The ids hi, hi-1, ..., lo: a base range, newest first, with nothing stored. */
class DescendingRange implements IdList {
  constructor(
    private readonly lo: number,
    private readonly hi: number,
  ) {}

  get length(): number {
    return Math.max(0, this.hi - this.lo + 1)
  }

  slice(start: number, end: number): number[] {
    const out: number[] = []
    const last = Math.min(end, this.length)
    for (let i = Math.max(0, start); i < last; i++) out.push(this.hi - i)
    return out
  }
}

/** One list after another (every id of the first above every id of the second). */
class Concatenated implements IdList {
  constructor(
    private readonly first: IdList,
    private readonly second: IdList,
  ) {}

  get length(): number {
    return this.first.length + this.second.length
  }

  slice(start: number, end: number): number[] {
    const n = this.first.length
    const head = start < n ? this.first.slice(start, Math.min(end, n)) : []
    return end > n ? head.concat(this.second.slice(Math.max(0, start - n), end - n)) : head
  }
}

/** First index in a sorted array whose value is >= target. */
export function lowerBound<T>(sorted: ArrayLike<T>, target: T): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as T) < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Times by index (id - 1): a typed array, or times drawn when asked (src/fake/store/application-draw.ts). */
export interface Times {
  at(index: number): number | undefined
}

/** Whether the first `count` times never decrease: a typed array read by index (a call of `at` per time costs ten times more). */
export function increasing(times: Times, count: number): boolean {
  if (times instanceof Float64Array) {
    for (let i = 1; i < count; i++) if ((times[i] as number) < (times[i - 1] as number)) return false
    return true
  }
  for (let i = 1; i < count; i++) if ((times.at(i) as number) < (times.at(i - 1) as number)) return false
  return true
}

/** First index in 0..count-1 whose time is >= target, the times never decreasing. */
function lowerBoundOf(times: Times, count: number, target: number): number {
  let lo = 0
  let hi = count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((times.at(mid) as number) < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The generated records of a collection: ids 1..count (absent ones excepted), each made
 * by `make` on demand, the same on every call. `orderMs.at(id - 1)` is the time its list
 * is ordered by (created_at); a record listed by another time (`since` on updated_at)
 * appears in `late` with that time, which is never earlier.
 */
export interface BaseRecords<T> {
  readonly count: number
  readonly orderMs: Times
  /**
   * Ids (ascending) whose `since` time is later than their order time, and those times: a
   * list by `since` reads them all (a base may make them on that first read).
   */
  readonly late?: { readonly ids: Uint32Array; readonly ms: Float64Array }
  /** One id's `since` time if later than its order time, without reading `late` whole. */
  lateMs?(id: number): number | undefined
  /**
   * In place of `late`, for a base that answers a `since` without listing every late
   * change: the ids among 1..upTo (ascending) whose `since` time is at or after `fromMs`.
   */
  lateSince?(fromMs: number, upTo: number): Uint32Array
  /** Ids in 1..count that do not exist (a scenario pinned a record past the generated ones). */
  readonly absent?: readonly number[]
  /** Whether the order times (and late times) never decrease with id, when known already (a shared base: src/fake/store/shared.ts). */
  readonly monotone?: boolean
  make(id: number): T
  /** The record deep-frozen, kept by whoever shares the base (every board over it reads the same one); else made and kept here. */
  record?(id: number): T
}

/** Whether a base's order times never decrease with id, and its late times are never before their order time: a scan of every id. */
export function isMonotone(base: Pick<BaseRecords<unknown>, 'count' | 'orderMs' | 'late'>): boolean {
  const order = base.orderMs
  let monotone = increasing(order, base.count)
  // a record listed by a later time than its order time keeps the binary search right; an earlier one would not
  const late = base.late
  if (late) for (let i = 0; i < late.ids.length && monotone; i++) monotone = (late.ms[i] as number) >= (order.at((late.ids[i] as number) - 1) as number)
  return monotone
}

/** Records made and kept for the next request: the bound on what a large board holds. */
const MADE_CACHE = 4096
/** Cached `since` lists, and ids they may hold together. */
const SINCE_CACHE = 16
const SINCE_CACHE_IDS = 4_000_000

interface Written<T> {
  record: T
  ms: number
}

export class Collection<T extends object> {
  #base: BaseRecords<T> = { count: 0, orderMs: new Float64Array(0), make: () => undefined as never }
  /** Whether base order times never decrease with id, so a `since` is a binary search. */
  #monotone = true
  readonly #made = new Map<number, T>()
  readonly #overlay = new Map<number, Written<T>>()
  /** Overlay ids past the base, ascending. */
  readonly #extra: number[] = []
  readonly #tombstones = new Set<number>()
  /** The schema's validator, compiled (or loaded precompiled) at the first write: a board that is only read never needs it. */
  #validate: ValidateFunction | undefined
  readonly #compile: () => ValidateFunction
  readonly #timeOf: (record: T) => string
  readonly #order: 'id' | 'time'
  readonly #sinceCache = new Map<string, IdList>()
  #cachedIds = 0
  #version = 0
  /** Records written or deleted over the base since it was set (not those loaded or laid from a saved board): what the store bounds. */
  #changes = 0

  /**
   * `order` is what "newest first" means for the collection's lists: highest id (the
   * spec's applications), or latest time (marketing records, which have no id).
   */
  constructor(
    readonly name: string,
    compile: () => ValidateFunction,
    timeOf: (record: T) => string,
    order: 'id' | 'time' = 'id',
  ) {
    this.#compile = compile
    this.#timeOf = timeOf
    this.#order = order
  }

  /** Compiles the schema's validator again at the next write: the board's constrained values changed. */
  forgetValidator(): void {
    this.#validate = undefined
  }

  /** Puts the generated records under an empty collection. */
  setBase(base: BaseRecords<T>): void {
    if (this.size > 0) throw new BoardError('INTERNAL', `${this.name}: setBase() fills an empty collection only`)
    this.#base = base
    this.#monotone = base.monotone ?? isMonotone(base)
    for (const id of base.absent ?? []) this.#tombstones.add(id)
    this.#changed()
  }

  get size(): number {
    let shadowing = 0
    for (const id of this.#tombstones) if (this.#overlay.has(id)) shadowing += 1
    return this.#base.count - this.#tombstones.size + shadowing + this.#extra.length
  }

  get lastId(): number {
    const extra = this.#extra[this.#extra.length - 1]
    if (extra !== undefined) return extra
    for (let id = this.#base.count; id > 0; id--) if (this.has(id)) return id
    return 0
  }

  #inBase(id: number): boolean {
    return Number.isInteger(id) && id >= 1 && id <= this.#base.count && !this.#tombstones.has(id)
  }

  get(id: number): T | undefined {
    const written = this.#overlay.get(id)
    if (written) return written.record
    if (!this.#inBase(id)) return undefined
    const shared = this.#base.record
    if (shared !== undefined) return shared(id)
    let record = this.#made.get(id)
    if (record === undefined) {
      record = deepFreeze(this.#base.make(id)) as T
      if (this.#made.size >= MADE_CACHE) this.#made.delete(this.#made.keys().next().value as number)
      this.#made.set(id, record)
    }
    return record
  }

  has(id: number): boolean {
    return this.#overlay.has(id) || this.#inBase(id)
  }

  /** Records in ascending id order. */
  *values(): IterableIterator<T> {
    for (let id = 1; id <= this.#base.count; id++) {
      const written = this.#overlay.get(id)
      if (written) yield written.record
      else if (!this.#tombstones.has(id)) yield this.#base.make(id)
    }
    for (const id of this.#extra) yield (this.#overlay.get(id) as Written<T>).record
  }

  /** Refuses a record its schema does not accept: the fake must never serve one. */
  #check(record: unknown): T {
    this.#validate ??= this.#compile()
    const validate = this.#validate
    if (!validate(record)) {
      throw new BoardError('INTERNAL', `${this.name}: refused to store an invalid record: ${explain(validate.errors ?? [], 'record', record)}`)
    }
    return deepFreeze(record) as T
  }

  /** How many records were written or deleted over the base by inserts, replaces and deletes. */
  get changes(): number {
    return this.#changes
  }

  #write(id: number, record: T): T {
    if (!this.#overlay.has(id) && id > this.#base.count) {
      const extra = this.#extra
      if (id > (extra[extra.length - 1] ?? 0)) extra.push(id)
      else extra.splice(lowerBound(extra, id), 0, id)
    }
    this.#overlay.set(id, { record, ms: parseTime(this.#timeOf(record)) })
    this.#made.delete(id)
    this.#changed()
    return record
  }

  #changed(): void {
    this.#sinceCache.clear()
    this.#cachedIds = 0
    this.#version += 1
  }

  /** Bumped by every write: what a cached answer built from this collection is checked against. */
  get version(): number {
    return this.#version
  }

  insert(id: number, record: unknown): T {
    if (this.has(id)) throw new BoardError('INTERNAL', `${this.name}: id ${id} is taken`)
    const stored = this.#check(record)
    this.#changes += 1
    return this.#write(id, stored)
  }

  replace(id: number, record: unknown): T {
    if (!this.has(id)) throw new BoardError('INTERNAL', `${this.name}: no record ${id} to replace`)
    const stored = this.#check(record)
    if (!this.#overlay.has(id)) this.#changes += 1
    return this.#write(id, stored)
  }

  delete(id: number): boolean {
    if (!this.has(id)) return false
    if (id <= this.#base.count && !this.#tombstones.has(id)) this.#changes += 1
    if (this.#overlay.delete(id) && id > this.#base.count) this.#extra.splice(lowerBound(this.#extra, id), 1)
    if (id <= this.#base.count) this.#tombstones.add(id)
    this.#made.delete(id)
    this.#changed()
    return true
  }

  /** Writes a record whatever lies under it (a compact saved board laid over its generated one): validated. */
  lay(id: number, record: unknown): T {
    return this.#write(id, this.#check(record))
  }

  /** Whether a generated record (not deleted) holds this id. */
  isGenerated(id: number): boolean {
    return this.#inBase(id)
  }

  /** The generated record under an id, whatever is written over it. */
  generated(id: number): T | undefined {
    return this.#inBase(id) ? this.#base.make(id) : undefined
  }

  /** The written records by ascending id: what a board holds beyond the generated one. */
  written(): Array<[number, T]> {
    return [...this.#overlay.keys()].sort((a, b) => a - b).map((id) => [id, (this.#overlay.get(id) as Written<T>).record])
  }

  /** Generated ids deleted since (the scenario's absent ids excepted: generating leaves those out again), ascending. */
  deletedIds(): number[] {
    const absent = new Set(this.#base.absent ?? [])
    return [...this.#tombstones].filter((id) => !absent.has(id)).sort((a, b) => a - b)
  }

  /** Loads many written records at once (a board being imported): each is validated. */
  load(entries: Iterable<readonly [number, unknown]>): void {
    if (this.size > 0) throw new BoardError('INTERNAL', `${this.name}: load() fills an empty collection only`)
    const ids: number[] = []
    for (const [id, record] of entries) {
      if (this.#overlay.has(id)) throw new BoardError('INTERNAL', `${this.name}: id ${id} is taken`)
      const stored = this.#check(record)
      this.#overlay.set(id, { record: stored, ms: parseTime(this.#timeOf(stored)) })
      ids.push(id)
    }
    this.#extra.length = 0
    for (const id of Float64Array.from(ids).sort()) this.#extra.push(id)
    this.#changed()
  }

  /** The time a record is listed by, in ms: written, late or ordered. */
  sinceMsOf(id: number): number {
    const written = this.#overlay.get(id)
    if (written) return written.ms
    const base = this.#base
    const lateMs = base.lateMs?.(id)
    if (lateMs !== undefined) return lateMs
    const late = base.lateMs === undefined ? base.late : undefined
    if (late) {
      const at = lowerBound(late.ids, id)
      if (late.ids[at] === id) return late.ms[at] as number
    }
    return base.orderMs.at(id - 1) as number
  }

  /** Every id, newest first: by id, or by time for a collection ordered by time. */
  all(): IdList {
    return this.#list(Number.NEGATIVE_INFINITY)
  }

  /** Ids whose time is at or after `since` (a timestamp), newest first. */
  since(since: string): IdList {
    return this.#list(parseTime(since))
  }

  #list(fromMs: number): IdList {
    const key = String(fromMs)
    const cached = this.#sinceCache.get(key)
    if (cached) return cached
    const plain = this.#overlay.size === 0 && this.#tombstones.size === 0
    let ids: IdList
    if (plain && this.#monotone) ids = this.#baseSince(fromMs)
    else if (this.#order === 'id' && this.#tombstones.size === 0 && this.#monotone && fromMs === Number.NEGATIVE_INFINITY) {
      // written records past the base come first; those within it shadow base ids
      ids = new Concatenated(new DescendingView(this.#extra, 0, this.#extra.length), new DescendingRange(1, this.#base.count))
    } else ids = this.#merged(fromMs)
    // a bare range holds nothing; other lists count against the cache's bound
    const held = ids instanceof DescendingRange ? 0 : ids.length
    if (this.#sinceCache.size >= SINCE_CACHE || this.#cachedIds + held > SINCE_CACHE_IDS) {
      this.#sinceCache.clear()
      this.#cachedIds = 0
    }
    this.#sinceCache.set(key, ids)
    this.#cachedIds += held
    return ids
  }

  /** The base alone, its order times never decreasing: a binary search, and the late records before it. */
  #baseSince(fromMs: number): IdList {
    const base = this.#base
    const first = lowerBoundOf(base.orderMs, base.count, fromMs)
    const tail = new DescendingRange(first + 1, base.count)
    const late = base.late
    if ((!late && !base.lateSince) || this.#order === 'time' || first === 0) return tail
    if (base.lateSince) {
      const earlier = base.lateSince(fromMs, first)
      return new Concatenated(tail, new DescendingView(earlier, 0, earlier.length))
    }
    if (!late) return tail
    const earlier = new Uint32Array(Math.min(first, late.ids.length))
    let n = 0
    for (let i = 0; i < late.ids.length; i++) {
      const id = late.ids[i] as number
      if (id > first) break
      if ((late.ms[i] as number) >= fromMs) earlier[n++] = id
    }
    return new Concatenated(tail, new DescendingView(earlier.slice(0, n), 0, n))
  }

  /** Base and overlay together, by id or by (time, id): built once per write and `since`. */
  #merged(fromMs: number): IdList {
    const base = this.#base
    const skip = (id: number) => this.#tombstones.has(id) || this.#overlay.has(id)
    let live: Uint32Array
    if (this.#monotone) {
      const ids = this.#baseSince(fromMs)
      const descending = ids.slice(0, ids.length)
      live = new Uint32Array(descending.length)
      let n = 0
      for (let i = descending.length - 1; i >= 0; i--) if (!skip(descending[i] as number)) live[n++] = descending[i] as number
      live = live.subarray(0, n)
    } else {
      const found: number[] = []
      for (let id = 1; id <= base.count; id++) if (!skip(id) && this.sinceMsOf(id) >= fromMs) found.push(id)
      live = Uint32Array.from(found)
    }
    const written: number[] = []
    for (const [id, { ms }] of this.#overlay) if (ms >= fromMs) written.push(id)
    const ms = (id: number) => this.sinceMsOf(id)
    const before = this.#order === 'time' ? (a: number, b: number) => ms(a) - ms(b) || a - b : (a: number, b: number) => a - b
    written.sort(before)
    if (this.#order === 'time' && !this.#monotone) live.sort((a, b) => before(a, b))
    const out = new Uint32Array(live.length + written.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < live.length || j < written.length) {
      if (j >= written.length || (i < live.length && before(live[i] as number, written[j] as number) < 0)) out[k++] = live[i++] as number
      else out[k++] = written[j++] as number
    }
    return new DescendingView(out, 0, out.length)
  }

  /** The time a record is indexed by. */
  timeOf(record: T): string {
    return this.#timeOf(record)
  }
}
