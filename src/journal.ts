// The journal of requests a fake answered: what a test asks to see which calls its
// client made (GET /__mock/requests). Bounded, newest last.
import type { JournalEntry } from './types.js'

export class Journal {
  readonly #entries: JournalEntry[] = []
  readonly #limit: number

  constructor(limit = 10_000) {
    this.#limit = limit
  }

  record(entry: JournalEntry): void {
    this.#entries.push(entry)
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit)
  }

  /** Entries in the order they were answered; with `path`, those whose path is it or lies below it. */
  list(path?: string): JournalEntry[] {
    if (path === undefined) return [...this.#entries]
    const prefix = path.endsWith('/') ? path : `${path}/`
    return this.#entries.filter((e) => {
      const own = e.url.split('?')[0] as string
      return own === path || own.startsWith(prefix)
    })
  }

  clear(): void {
    this.#entries.length = 0
  }
}
