// A map that keeps its most recently used entries, at most `limit`: the least recently used
// goes first. The per-process caches of pure results (docs/architecture.md, "Per-process
// caches") are bounded by it.

export class RecentMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #limit: number

  constructor(limit: number) {
    this.#limit = limit
  }

  /** The entry, now the most recently used. */
  get(key: K): V | undefined {
    const found = this.#entries.get(key)
    if (found === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, found)
    return found
  }

  /** Keeps the entry as the most recently used, letting the least recently used go past the limit. */
  set(key: K, value: V): void {
    this.#entries.delete(key)
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value as K)
    this.#entries.set(key, value)
  }

  delete(key: K): void {
    this.#entries.delete(key)
  }

  get size(): number {
    return this.#entries.size
  }
}
