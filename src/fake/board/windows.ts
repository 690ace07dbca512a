// The spec's limit: each full request (method, path and query string, per credential)
// may be made once per window. @fastify/rate-limit counts N per window from its own
// timers; this one reads the instance's clock, so a virtual clock can cross a window
// without waiting, and it can leave failed answers uncounted. A board's own windows (each
// account's, replaced by a reset); the API's admission (src/fake/http/admission.ts) and the
// fast path ask them.
import type { Clock } from '../../core/clock.js'

export type CountPolicy = 'all' | 'success'

export type Admission = { admitted: true } | { admitted: false; retryAfter: number; opened: number }

/** Characters of keys (credential, method, URL) the open windows may hold together: 32 Mi, about 32 MiB (URLs are one-byte strings). */
export const MAX_KEY_CHARS = 32 * 1024 * 1024

export class RateLimiter {
  readonly #clock: Clock
  readonly #windowMs: number
  readonly #counts: CountPolicy
  /** When each key's window opened, oldest first (a reopened key moves to the end). */
  readonly #opened = new Map<string, number>()
  readonly #maxWindows: number
  #keyChars = 0
  /** The size at which closed windows are swept out; doubles when a sweep frees little, so sweeping stays amortized O(1). */
  #sweepAt = 10_000

  constructor(clock: Clock, windowSeconds: number, counts: CountPolicy, maxWindows = 100_000) {
    this.#clock = clock
    this.#windowMs = windowSeconds * 1000
    this.#counts = counts
    this.#maxWindows = maxWindows
  }

  /** How many windows are held (open, or closed and not yet swept). */
  get size(): number {
    return this.#opened.size
  }

  get enabled(): boolean {
    return this.#windowMs > 0
  }

  /**
   * Admits the first request of a window and opens the window at once, so that a
   * second identical request in flight is refused too. A refused request does not
   * move the window.
   */
  admit(key: string): Admission {
    if (!this.enabled) return { admitted: true }
    const now = this.#clock.now()
    const opened = this.#opened.get(key)
    // a window opened "later" than now (a virtual clock set back) is still open: going back in time lifts no limit
    if (opened !== undefined && now - opened < this.#windowMs) {
      // a sped-up clock (clockSpeed N): a client waiting in real time waits N times less for the same board time
      return { admitted: false, retryAfter: Math.max(1, Math.ceil((opened + this.#windowMs - now) / 1000 / this.#clock.speed)), opened }
    }
    if (this.#opened.size >= this.#sweepAt) {
      this.#sweep(now)
      this.#sweepAt = Math.max(10_000, this.#opened.size * 2)
    }
    this.#delete(key)
    this.#opened.set(key, now)
    this.#keyChars += key.length
    // a client sending ever new URLs must not grow the fake without bound: the oldest window goes first
    while (this.#opened.size > this.#maxWindows || this.#keyChars > MAX_KEY_CHARS) {
      const oldest = this.#opened.keys().next()
      if (oldest.done) break
      this.#delete(oldest.value)
    }
    return { admitted: true }
  }

  /** After the answer: under the `success` policy a failed answer gives its window back. */
  settle(key: string, status: number): void {
    if (this.#counts === 'success' && status >= 400) this.#delete(key)
  }

  clear(): void {
    this.#opened.clear()
    this.#keyChars = 0
  }

  #delete(key: string): void {
    if (this.#opened.delete(key)) this.#keyChars -= key.length
  }

  /** The keys whose windows are open now, and the seconds left on each. */
  open(): Array<{ key: string; secondsLeft: number }> {
    const now = this.#clock.now()
    return [...this.#opened]
      .filter(([, opened]) => now - opened < this.#windowMs)
      .map(([key, opened]) => ({ key, secondsLeft: Math.ceil((opened + this.#windowMs - now) / 1000) }))
  }

  #sweep(now: number): void {
    for (const [key, opened] of this.#opened) if (now - opened >= this.#windowMs) this.#delete(key)
  }
}

/** The full request a window belongs to: credential, method, and the path with its query string as sent. */
export const requestKey = (user: string, method: string, url: string) => `${user}\u0000${method}\u0000${url}`
