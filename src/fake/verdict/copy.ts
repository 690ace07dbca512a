// The copy-in-step oracle: a client's copy of a list, judged against the board as it
// stood when the client's most recent complete walk of that list began. The store keeps
// no old versions, but it never deletes candidates, applications, timesheets or marketing
// records, so the board at that moment is read off the records now: one created after it
// was not there yet, one changed (updated_at) after it is neither missing nor stale.
import type { Board } from '../board.js'
import { formatTimestamp, parseTime } from '../../core/time.js'
import type { CopyAnswer, CopyBody, CopyListAnswer, MarketingRecord } from '../../core/types.js'
import type { Collection } from '../store/collection.js'
import type { Finding, ListName, VerdictEvaluator } from './evaluator.js'

/** Ids each of missing, extra and stale names at most; a finding counts the rest. */
export const MAX_COPY_IDS = 10_000

type Key = number | string

const marketingKey = (record: { candidate: { email: string }; action: string; created_at: string }) =>
  `${record.created_at} ${record.action} ${record.candidate.email}`

interface Judged {
  answer: CopyListAnswer
  counts: { missing: number; extra: number; stale: number }
}

function judgeList(board: Board, list: ListName, given: ReadonlyArray<Record<string, unknown>>, at: number): Omit<Judged, 'answer'> & { answer: Omit<CopyListAnswer, 'walkStarted'> } {
  const store = board.store
  const copy = new Map<Key, string | undefined>()
  for (const item of given) {
    const key = list === 'marketing' ? marketingKey(item as unknown as MarketingRecord) : (item.id as number)
    copy.set(key, typeof item.updated_at === 'string' ? item.updated_at : undefined)
  }
  const missing: Key[] = []
  const stale: Key[] = []
  const onBoard = new Set<Key>()
  const visit = (key: Key, record: { created_at: string; updated_at?: string }) => {
    onBoard.add(key)
    if (parseTime(record.created_at) > at) return
    const changed = record.updated_at ?? record.created_at
    if (parseTime(changed) > at) return
    if (!copy.has(key)) missing.push(key)
    else {
      const held = copy.get(key)
      if (held !== undefined && record.updated_at !== undefined && parseTime(held) < parseTime(record.updated_at)) stale.push(key)
    }
  }
  if (list === 'marketing') {
    for (const record of store.marketing.values()) visit(marketingKey(record), record)
  } else {
    const collection = store[list] as unknown as Collection<{ id: number; created_at: string; updated_at?: string }>
    for (const record of collection.values()) visit(record.id, record)
  }
  const extra = [...copy.keys()].filter((key) => !onBoard.has(key))
  const order = (a: Key, b: Key) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)))
  const capped = (keys: Key[]) => keys.sort(order).slice(0, MAX_COPY_IDS)
  return {
    answer: { missing: capped(missing), extra: capped(extra), stale: capped(stale) },
    counts: { missing: missing.length, extra: extra.length, stale: stale.length },
  }
}

const few = (keys: readonly Key[], count: number) => `${keys.slice(0, 10).join(', ')}${count > 10 ? `, ... (${count} in all)` : ''}`

/** Judges each list of a copy; the result of each joins the verdict as copy-in-step. Changes nothing on the board. */
export function judgeCopy(board: Board, evaluator: VerdictEvaluator | undefined, body: CopyBody, user?: string): CopyAnswer {
  const lists: Record<string, CopyListAnswer> = {}
  let failed = false
  for (const [name, items] of Object.entries(body) as Array<[ListName, Array<Record<string, unknown>>]>) {
    const walk = evaluator?.lastCompleteWalk(name, user)
    const at = walk?.started ?? board.clock.now()
    const { answer, counts } = judgeList(board, name, items, at)
    const walkStarted = walk === undefined ? null : formatTimestamp(walk.started)
    lists[name] = { ...answer, walkStarted }
    const findings: Finding[] = []
    const against = walk === undefined ? `the board as it stands now (no complete walk of ${name} is in the journal)` : `the board as it stood at ${walkStarted}, when the walk began`
    for (const kind of ['missing', 'extra', 'stale'] as const) {
      if (counts[kind] === 0) continue
      findings.push({ message: `${name}: ${counts[kind]} ${kind} against ${against}: ${few(answer[kind], counts[kind])}.`, requests: walk ? walk.requests.slice(0, 1) : [] })
    }
    failed ||= findings.length > 0
    evaluator?.noteCopy(name, user, findings)
  }
  return { status: 200, outcome: failed ? 'fail' : 'pass', lists }
}
