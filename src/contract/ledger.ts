// The ledger: a small JSON file, cached by CI between runs, that remembers when each
// full request was last made and when its rate-limit window opens again, so that the
// next run leaves out (or waits for) what would only earn a 429.
//
// {
//   "kind": "jobboard-kit contract ledger", "version": 1,
//   "requests": { "<user> <METHOD> <full URL>": { "at": ISO time, "until": ISO time } }
// }
//
// `until` is when the request may be made again: `at` plus the window, or, after a
// 429, the time its Retry-after named. Entries whose window has passed are dropped on
// writing, so the file stays as small as the set of recent requests.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { UsageError } from './settings.js'

const KIND = 'jobboard-kit contract ledger'

export interface LedgerEntry {
  at: string
  until: string
}

export interface LedgerFile {
  kind: typeof KIND
  version: 1
  requests: Record<string, LedgerEntry>
}

export const ledgerKey = (user: string | undefined, method: string, url: string) => `${user ?? '-'} ${method} ${url}`

const isEntry = (value: unknown): value is LedgerEntry =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LedgerEntry).at === 'string' &&
  typeof (value as LedgerEntry).until === 'string' &&
  !Number.isNaN(Date.parse((value as LedgerEntry).until))

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
    const file = data as Partial<LedgerFile>
    if (file?.kind !== KIND || file.version !== 1 || typeof file.requests !== 'object' || file.requests === null) {
      throw new UsageError(`--ledger ${path} is not a jobboard-kit ledger (delete it to start a new one).`)
    }
    const entries = new Map(Object.entries(file.requests).filter((pair): pair is [string, LedgerEntry] => isEntry(pair[1])))
    return new Ledger(path, entries)
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
    const file: LedgerFile = { kind: KIND, version: 1, requests }
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`)
    renameSync(temporary, this.path)
  }
}
