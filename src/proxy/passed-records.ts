// The copy-in-step oracle's truth behind a proxy: the newest version of each record that
// passed through it on a list page, per credential. A proxy does not know the board, but it
// saw every answer the client was given: a record whose newer version passed through and
// which the client's copy holds older is stale, one that passed and is not in the copy is
// missing; a record that never passed through is not judged (nothing is extra: the proxy
// does not know every record), and a copy of none that passed leaves the rule not exercised
// (src/watch/verdict/copy-oracle.ts judges, the same code as the fake's board).
import { parseTime } from '../core/time.js'
import { type CopyKey, type CopyTruth, type CopyVersion, marketingKey } from '../watch/verdict/copy-oracle.js'
import { LIST_PATHS, type ListName } from '../watch/verdict/list-urls.js'

/** Records kept per list, over every credential; past it the oldest tenth goes (those are then not judged). */
export const MAX_PASSED_RECORDS = 100_000

const LISTS = Object.keys(LIST_PATHS) as ListName[]
/** The list a request's path walks, if it is a list's path. */
export const LIST_OF_PATH: ReadonlyMap<string, ListName> = new Map(LISTS.map((list) => [LIST_PATHS[list], list]))
/** A credential's part of a record's name: JSON's quotes end it, whatever the user name holds. */
const owner = (user: string) => JSON.stringify(user)

/** The time a version is ordered by: its updated_at, or its created_at where it has none. */
const changed = (version: CopyVersion) => parseTime(version.updated_at ?? version.created_at)

export class PassedRecords implements CopyTruth {
  readonly whole = false
  readonly now: () => number
  /** Records forgotten past MAX_PASSED_RECORDS since the last clear: said in the oracle's account, never lost without a word. */
  #forgotten = 0
  /** By list: the user as JSON, then the key → the newest version seen (its strings as the upstream sent them). */
  readonly #lists = new Map<ListName, Map<string, CopyVersion & { key: CopyKey }>>(LISTS.map((list) => [list, new Map()]))

  constructor(now: () => number) {
    this.now = now
  }

  /** What the oracle judges against, as its account says it (with the records forgotten past the bound, when some were). */
  get name(): string {
    const forgotten = this.#forgotten === 0 ? '' : ` (${this.#forgotten} of the oldest forgotten past its bound of ${MAX_PASSED_RECORDS} records a list: not judged)`
    return `what passed through the proxy${forgotten}`
  }

  /**
   * The records of a list page answered 200 (its `data`): what cannot be keyed or dated is
   * left out. A record kept as it is again (a client's walk reads most of them more than
   * once, a poll all of them) is found by its strings alone: no time is read, no version made.
   */
  seen(list: ListName, user: string, body: unknown): void {
    const data = body !== null && typeof body === 'object' ? (body as { data?: unknown }).data : undefined
    if (!Array.isArray(data)) return
    const held = this.#lists.get(list) as Map<string, CopyVersion & { key: CopyKey }>
    const who = owner(user)
    for (const item of data as unknown[]) {
      if (item === null || typeof item !== 'object') continue
      const record = item as { id?: unknown; created_at?: unknown; updated_at?: unknown; action?: unknown; candidate?: { email?: unknown } }
      const created = record.created_at
      if (typeof created !== 'string') continue
      let key: CopyKey
      if (list === 'marketing') {
        if (typeof record.action !== 'string' || typeof record.candidate?.email !== 'string') continue
        key = marketingKey(record as { candidate: { email: string }; action: string; created_at: string })
      } else if (Number.isInteger(record.id)) key = record.id as number
      else continue
      const name = `${who}${key}`
      const before = held.get(name)
      // the version kept, seen again: its created_at read as a time when it was kept, its updated_at the same string (or none then and none now)
      if (before !== undefined && before.created_at === created && (before.updated_at === record.updated_at || (before.updated_at === undefined && typeof record.updated_at !== 'string'))) continue
      if (Number.isNaN(parseTime(created))) continue
      const updated = typeof record.updated_at === 'string' && !Number.isNaN(parseTime(record.updated_at)) ? record.updated_at : undefined
      const version = { key, created_at: created, updated_at: updated }
      if (before === undefined) {
        held.set(name, version)
        if (held.size > MAX_PASSED_RECORDS) {
          let drop = MAX_PASSED_RECORDS / 10
          for (const old of held.keys()) {
            if (drop-- <= 0) break
            held.delete(old)
            this.#forgotten++
          }
        }
      } else if ((before.updated_at !== updated || before.created_at !== created) && changed(version) > changed(before)) held.set(name, version)
    }
  }

  /** The newest version of each record of a list that passed through, to one credential (all of them when none is named: the newest of each). */
  *records(list: ListName, user: string | undefined): Iterable<[CopyKey, CopyVersion]> {
    const held = this.#lists.get(list) as Map<string, CopyVersion & { key: CopyKey }>
    if (user !== undefined) {
      const prefix = owner(user)
      for (const [name, version] of held) if (name.startsWith(prefix)) yield [version.key, version]
      return
    }
    const newest = new Map<CopyKey, CopyVersion>()
    for (const version of held.values()) {
      const before = newest.get(version.key)
      if (before === undefined || changed(version) > changed(before)) newest.set(version.key, version)
    }
    yield* newest
  }

  clear(): void {
    this.#forgotten = 0
    for (const held of this.#lists.values()) held.clear()
  }
}
