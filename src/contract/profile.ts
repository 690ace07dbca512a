// The deployment profile on the kit's side (docs/profile.md). After a run, every profile
// point is read from the answers the run already got (RECORDERS, keyed by the schema's
// points: a point added to schemas/profile.ts without a recorder does not compile).
// `--write-profile FILE` merges those readings into the file (a later run fills what an
// earlier one could not see; a value that moved is updated and reported); `--profile
// FILE` turns every recorded point into a check that fails when the deployment now
// answers otherwise. A point the kit cannot see without requests the rate-limit plan
// does not allow is listed in NOT_OBSERVABLE, the one place that says so, with why.
import { isDeepStrictEqual } from 'node:util'
import type { Minimal } from '@tapjs/core'
import { behaviourProperties, ENVELOPE_KEYS, EXTRA_FIELD_RECORDS, type EnvelopeKind } from '../../schemas/behaviour.js'
import { heldToKind, PROFILE_KIND, PROFILE_POINTS, profilePointValues, type ProfilePointName } from '../../schemas/profile.js'
import { isMinute } from '../../schemas/formats.js'
import { METRIC_LABELS, MONTH_NAMES, MONTH_SHORT_NAMES } from '../../schemas/values.js'
import { keptExtraFields, parseProfile, sameValue, structure, type LoadedProfile } from '../profile/profile.js'
import { createFaker, hash32 } from '../core/random.js'
import { drawFrom, sameShape } from '../core/shape.js'
import { formatTimestamp } from '../core/time.js'
import type { ProfileFile } from '../core/types.js'
import { check, endpoint, Skip, type SkipKind } from './checks.js'
import type { RunContext } from './context.js'
import { findFieldLists } from './field-lists.js'
import { firstDisorder, sinceVerdict } from './groups/lists.js'
import { isServiceError, retryAfterSeconds, SHORT_RETRY_AFTER_SECONDS, type Answer, type Credentials, type Seen } from './http.js'
import { APPLICATIONS, CANDIDATES, LISTS, MARKETING, TIMESHEETS, type ListDef } from './lists.js'
import { ID_PATHS, MALFORMED_SINCE, UNKNOWN_ID } from './plan.js'
import { int, isRec, pageOf, rec, recs, str } from './records.js'

type SeenHow = 'directly' | 'inferred' | 'not-seen'

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
const agrees = (point: ProfilePointName, value: unknown, reading: Reading): boolean =>
  reading.range && typeof value === 'number' ? value >= reading.range.min && value <= reading.range.max : sameValue(point, value, reading.value)

export type Readings = Record<ProfilePointName, Reading>

/**
 * The points the kit does not see from outside without requests its rate-limit plan does
 * not make, and why. They are recorded `not-seen` with this reason, and the table test
 * (test/profile/kit-records-points.test.ts) accepts exactly these.
 */
export const NOT_OBSERVABLE: Readonly<Partial<Record<ProfilePointName, string>>> = {
  // telling 'all' from 'success' means repeating a refused request within its window: a 429 the plan never risks
  rateLimitCounts: 'seeing which answers use up a window needs a refused request made twice within it, which the kit never asks',
  // job/add is one full request whatever its body: an add with an unknown field would take another write check's window
  unknownJobFields: 'seeing it needs a job/add with a field the spec does not list, a full request the write checks need for themselves',
}

/** The answers the run got, with what identifies them. */
interface Got {
  answer: Answer
  at: number
  credentials: Credentials
  path: string
  query: URLSearchParams
  body: unknown
}

const requestOf = (got: { answer: Answer }) => {
  const url = new URL(got.answer.url)
  return `${got.answer.method} ${url.pathname}${url.search}`
}

const directly = (got: Got, value: unknown, note?: string): Reading => ({ value, seen: 'directly', request: requestOf(got), at: got.at, ...(note ? { note } : {}) })
const notSeen = (note: string, missed?: Reading['missed']): Reading => ({ seen: 'not-seen', note, ...(missed ? { missed } : {}) })
/** Seen, but as none of the point's values: recorded as not seen, failed against any pinned value. */
const seenOther = (other: string, note: string): Reading => ({ seen: 'not-seen', note, other })

/** A 429 with a short Retry-after: a burst limiter's, which the kit paces for (SHORT_RETRY_AFTER_SECONDS). */
const isBurst = (answer: Answer | undefined) => {
  const seconds = answer ? retryAfterSeconds(answer.headers['retry-after']) : undefined
  return seconds !== undefined && seconds <= SHORT_RETRY_AFTER_SECONDS
}

/** The content type without parameters, in lower case: `application/pdf`. */
const essence = (answer: Answer) => answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase()

/** How an error answer's body came: the {status, message} JSON, other text, or nothing. */
const bodyType = (answer: Answer) => (answer.bytes.length === 0 ? 'empty' : isRec(answer.json) ? 'json' : 'text')

/** The status an answer means: the body's, when a JSON body gives one (errorHttpStatus ok sends errors with HTTP 200). */
const meant = (answer: Answer) => {
  const status = rec(answer.json).status
  return typeof status === 'number' ? status : answer.status
}

/**
 * What the recorders read of a run beyond its answers: the API's base, its groups and
 * writes, the page past the last it asked, the job id field and pace it found. A
 * RunContext is one; `readOneAnswer` makes one of a single answer with no run behind it.
 */
interface EvidenceContext {
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
class Evidence {
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

const PAGED_LISTS = [TIMESHEETS, APPLICATIONS, MARKETING] as const

/** Records a full page holds: a first page with a next_page, of the lists the spec shows paged. */
function pageSize(e: Evidence): Reading {
  const full = PAGED_LISTS.flatMap((list) => {
    const got = e.first(list)
    const page = got ? pageOf(got.answer) : undefined
    return got && page && typeof page.nextPage === 'string' && page.data.length > 0 ? [{ got, size: page.data.length }] : []
  })
  const chosen = full[0]
  if (!chosen) return notSeen('no list fetched had a second page: a page holds at least every record of the lists read', e.missed(/\/list$/))
  const other = full.find((f) => f.size !== chosen.size)
  return directly(chosen.got, chosen.size, other ? `${where(other.got)} holds ${other.size}` : undefined)
}

const where = (got: Got) => requestOf(got).replace(/^GET /, '')

/** Whether candidates/list is paged: a next_page on its first page, or one page holding more than a page of the others. */
function pageCandidates(e: Evidence): Reading {
  const got = e.first(CANDIDATES)
  const page = got ? pageOf(got.answer) : undefined
  if (!got || !page) return notSeen(e.selected(CANDIDATES) ? 'the first page of candidates/list was not answered as a list' : 'the candidates group did not run', e.missed(CANDIDATES.path))
  if (typeof page.nextPage === 'string') return directly(got, true)
  const size = pageSize(e).value
  if (typeof size === 'number' && page.data.length > size) return directly(got, false, `one page holds all ${page.data.length} candidates; other lists hold ${size} a page`)
  return notSeen(`one page holds every candidate (${page.data.length}), no more than a page of the other lists holds: paged or not, it looks the same`)
}

/** What next_page holds on a last page that has records (an out-of-range page aside). */
function lastPageNextPage(e: Evidence): Reading {
  const lists = [...PAGED_LISTS, ...(pageCandidates(e).value === true ? [CANDIDATES] : [])]
  for (const list of lists) {
    for (const got of e.on(list.path, (g) => g.query.get('since') !== MALFORMED_SINCE)) {
      const page = pageOf(got.answer)
      if (!page || page.data.length === 0 || typeof page.nextPage === 'string') continue
      if (!page.hasNextPage) return directly(got, 'omit')
      if (page.body.next_page === '') return directly(got, 'empty')
      if (page.nextPage === false || page.nextPage === null) return directly(got, String(page.nextPage))
      return seenOther(JSON.stringify(page.nextPage), `the last page's next_page holds ${JSON.stringify(page.nextPage)}: neither false, null nor left out`)
    }
  }
  return notSeen('no list page fetched was a last page (each had a next page)', e.missed(/\/list$/))
}

/**
 * Why a page asked as past the last answered records, when records that arrived explain
 * it: its own total grew past the page since the first page's total put it past the last
 * (a live board). Such a page is a page of the list, which shows nothing of what the
 * deployment answers past the last: the point is not seen, never contradicted.
 */
function filledByArrivals(e: Evidence, asked: { list: ListDef; page: number }, answer: NonNullable<ReturnType<typeof pageOf>>): string | undefined {
  const first = e.first(asked.list)
  const firstPage = first ? pageOf(first.answer) : undefined
  const [before, now, size] = [int(firstPage?.total), int(answer.total), firstPage?.data.length ?? 0]
  if (before === undefined || now === undefined || size === 0 || now <= before || (asked.page - 1) * size >= now) return undefined
  return `records arrived while the run read ${asked.list.endpoint}: its total grew from ${before} to ${now}, so page ${asked.page} (${answer.data.length} records) is no longer past the last`
}

function outOfRangePage(e: Evidence): Reading {
  const asked = e.ctx.plan.peekOutOfRange()
  if (!asked) return notSeen('no page past the last was asked (no list group ran)')
  const page = String(asked.page)
  const got = e.on(asked.list.path, (g) => g.query.get('page') === page && !g.query.has('since'))[0]
  if (!got) return notSeen(`the page past the last of ${asked.list.endpoint} was not asked`, e.missed(asked.list.path))
  const answer = got.answer
  const list = pageOf(answer)
  if (list && list.data.length === 0) return directly(got, 'empty')
  const arrived = list ? filledByArrivals(e, asked, list) : undefined
  if (arrived) return notSeen(arrived)
  if (list) return seenOther(`${list.data.length} records`, `page ${page} answered ${list.data.length} records, though total and page size put it past the last`)
  if (answer.status === 404 || meant(answer) === 404 || (answer.status === 200 && answer.json === undefined)) return directly(got, 'not-found', `HTTP ${answer.status} ${essence(answer) ?? ''}`.trim())
  return seenOther(`HTTP ${answer.status}`, `a page past the last answered HTTP ${answer.status}`)
}

function sinceField(e: Evidence): Reading {
  const found: Array<{ list: ListDef; got: Got; fields: string[] }> = []
  for (const list of [CANDIDATES, APPLICATIONS]) {
    const got = e.on(list.path, (g) => g.query.has('since') && g.query.get('since') !== MALFORMED_SINCE && !g.query.has('page'))[0]
    const answer = got ? pageOf(got.answer) : undefined
    if (!got || !answer) continue
    const without = e.plainPages(list).flatMap((g) => pageOf(g.answer)?.data ?? [])
    const verdicts = sinceVerdict(list, got.query.get('since') as string, answer, without)
    found.push({ list, got, fields: verdicts.filter((v) => v.before.length === 0 && v.missing.length === 0).map((v) => v.field) })
  }
  const telling = found.filter((f) => f.fields.length === 1)
  const values = [...new Set(telling.map((f) => f.fields[0]))]
  const [first] = telling
  if (values.length === 1 && first) return { ...directly(first.got, values[0], `the answer with since is explained by ${values[0]} alone`), seen: 'inferred' }
  if (values.length > 1) return seenOther('mixed', `since compares ${telling.map((f) => `${f.fields[0]} on ${f.list.endpoint}`).join(' and ')}`)
  return notSeen(found.length === 0 ? 'no answer with since of candidates/list or applications/list was fetched' : 'the answers with since cannot tell updated_at from created_at', e.missed(/^\/(candidates|applications)\/list$/))
}

/** A download's Content-Type, from the answers of its paths (the unknown id's aside). */
const downloadType = (pattern: RegExp, what: string) => (e: Evidence): Reading => {
  const got = e.on(pattern, (g) => g.answer.status === 200 && !g.path.endsWith(`/${UNKNOWN_ID}`))[0]
  const type = got ? essence(got.answer) : undefined
  if (!got) return notSeen(`no ${what} was downloaded`, e.missed(pattern))
  if (type === undefined || !/^[a-z]+\/[a-z0-9.+-]+$/.test(type)) return notSeen(`the ${what} came with Content-Type ${JSON.stringify(got.answer.headers['content-type'])}`)
  return directly(got, type)
}

/** A JSON error whose body says 404, with the HTTP status it came with (a 412's is preconditionHttpStatus). */
function errorHttpStatus(e: Evidence): Reading {
  const got = e.all().find((g) => isRec(g.answer.json) && meant(g.answer) === 404)
  if (!got) return notSeen('no answer was a 404 JSON error')
  if (got.answer.status === 404) return directly(got, 'mirror')
  if (got.answer.status === 200) return directly(got, 'ok')
  return seenOther(`HTTP ${got.answer.status}`, `a JSON error saying 404 came with HTTP ${got.answer.status}`)
}

/** The HTTP status line of every JSON error whose body says 412 (a malformed since, the invalid add): one status, or mixed. */
function preconditionHttpStatus(e: Evidence): Reading {
  const found = e.all().filter((g) => isRec(g.answer.json) && meant(g.answer) === 412)
  const [first] = found
  if (!first) return notSeen('no answer was a JSON error saying 412 (a malformed since refused, or --writes for the invalid add)')
  const statuses = [...new Set(found.map((g) => g.answer.status))]
  if (statuses.length > 1) return seenOther('mixed', `JSON errors saying 412 came with HTTP ${statuses.join(' and ')}`)
  if (!(behaviourProperties.preconditionHttpStatus.enum as readonly number[]).includes(first.answer.status)) {
    return seenOther(`HTTP ${first.answer.status}`, `a JSON error saying 412 came with HTTP ${first.answer.status}`)
  }
  return directly(first, first.answer.status)
}

const unknownIds = (e: Evidence) => {
  const id = e.ctx.unknownId ?? String(UNKNOWN_ID)
  const paths = Object.values(ID_PATHS).flat().map((path) => `${path}/${id}`)
  // in the plan's order, not the order the answers came in: the same run records the same request
  return e.on(new RegExp(`/${id}$`), (g) => paths.includes(g.path)).sort((a, b) => paths.indexOf(a.path) - paths.indexOf(b.path))
}

function notFoundBody(e: Evidence): Reading {
  const got = unknownIds(e)[0]
  if (!got) return notSeen('no unknown id was asked', e.missed(new RegExp(`/${UNKNOWN_ID}$`)))
  if (got.answer.status !== 404 && meant(got.answer) !== 404 && got.answer.json !== undefined) return notSeen(`an unknown id answered HTTP ${got.answer.status} ${JSON.stringify(got.answer.json).slice(0, 80)}`)
  return directly(got, bodyType(got.answer), `HTTP ${got.answer.status} ${essence(got.answer) ?? 'without a content type'}`)
}

function malformedSince(e: Evidence): Reading {
  const sent = e.ctx.malformedSince ?? MALFORMED_SINCE
  const got = e.on(/\/list$/, (g) => g.query.get('since') === sent)[0]
  if (!got) return notSeen('no malformed since was sent', e.missed(/\/list$/))
  if (pageOf(got.answer)) return directly(got, 'ignore')
  if (meant(got.answer) === 412) return directly(got, 'refuse')
  return seenOther(`HTTP ${got.answer.status}`, `a malformed since answered HTTP ${got.answer.status}`)
}

function rateLimitBody(e: Evidence): Reading {
  const got = e.all().find((g) => g.answer.status === 429)
  return got ? directly(got, bodyType(got.answer)) : notSeen('no request answered 429 (the rate-limit group asks for one: --only with rate-limit)')
}

/** The auth group's refusals (a request without credentials, one with wrong ones). */
const refusal = (read: (got: Got) => Reading) => (e: Evidence): Reading => {
  const got = e.refusals().find((g) => g.answer.status === 401 || g.answer.status === 403)
  if (got) return read(got)
  return notSeen(e.ctx.settings.groups.includes('auth') ? 'no request was refused with 401 or 403' : 'the auth group did not run', e.missed(/^\/marketing\/list$/))
}

function monthNames(e: Evidence): Reading {
  const months: Array<{ got: Got; month: string }> = []
  for (const got of e.on('/metrics/list')) for (const m of recs(rec(got.answer.json).metrics)) for (const agg of recs(m.aggregations)) if (typeof agg.month === 'string') months.push({ got, month: agg.month })
  for (const got of e.on(/^\/candidates\/(list|details\/[0-9]+)$/)) for (const c of recs(rec(got.answer.json).data)) if (typeof c.available_from_month === 'string') months.push({ got, month: c.available_from_month })
  // May is both
  const styled = months.filter((m) => m.month !== 'May')
  const long = styled.filter((m) => (MONTH_NAMES as readonly string[]).includes(m.month))
  const short = styled.filter((m) => (MONTH_SHORT_NAMES as readonly string[]).includes(m.month))
  if (styled.length === 0) return notSeen('no month name other than May was fetched', e.missed('/metrics/list'))
  if (long.length === styled.length) return directly((long[0] as { got: Got }).got, 'long')
  if (short.length === styled.length) return directly((short[0] as { got: Got }).got, 'short')
  const odd = styled.find((m) => !long.includes(m) && !short.includes(m))
  if (odd) return seenOther(JSON.stringify(odd.month), `a month is written ${JSON.stringify(odd.month)}`)
  const places = [...new Set([long[0], short[0]].map((m) => where((m as { got: Got }).got)))]
  return seenOther('mixed', `months are written both long and short (${places.join(', ')})`)
}

function jobFieldsShape(e: Evidence): Reading {
  const got = e.on('/job/fields')[0]
  if (!got) return notSeen('job/fields was not answered', e.missed('/job/fields'))
  const found = got.answer.status === 200 ? findFieldLists(got.answer.json) : undefined
  if (found?.path === 'data') return directly(got, 'data')
  if (found?.path === '(top level)') return directly(got, 'top-level')
  return found ? seenOther(found.path, `the lists are at ${found.path}`) : seenOther('not understood', "job/fields' shape is not understood")
}

/** The order of the first pages of candidates, timesheets and marketing: all newest first, or all oldest first. */
function listOrder(e: Evidence): Reading {
  const orders: Array<{ list: ListDef; got: Got; order: string }> = []
  for (const list of [CANDIDATES, TIMESHEETS, MARKETING]) {
    const got = e.first(list)
    const keys = (got ? (pageOf(got.answer)?.data ?? []) : []).map(list.orderKey)
    if (!got || keys.length < 2 || new Set(keys).size < 2) continue
    const order = firstDisorder(keys) === undefined ? 'newest-first' : firstDisorder([...keys].reverse()) === undefined ? 'oldest-first' : 'neither'
    orders.push({ list, got, order })
  }
  const [first] = orders
  if (!first) return notSeen('no first page of candidates, timesheets or marketing with two records or more was fetched', e.missed(/\/list$/))
  const other = orders.find((o) => o.order !== first.order)
  if (first.order === 'neither' || other) return seenOther(other ? 'mixed' : 'neither', orders.map((o) => `${o.list.endpoint} ${o.order}`).join(', '))
  return directly(first.got, first.order)
}

function closeExpireIdField(e: Evidence): Reading {
  const known = e.ctx.idField
  if (known) return { value: known.value, seen: 'directly', request: known.request, at: known.at }
  return notSeen(e.ctx.settings.writes ? 'no close or expire was answered (see the jobs group)' : 'the run made no writes (--writes)')
}

/** What the write turns' request cases whose value the spec's words leave open were answered: accepted or refused, by case. */
function openJobValues(e: Evidence): Reading {
  const answered = [...(e.ctx.openValues ?? new Map()).entries()].sort(([a], [b]) => a.localeCompare(b))
  const [first] = answered
  if (first === undefined) return notSeen(e.ctx.settings.writes ? "no request case whose value the spec's words leave open was made this run (the write turns take turns)" : 'the run made no writes (--writes)')
  const value = Object.fromEntries(answered.map(([id, { value: said }]) => [id, said]))
  return { value, seen: 'directly', request: first[1].request, at: first[1].at, note: answered.map(([id, { value: said }]) => `${id}: ${said}`).join('; ') }
}

/** JSON type names as a profile gives them. */
const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value === 'number' ? 'number' : (typeof value as 'string' | 'boolean' | 'object')

/** An example no longer than the profile schema allows, in the value's shape (never the value itself). */
function exampleOf(value: unknown, seed: number): unknown {
  const bounded =
    typeof value === 'string' ? value.slice(0, 1000) : Array.isArray(value) ? value.slice(0, 20) : isRec(value) ? Object.fromEntries(Object.entries(value).slice(0, 20)) : value
  return sameShape(bounded, drawFrom(createFaker(seed)))
}

const EXTRA_SOURCES: Record<keyof typeof EXTRA_FIELD_RECORDS, RegExp> = {
  candidate: /^\/candidates\/(list|details\/[0-9]+)$/,
  application: /^\/applications\/(list|details\/[0-9]+)$/,
  timesheet: /^\/timesheets\/list$/,
  marketing: /^\/marketing\/list$/,
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

/** Top-level fields of records beyond the spec's, per kind, with their type and an example of the same shape. */
function extraFields(e: Evidence): Reading {
  const value: Record<string, Record<string, { type: string; example: unknown }>> = {}
  const seenKinds: string[] = []
  const skipped: string[] = []
  let first: Got | undefined
  for (const [kind, source] of Object.entries(EXTRA_SOURCES) as Array<[keyof typeof EXTRA_FIELD_RECORDS, RegExp]>) {
    const known = EXTRA_FIELD_RECORDS[kind].properties as object
    const answers = e.on(source, (g) => recs(rec(g.answer.json).data).length > 0)
    if (answers.length === 0) continue
    seenKinds.push(kind)
    const values = new Map<string, { got: Got; values: unknown[] }>()
    for (const got of answers) {
      for (const record of recs(rec(got.answer.json).data)) {
        for (const [name, v] of Object.entries(record)) {
          if (Object.hasOwn(known, name)) continue
          const entry = values.get(name) ?? { got, values: [] }
          entry.values.push(v)
          values.set(name, entry)
        }
      }
    }
    const fields: Record<string, { type: string; example: unknown }> = {}
    for (const [name, entry] of values) {
      if (!NAME.test(name) || Object.keys(fields).length >= 32) {
        skipped.push(`${kind}.${name}`)
        continue
      }
      const types = new Set(entry.values.filter((v) => v !== null).map(jsonType))
      const type = types.size === 0 ? 'null' : types.has('number') && types.has('integer') && types.size === 2 ? 'number' : [...types][0] as string
      const sample = entry.values.find((v) => jsonType(v) === type || (type === 'number' && typeof v === 'number')) ?? null
      fields[name] = { type, example: exampleOf(sample, hash32('profile', kind, name)) }
      first ??= entry.got
    }
    if (Object.keys(fields).length > 0) value[kind] = fields
  }
  if (seenKinds.length === 0) return notSeen('no record was fetched', e.missed(/\/list$/))
  const left = Object.keys(EXTRA_SOURCES).filter((k) => !seenKinds.includes(k))
  const note = [left.length > 0 ? `no ${left.join(', ')} record was fetched` : '', skipped.length > 0 ? `not recorded: ${skipped.join(', ')}` : ''].filter((n) => n !== '').join('; ')
  const got = first ?? (e.on(EXTRA_SOURCES[seenKinds[0] as keyof typeof EXTRA_SOURCES])[0] as Got)
  return directly(got, value, note || undefined)
}

/** The window, from the Retry-after of a 429 (at its longest), or 0 when full requests made twice were all answered. */
function rateLimitWindow(e: Evidence): Reading {
  // a short Retry-after to a request made once is a burst limiter's (burstLimit), not the window's
  const limited = e.all().filter((g) => g.answer.status === 429 && /^[0-9]+$/.test(g.answer.headers['retry-after']?.trim() ?? '') && (!isBurst(g.answer) || e.repeated(g)))
  const longest = limited.sort((a, b) => Number(b.answer.headers['retry-after']) - Number(a.answer.headers['retry-after']))[0]
  if (longest) {
    const seconds = Number(longest.answer.headers['retry-after']?.trim())
    // a Retry-after is the window less the seconds since it opened, to the second either way: opened by the run's
    // first answer to that request, or (refused at its first ask) by an earlier run, when it may be any longer window
    const opened = e.all().find((g) => g.answer.status !== 429 && g.at <= longest.at && requestOf(g) === requestOf(longest))
    const max = opened ? seconds + Math.ceil((longest.at - opened.at) / 1000) + 1 : profilePointValues.rateLimitWindow.maximum
    const note = opened ? 'the longest Retry-after of a 429: the window, when the request was repeated at once' : 'the longest Retry-after of a 429 to a request refused at its first ask: the window an earlier run opened, or a longer one'
    return { ...directly(longest, seconds, note), seen: 'inferred', range: { min: seconds, max } }
  }
  const counts = new Map<string, number>()
  for (const got of e.all()) counts.set(requestOf(got), (counts.get(requestOf(got)) ?? 0) + 1)
  const repeated = [...counts].filter(([, n]) => n > 1).map(([request]) => request)
  const again = e.all().find((g) => repeated.includes(requestOf(g)))
  if (again && repeated.length > 0) return { ...directly(again, 0, `${repeated.length} full requests were made twice and none answered 429`), seen: 'inferred' }
  return notSeen('no request answered 429 and none was made twice (the rate-limit group makes one twice)')
}

/** The id at the end of an applications/details/{id} link, if it ends in one. */
const linkedId = (href: unknown) => {
  const found = typeof href === 'string' ? /\/([0-9]+)\/?$/.exec(href) : null
  return found ? Number(found[1]) : undefined
}

/**
 * The share of listed applications whose applicant matches no listed candidate (no
 * candidate lists it among its applications, none has its e-mail): guests. Told only when
 * every candidate was listed (as many as candidates/list's total): otherwise the applicant
 * may be a candidate on a page the run did not read.
 */
function guestApplicants(e: Evidence): Reading {
  const plain = (g: Got) => !g.query.has('since') && !g.query.has('vacancy') && pageOf(g.answer) !== undefined
  const appPages = e.on(APPLICATIONS.path, plain)
  const applications = new Map<unknown, Record<string, unknown>>()
  for (const got of appPages) for (const a of pageOf(got.answer)?.data ?? []) applications.set(a.id, a)
  const [first] = appPages
  if (!first || applications.size === 0) return notSeen(e.selected(APPLICATIONS) ? 'no application was listed' : 'the applications group did not run', e.missed(APPLICATIONS.path))
  const candidatePages = e.on(CANDIDATES.path, plain)
  const candidates = new Map<unknown, Record<string, unknown>>()
  for (const got of candidatePages) for (const c of pageOf(got.answer)?.data ?? []) candidates.set(c.id, c)
  const total = candidatePages.map((g) => int(pageOf(g.answer)?.total)).find((n) => n !== undefined)
  if (total === undefined || candidates.size < total) {
    const read = total === undefined ? 'no candidates/list page was read' : `${candidates.size} of the ${total} candidates were listed`
    return notSeen(`${read}: an applicant no listed candidate matches may be one on a page not read`, e.missed(CANDIDATES.path))
  }
  const theirs = new Set<number | undefined>()
  const emails = new Set<string>()
  for (const c of candidates.values()) {
    for (const entry of recs(c.applications)) theirs.add(linkedId(entry.href))
    for (const email of [c.email, c.signup_email]) if (typeof email === 'string') emails.add(email.toLowerCase())
  }
  const guests = [...applications.values()].filter((a) => {
    const email = str(rec(a.applicant).email)
    return !theirs.has(int(a.id)) && (email === undefined || !emails.has(email.toLowerCase()))
  })
  const share = Math.round((guests.length / applications.size) * 100) / 100
  return {
    ...directly(first, share, `${guests.length} of the ${applications.size} applications listed match none of the ${candidates.size} candidates (all of them)`),
    seen: 'inferred',
  }
}

/**
 * The word a marketing record says for an approval (the spec shows only `Revoked`): the
 * action, other than Revoked, the listed marketing records give most; else the consent
 * values the listed candidates give. A board has one such word; more than one is mixed.
 */
function marketingApprovalAction(e: Evidence): Reading {
  const plain = (g: Got) => !g.query.has('since') && pageOf(g.answer) !== undefined
  const words = (pages: Got[], values: (row: Record<string, unknown>) => unknown[]) => {
    const counts = new Map<string, { n: number; got: Got }>()
    for (const got of pages) {
      for (const row of pageOf(got.answer)?.data ?? []) {
        for (const value of values(row)) {
          if (typeof value !== 'string' || value === '' || value === 'Revoked') continue
          const seen = counts.get(value)
          counts.set(value, { n: (seen?.n ?? 0) + 1, got: seen?.got ?? got })
        }
      }
    }
    return [...counts].sort((a, b) => b[1].n - a[1].n)
  }
  let found = words(e.on(MARKETING.path, plain), (m) => [m.action])
  let from = 'marketing records listed'
  if (found.length === 0) {
    found = words(e.on(CANDIDATES.path, plain), (c) => recs(c.consent).map((entry) => entry.value))
    from = "consent entries of the candidates listed"
  }
  const [first] = found
  if (!first) return notSeen('no marketing record or consent entry listed says anything but Revoked', e.missed(MARKETING.path))
  if (found.length > 1) return seenOther('mixed', `the ${from} approve with ${found.map(([word, { n }]) => `${JSON.stringify(word)} (${n})`).join(', ')}`)
  return directly(first[1].got, first[0], `${first[1].n} ${from} approve with it`)
}

/** The labels metrics/list answered beyond the ten the spec names, in the order they came (none: an empty list). */
function extraMetricLabels(e: Evidence): Reading {
  const got = e.on('/metrics/list', (g) => Array.isArray(rec(g.answer.json).metrics))[0]
  if (!got) return notSeen(e.ctx.settings.groups.includes('metrics') ? 'metrics/list was not answered with a metrics array' : 'the metrics group did not run', e.missed('/metrics/list'))
  const labels = recs(rec(got.answer.json).metrics).map((m) => m.label)
  const extra = [...new Set(labels.filter((label) => !(METRIC_LABELS as readonly unknown[]).includes(label)))]
  const schema = behaviourProperties.extraMetricLabels
  const fit = (label: unknown) => typeof label === 'string' && new RegExp(schema.items.pattern).test(label)
  if (extra.length > schema.maxItems || !extra.every(fit)) return seenOther(`${extra.length} other labels`, `metrics/list answered labels a profile cannot hold: ${extra.slice(0, 5).map((l) => JSON.stringify(l)).join(', ')}`)
  return directly(got, extra, extra.length === 0 ? 'the ten labels the spec names and no other' : undefined)
}

/**
 * A burst limiter: the kit met 429s with a short Retry-after to requests it made once and
 * slowed down for them (the client's pace); false when the run met none. Whether a run
 * trips a limiter depends on its timing, so only its presence is compared (sameValue).
 */
function burstLimit(e: Evidence): Reading {
  const pace = e.ctx.client.pace
  const limited = e.all().filter((g) => g.answer.status === 429 && isBurst(g.answer) && !e.repeated(g))
  if (pace) {
    const value = { retryAfter: Math.min(SHORT_RETRY_AFTER_SECONDS, Math.round(pace.spacingMs / 1000)), concurrency: pace.concurrency, spacingSeconds: pace.spacingMs / 1000 }
    const note = `429s with Retry-after ${value.retryAfter} s: the kit went down to ${pace.concurrency} request${pace.concurrency === 1 ? '' : 's'} at a time, ${value.spacingSeconds} s apart`
    const [first] = limited
    return first ? { ...directly(first, value, note), seen: 'inferred' } : { value, seen: 'inferred', note }
  }
  const asked = e.all().length
  if (asked === 0) return notSeen('no request was answered')
  return { value: false, seen: 'inferred', note: `none of the ${asked} requests answered was met by a 429 with a short Retry-after` }
}

/** The kind of envelope an answer is, by its path and what its body says; undefined for others (job/fields, downloads). */
function envelopeKind(got: Got): EnvelopeKind | undefined {
  if (!isRec(got.answer.json) || got.answer.status === 429) return undefined
  const said = meant(got.answer)
  if (said >= 400) return 'error'
  if (said !== 200) return undefined
  if (/^\/(candidates|applications|timesheets|marketing)\/list$/.test(got.path)) return 'list'
  if (/^\/(candidates|applications)\/details\/[^/]+$/.test(got.path)) return 'details'
  if (got.path === '/job/add') return 'jobAdd'
  if (/^\/job\/(close|expire|repost|delete)$/.test(got.path)) return 'jobOperation'
  if (got.path === '/metrics/list') return 'metrics'
  return undefined
}

const KEY = /^(?!(__proto__|constructor|prototype)$)[A-Za-z_][A-Za-z0-9_.-]{0,63}$/

/**
 * The top-level keys each kind of answer carried beyond those the spec names for it
 * (ENVELOPE_KEYS), over every answer of that kind the run got: a kind the run got no
 * answer of is left out (and not compared).
 */
function envelopeKeys(e: Evidence): Reading {
  const value: Partial<Record<EnvelopeKind, string[]>> = {}
  let first: Got | undefined
  for (const got of e.all()) {
    const kind = envelopeKind(got)
    if (kind === undefined) continue
    first ??= got
    const known: readonly string[] = ENVELOPE_KEYS[kind]
    const keys = new Set(value[kind] ?? [])
    for (const key of Object.keys(rec(got.answer.json))) if (!known.includes(key)) keys.add(key)
    value[kind] = [...keys].sort()
  }
  if (!first) return notSeen('no answer was a JSON envelope', e.missed(/\/list$/))
  // in the schema's order of kinds, whatever order the answers came in
  const ordered = Object.fromEntries((Object.keys(ENVELOPE_KEYS) as EnvelopeKind[]).flatMap((kind) => (value[kind] ? [[kind, value[kind]]] : [])))
  const odd = Object.entries(value).flatMap(([kind, keys]) => (keys.length > 32 || keys.some((k) => !KEY.test(k)) ? [kind] : []))
  if (odd.length > 0) return seenOther(`keys a profile cannot hold on ${odd.join(', ')}`, `the ${odd.join(', ')} answers carry keys a profile cannot hold: ${odd.flatMap((kind) => value[kind as EnvelopeKind] ?? []).slice(0, 5).map((k) => JSON.stringify(k)).join(', ')}`)
  return directly(first, ordered, Object.entries(value).map(([kind, keys]) => `${kind}: ${keys.length === 0 ? 'the spec\'s keys' : keys.join(', ')}`).join('; '))
}

/** Every point's recorder: the schema's points, each read from the answers in hand. */
export const RECORDERS: { readonly [P in ProfilePointName]: (e: Evidence) => Reading } = {
  lastPageNextPage,
  outOfRangePage,
  pageCandidates,
  sinceField,
  rateLimitCounts: () => notSeen(NOT_OBSERVABLE.rateLimitCounts as string),
  unknownJobFields: () => notSeen(NOT_OBSERVABLE.unknownJobFields as string),
  errorHttpStatus,
  preconditionHttpStatus,
  timesheetContentType: downloadType(/^\/candidates\/(timesheet|timesheets\/download)\/[0-9]+$/, 'timesheet'),
  resumeContentType: downloadType(/^\/candidates\/resume\/[0-9]+$/, 'resume'),
  documentContentType: downloadType(/^\/candidates\/document\/[0-9]+$/, 'document'),
  notFoundBody,
  malformedSince,
  rateLimitBody,
  authStatus: refusal((got) => directly(got, got.answer.status)),
  authChallenge: refusal((got) => directly(got, got.answer.headers['www-authenticate'] !== undefined)),
  authBody: refusal((got) => directly(got, bodyType(got.answer))),
  monthNames,
  jobFieldsShape,
  listOrder,
  closeExpireIdField,
  extraFields,
  guestApplicants,
  marketingApprovalAction,
  extraMetricLabels,
  pageSize,
  rateLimitWindow,
  envelopeKeys,
  burstLimit,
  openJobValues,
}

const cache = new WeakMap<RunContext, Readings>()

/** Every point as this run saw it (read once, after the groups ran). */
export function readProfile(ctx: RunContext): Readings {
  let readings = cache.get(ctx)
  if (!readings) {
    const evidence = new Evidence(ctx, ctx.client.seen)
    readings = Object.fromEntries(PROFILE_POINTS.map((point) => [point, RECORDERS[point](evidence)])) as Readings
    cache.set(ctx, readings)
  }
  return readings
}

/**
 * The points one answer shows by itself (the proxy's --profile, src/proxy/profile-points.ts):
 * every recorder of the catalogue run over that answer alone, as if it were a run's only
 * answer; a point is kept where the answer showed it directly, or showed none of its values
 * (`other`). An answer that is what the run asks on purpose stands for it: a 404 to an id
 * path (the unknown id: notFoundBody), a page past the last that is empty or 404
 * (outOfRangePage), a list asked with a since that is no time and answered as a list or a
 * 412 (malformedSince). A point a recorder infers (from several answers, or a run's pace)
 * or cannot see in one answer is left out: one answer says nothing of it.
 */
export function readOneAnswer(answer: Answer, options: { apiBase: string; credentials: Credentials; at: number }): Partial<Readings> {
  // what the run would have asked on purpose, where this answer is one: an unknown id, a page past the last, a since that is no time
  const url = new URL(answer.url)
  const prefix = new URL(options.apiBase).pathname
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname
  const page = pageOf(answer)
  // a 404, or (errorHttpStatus ok with a body that is no JSON) a JSON endpoint answered 200 without JSON, as the recorders read them
  const notFound = answer.status === 404 || meant(answer) === 404
  const noJson = answer.status === 200 && answer.json === undefined
  const id = /^(.+)\/([0-9]{1,10})$/.exec(path)
  const idPath = id !== null && Object.values(ID_PATHS).flat().includes(id[1] as string)
  const unknownId = id !== null && idPath && (notFound || (noJson && /\/details$/.test(id[1] as string))) ? id[2] : undefined
  const since = url.searchParams.get('since')
  const malformedSince = since !== null && !isMinute(since) && (page !== undefined || meant(answer) === 412) ? since : undefined
  const list = LISTS.find((l) => l.path === path)
  const pageAsked = Number(url.searchParams.get('page') ?? 1)
  const pastTheLast = list !== undefined && pageAsked > 1 && since === null && (page ? page.data.length === 0 : notFound || noJson) ? { list, page: pageAsked } : undefined
  const alone: EvidenceContext = {
    settings: { groups: [], writes: false },
    client: { api: (apiPath) => `${options.apiBase}${apiPath}`, pace: undefined },
    plan: { peekOutOfRange: () => pastTheLast },
    idField: undefined,
    ...(unknownId === undefined ? {} : { unknownId }),
    ...(malformedSince === undefined ? {} : { malformedSince }),
  }
  const evidence = new Evidence(alone, [{ credentials: options.credentials, outcome: answer, at: options.at, body: undefined, order: 0 }])
  const shown: Partial<Readings> = {}
  for (const point of PROFILE_POINTS) {
    const reading = RECORDERS[point](evidence)
    if ((reading.seen === 'directly' && reading.value !== undefined) || reading.other !== undefined) shown[point] = reading
  }
  return shown
}

export { sameValue }

/** A value as messages show it: strings bare, extra fields as kind.name type. */
export function show(point: ProfilePointName, value: unknown): string {
  if (point === 'extraFields') {
    const fields = Object.entries(structure(value)).flatMap(([kind, names]) => Object.entries(names).map(([name, type]) => `${kind}.${name} ${String(type)}`))
    return fields.length === 0 ? 'no extra fields' : fields.join(', ')
  }
  if (point === 'envelopeKeys') {
    const kinds = Object.entries(rec(value)).map(([kind, keys]) => `${kind} ${Array.isArray(keys) && keys.length > 0 ? `+${keys.join(' +')}` : "the spec's keys"}`)
    return kinds.length === 0 ? 'no envelope' : kinds.join('; ')
  }
  if (point === 'burstLimit') return value === false ? 'no burst limiter' : `a burst limiter (Retry-after ${String(rec(value).retryAfter)} s; the kit went down to ${String(rec(value).concurrency)} at a time, ${String(rec(value).spacingSeconds)} s apart)`
  if (point === 'extraMetricLabels' && Array.isArray(value)) return value.length === 0 ? 'no label beyond the spec\'s ten' : `labels beyond the spec's ten: ${value.map((l) => JSON.stringify(l)).join(', ')}`
  return typeof value === 'string' ? value : JSON.stringify(value)
}

type PointEntry = { value?: unknown; seen: SeenHow; request?: string; date?: string; note?: string }

const entryOf = (reading: Reading): PointEntry => ({
  ...(reading.value !== undefined ? { value: reading.value } : {}),
  seen: reading.seen,
  ...(reading.request !== undefined ? { request: reading.request } : {}),
  ...(reading.at !== undefined ? { date: formatTimestamp(reading.at) } : {}),
  ...(reading.note !== undefined ? { note: reading.note } : {}),
})

/**
 * The profile to write: this run's readings over the earlier file's points. A point seen
 * now replaces the earlier entry (a moved value is reported as changed; extra fields of
 * the same names and types keep their earlier examples); a point not seen now keeps the
 * earlier entry. A point read from the records (heldToKind) takes this run's reading, its
 * move reported apart (`moved`): records arrived, the deployment chose nothing new.
 * Validated against schemas/profile.ts before it is returned.
 */
export function mergeProfile(
  prior: LoadedProfile | undefined,
  readings: Readings,
  deployment: { origin: string; recordedAt: number; kitVersion?: string },
): { profile: ProfileFile; changes: string[]; moved: string[]; filled: string[]; notSeen: string[] } {
  const before = (prior?.points ?? {}) as Readonly<Record<string, PointEntry | undefined>>
  const points: Record<string, PointEntry> = {}
  const changes: string[] = []
  const moved: string[] = []
  const filled: string[] = []
  const unseen: string[] = []
  for (const point of PROFILE_POINTS) {
    const reading = readings[point]
    const old = before[point]
    if (reading.value === undefined) {
      if (old) points[point] = structuredClone(old) as PointEntry
      else points[point] = entryOf(reading)
      if (old?.value === undefined) unseen.push(`${point}: ${reading.note ?? 'not seen'}`)
      continue
    }
    const entry = entryOf(reading)
    const shift = `${point} ${show(point, old?.value)} → ${show(point, reading.value)}${reading.request ? ` (${reading.request})` : ''}`
    const same = old?.value !== undefined && agrees(point, old.value, reading)
    if (same && heldToKind(point)) {
      if (!isDeepStrictEqual(old?.value, reading.value)) moved.push(shift)
    } else if (same) entry.value = point === 'extraFields' ? keptExtraFields(old?.value, reading.value) : structuredClone(old?.value)
    else if (old?.value !== undefined) changes.push(shift)
    else if (prior) filled.push(`${point} ${show(point, reading.value)}${reading.request ? ` (${reading.request})` : ''}`)
    // envelope kinds this run got no answer of (job/add without --writes) keep what an earlier run saw
    // the same for request cases this run did not make (openJobValues: the write turns take turns)
    if ((point === 'envelopeKeys' || point === 'openJobValues') && isRec(old?.value)) entry.value = { ...structuredClone(old.value), ...structuredClone(rec(reading.value)) }
    points[point] = entry
  }
  const file = {
    kind: PROFILE_KIND,
    version: 1,
    deployment: {
      origin: deployment.origin,
      recorded_at: formatTimestamp(deployment.recordedAt),
      ...(deployment.kitVersion !== undefined ? { kit_version: deployment.kitVersion } : {}),
    },
    points,
  }
  // a profile the kit writes must be one the fake (and the next run) reads: a bug here stops the write
  return { profile: parseProfile(file, 'the profile written') as ProfileFile, changes, moved, filled, notSeen: unseen }
}

/** `--profile`: one check per point the profile records; a value that moved fails, naming both. */
export function profileGroup(root: Minimal, ctx: RunContext, profile: LoadedProfile): void {
  const points = profile.points as Readonly<Record<string, PointEntry | undefined>>
  endpoint(root, 'profile', (t) => {
    for (const point of PROFILE_POINTS) {
      const recorded = points[point]
      if (recorded?.value === undefined) continue
      check(t, `${point} is as the profile records it`, async (a) => {
        const now = readProfile(ctx)[point]
        const from = recorded.request !== undefined ? ` (${recorded.request}${recorded.date ? ` on ${recorded.date}` : ''})` : ''
        // whatever was seen is compared: a value none of the point's ("mixed") contradicts the pinned one
        if (now.value === undefined && now.other !== undefined) {
          return a.fail(`profile: ${point} ${show(point, recorded.value)}${from}; deployment now answers ${now.other}${now.note ? ` (${now.note})` : ''}`)
        }
        // the deployment's own limiter hid a pinned point: it fails; the ledger's windows or an outage leave it unmade
        if (now.value === undefined && now.missed === 'limited') {
          return a.fail(`profile: ${point} ${show(point, recorded.value)}${from} could not be seen: the deployment answered 429 to the request that shows it (${now.note ?? 'not seen'})`)
        }
        if (now.value === undefined) throw new Skip(`${point} could not be seen this run: ${now.note ?? 'not seen'}`, now.missed === 'limited' ? 'unavailable' : (now.missed ?? 'not-applicable'))
        // a limiter met or not is the run's timing as much as the deployment's: a change is reported, never failed (docs/profile.md)
        if (point === 'burstLimit' && !sameValue(point, recorded.value, now.value)) {
          const summary = `profile: ${point} ${show(point, recorded.value)}${from}; this run met ${show(point, now.value)}`
          ctx.observations.add({ topic: 'rate-limit', endpoint: 'profile', summary })
          return a.ok(true, `${summary}: a change reported as an observation, not a failure`, summary)
        }
        // a point read from the records is held to its kind: arrivals move its value, the deployment chose nothing
        const kindOnly = heldToKind(point) && !isDeepStrictEqual(recorded.value, now.value)
        // a reading through time (a window through a Retry-after) says the same as any value it cannot tell apart
        const within = now.range && !isDeepStrictEqual(recorded.value, now.value) ? ` (the profile records ${show(point, recorded.value)}, among the values this reading cannot tell apart: ${now.range.min} to ${now.range.max})` : ''
        a.ok(
          agrees(point, recorded.value, now),
          kindOnly
            ? `${point}: ${show(point, now.value)} (the profile records ${show(point, recorded.value)}): read from the records, which arrivals move, so held to its kind`
            : `${point}: ${show(point, now.value)}${within || ', as the profile records'}`,
          `profile: ${point} ${show(point, recorded.value)}${from}; deployment now answers ${show(point, now.value)}${now.request ? ` (${now.request})` : ''}`,
        )
      })
    }
  })
}

