// The journal: the exchanges a source handed over (exchange.ts), newest last, what a test
// asks to see which calls its client made (GET /__mock/requests). Bounded twice: by entries
// and by the characters of their URLs, so 10,000 requests with 16 KiB URLs cannot hold
// 160 MiB. A ring buffer: recording an exchange costs a slot write, never a shift of the
// array, and its time is formatted only when someone reads the journal.
//
// Every entry gets an id (1, 2, ... since the last clear) that the verdict's findings
// name, and is handed to an observer as it is recorded: the verdict's evaluator
// (verdict/evaluator.ts), which judges it once and keeps what its rules need, so that
// the verdict never re-reads the journal and outlives the entries it drops.
//
// Each entry also holds what GET /__mock/requests/{id} shows of the request and its
// answer (Detail): references to what the source already had (the request's headers, the
// body's text, the answer's payload and headers), never a copy, formatted only when
// someone asks (journal-detail.ts). Bounded again, newest kept: headers within
// MAX_JOURNAL_HEADER_BYTES, bodies within MAX_JOURNAL_BODY_BYTES; an entry past either keeps
// its place in the journal and says what it no longer holds. A binary answer (a resume
// download) is never held: only its size and type are kept.
import { formatTimestamp } from '../core/time.js'
import type { JournalEntry } from '../core/types.js'
import type { Exchange, Facts } from './exchange.js'
import type { Observed } from './verdict/verdict-types.js'

/** Entries the journal holds at most (a ring: the oldest goes first). */
export const JOURNAL_SIZE = 10_000
/** Characters of URLs the journal holds together at most: 8 Mi (about 8 MiB: URLs are one-byte strings). */
export const MAX_JOURNAL_URL_CHARS = 8 * 1024 * 1024

/** Bytes of request and answer bodies the journal holds together at most (its newest entries'): 16 MiB. */
export const MAX_JOURNAL_BODY_BYTES = 16 * 1024 * 1024
/** Bytes of request and answer headers it holds together at most: 8 MiB (a request may carry 16 KiB of them). */
export const MAX_JOURNAL_HEADER_BYTES = 8 * 1024 * 1024

/** An entry as the journal holds it, id given. */
export type HeldEntry = Exchange & { id: number }

/** What the journal tells as it records: each exchange with the facts beside it that the entry does not show. */
export interface JournalObserver {
  observe(entry: Observed): void
  clear(): void
}

export class Journal {
  readonly #slots: Array<Exchange | undefined>
  readonly #limit: number
  /** Index of the oldest entry, and how many are held. */
  #head = 0
  #count = 0
  #urlChars = 0
  #nextId = 1
  /** The oldest id whose headers (and bodies) are still held, and their bytes. */
  #headersFrom = 1
  #headerBytes = 0
  #bodiesFrom = 1
  #bodyBytes = 0
  readonly #maxHeaderBytes: number
  readonly #maxBodyBytes: number
  observer: JournalObserver | undefined

  constructor(limit = JOURNAL_SIZE, observer?: JournalObserver, bounds: { headerBytes?: number; bodyBytes?: number } = {}) {
    this.#limit = limit
    // grown as entries come (a ring written in order from slot 0): a board asked once holds one slot, not `limit`
    this.#slots = []
    this.observer = observer
    this.#maxHeaderBytes = bounds.headerBytes ?? MAX_JOURNAL_HEADER_BYTES
    this.#maxBodyBytes = bounds.bodyBytes ?? MAX_JOURNAL_BODY_BYTES
  }

  /** Entries held at most. */
  get limit(): number {
    return this.#limit
  }

  /** Bytes of bodies held together at most (what an entry that lost its bodies says). */
  get maxBodyBytes(): number {
    return this.#maxBodyBytes
  }

  get maxHeaderBytes(): number {
    return this.#maxHeaderBytes
  }

  /**
   * Records an exchange, the one way in for every source; `time` may be epoch milliseconds,
   * formatted when the journal is read. Tells the observer (the verdict) with the facts.
   * Answers its id.
   */
  record(given: Exchange, facts?: Facts): number {
    const id = this.#nextId++
    // the entry is the caller's new object: given its id in place rather than copied
    const entry = given
    entry.id = id
    if (this.#count === this.#limit) this.#dropOldest()
    this.#slots[(this.#head + this.#count) % this.#limit] = entry
    this.#count += 1
    this.#urlChars += entry.url.length
    while (this.#urlChars > MAX_JOURNAL_URL_CHARS && this.#count > 1) this.#dropOldest()
    const detail = entry.detail
    if (detail !== undefined) {
      this.#headerBytes += detail.headerBytes
      this.#bodyBytes += detail.bodyBytes
      if (this.#headerBytes > this.#maxHeaderBytes || this.#bodyBytes > this.#maxBodyBytes) this.#letGo()
    }
    if (this.observer && typeof entry.time === 'number') {
      const judged = facts?.judged
      // one shape for every entry, written out: spreading optional fields costs more than the rules
      this.observer.observe({
        id,
        method: entry.method,
        url: entry.url,
        status: judged === undefined ? entry.status : judged.status,
        time: entry.time,
        user: entry.user,
        credentials: facts?.credentials ?? entry.user !== '',
        fault: judged === undefined ? entry.fault : judged.fault,
        contentType: entry.contentType,
        retryAfter: entry.retryAfter,
        digest: entry.digest,
        nextPage: entry.nextPage,
        opened: facts?.opened,
        windowOpened: facts?.windowOpened,
        fieldsRead: facts?.fieldsRead,
        staleFields: facts?.staleFields,
      })
    }
    return id
  }

  /** Lets the oldest held headers and bodies go until both are within their bounds (bodies never outlive their headers). */
  #letGo(): void {
    while (this.#headerBytes > this.#maxHeaderBytes && this.#headersFrom < this.#nextId) {
      const detail = this.#at(this.#headersFrom)?.detail
      this.#headersFrom += 1
      if (detail === undefined || detail.headersDropped) continue
      this.#headerBytes -= detail.headerBytes
      detail.headersDropped = true
      detail.requestHeaders = undefined
      detail.answerHeaders = undefined
    }
    // the redaction of a body reads the credentials its request's headers gave
    if (this.#bodiesFrom < this.#headersFrom) this.#dropBodies(this.#headersFrom)
    while (this.#bodyBytes > this.#maxBodyBytes && this.#bodiesFrom < this.#nextId) this.#dropBodies(this.#bodiesFrom + 1)
  }

  /** Lets the bodies of the entries before id `until` go. */
  #dropBodies(until: number): void {
    for (; this.#bodiesFrom < until; this.#bodiesFrom++) {
      const detail = this.#at(this.#bodiesFrom)?.detail
      if (detail === undefined || detail.bodiesDropped) continue
      this.#bodyBytes -= detail.bodyBytes
      detail.bodiesDropped = true
      detail.requestBody = undefined
      detail.answerBody = undefined
    }
  }

  /** The entry with id `id`, if the journal holds it. */
  #at(id: number): HeldEntry | undefined {
    const first = this.#nextId - this.#count
    if (id < first || id >= this.#nextId) return undefined
    return this.#slots[(this.#head + id - first) % this.#limit] as HeldEntry
  }

  /** One entry as held, its Detail included (GET /__mock/requests/{id}); undefined when the journal no longer holds it. */
  entry(id: number): Readonly<HeldEntry> | undefined {
    return Number.isSafeInteger(id) ? this.#at(id) : undefined
  }

  #dropOldest(): void {
    const oldest = this.#slots[this.#head] as HeldEntry
    this.#urlChars -= oldest.url.length
    const detail = oldest.detail
    if (detail !== undefined) {
      // what it still held leaves the counts with it
      if (!detail.headersDropped) this.#headerBytes -= detail.headerBytes
      if (!detail.bodiesDropped) this.#bodyBytes -= detail.bodyBytes
    }
    if (this.#headersFrom <= oldest.id) this.#headersFrom = oldest.id + 1
    if (this.#bodiesFrom <= oldest.id) this.#bodiesFrom = oldest.id + 1
    this.#slots[this.#head] = undefined
    this.#head = (this.#head + 1) % this.#limit
    this.#count -= 1
  }

  /** Entries in the order they were answered; with `path`, those whose path is it or lies below it. */
  list(path?: string): JournalEntry[] {
    const prefix = path === undefined ? '' : path.endsWith('/') ? path : `${path}/`
    const out: JournalEntry[] = []
    for (let i = 0; i < this.#count; i++) {
      const held = this.#slots[(this.#head + i) % this.#limit] as Exchange
      if (path !== undefined) {
        const own = held.url.split('?')[0] as string
        if (own !== path && !own.startsWith(prefix)) continue
      }
      // the list stays light: no headers or bodies in it
      const { detail: _detail, ...fields } = held
      out.push({ ...fields, time: typeof held.time === 'number' ? formatTimestamp(held.time) : held.time } as JournalEntry)
    }
    return out
  }

  /**
   * Up to `limit` entries after the id `after`, oldest first, as held (time in epoch ms when
   * it came from a request): what /__mock/ui reads, a window at a time. Ids run without
   * gaps since the last clear, so the window is found by arithmetic, not by a scan.
   */
  window(after: number, limit: number): { first: number; newest: number; entries: Array<Readonly<HeldEntry>> } {
    const newest = this.#nextId - 1
    const first = newest - this.#count + 1
    const entries: HeldEntry[] = []
    for (let id = Math.max(first, after + 1); id <= newest && entries.length < limit; id++) {
      entries.push(this.#slots[(this.#head + id - first) % this.#limit] as HeldEntry)
    }
    return { first: this.#count === 0 ? 0 : first, newest, entries }
  }

  get size(): number {
    return this.#count
  }

  clear(): void {
    this.#slots.fill(undefined)
    this.#head = 0
    this.#count = 0
    this.#urlChars = 0
    this.#nextId = 1
    this.#headersFrom = 1
    this.#headerBytes = 0
    this.#bodiesFrom = 1
    this.#bodyBytes = 0
    this.observer?.clear()
  }
}
