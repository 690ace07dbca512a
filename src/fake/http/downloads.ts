// Download files already made, kept as bytes. A file is a pure function of its record
// (seed, kind, id, name, size, label), so a repeated download can send the Buffer made
// the first time instead of building a PDF or a zip again. An entry holds for the store
// and the revision it was made at (any write, reset or import makes it stale), the
// least recently sent go first past the byte bound, and a file over the per-entry bound
// is never held whole: it streams in pieces as it is made.
import type { Download, Store } from '../store/store.js'

/** Bytes of files held together, and the largest file held at all. */
export const MAX_CACHED_FILE_BYTES = 64 * 1024 * 1024
export const MAX_CACHED_FILE = 8 * 1024 * 1024

interface Entry {
  readonly body: Buffer
  readonly store: Store
  readonly revision: number
  readonly filename: string
}

export class FileCache {
  readonly #entries = new Map<string, Entry>()
  readonly #maxBytes: number
  readonly #maxEntry: number
  #bytes = 0

  constructor(maxBytes = MAX_CACHED_FILE_BYTES, maxEntry = MAX_CACHED_FILE) {
    this.#maxBytes = maxBytes
    this.#maxEntry = Math.min(maxEntry, maxBytes)
  }

  /**
   * The whole file under `key` (the download's kind and id) as made for this store at its
   * current revision: kept bytes, or made now and kept. Undefined for a file too large to
   * hold, which the caller streams from `download.chunks()`.
   */
  bytes(key: string, store: Store, download: Download): Buffer | undefined {
    if (download.size > this.#maxEntry) return undefined
    const revision = store.revision
    const found = this.#entries.get(key)
    if (found !== undefined) {
      this.#delete(key, found)
      if (found.store === store && found.revision === revision && found.filename === download.filename && found.body.length === download.size) {
        // most recently sent last: the map's order is the eviction order
        this.#entries.set(key, found)
        this.#bytes += found.body.length
        return found.body
      }
    }
    const pieces = [...download.chunks()]
    const body = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, download.size)
    this.#entries.set(key, { body, store, revision, filename: download.filename })
    this.#bytes += body.length
    while (this.#bytes > this.#maxBytes) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [string, Entry]
      this.#delete(oldestKey, oldest)
    }
    return body
  }

  clear(): void {
    this.#entries.clear()
    this.#bytes = 0
  }

  /** Files held, and their bytes together. */
  get size(): number {
    return this.#entries.size
  }

  get heldBytes(): number {
    return this.#bytes
  }

  #delete(key: string, entry: Entry): void {
    this.#entries.delete(key)
    this.#bytes -= entry.body.length
  }
}
