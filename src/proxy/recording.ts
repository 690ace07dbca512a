// `proxy --record FILE`: what passed through, written as a scenario the fake loads
// (docs/proxy.md). Each answer of job/fields, metrics/list, a list page or a detail goes
// to `record`'s own gatherer (src/record/gather.ts), which keeps each record's seed with
// its personal values already replaced (src/record/anonymise.ts), never the answer; at
// close the scenario is built and fitted as `record` builds it, and its accounting (seen
// → written, the records lost and why, those past the bound) is what the proxy prints.
// The anonymiser's key is derived from the first credentials that passed, as `record`
// derives it from its own: the key is kept, the credentials never are.
import { replacementKey } from '../record/anonymise.js'
import { writeAtomically } from '../record/atomic-write.js'
import { Gatherer } from '../record/gather.js'
import { type Built, describeLoss, LIST_DEFS, LIST_NAMES, type ListName } from '../record/recording-progress.js'
import { int, isRec, recs } from '../contract/records.js'

/** Records kept of each list at most: past it they are counted, not kept (the accounting says how many). */
export const RECORD_MAX_RECORDS = 100_000

const DETAIL = /^\/(candidates|applications)\/details\/[0-9]+$/
const LIST_OF_PATH = new Map<string, ListName>(LIST_NAMES.map((name) => [LIST_DEFS[name].path, name]))

/** One answer that passed: only a success (2xx) with a JSON body tells the scenario anything. */
export interface SeenAnswer {
  /** The path under {base_url}/api/v1 (`/candidates/list`). */
  apiPath: string
  query: string
  json: unknown
  authorization: string | undefined
}

/** What --record wrote, and what it could not. */
export type RecordingAccount = Omit<Built, 'built'> & { path: string; /** Records kept a list at most. */ bound: number }

/** The user and password of a Basic Authorization header, if it holds them. */
function basicPair(authorization: string | undefined): [string, string] | undefined {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')
  if (!match) return undefined
  const pair = Buffer.from(match[1] as string, 'base64').toString('utf8')
  const colon = pair.indexOf(':')
  return colon < 0 ? undefined : [pair.slice(0, colon), pair.slice(colon + 1)]
}

export class ProxyRecording {
  readonly path: string
  readonly #base: string
  readonly #origin: string
  readonly #maxRecords: number
  #gather: Gatherer | undefined

  constructor(path: string, base: string, maxRecords = RECORD_MAX_RECORDS) {
    this.path = path
    this.#base = base
    this.#origin = new URL(base).origin
    this.#maxRecords = maxRecords
  }

  #gatherer(authorization: string | undefined): Gatherer {
    if (this.#gather === undefined) {
      const [username, password] = basicPair(authorization) ?? ['', '']
      this.#gather = new Gatherer({
        key: replacementKey(this.#base, username, password),
        sameOrigin: (href) => href === this.#base || href.startsWith(`${this.#base}/`),
        maxRecords: this.#maxRecords,
      })
    }
    return this.#gather
  }

  /** A success (2xx) of a GET with its JSON body: what it says of the board is gathered. */
  seen(answer: SeenAnswer): void {
    const { apiPath, json } = answer
    if (!isRec(json)) return
    if (apiPath === '/job/fields' || apiPath === '/metrics/list') {
      const gather = this.#gatherer(answer.authorization)
      if (apiPath === '/job/fields') gather.fields(json)
      else gather.metrics(json)
      return
    }
    const detail = DETAIL.exec(apiPath)
    const name = detail ? (detail[1] as ListName) : LIST_OF_PATH.get(apiPath)
    if (name === undefined || !Array.isArray(json.data)) return
    const gather = this.#gatherer(answer.authorization)
    const list = gather.progress.lists[name]
    for (const record of recs(json.data)) if (gather.take(name, record) !== 'again') list.records += 1
    if (detail) return
    const query = new URLSearchParams(answer.query)
    // a narrowed list (since, vacancy) totals only what it holds: the board's size is the whole list's
    if ([...query.keys()].every((key) => key === 'page')) {
      const total = int(json.total)
      if (total !== undefined && total >= 0) list.total = total
      const page = query.get('page')
      const more = typeof json.next_page === 'string' && json.next_page !== ''
      if ((page === null || page === '1') && more && json.data.length > 0) list.pageSize = json.data.length
    }
  }

  /** Writes the scenario of what passed through; answers its accounting. */
  write(now: number, points: Record<string, { value?: unknown } | undefined>): RecordingAccount {
    const gather = this.#gatherer(undefined)
    // the board's word for an approval, where no profile names it: the action other than Revoked its records give most (as the profile reader reads it)
    const words = new Map<string, number>()
    for (const { action } of gather.progress.marketing) if (typeof action === 'string' && (action as string) !== '' && action !== 'Revoked') words.set(action, (words.get(action) ?? 0) + 1)
    const approval = [...words].sort((a, b) => b[1] - a[1])[0]?.[0]
    const read = points.marketingApprovalAction === undefined && approval !== undefined ? { ...points, marketingApprovalAction: { value: approval } } : points
    const { built, ...account } = gather.build({ complete: true, now, points: read, origin: this.#origin, out: this.path, from: 'Recorded through jobboard-kit proxy from' })
    writeAtomically(this.path, `${JSON.stringify(built, null, 2)}\n`)
    return { ...account, path: this.path, bound: this.#maxRecords }
  }
}

/** The accounting in lines, as `record` prints its own: seen → written, then any loss and any record past the bound. */
export function accountLines(account: RecordingAccount): { out: string; loss: string | undefined } {
  const carried = LIST_NAMES.map((kind) => `${kind} ${account.carried[kind].seen} → ${account.carried[kind].written}`).join(', ')
  const past = LIST_NAMES.filter((kind) => account.pastBound[kind] > 0)
  const out =
    `jobboard-kit proxy: recorded what passed through into ${account.path}\n` +
    `Records seen → written: ${carried}${account.guests > 0 ? ` (${account.guests} applications by guest applicants, no listed candidate being theirs)` : ''}\n` +
    `Jobs: ${account.jobs}, as the applications and the candidates' entries show them\n` +
    (account.dropped.length > 0 ? `Left to the generator (did not fit the scenario format): ${account.dropped.length} values, such as ${account.dropped.slice(0, 3).join(', ')}\n` : '') +
    `Serve it with: jobboard-kit serve --scenario ${account.path}\n`
  const lines = [
    ...(account.lost.length > 0 ? [describeLoss(account.lost).replace(/ \(--allow-loss[^)]*\)$/, '')] : []),
    ...(past.length > 0 ? [`records past the bound of ${account.bound.toLocaleString('en-US')} kept a list, counted and not written: ${past.map((kind) => `${account.pastBound[kind]} ${kind}`).join(', ')}`] : []),
  ]
  return { out, loss: lines.length > 0 ? `jobboard-kit proxy: ${lines.join('; ')}\n` : undefined }
}
