// The answers a run got, as the profile's recorders read them (docs/profile.md): Evidence
// sorts them once (by path, credentials, the page and filters asked, what did not come
// and why), and a recorder (paging-recorders.ts, answer-recorders.ts, content-recorders.ts)
// turns them into a Reading of its point: its value, how it was seen, the request that
// showed it. Reads only answers already in hand, never asks.
import { sameValue } from '../profile/deployment-profile.js'
import type { ProfilePointName } from '../../schemas/profile.js'
import type { SkipKind } from './checks.js'
import type { RunContext } from './context.js'
import { isServiceError, retryAfterSeconds, SHORT_RETRY_AFTER_SECONDS, type Answer, type Seen } from './request-outcomes.js'
import type { Credentials } from './request-credentials.js'
import type { ListDef } from './lists.js'
import { isRec, pageOf, rec } from './records.js'

export type SeenHow = 'directly' | 'inferred' | 'not-seen'

/** What a run says of one point: its value (none when not seen), how it knows, the request that showed it. */
export interface Reading {
  value?: unknown
  seen: SeenHow
  /** `GET /api/v1/...`: the request that showed it. */
  request?: string
  /** The clock's time of that answer (ms). */
  at?: number
  note?: string
  /**
   * A point not seen because an answer the plan asked for did not come: `limited` by the
   * deployment's own 429 (a pinned point then fails), left out by the ledger or cut short
   * (`unavailable`: incomplete), or the service erred (`error`).
   */
  missed?: Extract<SkipKind, 'unavailable' | 'error'> | 'limited'
  /** What was seen when it is none of the point's values ("mixed"): against a pinned value, a contradiction. */
  other?: string
  /**
   * The values this reading cannot tell apart, where the answer that shows the point is read
   * through time: a window through a Retry-after, which the seconds since the window opened
   * shorten. A recorded value among them says the same (agrees).
   */
  range?: { min: number; max: number }
}

/** Whether a recorded value says what a reading says: the same value (sameValue), or one of those the reading cannot tell apart. */
export const agrees = (point: ProfilePointName, value: unknown, reading: Reading): boolean =>
  reading.range && typeof value === 'number' ? value >= reading.range.min && value <= reading.range.max : sameValue(point, value, reading.value)

export type Readings = Record<ProfilePointName, Reading>

/** The answers the run got, with what identifies them. */
export interface Got {
  answer: Answer
  at: number
  credentials: Credentials
  path: string
  query: URLSearchParams
  body: unknown
}

export const requestOf = (got: { answer: Answer }) => {
  const url = new URL(got.answer.url)
  return `${got.answer.method} ${url.pathname}${url.search}`
}

export const directly = (got: Got, value: unknown, note?: string): Reading => ({ value, seen: 'directly', request: requestOf(got), at: got.at, ...(note ? { note } : {}) })
export const notSeen = (note: string, missed?: Reading['missed']): Reading => ({ seen: 'not-seen', note, ...(missed ? { missed } : {}) })
/** Seen, but as none of the point's values: recorded as not seen, failed against any pinned value. */
export const seenOther = (other: string, note: string): Reading => ({ seen: 'not-seen', note, other })

/** A 429 with a short Retry-after: a burst limiter's, which the kit paces for (SHORT_RETRY_AFTER_SECONDS). */
export const isBurst = (answer: Answer | undefined) => {
  const seconds = answer ? retryAfterSeconds(answer.headers['retry-after']) : undefined
  return seconds !== undefined && seconds <= SHORT_RETRY_AFTER_SECONDS
}

/** The content type without parameters, in lower case: `application/pdf`. */
export const essence = (answer: Answer) => answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase()

/** How an error answer's body came: the {status, message} JSON, other text, or nothing. */
export const bodyType = (answer: Answer) => (answer.bytes.length === 0 ? 'empty' : isRec(answer.json) ? 'json' : 'text')

/** The status an answer means: the body's, when a JSON body gives one (errorHttpStatus ok sends errors with HTTP 200). */
export const meant = (answer: Answer) => {
  const status = rec(answer.json).status
  return typeof status === 'number' ? status : answer.status
}

/**
 * What the recorders read of a run beyond its answers: the API's base, its groups and
 * writes, the page past the last it asked, the job id field and pace it found. A
 * RunContext is one; `readOneAnswer` makes one of a single answer with no run behind it.
 */
export interface EvidenceContext {
  readonly settings: Pick<RunContext['settings'], 'groups' | 'writes'>
  readonly client: { api(path: string): string; readonly pace: RunContext['client']['pace'] }
  readonly plan: Pick<RunContext['plan'], 'peekOutOfRange'>
  readonly idField: RunContext['idField']
  /** What the request cases the spec's words leave open were answered (none for one answer alone). */
  readonly openValues?: RunContext['openValues']
  /** The id asked for as one no record has (the plan's UNKNOWN_ID unless readOneAnswer names the one its answer said 404 to). */
  readonly unknownId?: string
  /** The since sent as one that is no time (the plan's MALFORMED_SINCE unless readOneAnswer names its answer's). */
  readonly malformedSince?: string
}

/** What the run got, sorted for the recorders; reads only answers already in hand, never asks. */
export class Evidence {
  readonly ctx: EvidenceContext
  readonly #all: Got[]
  readonly #missing: Array<{ path: string; cause: Reading['missed'] }>
  readonly #prefix: string

  constructor(ctx: EvidenceContext, seen: readonly Seen[]) {
    this.ctx = ctx
    this.#prefix = new URL(ctx.client.api('')).pathname
    const api = (url: string) => {
      const parsed = new URL(url)
      return { path: parsed.pathname.startsWith(this.#prefix) ? parsed.pathname.slice(this.#prefix.length) : parsed.pathname, query: parsed.searchParams }
    }
    // a 429 the client gave up on is an answer too: its body and Retry-after are choices of the deployment
    this.#all = [...seen].sort((a, b) => a.order - b.order).flatMap((s) => {
      const answer = s.outcome.kind === 'answer' ? s.outcome : s.outcome.limited
      return answer ? [{ answer, at: s.at, credentials: s.credentials, body: s.body, ...api(answer.url) }] : []
    })
    // a burst limiter's 429 (a short Retry-after) is pace, not the deployment hiding a point: the run is incomplete
    const cause = (outcome: Extract<Seen['outcome'], { kind: 'unavailable' }>): Reading['missed'] =>
      isServiceError(outcome.cause) ? 'error' : outcome.cause === 'rate-limited' && !isBurst(outcome.limited) ? 'limited' : 'unavailable'
    this.#missing = seen.flatMap((s) => (s.outcome.kind === 'unavailable' && s.outcome.cause !== 'aborted' ? [{ path: api(s.outcome.url).path, cause: cause(s.outcome) }] : []))
  }

  /**
   * Answers with the given credentials on a path (a string is exact; a pattern tests the
   * path), 429s aside: a limiter's answer shows nothing of the path's own.
   */
  on(path: string | RegExp, filter: (got: Got) => boolean = () => true, credentials: Credentials = 'given'): Got[] {
    return this.#all.filter((g) => g.credentials === credentials && g.answer.status !== 429 && (typeof path === 'string' ? g.path === path : path.test(g.path)) && filter(g))
  }

  /** Whether the request was made earlier in the run: a 429 to it is the window's, not a burst limiter's. */
  repeated(got: Got): boolean {
    return this.#all.some((g) => g !== got && g.credentials === got.credentials && requestOf(g) === requestOf(got) && this.#all.indexOf(g) < this.#all.indexOf(got))
  }

  refusals(): Got[] {
    return this.#all.filter((g) => g.credentials !== 'given')
  }

  all(): Got[] {
    return this.#all.filter((g) => g.credentials === 'given')
  }

  /** Why nothing was seen on a path: a planned request that got no answer, if one did not. */
  missed(path: string | RegExp): Reading['missed'] {
    return this.#missing.find((m) => (typeof path === 'string' ? m.path === path : path.test(m.path)))?.cause
  }

  /** The list's pages fetched without filters: the first and those its next_page led to. */
  plainPages(list: ListDef): Got[] {
    return this.on(list.path, (g) => !g.query.has('since') && !g.query.has('vacancy') && Number(g.query.get('page') ?? 1) <= 2 && pageOf(g.answer) !== undefined)
  }

  first(list: ListDef): Got | undefined {
    return this.on(list.path, (g) => [...g.query.keys()].length === 0)[0]
  }

  selected(list: ListDef): boolean {
    return this.ctx.settings.groups.includes(list.group)
  }
}

export const where = (got: Got) => requestOf(got).replace(/^GET /, '')
