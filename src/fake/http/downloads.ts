// Download files already made, kept as bytes, once per process. A file is a pure function
// of its record (seed, kind, id, name, size, label, time: Download.identity), so a repeated
// download can send the Buffer made the first time instead of building a PDF or a zip
// again: on any board that holds the same record (every account, reset and fake of a
// scenario and seed); a record that changed is another identity, made anew. The least
// recently sent go first past the byte bound, and a file over the per-entry bound is never
// held whole: it streams in pieces as it is made. Why module-level (docs/architecture.md,
// "Per-process caches"): what it holds is a pure function of its key, and bounded.
import type { Download } from '../store/store.js'

/** Bytes of files held together, and the largest file held at all. */
export const MAX_CACHED_FILE_BYTES = 64 * 1024 * 1024
export const MAX_CACHED_FILE = 8 * 1024 * 1024

export class FileCache {
  readonly #entries = new Map<string, Buffer>()
  readonly #maxBytes: number
  readonly #maxEntry: number
  #bytes = 0

  constructor(maxBytes = MAX_CACHED_FILE_BYTES, maxEntry = MAX_CACHED_FILE) {
    this.#maxBytes = maxBytes
    this.#maxEntry = Math.min(maxEntry, maxBytes)
  }

  /**
   * The whole file: kept bytes of its identity, or made now and kept. Undefined for a file
   * too large to hold, which the caller streams from `download.chunks()`.
   */
  bytes(download: Download): Buffer | undefined {
    if (download.size > this.#maxEntry) return undefined
    const key = download.identity
    const found = this.#entries.get(key)
    if (found !== undefined) {
      // most recently sent last: the map's order is the eviction order
      this.#entries.delete(key)
      this.#entries.set(key, found)
      return found
    }
    const pieces = [...download.chunks()]
    const body = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, download.size)
    this.#entries.set(key, body)
    this.#bytes += body.length
    while (this.#bytes > this.#maxBytes) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [string, Buffer]
      this.#entries.delete(oldestKey)
      this.#bytes -= oldest.length
    }
    return body
  }

  /** Files held, and their bytes together. */
  get size(): number {
    return this.#entries.size
  }

  get heldBytes(): number {
    return this.#bytes
  }
}

/** The files of every board of this process. */
export const FILES = new FileCache()
