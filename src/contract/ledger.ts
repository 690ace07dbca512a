// The ledger: a small JSON file (schemas/ledger.ts), cached by CI between runs, that
// remembers when each full request was last made and when its rate-limit window opens
// again, so that the next run leaves out (or waits for) what would only earn a 429.
//
// `until` is when the request may be made again: `at` plus the window, or, after a
// 429, the time its Retry-after named. Entries whose window has passed are dropped on
// writing, so the file stays as small as the set of recent requests. Besides requests it
// keeps, per deployment, when each write check was last made (they take turns), the jobs
// not deleted yet, one job known deleted, when each walk of a list was last read in
// full (walks take turns too), and the last link each rotation of in-turn.ts took.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { LEDGER_KIND, ledgerFile } from '../../schemas/ledger.js'
import { prototypeKeyPath, prototypeKeyRefusal } from '../core/prototype-keys.js'
import type { LedgerEntry, LedgerFile } from '../core/types.js'
import { createAjv, explain } from '../core/validation.js'
import type { Redactor } from './redact.js'
import { UsageError } from './settings.js'

export type { LedgerEntry, LedgerFile }
export type PendingJob = NonNullable<LedgerFile['pending']>[number]

/** How many runs' start times the file keeps per deployment: --within may look back this far. */
export const RUNS_KEPT = 1000

export const ledgerKey = (user: string | undefined, method: string, url: string) => `${user ?? '-'} ${method} ${url}`

/** Whose board the write records are about: `<user> <base URL>`. */
export const deploymentKey = (user: string | undefined, baseUrl: string) => `${user ?? '-'} ${baseUrl}`

export class Ledger {
  readonly path: string | undefined
  readonly #entries: Map<string, LedgerEntry>
  readonly #writes: Record<string, Record<string, string>>
  #pending: PendingJob[]
  readonly #deleted: Record<string, number>
  readonly #runs: Record<string, string[]>
  readonly #walks: Record<string, Record<string, string>>
  readonly #inTurn: Record<string, Record<string, string>>

  private constructor(path: string | undefined, file?: LedgerFile) {
    this.path = path
    this.#entries = new Map(Object.entries(file?.requests ?? {}))
    this.#writes = structuredClone(file?.writes ?? {})
    this.#pending = structuredClone(file?.pending ?? [])
    this.#deleted = { ...file?.deleted }
    this.#runs = structuredClone(file?.runs ?? {})
    this.#walks = structuredClone(file?.walks ?? {})
    this.#inTurn = structuredClone(file?.inTurn ?? {})
  }

  /** No file: nothing is remembered and nothing is written. */
  static none(): Ledger {
    return new Ledger(undefined)
  }

  /** Reads the file; a missing file is an empty ledger, a file that is not a ledger is a usage error. */
  static load(path: string): Ledger {
    if (!existsSync(path)) return new Ledger(path)
    let data: unknown
    try {
      data = JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      throw new UsageError(`--ledger ${path} is not JSON: ${(error as Error).message}`)
    }
    const keyPath = prototypeKeyPath(data)
    if (keyPath !== undefined) throw new UsageError(prototypeKeyRefusal(`--ledger ${path}`, keyPath, 'no field of a ledger has that name (delete it to start a new one)'))
    const validate = createAjv().compile<LedgerFile>(ledgerFile)
    if (!validate(data)) {
      throw new UsageError(`--ledger ${path} is not a jobboard-kit ledger (delete it to start a new one): ${explain(validate.errors ?? [], 'body', data)}`)
    }
    return new Ledger(path, data)
  }

  /** Whether runs are remembered: without a file, write checks cannot take turns. */
  get kept(): boolean {
    return this.path !== undefined
  }

  /** When each write check was last made on a deployment (epoch ms). */
  writesOf(deployment: string): Record<string, number> {
    return Object.fromEntries(Object.entries(this.#writes[deployment] ?? {}).map(([name, at]) => [name, Date.parse(at)]))
  }

  wrote(deployment: string, name: string, at: number): void {
    this.#writes[deployment] = { ...this.#writes[deployment], [name]: new Date(at).toISOString() }
  }

  /** When each walk of a list (src/contract/walk.ts) was last read in full on a deployment (epoch ms). */
  walksOf(deployment: string): Record<string, number> {
    return Object.fromEntries(Object.entries(this.#walks[deployment] ?? {}).map(([id, at]) => [id, Date.parse(at)]))
  }

  walked(deployment: string, id: string, at: number): void {
    this.#walks[deployment] = { ...this.#walks[deployment], [id]: new Date(at).toISOString() }
  }

  /** The last link each rotation (in-turn.ts) took on a deployment, by rotation. */
  inTurnOf(deployment: string): Record<string, string> {
    return { ...this.#inTurn[deployment] }
  }

  tookInTurn(deployment: string, rotation: string, last: string): void {
    this.#inTurn[deployment] = { ...this.#inTurn[deployment], [rotation]: last }
  }

  pendingOf(deployment: string): PendingJob[] {
    return this.#pending.filter((job) => job.deployment === deployment)
  }

  /** Sets the deployment's jobs still to delete. */
  setPending(deployment: string, jobs: readonly PendingJob[]): void {
    this.#pending = [...this.#pending.filter((job) => job.deployment !== deployment), ...jobs]
  }

  deletedOf(deployment: string): number | undefined {
    return this.#deleted[deployment]
  }

  setDeleted(deployment: string, id: number): void {
    this.#deleted[deployment] = id
  }

  /** Notes that a run with writes started at `at` on a deployment; the file keeps the last RUNS_KEPT. */
  ran(deployment: string, at: number): void {
    this.#runs[deployment] = [...(this.#runs[deployment] ?? []), new Date(at).toISOString()].slice(-RUNS_KEPT)
  }

  /** When each run with writes on a deployment started (epoch ms), oldest first. */
  runsOf(deployment: string): number[] {
    return (this.#runs[deployment] ?? []).map((at) => Date.parse(at))
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

  /**
   * Writes the entries still inside their window, through a temporary file so a crash
   * leaves the old ledger; a URL or reason holding a secret is written redacted.
   */
  save(now: number, redact: Pick<Redactor, 'deep'> = { deep: (value) => value }): void {
    if (this.path === undefined) return
    const requests = Object.fromEntries([...this.#entries].filter(([, entry]) => Date.parse(entry.until) > now).sort(([a], [b]) => (a < b ? -1 : 1)))
    const file: LedgerFile = redact.deep({ kind: LEDGER_KIND, version: 1, requests, writes: this.#writes, pending: this.#pending, deleted: this.#deleted, runs: this.#runs, ...(Object.keys(this.#walks).length === 0 ? {} : { walks: this.#walks }), ...(Object.keys(this.#inTurn).length === 0 ? {} : { inTurn: this.#inTurn }) })
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`)
    renameSync(temporary, this.path)
  }
}
