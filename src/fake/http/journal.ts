// The journal of requests a fake answered: what a test asks to see which calls its
// client made (GET /__mock/requests). Bounded twice, newest last: by entries and by the
// characters of their URLs, so 10,000 requests with 16 KiB URLs cannot hold 160 MiB.
// A ring buffer: recording a request costs a slot write, never a shift of the array, and
// its time is formatted only when someone reads the journal.
//
// requestJournal is the request side: each answered request is recorded once it has
// been answered, or when its connection closes short of an answer.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../../core/clock.js'
import { formatTimestamp } from '../../core/time.js'
import type { JournalEntry } from '../../core/types.js'
import { isInProcess } from './in-process.js'
import { faultKind } from './faults.js'
import type { RequestLog } from './log.js'

/** Characters of URLs the journal holds together at most: 8 Mi (about 8 MiB: URLs are one-byte strings). */
export const MAX_JOURNAL_URL_CHARS = 8 * 1024 * 1024

/** An entry as recorded: its time still epoch milliseconds when it came from a request. */
type Held = Omit<JournalEntry, 'time'> & { time: string | number }

export class Journal {
  readonly #slots: Array<Held | undefined>
  readonly #limit: number
  /** Index of the oldest entry, and how many are held. */
  #head = 0
  #count = 0
  #urlChars = 0

  constructor(limit = 10_000) {
    this.#limit = limit
    this.#slots = new Array<Held | undefined>(limit)
  }

  /** Records an entry; `time` may be epoch milliseconds, formatted when the journal is read. */
  record(entry: Held): void {
    if (this.#count === this.#limit) this.#dropOldest()
    this.#slots[(this.#head + this.#count) % this.#limit] = entry
    this.#count += 1
    this.#urlChars += entry.url.length
    while (this.#urlChars > MAX_JOURNAL_URL_CHARS && this.#count > 1) this.#dropOldest()
  }

  #dropOldest(): void {
    const oldest = this.#slots[this.#head] as Held
    this.#urlChars -= oldest.url.length
    this.#slots[this.#head] = undefined
    this.#head = (this.#head + 1) % this.#limit
    this.#count -= 1
  }

  /** Entries in the order they were answered; with `path`, those whose path is it or lies below it. */
  list(path?: string): JournalEntry[] {
    const prefix = path === undefined ? '' : path.endsWith('/') ? path : `${path}/`
    const out: JournalEntry[] = []
    for (let i = 0; i < this.#count; i++) {
      const held = this.#slots[(this.#head + i) % this.#limit] as Held
      if (path !== undefined) {
        const own = held.url.split('?')[0] as string
        if (own !== path && !own.startsWith(prefix)) continue
      }
      out.push({ ...held, time: typeof held.time === 'number' ? formatTimestamp(held.time) : held.time })
    }
    return out
  }

  get size(): number {
    return this.#count
  }

  clear(): void {
    this.#slots.fill(undefined)
    this.#head = 0
    this.#count = 0
    this.#urlChars = 0
  }
}

export interface RequestJournal {
  /** Records a request with the status it was answered (0: none), a fault it met and a note. */
  record(request: FastifyRequest, status: number, extra?: string): void
  /**
   * Answers cut short, dropped or given up on never reach onResponse: the journal (and
   * the request log) see them when the connection closes. Watched only where that can
   * happen: a fault, a download, a handler at work; not a cached answer sent at once.
   */
  watchClose(request: FastifyRequest, reply: FastifyReply): void
}

/** What the journal reads of a board on every request (a reset replaces its clock). */
export interface JournalBoard {
  readonly journal: Journal
  readonly clock: Clock
}

export function requestJournal(board: JournalBoard, requestLog: RequestLog | undefined): RequestJournal {
  const record = (request: FastifyRequest, status: number, extra?: string) => {
    const fault = request.fault ? faultKind(request.fault) : undefined
    const note = fault === undefined ? extra : extra === undefined ? fault : `${fault}; ${extra}`
    // the time is formatted when the journal is read
    board.journal.record({
      method: request.method,
      url: request.url,
      status,
      time: board.clock.now(),
      user: request.apiUser,
      ...(note ? { fault: note } : {}),
    })
  }
  return {
    record,
    watchClose(request, reply) {
      if (isInProcess(request)) return
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished) return
        const status = reply.raw.headersSent ? reply.statusCode : 0
        record(request, status, request.fault ? undefined : 'the client closed the connection')
        requestLog?.(request, reply, status)
      })
    },
  }
}
