// The requests the verdict's findings may name, kept to show them in the readable account
// (method, URL, time): the last MAX_SHOWN noted, in a ring of typed arrays.
import { formatTimestamp } from '../../core/time.js'
import type { Observed, Shown } from './verdict-types.js'

/** Requests kept to show in the account (method, URL, time); past it the oldest go first. */
export const MAX_SHOWN = 10_000
/** The slots the ring of shown requests starts with, doubled as it fills up to MAX_SHOWN. */
const SHOWN_FIRST = 64
/** The slots of a ring no request was noted in yet: none (it cannot be written). */
const NO_SLOTS = new Float64Array(0)

/** What is kept of a request a finding may name: its URL cut and its time formatted only when a verdict shows it. */
type Kept = Pick<Observed, 'id' | 'method' | 'url' | 'time'>

/** A URL as findings and the account show it: cut past 500 characters. */
export const shownUrl = (url: string) => (url.length <= 500 ? url : `${url.slice(0, 500)}...`)

/**
 * The requests findings may name, for the account: the last MAX_SHOWN noted, in a ring.
 * Every page of every walk is noted, so the ring holds no object per request (its URL is
 * the journal's own string): an object kept for each would outlive the young generation
 * and cost the garbage collector on every list request. Nor does it keep a map of ids:
 * the journal's ids come in ascending order, so the ring is sorted and an id is found by
 * halving it when a verdict asks; a map's delete and insert on every list request cost
 * more than the rest of a page's judgement. Ids given out of order (only a caller feeding
 * the evaluator itself can) are found by a scan instead.
 */
export class ShownRequests {
  // the ring grows, doubling, to MAX_SHOWN as requests come: a board asked a few times (each
  // of 64 accounts asked once) holds a few slots, not 10,000 of each
  // no slots until the first request: each of 64 accounts' boards allocated two typed arrays it may never use
  #ids = NO_SLOTS
  #times = NO_SLOTS
  readonly #methods: string[] = []
  readonly #urls: string[] = []
  /** The slot the next request takes: the oldest, once the ring is full. */
  #next = 0
  #count = 0
  /** The highest id noted: a new one is past it and need not be looked for. */
  #highest = Number.NEGATIVE_INFINITY
  /** Whether every id was noted past the one before: then the ring, from its oldest slot, is in ascending order. */
  #ordered = true

  note(entry: Kept): void {
    if (entry.id <= this.#highest) {
      if (this.#slot(entry.id) >= 0) return
      this.#ordered = false
    } else this.#highest = entry.id
    const slot = this.#next
    if (slot === this.#ids.length) this.#grow()
    this.#ids[slot] = entry.id
    this.#times[slot] = entry.time
    this.#methods[slot] = entry.method
    this.#urls[slot] = entry.url
    this.#next = slot + 1 === MAX_SHOWN ? 0 : slot + 1
    if (this.#count < MAX_SHOWN) this.#count += 1
  }

  /** Twice the slots, at most MAX_SHOWN: only while the ring has not come round, so its order is its slots'. */
  #grow(): void {
    const size = Math.min(MAX_SHOWN, Math.max(SHOWN_FIRST, this.#ids.length * 2))
    const ids = new Float64Array(size)
    ids.set(this.#ids)
    const times = new Float64Array(size)
    times.set(this.#times)
    this.#ids = ids
    this.#times = times
  }

  /** The slot holding `id`, or -1. */
  #slot(id: number): number {
    const count = this.#count
    const ids = this.#ids
    if (!this.#ordered) {
      for (let slot = 0; slot < count; slot++) if (ids[slot] === id) return slot
      return -1
    }
    // the oldest is at #next once the ring is full, at 0 before
    const oldest = count === MAX_SHOWN ? this.#next : 0
    let low = 0
    let high = count - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const slot = (oldest + middle) % MAX_SHOWN
      const at = ids[slot] as number
      if (at === id) return slot
      if (at < id) low = middle + 1
      else high = middle - 1
    }
    return -1
  }

  get(id: number): Shown | undefined {
    const slot = this.#slot(id)
    if (slot < 0) return undefined
    return { id, method: this.#methods[slot] as string, url: shownUrl(this.#urls[slot] as string), time: formatTimestamp(this.#times[slot] as number) }
  }

  clear(): void {
    this.#methods.fill('')
    this.#urls.fill('')
    this.#next = 0
    this.#count = 0
    this.#highest = Number.NEGATIVE_INFINITY
    this.#ordered = true
  }
}
