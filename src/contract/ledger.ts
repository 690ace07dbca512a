// The ledger: a small JSON file (schemas/ledger.ts), cached by CI between runs, that
// remembers when each full request was last made and when its rate-limit window opens
// again, so that the next run leaves out (or waits for) what would only earn a 429.
//
// `until` is when the request may be made again: `at` plus the window, or, after a
// 429, the time its Retry-after named. Entries whose window has passed are dropped on
// writing, so the file stays as small as the set of recent requests.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { LEDGER_KIND, ledgerFile } from '../../schemas/ledger.js'
import type { LedgerEntry, LedgerFile } from '../types.js'
import { createAjv, explain } from '../validation.js'
import { UsageError } from './settings.js'

export type { LedgerEntry, LedgerFile }

export const ledgerKey = (user: string | undefined, method: string, url: string) => `${user ?? '-'} ${method} ${url}`


export class Ledger {
  readonly path: string | undefined
  readonly #entries: Map<string, LedgerEntry>

  private constructor(path: string | undefined, entries: Map<string, LedgerEntry>) {
    this.path = path
    this.#entries = entries
  }

  /** No file: nothing is remembered and nothing is written. */
  static none(): Ledger {
    return new Ledger(undefined, new Map())
  }

  /** Reads the file; a missing file is an empty ledger, a file that is not a ledger is a usage error. */
  static load(path: string): Ledger {
    if (!existsSync(path)) return new Ledger(path, new Map())
    let data: unknown
    try {
      data = JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      throw new UsageError(`--ledger ${path} is not JSON: ${(error as Error).message}`)
    }
    const validate = createAjv().compile<LedgerFile>(ledgerFile)
    if (!validate(data)) {
      throw new UsageError(`--ledger ${path} is not a jobboard-kit ledger (delete it to start a new one): ${explain(validate.errors ?? [], 'body', data)}`)
    }
    return new Ledger(path, new Map(Object.entries(data.requests)))
  }

  /** When the request may be made again, if its window is still open at `now`. */
  openUntil(key: string, now: number): number | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    const until = Date.parse(entry.until)
    return until > now ? until : undefined
  }

  record(key: string, at: number, until: number): void {
    this.#entries.set(key, { at: new Date(at).toISOString(), until: new Date(until).toISOString() })
  }

  get size(): number {
    return this.#entries.size
  }

  /** Writes the entries still inside their window, through a temporary file so a crash leaves the old ledger. */
  save(now: number): void {
    if (this.path === undefined) return
    const requests = Object.fromEntries([...this.#entries].filter(([, entry]) => Date.parse(entry.until) > now).sort(([a], [b]) => (a < b ? -1 : 1)))
    const file: LedgerFile = { kind: LEDGER_KIND, version: 1, requests }
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`)
    renameSync(temporary, this.path)
  }
}
