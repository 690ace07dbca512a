// The copy-in-step oracle: a client's copy of a list, judged against the records as they
// stood when the client's most recent complete walk of that list began. What the records
// are comes from a CopyTruth: the fake's board (src/fake/control-api.ts: every record, so a
// record of the copy the board never held is extra) or a proxy (src/proxy/passed-records.ts: the
// newest version of each record that passed through it, so a record it never passed is
// not judged at all). Neither keeps old versions, so the records at that moment are read
// off the records now: one created after it was not there yet, one changed (updated_at)
// after it is neither missing nor stale.
import { formatTimestamp, parseTime } from '../../core/time.js'
import type { CopyAnswer, CopyBody, CopyListAnswer, MarketingRecord } from '../../core/types.js'
import type { VerdictEvaluator } from './evaluator.js'
import type { ListName } from './list-urls.js'
import type { Finding } from './verdict-types.js'

/** Bytes a copy sent to POST /__mock/verdict/copy may hold (the fake's and the proxy's): 32 MiB. */
export const COPY_BODY_LIMIT = 32 * 1024 * 1024

/** Ids each of missing, extra and stale names at most; a finding counts the rest. */
export const MAX_COPY_IDS = 10_000

export type CopyKey = number | string

/** A record as the oracle reads it: when it was made and last changed. */
export interface CopyVersion {
  created_at: string
  updated_at?: string | undefined
}

/** What a copy is judged against. */
export interface CopyTruth {
  /** Each record of a list known (of one credential's traffic, where the truth tells them apart), by key (marketing: copyKey). */
  records(list: ListName, user: string | undefined): Iterable<[CopyKey, CopyVersion]>
  /** Whether every record of a list is known: only then is a record of the copy that is not known extra. */
  readonly whole: boolean
  /** The time a list is judged at when no complete walk of it is known (epoch ms). */
  now(): number
  /** What the findings judge against, in words: `the board`, `what passed through the proxy`. */
  readonly name: string
}

/** Marketing records have no id: one is known by its time, action and e-mail. */
export const marketingKey = (record: { candidate: { email: string }; action: string; created_at: string }) =>
  `${record.created_at} ${record.action} ${record.candidate.email}`

interface Judged {
  answer: Omit<CopyListAnswer, 'walkStarted'>
  counts: { missing: number; extra: number; stale: number }
  /** Records of the truth held up to the copy: none means nothing could be judged. */
  judged: number
}

function judgeList(truth: CopyTruth, list: ListName, user: string | undefined, given: ReadonlyArray<Record<string, unknown>>, at: number): Judged {
  const copy = new Map<CopyKey, string | undefined>()
  for (const item of given) {
    const key = list === 'marketing' ? marketingKey(item as unknown as MarketingRecord) : (item.id as number)
    copy.set(key, typeof item.updated_at === 'string' ? item.updated_at : undefined)
  }
  const missing: CopyKey[] = []
  const stale: CopyKey[] = []
  const known = new Set<CopyKey>()
  let judged = 0
  for (const [key, record] of truth.records(list, user)) {
    known.add(key)
    if (parseTime(record.created_at) > at) continue
    const changed = record.updated_at ?? record.created_at
    if (parseTime(changed) > at) continue
    judged += 1
    if (!copy.has(key)) missing.push(key)
    else {
      const held = copy.get(key)
      if (held !== undefined && record.updated_at !== undefined && parseTime(held) < parseTime(record.updated_at)) stale.push(key)
    }
  }
  const extra = truth.whole ? [...copy.keys()].filter((key) => !known.has(key)) : []
  const order = (a: CopyKey, b: CopyKey) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)))
  const capped = (keys: CopyKey[]) => keys.sort(order).slice(0, MAX_COPY_IDS)
  return {
    answer: { missing: capped(missing), extra: capped(extra), stale: capped(stale) },
    counts: { missing: missing.length, extra: extra.length, stale: stale.length },
    judged,
  }
}

const few = (keys: readonly CopyKey[], count: number) => `${keys.slice(0, 10).join(', ')}${count > 10 ? `, ... (${count} in all)` : ''}`

/**
 * Judges each list of a copy; the result of each joins the verdict as copy-in-step. Changes
 * nothing. A list is exercised when the truth knows every record (a board: an empty copy
 * of an empty list is in step) or when at least one record it knows could be judged; a
 * copy of records a proxy never passed leaves the rule not exercised, never passed.
 */
export function judgeCopy(truth: CopyTruth, evaluator: VerdictEvaluator | undefined, body: CopyBody, user?: string): CopyAnswer {
  const lists: Record<string, CopyListAnswer> = {}
  let failed = false
  let exercised = false
  for (const [name, items] of Object.entries(body) as Array<[ListName, Array<Record<string, unknown>>]>) {
    const walk = evaluator?.lastCompleteWalk(name, user)
    const at = walk?.started ?? truth.now()
    const { answer, counts, judged } = judgeList(truth, name, user ?? walk?.user, items, at)
    const walkStarted = walk === undefined ? null : formatTimestamp(walk.started)
    lists[name] = { ...answer, walkStarted }
    const findings: Finding[] = []
    const against = walk === undefined ? `${truth.name} as it stands now (no complete walk of ${name} is in the journal)` : `${truth.name} as it stood at ${walkStarted}, when the walk began`
    for (const kind of ['missing', 'extra', 'stale'] as const) {
      if (counts[kind] === 0) continue
      findings.push({ message: `${name}: ${counts[kind]} ${kind} against ${against}: ${few(answer[kind], counts[kind])}.`, requests: walk ? walk.requests.slice(0, 1) : [] })
    }
    failed ||= findings.length > 0
    exercised ||= truth.whole || judged > 0
    evaluator?.noteCopy(name, user, findings, truth.whole || judged > 0)
  }
  return { status: 200, outcome: failed ? 'fail' : exercised ? 'pass' : 'not-exercised', lists }
}
