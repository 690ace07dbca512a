// The journal of requests a fake answered: what a test asks to see which calls its
// client made (GET /__mock/requests). Bounded twice, newest last: by entries and by the
// characters of their URLs, so 10,000 requests with 16 KiB URLs cannot hold 160 MiB.
import type { JournalEntry } from './types.js'

/** Characters of URLs the journal holds together at most: 8 Mi (about 8 MiB: URLs are one-byte strings). */
export const MAX_JOURNAL_URL_CHARS = 8 * 1024 * 1024

export class Journal {
  readonly #entries: JournalEntry[] = []
  readonly #limit: number
  #urlChars = 0

  constructor(limit = 10_000) {
    this.#limit = limit
  }

  record(entry: JournalEntry): void {
    this.#entries.push(entry)
    this.#urlChars += entry.url.length
    let drop = Math.max(0, this.#entries.length - this.#limit)
    let chars = this.#urlChars
    for (let i = 0; i < drop; i++) chars -= (this.#entries[i] as JournalEntry).url.length
    while (chars > MAX_JOURNAL_URL_CHARS && drop < this.#entries.length - 1) chars -= (this.#entries[drop++] as JournalEntry).url.length
    if (drop > 0) this.#entries.splice(0, drop)
    this.#urlChars = chars
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

  get size(): number {
    return this.#entries.length
  }

  clear(): void {
    this.#entries.length = 0
    this.#urlChars = 0
  }
}
