// The verdict's evaluator: fed each journal entry once, as it is recorded, it keeps per
// credential only what the rules of client-rules.ts need (open windows, the walk of each list,
// the last job/fields read, refused writes, files got) and the findings so far. A verdict
// reads that state: no re-scan of the journal, whatever its length. Bounded: the state
// of windows and files is swept past its caps, and each rule keeps its first findings.
// What it reads of a list URL is list-urls.ts's; the requests findings name are kept in
// shown-requests.ts's ring; what it is fed and what a verdict is, verdict-types.ts.
import { createHash } from 'node:crypto'
import { isMinute } from '../../../schemas/formats.js'
import { formatTimestamp, parseTime } from '../../core/time.js'
import { API_PREFIX } from '../../../schemas/common.js'
import { LIST_BY_PATH, LIST_PATHS, type ListName, type ListRead, listParams, pageNumber } from './list-urls.js'
import { RULE_IDS, type RuleId } from './client-rules.js'
import { ShownRequests, shownUrl } from './shown-requests.js'
import type { DetailedVerdict, Finding, Observed, RuleVerdict, Shown, VerdictContext } from './verdict-types.js'

/** The findings a rule keeps per credential; past it one note counts the rest. */
export const MAX_FINDINGS = 50
/** Windows (full URLs) and files remembered per credential; past it the oldest go first. */
export const MAX_KEYS = 100_000
/** Lists (a vacancy filter makes another) whose walks are followed per credential; past it the oldest go first. */
export const MAX_WALKS = 10_000
/** Entries judged together (evaluator.observe): a batch, or fewer when a verdict is asked. */
export const OBSERVE_BATCH = 128
/** Credentials judged apart; the requests of any further user name are judged together, as `*`. */
export const MAX_USERS = 100

/** A key that stays short whatever the URL: long ones are held as a digest, so the state is bounded in bytes too. */
const short = (text: string) => (text.length <= 256 ? text : `#${createHash('sha256').update(text).digest('base64url')}`)

const DOWNLOAD = new RegExp(
  `^${API_PREFIX}/(candidates/(timesheet|resume|document)|candidates/timesheets/download|applications/attachment)/([^/?#]+)$`,
)
const API_DIR = `${API_PREFIX}/`
const JOB_FIELDS = `${API_PREFIX}/job/fields`
const JOB_ADD = `${API_PREFIX}/job/add`
const JOB_WRITE = new RegExp(`^${API_PREFIX}/job/(add|close|expire|repost|delete)$`)
/** Refusals of the write itself: not the credentials (401, 403), the limit (429) or a timeout (408). */
const REFUSED = new Set([400, 404, 409, 412, 413, 415, 422])

interface Walk {
  list: string
  since: string | undefined
  page: number
  started: number
  complete: boolean
  requests: number[]
}

interface RuleState {
  exercised: boolean
  findings: Finding[]
  dropped: number
}

class UserState {
  /** By rule id: an object of fixed fields rather than a map, as every entry looks up two or three. */
  readonly rules = Object.fromEntries(RULE_IDS.map((id): [RuleId, RuleState] => [id, { exercised: false, findings: [], dropped: 0 }])) as Record<RuleId, RuleState>
  /** URLs answered 429: when, by which request, and when Retry-after lets them be asked again. */
  readonly told = new Map<string, { retryAt: number; at: number; id: number }>()
  /** Windows whose answer a fault spoiled (cut short, dropped), by when they opened: their first repeat is forgiven. */
  readonly spoiled = new Map<string, number>()
  /** Windows the client opened at the very time the journal was emptied. */
  readonly openedAtClear = new Set<string>()
  /** The walk under way (or last made) of each list, by path and filters other than since and page. */
  readonly walks = new Map<string, Walk>()
  /** The start of the last complete walk of each list. */
  readonly complete = new Map<string, Walk>()
  fieldsRead: Readonly<Record<string, string>> | undefined
  readonly refused = new Map<string, { digest: string; id: number }>()
  readonly files = new Map<string, number>()
  lastTime = 0
}

/** List URLs whose reading the evaluator keeps; past it, it starts over (a client asking ever new URLs pays a lookup, not a growing map). */
const MAX_LIST_URLS = 1_000

/**
 * Past its cap a map loses its oldest tenth at once: deleting one entry per insert would
 * leave V8's map to skip ever more deleted slots to find the oldest, a cost that grows
 * with the cap; a tenth at a time keeps it amortized O(1).
 */
function trim<K>(map: { size: number; keys(): IterableIterator<K>; delete(key: K): boolean }, max: number): void {
  if (map.size <= max) return
  const keep = Math.floor(max * 0.9)
  for (const key of map.keys()) {
    if (map.size <= keep) return
    map.delete(key)
  }
}

const minuteFloor = (ms: number) => Math.floor(ms / 60_000) * 60_000

export class VerdictEvaluator {
  readonly #context: VerdictContext
  readonly #users = new Map<string, UserState>()
  /** The requests findings name, kept for the account: bounded with the findings. */
  readonly #shown = new ShownRequests()
  /** Copy checks held per list (the last one each), as findings of copy-in-step. */
  readonly #copies = new Map<string, { user: string | undefined; findings: Finding[]; exercised: boolean }>()
  /** The board's time when the journal was last emptied: windows opened before it are not the client's. */
  #clearedAt: number
  /** What the walk rules read of each list URL seen lately (#readList): by the URL as sent. */
  readonly #lists = new Map<string, ListRead>()
  /** Entries observed and not judged yet (at most OBSERVE_BATCH): judged together, and all of them before the state is read. */
  #pending: Observed[] = []

  constructor(context: VerdictContext) {
    this.#context = context
    this.#clearedAt = Number.NEGATIVE_INFINITY
  }

  clear(): void {
    // entries of the journal being emptied: judged under the board being replaced, or never
    this.#pending = []
    this.#clearedAt = this.#context.now()
    this.#users.clear()
    this.#shown.clear()
    this.#copies.clear()
  }

  #user(name: string): UserState {
    let state = this.#users.get(name)
    if (!state) {
      const key = this.#users.size >= MAX_USERS ? '*' : name
      state = this.#users.get(key) ?? new UserState()
      this.#users.set(key, state)
    }
    return state
  }

  #exercise(user: UserState, rule: RuleId): void {
    user.rules[rule].exercised = true
  }

  /**
   * Whether the rule keeps one more finding: past its first MAX_FINDINGS a finding is only
   * counted. Asked before a finding's message is built, so that a client breaking a rule
   * on every request (no credentials, a malformed since) costs no string per request.
   */
  #room(user: UserState, rule: RuleId): boolean {
    const state = user.rules[rule]
    state.exercised = true
    if (state.findings.length < MAX_FINDINGS) return true
    state.dropped += 1
    return false
  }

  /** A finding, once #room said the rule keeps it. */
  #find(user: UserState, rule: RuleId, message: string, entries: ReadonlyArray<Observed | number>): void {
    const state = user.rules[rule]
    const ids: number[] = []
    for (const entry of entries) {
      if (typeof entry === 'number') ids.push(entry)
      else {
        ids.push(entry.id)
        this.#note(entry)
      }
    }
    state.findings.push({ message, requests: ids })
  }

  /**
   * One journal entry, as it is recorded. It is judged with the next OBSERVE_BATCH - 1, or
   * when the state is read first: the same judgement, but made in a tight loop over a
   * batch rather than between two requests' work, where every map the rules look up has
   * gone cold. What an entry is judged against cannot change in between: the limit
   * window and the clock's speed change only with a new board, which empties the journal.
   */
  observe(entry: Observed): void {
    this.#pending.push(entry)
    if (this.#pending.length >= OBSERVE_BATCH) this.#judgePending()
  }

  #judgePending(): void {
    if (this.#pending.length === 0) return
    const batch = this.#pending
    this.#pending = []
    for (const entry of batch) this.#judge(entry)
  }

  #judge(entry: Observed): void {
    // a list URL read before is not read again: a client asks the same pages and since values over and over
    const read = entry.method === 'GET' ? this.#lists.get(entry.url) : undefined
    let path: string
    if (read !== undefined) path = read.path
    else {
      const mark = entry.url.indexOf('?')
      path = mark < 0 ? entry.url : entry.url.slice(0, mark)
      if (path !== API_PREFIX && !path.startsWith(API_DIR)) return
    }
    const user = this.#user(entry.user)
    user.lastTime = entry.time
    this.#credentials(user, entry)
    const post = entry.method === 'POST'
    if (post) this.#postJson(user, entry)
    this.#window(user, entry)
    if (entry.method === 'GET') {
      // a list, a download and job/fields are three paths: a request is at most one of them
      if (read !== undefined || LIST_BY_PATH.has(path)) {
        this.#walk(user, entry, read ?? this.#readList(entry.url, path))
        return
      }
      const download = DOWNLOAD.exec(path)
      if (download) this.#download(user, entry, download)
      else if (path === JOB_FIELDS && entry.fieldsRead) user.fieldsRead = entry.fieldsRead
    } else if (post && JOB_WRITE.test(path)) this.#jobWrite(user, entry, path)
  }

  #credentials(user: UserState, entry: Observed): void {
    this.#exercise(user, 'credentials')
    if (!entry.credentials && this.#room(user, 'credentials')) this.#find(user, 'credentials', `${entry.method} ${shownUrl(entry.url)} was sent without Basic credentials.`, [entry])
  }

  #postJson(user: UserState, entry: Observed): void {
    this.#exercise(user, 'post-json')
    const type = entry.contentType
    if ((type === undefined || !/^application\/json\s*(;|$)/i.test(type)) && this.#room(user, 'post-json')) {
      this.#find(
        user,
        'post-json',
        `${entry.method} ${shownUrl(entry.url)} was sent with ${type === undefined ? 'no Content-Type' : `Content-Type ${type}`}, not application/json.`,
        [entry],
      )
    }
  }

  /**
   * The limit's rules, from what the limiter knew: a 429 says when its window opened, so
   * the evaluator keeps no window of its own for ordinary traffic; it holds only the URLs
   * answered 429 (until their Retry-after passes) and windows whose answer a fault spoiled.
   */
  #window(user: UserState, entry: Observed): void {
    const windowMs = this.#context.windowSeconds() * 1000
    if (windowMs <= 0) return
    this.#exercise(user, 'one-request-per-window')
    const spoiled = entry.fault !== undefined && entry.opened === true
    // under a clock that has not moved since the journal was emptied, time cannot tell the client's windows from older ones
    const atClear = entry.opened === true && entry.time === this.#clearedAt
    if (user.told.size === 0 && entry.status !== 429 && !spoiled && !atClear) return
    const key = short(`${entry.method} ${entry.url}`)
    const t = entry.time
    if (atClear) {
      user.openedAtClear.add(key)
      trim(user.openedAtClear, MAX_KEYS)
    }
    if (spoiled) {
      user.spoiled.set(key, t)
      trim(user.spoiled, MAX_KEYS)
    }
    const told = user.told.size === 0 ? undefined : user.told.get(key)
    if (told) {
      this.#exercise(user, 'retry-after')
      if (t < told.retryAt) {
        if (this.#room(user, 'retry-after')) {
          // in the seconds of the client's clock, which a sped-up board's Retry-after is given in
          const speed = this.#context.speed?.() ?? 1
          const waited = Math.round((t - told.at) / 1000 / speed)
          const asked = Math.round((told.retryAt - told.at) / 1000 / speed)
          this.#find(user, 'retry-after', `${entry.method} ${shownUrl(entry.url)} was retried ${waited} s after a 429 whose Retry-after asked for ${asked} s.`, [
            told.id,
            entry,
          ])
        }
        return
      }
      user.told.delete(key)
    }
    if (entry.status !== 429) return
    const opened = entry.windowOpened
    // a window opened before the journal's first entry is not this client's doing, nor is one whose answer a fault spoiled
    const own = opened !== undefined && (opened > this.#clearedAt || (opened === this.#clearedAt && user.openedAtClear.has(key)))
    if (own && user.spoiled.get(key) !== opened && this.#room(user, 'one-request-per-window')) {
      const since = Math.round((t - opened) / 1000)
      this.#find(user, 'one-request-per-window', `${entry.method} ${shownUrl(entry.url)} was requested again ${since} s after it was last answered, inside the ${windowMs / 1000} s window.`, [
        entry,
      ])
    }
    user.told.set(key, { retryAt: t + (entry.retryAfter ?? 0) * 1000 * (this.#context.speed?.() ?? 1), at: t, id: entry.id })
    if (user.told.size > MAX_KEYS) {
      for (const [name, held] of user.told) if (held.retryAt <= t) user.told.delete(name)
      trim(user.told, MAX_KEYS)
    }
  }

  /** What the walk rules read of a list URL, kept for the next request of the same URL (bounded: MAX_LIST_URLS, URLs of at most 512 characters). */
  #readList(url: string, path: string): ListRead {
    const params = listParams(url)
    const since = params.since
    // a walk is of one list and filter: parameters the board does not read (a cache-buster) make no other list
    const vacancy = params.vacancy
    const minute = since !== undefined && isMinute(since)
    const read: ListRead = {
      path,
      list: vacancy === undefined ? path : `${path}?vacancy=${short(vacancy)}`,
      since,
      sinceTime: minute ? parseTime(since) : undefined,
      page: params.page === undefined ? 1 : pageNumber(params.page),
    }
    if (url.length <= 512) {
      if (this.#lists.size >= MAX_LIST_URLS) this.#lists.clear()
      this.#lists.set(url, read)
    }
    return read
  }

  #walk(user: UserState, entry: Observed, read: ListRead): void {
    const { list, since, sinceTime } = read
    // whether since has the shape of a minute
    const minute = sinceTime !== undefined
    if (since !== undefined) {
      this.#exercise(user, 'since-no-gap')
      if (!minute && this.#room(user, 'since-no-gap')) {
        this.#find(user, 'since-no-gap', `${entry.method} ${shownUrl(entry.url)} sent since=${JSON.stringify(shownUrl(since))}, which is not YYYY-MM-DD HH:MM.`, [entry])
      }
    }
    if (entry.status !== 200 || entry.fault !== undefined) return
    const page = read.page
    if (!Number.isInteger(page) || page < 1) return
    const current = user.walks.get(list)
    if (page === 1) {
      this.#exercise(user, 'walk-to-last-page')
      if (current && !current.complete && this.#room(user, 'walk-to-last-page')) {
        this.#find(
          user,
          'walk-to-last-page',
          `${current.list}${current.since === undefined ? '' : ` since ${current.since}`} was walked to page ${current.page} and left there: a new walk began at page 1 instead of resuming.`,
          [...current.requests, entry.id],
        )
      }
      const previous = user.complete.get(list)
      if (minute && previous) {
        const from = minuteFloor(previous.started)
        if (sinceTime > from && this.#room(user, 'since-no-gap')) {
          this.#find(
            user,
            'since-no-gap',
            `${list} was walked since ${since}, later than ${formatTimestamp(from).slice(0, 16)}, when the previous complete walk of it began: what changed in between was never read.`,
            [previous.requests[0] as number, entry],
          )
        }
      }
      const walk: Walk = { list, since, page: 1, started: entry.time, complete: entry.nextPage !== true, requests: [entry.id] }
      this.#note(entry)
      user.walks.set(list, walk)
      trim(user.walks, MAX_WALKS)
      if (walk.complete) this.#completed(user, walk)
      return
    }
    // a page of a walk the journal did not see begin is not this client's walk to judge
    if (!current || current.since !== since || current.complete) return
    if (page > current.page + 1 && this.#room(user, 'walk-to-last-page')) {
      this.#find(user, 'walk-to-last-page', `${list} jumped from page ${current.page} to page ${page}: the pages between were never read.`, [entry])
    }
    if (page >= current.page) {
      current.page = page
      if (current.requests.length < MAX_FINDINGS) current.requests.push(entry.id)
      this.#note(entry)
      if (entry.nextPage !== true) {
        current.complete = true
        this.#completed(user, current)
      }
    }
  }

  #completed(user: UserState, walk: Walk): void {
    user.complete.set(walk.list, walk)
    trim(user.complete, MAX_WALKS)
  }

  /** Keeps how a request looked, for findings that name it later (walks end at the verdict). */
  #note(entry: Observed): void {
    this.#shown.note(entry)
  }

  #download(user: UserState, entry: Observed, match: RegExpExecArray): void {
    const kind = match[2] ?? (match[1]?.startsWith('applications') ? 'attachment' : 'timesheet')
    const file = short(`${kind} ${match[3]}`)
    this.#exercise(user, 'download-listed-ids')
    if (entry.status === 404) {
      if (this.#room(user, 'download-listed-ids')) {
        this.#find(user, 'download-listed-ids', `${entry.method} ${shownUrl(entry.url)} asked for a ${kind} no list gave: the board has no ${kind} ${shownUrl(match[3] as string)}.`, [entry])
      }
      return
    }
    if (entry.status !== 200 || entry.fault !== undefined) return
    this.#exercise(user, 'download-once')
    const before = user.files.get(file)
    if (before !== undefined && this.#room(user, 'download-once')) {
      this.#find(user, 'download-once', `The ${kind} ${shownUrl(match[3] as string)} was downloaded again, unchanged (${entry.method} ${shownUrl(entry.url)}).`, [before, entry])
    }
    user.files.set(file, entry.id)
    trim(user.files, MAX_KEYS)
    this.#note(entry)
  }

  #jobWrite(user: UserState, entry: Observed, path: string): void {
    if (path === JOB_ADD) {
      this.#exercise(user, 'current-job-fields')
      for (const [field, current] of Object.entries(entry.staleFields ?? {})) {
        const read = user.fieldsRead?.[field]
        if (read === current || !this.#room(user, 'current-job-fields')) continue
        const why = read === undefined ? 'the client never read job/fields' : 'its values changed since the client last read job/fields'
        this.#find(user, 'current-job-fields', `${entry.method} ${shownUrl(entry.url)} was refused (${entry.status}) on ${field}: ${why}.`, [entry])
      }
    }
    const digest = entry.digest
    if (digest === undefined) return
    const before = user.refused.get(path)
    if (before !== undefined) {
      this.#exercise(user, 'no-unchanged-resend')
      if (before.digest === digest && this.#room(user, 'no-unchanged-resend')) {
        this.#find(user, 'no-unchanged-resend', `${entry.method} ${shownUrl(entry.url)} was sent again unchanged after it was refused.`, [before.id, entry])
      }
    }
    if (REFUSED.has(entry.status)) {
      this.#exercise(user, 'no-unchanged-resend')
      user.refused.set(path, { digest, id: entry.id })
      this.#note(entry)
    } else if (entry.status < 300) user.refused.delete(path)
  }

  /** The start of the most recent complete walk of a whole list (no filter but since), by one credential or any. */
  lastCompleteWalk(list: ListName, user?: string): { started: number; user: string; requests: number[] } | undefined {
    this.#judgePending()
    let found: { started: number; user: string; requests: number[] } | undefined
    for (const [name, state] of this.#users) {
      if (user !== undefined && name !== user) continue
      const walk = state.complete.get(LIST_PATHS[list])
      if (walk && (found === undefined || walk.started > found.started)) found = { started: walk.started, user: name, requests: walk.requests }
    }
    return found
  }

  /** Holds the result of a copy check of one list: it joins the verdict as copy-in-step (exercised: whether anything could be judged). */
  noteCopy(list: ListName, user: string | undefined, findings: Finding[], exercised = true): void {
    this.#copies.set(list, { user, findings, exercised })
  }

  /** The verdict over the journal since the last reset, of one credential or all of them. */
  verdict(user?: string): DetailedVerdict {
    this.#judgePending()
    const states = user === undefined ? [...this.#users.values()] : this.#users.has(user) ? [this.#users.get(user) as UserState] : []
    const rules: RuleVerdict[] = RULE_IDS.map((id) => {
      const findings: Finding[] = []
      let exercised = false
      let dropped = 0
      if (id === 'copy-in-step') {
        for (const copy of this.#copies.values()) {
          if (user !== undefined && copy.user !== undefined && copy.user !== user) continue
          exercised ||= copy.exercised
          findings.push(...copy.findings)
        }
      }
      for (const state of states) {
        const rule = state.rules[id]
        exercised ||= rule.exercised
        findings.push(...rule.findings)
        dropped += rule.dropped
        if (id === 'walk-to-last-page') {
          for (const walk of state.walks.values()) {
            if (walk.complete) continue
            exercised = true
            findings.push({
              message: `${walk.list}${walk.since === undefined ? '' : ` since ${walk.since}`} was walked to page ${walk.page} and no further: the last page (without next_page) was never read.`,
              requests: [...walk.requests],
            })
          }
        }
      }
      if (dropped > 0) findings.push({ message: `${dropped} more findings of this rule were not kept (each rule keeps its first ${MAX_FINDINGS} per credential).`, requests: [] })
      return { id, outcome: findings.length > 0 ? 'fail' : exercised ? 'pass' : 'not-exercised', findings }
    })
    const requests: Record<number, Shown> = {}
    for (const rule of rules) for (const finding of rule.findings) for (const id of finding.requests) {
      const kept = this.#shown.get(id)
      if (kept) requests[id] = kept
    }
    return { status: 200, outcome: rules.some((rule) => rule.outcome === 'fail') ? 'fail' : 'pass', rules, requests }
  }
}
