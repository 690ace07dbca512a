// The request plan: which full requests answer which checks. Every request a read-only
// run makes is chosen here, each at most once, and chosen so that checks share answers:
// the detail of a candidate is the one a timesheet links to, a download is the one a
// list links to, the second page is the URL the first page's next_page gave. Checks ask
// the plan; the plan asks the client, which makes each request once. prefetch() asks
// for everything the selected groups need at once, so the requests overlap.
import { id as idSchema } from '../../schemas/common.js'
import { isTimestamp } from '../../schemas/formats.js'
import { formatMinute } from '../core/time.js'
import { need, notMade, Skip, where, type Got, type NotMade, type SkipKind } from './checks.js'
import { AUTH_FORMS, isServiceError, type AuthForm, type Client } from './http.js'
import { APPLICATIONS, CANDIDATES, combinationsOf, LISTS, MARKETING, TIMESHEETS, type ListDef } from './lists.js'
import { int, isRec, notAPage, pageOf, rec, recs, str, type Page, type Rec } from './records.js'
import type { Group } from './settings.js'
import { formsOf, type Walk, type WalkEntry } from './walk.js'
import { Walker, type WalkRotation } from './walker.js'

/** An id no board has yet: the largest the schemas allow. */
export const UNKNOWN_ID = idSchema.maximum

/** How far after the newest time seen the empty answer's since lies. */
const DAY_MS = 24 * 60 * 60 * 1000

/** A value of `since` that no reading of the spec takes for a time. */
export const MALFORMED_SINCE = 'not-a-time'

/**
 * Full requests the run needs for nothing else, spent by the checks that must not use up
 * another's window: pages of marketing/list far past the last page of any list the kit
 * reads, so that no walk of the list (every page by next_page, or its last pages) asks one
 * of them. Fixed numbers, so that a run inside an earlier run's windows leaves them out by
 * the ledger as it does every other request. The kit sends only the query parameters the
 * spec defines (since, page, vacancy).
 */
export const SPARE = {
  path: '/marketing/list',
  pages: {
    withoutCredentials: 1000,
    wrongCredentials: 1001,
    rateLimit: 1002,
    wrongPassword: 1003,
    fresh: 1004,
    // the spec's authentication sent otherwise (http.ts AUTH_FORMS): a full request each, so that a deployment that
    // counts a refused request against the window (or wrongly lets one in) spends no window another check needs
    bearer: 1005,
    digest: 1006,
    garbage: 1007,
    'malformed-base64': 1008,
    'no-colon': 1009,
    'lower-case-scheme': 1010,
    // a GET with a Content-Type, answered as without it (withContentType): a full request each where the window forbids asking a page twice
    contentTypeJson: 1011,
    contentTypeText: 1012,
  },
} as const

/** The Content-Types a GET is sent with to see them ignored: JSON, and one that is not. */
export const GET_CONTENT_TYPES = [
  { contentType: 'application/json', use: 'contentTypeJson' },
  { contentType: 'text/plain', use: 'contentTypeText' },
] as const

/** Where the page past the last is asked, in order of preference: timesheets are paged by the spec's own words (prev_page). */
const OUT_OF_RANGE_LISTS = [TIMESHEETS, APPLICATIONS, MARKETING, CANDIDATES] as const

export const FILE_KINDS = [
  { list: 'timesheets', kind: 'timesheet' },
  { list: 'resumes', kind: 'resume' },
  { list: 'documents', kind: 'document' },
] as const
export type FileKind = (typeof FILE_KINDS)[number]['kind']

/** The detail and download paths, by group: each is asked for an unknown id once. */
export const ID_PATHS: Readonly<Partial<Record<Group, readonly string[]>>> = {
  candidates: ['/candidates/details', ...FILE_KINDS.map(({ kind }) => `/candidates/${kind}`)],
  applications: ['/applications/details', '/applications/attachment'],
  timesheets: ['/candidates/timesheets/download'],
}

/** What a download should be, as the record that links to it says. */
export interface Expected {
  filename: string | undefined
  /** Bytes, when the list gives a filesize. */
  filesize: number | undefined
  /** Where the expectation comes from, for messages. */
  source: string
}

export interface Pick {
  got: Got
  url: string | undefined
  record: Rec | undefined
  expected: Expected
}

const NO_EXPECTATION: Expected = { filename: undefined, filesize: undefined, source: '' }


export class Plan {
  readonly #client: Client
  readonly #groups: readonly Group[]
  readonly #memo = new Map<string, Promise<unknown>>()
  /** With --profile or --write-profile: also ask for a page past the last (the outOfRange point). */
  readonly #profiling: boolean
  /** The walks of the selected lists (src/contract/walker.ts), started from this plan's first pages. */
  readonly #walker: Walker

  constructor(client: Client, groups: readonly Group[], profiling = false, rotation: WalkRotation = { walked: {}, night: 0 }) {
    this.#client = client
    this.#groups = groups
    this.#profiling = profiling
    this.#walker = new Walker(this, client, () => LISTS.filter((list) => this.#selected(list.group)), rotation)
  }

  #once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let made = this.#memo.get(key) as Promise<T> | undefined
    if (!made) {
      made = make()
      this.#memo.set(key, made)
    }
    return made
  }

  #selected(group: Group): boolean {
    return this.#groups.includes(group)
  }

  /**
   * How a check that found no record of a list to use is skipped: as the first page went
   * (errored by an outage, not made under the limit), or as not applicable when the list
   * was answered and simply holds none.
   */
  async #missing(list: ListDef): Promise<SkipKind> {
    const first = await this.first(list)
    return first.kind === 'unavailable' ? (isServiceError(first.cause) ? 'error' : 'unavailable') : 'not-applicable'
  }

  /** Not made for want of the list's records; when the first page did not come, the reason says why (ledger, 429, outage). */
  async #notMade(reason: string, list: ListDef): Promise<NotMade> {
    const first = await this.first(list)
    const why = first.kind === 'unavailable' ? ` (the first page of ${list.endpoint}: ${first.reason})` : ''
    return notMade(`${reason}${why}`, await this.#missing(list))
  }

  fields(): Promise<Got> {
    return this.#client.get(this.#client.api('/job/fields'))
  }

  metrics(): Promise<Got> {
    return this.#client.get(this.#client.api('/metrics/list'))
  }

  first(list: ListDef): Promise<Got> {
    return this.#client.get(this.#client.api(list.path))
  }

  /** The first page of a list, or a Skip saying why there is none. */
  async firstPage(list: ListDef): Promise<Page> {
    return pageOrSkip(await this.first(list), `the first page of ${list.endpoint}`)
  }

  /** The page the first page's next_page names, when it names one on this origin. */
  next(list: ListDef): Promise<Got> {
    return this.#once(`next ${list.path}`, async () => {
      const first = await this.first(list)
      if (first.kind !== 'answer') return await this.#notMade('no answer', list)
      const page = pageOf(first)
      if (!page) return notMade(`the first page of ${list.endpoint} ${notAPage(first)}`)
      if (typeof page.nextPage !== 'string') return notMade(`the first page's next_page is ${JSON.stringify(page.nextPage) ?? 'absent'}: there is no second page to fetch`)
      if (!this.#client.sameOrigin(page.nextPage)) return notMade(`next_page ${page.nextPage} is not on ${this.#client.origin}: not followed with credentials`)
      return this.#client.get(page.nextPage)
    })
  }

  /** The records of the pages fetched without filters (the first, and the second when there is one). */
  async records(list: ListDef): Promise<Rec[]> {
    const pages = [await this.first(list), await this.next(list)]
    return pages.flatMap((got) => (got.kind === 'answer' ? (pageOf(got)?.data ?? []) : []))
  }

  /**
   * A `since` at a boundary: the minute of a record R whose next older record P (by the
   * first field the list may filter on) is as close before it as the fetched records
   * allow, in an earlier minute, R taken from the older half so that the answer is likely
   * to have a next page to check too. A service off by a minute leaves R out; one off by
   * minutes the other way, or comparing dates only, keeps P: both fail.
   */
  sinceValue(list: ListDef): Promise<string | undefined> {
    return this.#once(`since-value ${list.path}`, async () => {
      const field = list.sinceFields[0] as string
      const times = (await this.records(list))
        .map((record) => str(record[field]))
        .filter((value): value is string => value !== undefined && isTimestamp(value))
        .sort()
        .reverse()
      const minutes = [...new Set(times.map((time) => time.slice(0, 16)))]
      if (minutes.length < 2) return minutes[0]
      let best: { at: string; gap: number } | undefined
      for (let i = Math.floor(minutes.length / 2); i < minutes.length - 1; i++) {
        const [at, before] = [minutes[i] as string, minutes[i + 1] as string]
        const gap = Date.parse(`${at.replace(' ', 'T')}Z`) - Date.parse(`${before.replace(' ', 'T')}Z`)
        if (!best || gap < best.gap) best = { at, gap }
      }
      return best?.at ?? minutes[Math.floor((minutes.length * 3) / 4)]
    })
  }

  since(list: ListDef): Promise<Got> {
    return this.#once(`since ${list.path}`, async () => {
      const since = await this.sinceValue(list)
      if (since === undefined) return await this.#notMade(`no record of ${list.endpoint} has a valid ${list.sinceFields[0]} to take since from`, list)
      return this.#client.get(this.#client.api(list.path, { since }))
    })
  }

  /**
   * A `since` after every record the board holds, for an answer with no records at all:
   * a day after the newest time the run saw, of the records fetched and of the first
   * page's Date header (the deployment's own clock: the pages not read, and records
   * arriving during the run, are older than that). A day covers a board that writes its
   * times in another zone than GMT.
   */
  emptySince(list: ListDef): Promise<string | undefined> {
    return this.#once(`empty-since ${list.path}`, async () => {
      const first = await this.first(list)
      const date = first.kind === 'answer' ? Date.parse(first.headers.date ?? '') : Number.NaN
      const times = (await this.records(list))
        .flatMap((record) => [...list.sinceFields, 'created_at'].map((field) => str(record[field])))
        .filter((value): value is string => value !== undefined && isTimestamp(value))
        .map((value) => Date.parse(`${value.replace(' ', 'T')}Z`))
      const newest = Math.max(...times, ...(Number.isNaN(date) ? [] : [date]))
      return Number.isFinite(newest) ? formatMinute(newest + DAY_MS) : undefined
    })
  }

  /** The list asked with a since after its newest record: an answer with no records at all (issue 27). */
  empty(list: ListDef): Promise<Got> {
    return this.#once(`empty ${list.path}`, async () => {
      const since = await this.emptySince(list)
      if (since === undefined) return await this.#notMade(`neither a record of ${list.endpoint} nor the first page's Date header gives a time to ask after`, list)
      return this.#client.get(this.#client.api(list.path, { since }))
    })
  }

  // ---- the request matrix (src/contract/matrix.ts): the pages after the first of each filter, the last page, a page past the last, the last listed record's details

  /** The page a filtered answer's next_page names, when it names one on this origin. */
  #follow(what: string, got: Got): Promise<Got> {
    if (got.kind !== 'answer') return Promise.resolve(got.kind === 'not-made' ? got : notMade(`${what} has no answer (${got.reason})`, isServiceError(got.cause) ? 'error' : 'unavailable'))
    const page = pageOf(got)
    if (!page) return Promise.resolve(notMade(`${what} ${notAPage(got)}`))
    const total = int(page.total)
    if (typeof page.nextPage !== 'string') return Promise.resolve(notMade(`${what} fits on one page${total === undefined ? '' : ` (total ${total})`}: there is no second page`))
    if (!this.#client.sameOrigin(page.nextPage)) return Promise.resolve(notMade(`next_page ${page.nextPage} is not on ${this.#client.origin}: not followed with credentials`))
    return this.#client.get(page.nextPage)
  }

  /** The second page of the answer with since, by its next_page. */
  sinceNext(list: ListDef): Promise<Got> {
    return this.#once(`since-next ${list.path}`, async () => this.#follow('the answer with since', await this.since(list)))
  }

  /** The second page of the answer for one vacancy, by its next_page. */
  vacancyNext(): Promise<Got> {
    return this.#once('vacancy-next', async () => this.#follow('the answer for one vacancy', await this.vacancy()))
  }

  /**
   * The last page of an answer, worked out from its first page's total and size: the first
   * page itself, or the page of that number its walk read (by next_page, or by its number
   * when the walk went in part), else that page asked by its number with the same filters.
   */
  #lastOf(walk: Walk, what: string): Got | Promise<Got> {
    const first = (walk.pages[0] as Walk['pages'][number]).got
    if (first.kind !== 'answer') return first.kind === 'not-made' ? first : notMade(`${what} has no answer (${first.reason})`, isServiceError(first.cause) ? 'error' : 'unavailable')
    if (!pageOf(first)) return notMade(`${what} ${notAPage(first)}`)
    const last = walk.last
    if (last === undefined) return notMade(`${what} gives no total and page size to work out its last page from`)
    if (last === 1) return first
    const read = walk.pages.find((p) => p.number === last && (p.by === 'page' || new URL(p.url).searchParams.get('page') === String(last)))
    return read?.got ?? this.#client.get(this.#client.api(walk.list.path, { ...walk.query, page: last }))
  }

  /** The last page of a list without a filter. */
  lastPage(list: ListDef): Promise<Got> {
    return this.#once(`last ${list.path}`, async () => this.#lastOf(await this.walk(list, []), `the first page of ${list.endpoint}`))
  }

  /** The last page of the answer with since. */
  sinceLast(list: ListDef): Promise<Got> {
    return this.#once(`since-last ${list.path}`, async () => this.#lastOf(await this.walk(list, ['since']), 'the answer with since'))
  }

  /** The last page of the answer for one vacancy. */
  vacancyLast(): Promise<Got> {
    return this.#once('vacancy-last', async () => this.#lastOf(await this.walk(APPLICATIONS, ['vacancy']), 'the answer for one vacancy'))
  }

  // ---- the walk (src/contract/walk.ts): each list and each filtered form, from page 1 by next_page

  /** One walk of a list: the form with these filters (none, since, vacancy, or a combination), read as walk.ts says. */
  walk(list: ListDef, filters: readonly string[]): Promise<Walk> {
    return this.#walker.walk(list, filters)
  }

  /** Every walk of a list, one per form. */
  walks(list: ListDef): Promise<Walk[]> {
    return this.#walker.walks(list)
  }

  /** The walks of the selected lists as the report carries them: which went in full this run, which in part. */
  walkEntries(): Promise<WalkEntry[]> {
    return this.#walker.entries()
  }

  /**
   * A page past the last of a list, without a filter: the page after the last that the
   * first page's total and size give (page 3 at least, past every page its walk read; never
   * one of marketing's SPARE pages). outOfRange() (the profile point) is one of these.
   */
  pastLast(list: ListDef): Promise<{ page: number; got: Got }> {
    return this.#once(`past-last ${list.path}`, async () => {
      const first = await this.first(list)
      // asked once the walk without filters is read, past its pages: records arriving meanwhile may have made a page of it
      const walk = await this.walk(list, [])
      const past = pastLastOf(first, Math.max(...walk.pages.map((p) => p.number)))
      if (past === undefined) {
        return { page: 0, got: first.kind === 'answer' ? notMade(`the first page of ${list.endpoint} gives no total and page size to work out its last page from`) : await this.#notMade(`the first page of ${list.endpoint} has no answer`, list) }
      }
      return { page: past, got: await this.#client.get(this.#client.api(list.path, { page: past })) }
    })
  }

  /** The records of the last page of a list without a filter (the last record fetched when it could not be asked). */
  async #lastRecords(list: ListDef): Promise<Rec[]> {
    const last = await this.lastPage(list)
    const page = last.kind === 'answer' ? pageOf(last) : undefined
    return page && page.data.length > 0 ? page.data : await this.records(list)
  }

  /** The details of the last listed record with an id: the last record of the list's last page. */
  lastDetail(list: ListDef): Promise<Pick> {
    return this.#once(`last-detail ${list.path}`, async () => {
      const record = (await this.#lastRecords(list)).filter((r) => int(r.id) !== undefined).at(-1)
      if (!record) return { got: await this.#notMade(`no ${list.noun} with an id was fetched`, list), url: undefined, record: undefined, expected: NO_EXPECTATION }
      const href = str(record.href)
      const url = list === APPLICATIONS && href !== undefined && this.#client.sameOrigin(href) ? href : this.#client.api(`/${list.group}/details/${String(record.id)}`)
      return { got: await this.#client.get(url), url, record, expected: NO_EXPECTATION }
    })
  }

  malformedSince(list: ListDef): Promise<Got> {
    return this.#client.get(this.#client.api(list.path, { since: MALFORMED_SINCE }))
  }

  /** The vacancy most applications fetched are for: the most records to check the filter on. */
  vacancyId(): Promise<number | undefined> {
    return this.#once('vacancy-id', async () => {
      const counts = new Map<number, number>()
      for (const record of await this.records(APPLICATIONS)) {
        const vacancy = int(rec(record.vacancy).id)
        if (vacancy !== undefined) counts.set(vacancy, (counts.get(vacancy) ?? 0) + 1)
      }
      return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
    })
  }

  vacancy(): Promise<Got> {
    return this.#once('vacancy', async () => {
      const vacancy = await this.vacancyId()
      if (vacancy === undefined) return await this.#notMade('no application fetched names a vacancy id', APPLICATIONS)
      return this.#client.get(this.#client.api(APPLICATIONS.path, { vacancy }))
    })
  }

  /**
   * The query of a combination of filters (lists.ts combinationsOf): vacancy the one most
   * applications fetched are for; since the middle minute of the records the other filters
   * give (the vacancy's first page), by the latest of the fields since may compare, so that
   * records on both sides of it come: a deployment that lets one filter drop the other keeps
   * some it must not.
   */
  combinedQuery(list: ListDef, filters: readonly string[]): Promise<Record<string, string | number> | undefined> {
    return this.#once(`combined-query ${list.path} ${filters.join('+')}`, async () => {
      const query: Record<string, string | number> = {}
      let narrowed: Rec[] | undefined
      if (filters.includes('vacancy')) {
        const vacancy = await this.vacancyId()
        if (vacancy === undefined) return undefined
        query.vacancy = vacancy
        const got = await this.vacancy()
        narrowed = got.kind === 'answer' ? (pageOf(got)?.data ?? []) : []
      }
      if (filters.includes('since')) {
        const records = narrowed ?? (await this.records(list))
        const minutes = records
          .map((record) => list.sinceFields.map((field) => str(record[field])).filter((v): v is string => v !== undefined && isTimestamp(v)).sort().at(-1))
          .filter((v): v is string => v !== undefined)
          .map((v) => v.slice(0, 16))
          .sort()
        const middle = minutes[Math.floor(minutes.length / 2)]
        if (middle === undefined) return undefined
        query.since = middle
      }
      return query
    })
  }

  /** A list asked with a combination of its filters at once (the request matrix's combination rows). */
  combined(list: ListDef, filters: readonly string[]): Promise<Got> {
    return this.#once(`combined ${list.path} ${filters.join('+')}`, async () => {
      const query = await this.combinedQuery(list, filters)
      if (query === undefined) return await this.#notMade(`no record of ${list.endpoint} fetched gives ${filters.join(' and ')} to ask with`, list)
      return this.#client.get(this.#client.api(list.path, query))
    })
  }

  /** The second page of the answer with a combination of filters, by its next_page. */
  combinedNext(list: ListDef, filters: readonly string[]): Promise<Got> {
    return this.#once(`combined-next ${list.path} ${filters.join('+')}`, async () => this.#follow(`the answer with ${filters.join(' and ')}`, await this.combined(list, filters)))
  }

  /** An id that exists on no board, on a detail or download path. */
  unknown(path: string): Promise<Got> {
    return this.#client.get(this.#client.api(`${path}/${UNKNOWN_ID}`))
  }

  /**
   * A GET of marketing/list sent with a Content-Type ("A content-type header on GET requests
   * is ignored") and what it must be answered as: with no window to spend, the first page
   * again, against the plan's own first page; else a spare page (SPARE), against what that
   * page is without it: a page of records where the list reaches it (`records`), else the
   * plan's page past the last. `undefined`: the first page gives no total and size to tell.
   */
  async withContentType(contentType: string, use: (typeof GET_CONTENT_TYPES)[number]['use']): Promise<{ got: Got; without: Got | 'records' | undefined }> {
    const first = await this.first(MARKETING)
    const firstUrl = this.#client.api(MARKETING.path)
    if (first.kind === 'answer' && this.#client.free('GET', firstUrl)) return { got: await this.#client.get(firstUrl, { contentType }), without: first }
    const got = await this.#client.get(this.spare(use), { contentType })
    const page = first.kind === 'answer' ? pageOf(first) : undefined
    const total = page ? int(page.total) : undefined
    if (!page || total === undefined || page.data.length === 0) return { got, without: undefined }
    return { got, without: SPARE.pages[use] <= lastPageOf(total, page.data.length) ? 'records' : (await this.pastLast(MARKETING)).got }
  }

  /** The URL of a spare full request (SPARE). */
  spare(use: keyof (typeof SPARE)['pages']): string {
    return this.#client.api(SPARE.path, { page: SPARE.pages[use] })
  }

  withoutCredentials(): Promise<Got> {
    return this.#client.get(this.spare('withoutCredentials'), { credentials: 'none' })
  }

  wrongCredentials(): Promise<Got> {
    return this.#client.get(this.spare('wrongCredentials'), { credentials: 'wrong' })
  }

  /** The given user with a wrong password: a deployment that knows the user must still check the password. */
  wrongPassword(): Promise<Got> {
    return this.#client.get(this.spare('wrongPassword'), { credentials: 'wrong-password' })
  }

  /** A spare page asked with the given credentials sent in another form than the spec's (http.ts AUTH_FORMS). */
  authForm(form: AuthForm): Promise<Got> {
    return this.#client.get(this.spare(form), { credentials: form })
  }

  /**
   * A detail asked without credentials: of a listed record the run fetches for nothing
   * else (another candidate, else another application), so it spends no window a check needs.
   */
  detailWithoutCredentials(): Promise<Got> {
    return this.#once('detail-without-credentials', async () => {
      const picked = [(await this.candidateDetail()).url, (await this.applicationDetail()).url]
      const candidates = (await this.#fetched(CANDIDATES)).map((c) => this.#client.api(`/candidates/details/${String(c.id)}`))
      const applications = (await this.#fetched(APPLICATIONS)).map((a) => this.#client.api(`/applications/details/${String(a.id)}`))
      const url = [...candidates, ...applications].find((u) => !picked.includes(u) && !/\/(undefined|null)$/.test(u))
      if (url === undefined) return notMade('no listed candidate or application is left to ask for without credentials')
      return this.#client.get(url, { credentials: 'none' })
    })
  }

  /** Download links listed and not fetched by this run, on the base URL's origin: candidates' files, then timesheets' and attachments. */
  async #unfetchedDownloads(): Promise<string[]> {
    const candidates = (await this.#fetched(CANDIDATES)).flatMap((c) => FILE_KINDS.flatMap(({ list }) => recs(c[list]).map((f) => str(f.href))))
    const timesheets = (await this.#fetched(TIMESHEETS)).map((t) => this.#client.api(`/candidates/timesheets/download/${String(t.id)}`))
    const attachments = (await this.#fetched(APPLICATIONS)).map((a) => str(rec(rec(a.applicant).attachment).href))
    return [...candidates, ...timesheets, ...attachments].filter((u): u is string => u !== undefined && this.#client.sameOrigin(u) && !this.#client.has(u))
  }

  /** A download asked without credentials: a listed file the run downloads for nothing else. */
  downloadWithoutCredentials(): Promise<Got> {
    return this.#once('download-without-credentials', async () => {
      const url = (await this.#unfetchedDownloads())[0]
      if (url === undefined) return notMade('no listed file is left to ask for without credentials')
      return this.#client.get(url, { credentials: 'none' })
    })
  }

  /**
   * Fresh full requests for the 429 check, each differing from the repeated one in one
   * part only: another page, the same page with a since, another download. Not asked here:
   * the check asks them right after its 429.
   */
  async freshUrls(): Promise<Array<{ what: string; url: string }>> {
    const fresh = [
      { what: 'another page', url: this.spare('fresh') },
      { what: 'the same page with a since', url: this.#client.api(SPARE.path, { since: '2000-01-01 00:00', page: SPARE.pages.rateLimit }) },
    ]
    const unauthenticated = this.#memo.has('download-without-credentials') ? await this.downloadWithoutCredentials() : undefined
    const download = (await this.#unfetchedDownloads()).find((u) => unauthenticated?.kind !== 'answer' || u !== unauthenticated.url)
    if (download !== undefined) fresh.push({ what: 'another download', url: download })
    // one a window still holds (this run, or the ledger's) would answer 429 rightly
    return fresh.filter((f) => this.#client.free('GET', f.url))
  }

  /** Records of a list fetched so far, without asking for more (for picks that only prefer). */
  async #fetched(list: ListDef): Promise<Rec[]> {
    return this.#selected(list.group) ? this.records(list) : []
  }

  /**
   * Follows one of the links, preferring one already requested: checking that links
   * resolve then costs nothing more. Links off the base URL's origin are not followed.
   */
  resolve(urls: readonly string[], what: string): Promise<Got> {
    const ours = urls.filter((url) => this.#client.sameOrigin(url))
    if (ours.length === 0) {
      return Promise.resolve(notMade(urls.length === 0 ? `no ${what} to follow` : `no ${what} is on ${this.#client.origin}: not followed with credentials`))
    }
    const chosen = ours.find((url) => this.#client.has(url)) ?? (ours[0] as string)
    return this.#client.get(chosen)
  }

  /** The candidate whose detail is fetched: one a timesheet links to, when there is one, so that link resolves for free. */
  candidateDetail(): Promise<Pick> {
    return this.#once('candidate-detail', async () => {
      const candidates = await this.records(CANDIDATES)
      const linked = new Set((await this.#fetched(TIMESHEETS)).map((t) => str(rec(t.candidate).href)))
      const url = (record: Rec) => this.#client.api(`/candidates/details/${String(record.id)}`)
      const record = candidates.find((c) => int(c.id) !== undefined && linked.has(url(c))) ?? candidates.find((c) => int(c.id) !== undefined)
      if (!record) return { got: await this.#notMade('no candidate with an id was fetched', CANDIDATES), url: undefined, record: undefined, expected: NO_EXPECTATION }
      return { got: await this.#client.get(url(record)), url: url(record), record, expected: NO_EXPECTATION }
    })
  }

  /** The application whose detail is fetched, by its own href: one a candidate links to, when there is one. */
  applicationDetail(): Promise<Pick> {
    return this.#once('application-detail', async () => {
      const applications = (await this.records(APPLICATIONS)).filter((a) => int(a.id) !== undefined)
      const linked = new Set((await this.#fetched(CANDIDATES)).flatMap((c) => recs(c.applications).map((a) => str(a.href))))
      const record = applications.find((a) => linked.has(str(a.href))) ?? applications[0]
      if (!record) return { got: await this.#notMade('no application with an id was fetched', APPLICATIONS), url: undefined, record: undefined, expected: NO_EXPECTATION }
      const href = str(record.href)
      const url = href !== undefined && this.#client.sameOrigin(href) ? href : this.#client.api(`/applications/details/${String(record.id)}`)
      return { got: await this.#client.get(url), url, record, expected: NO_EXPECTATION }
    })
  }

  /** A candidate file of one kind, by the href its File entry gives; a timesheet one that timesheets/list also lists, when there is one. */
  candidateFile(kind: FileKind): Promise<Pick> {
    return this.#once(`file ${kind}`, async () => {
      const list = FILE_KINDS.find((k) => k.kind === kind)?.list as string
      const entries = (await this.records(CANDIDATES)).flatMap((c) => recs(c[list]))
      const listed = new Set((await this.#fetched(TIMESHEETS)).map((t) => str(rec(t.attachment).href)))
      const usable = entries.filter((e) => typeof e.href === 'string' && this.#client.sameOrigin(e.href))
      const entry = usable.find((e) => this.#client.has(e.href as string)) ?? usable.find((e) => listed.has(str(e.href))) ?? usable[0]
      if (!entry) {
        const reason = entries.length === 0 ? `no candidate fetched has a file in ${list}` : `no ${list} href is on ${this.#client.origin}`
        return { got: await this.#notMade(reason, CANDIDATES), url: undefined, record: undefined, expected: NO_EXPECTATION }
      }
      const size = str(entry.filesize)
      const expected = {
        filename: str(entry.filename),
        filesize: size !== undefined && /^[0-9]+$/.test(size) ? Number(size) : undefined,
        source: `the candidate's ${list} entry`,
      }
      return { got: await this.#client.get(entry.href as string), url: entry.href as string, record: entry, expected }
    })
  }

  /** An application's attachment, by its href: the fetched detail's application when there is one. */
  attachment(): Promise<Pick> {
    return this.#once('attachment', async () => {
      const detail = (await this.applicationDetail()).record
      const applications = await this.records(APPLICATIONS)
      const record = [detail, ...applications].find((a) => a !== undefined && typeof rec(rec(a.applicant).attachment).href === 'string')
      const attachment = rec(rec(record?.applicant).attachment)
      const href = str(attachment.href)
      if (!record || href === undefined) return { got: await this.#notMade('no application fetched has an attachment href', APPLICATIONS), url: undefined, record: undefined, expected: NO_EXPECTATION }
      if (!this.#client.sameOrigin(href)) return { got: notMade(`the attachment href ${href} is not on ${this.#client.origin}`), url: href, record, expected: NO_EXPECTATION }
      const expected = { filename: str(attachment.filename), filesize: undefined, source: "the application's attachment" }
      return { got: await this.#client.get(href), url: href, record, expected }
    })
  }

  /** /candidates/timesheets/download/{id} of a listed timesheet. */
  timesheetDownload(): Promise<Pick> {
    return this.#once('timesheet-download', async () => {
      const entry = (await this.records(TIMESHEETS)).find((t) => int(t.id) !== undefined)
      if (!entry) return { got: await this.#notMade('no timesheet with an id was fetched', TIMESHEETS), url: undefined, record: undefined, expected: NO_EXPECTATION }
      const url = this.#client.api(`/candidates/timesheets/download/${String(entry.id)}`)
      const attachment = rec(entry.attachment)
      const expected = { filename: str(attachment.filename), filesize: int(attachment.filesize), source: `timesheet ${String(entry.id)} of timesheets/list` }
      return { got: await this.#client.get(url), url, record: entry, expected }
    })
  }

  /**
   * A page past the last of one list, for the profile's outOfRangePage: a full request the
   * run needs for nothing else. The last page is worked out from the first page's total
   * and size.
   */
  outOfRange(): Promise<{ list: ListDef; page: number; got: Got } | undefined> {
    return this.#once('out-of-range', async () => {
      this.#outOfRange = await this.#pastTheLast()
      return this.#outOfRange
    })
  }

  /** The page past the last that was asked, once it was: read by the profile, which never asks. */
  peekOutOfRange(): { list: ListDef; page: number } | undefined {
    return this.#outOfRange
  }

  #outOfRange: { list: ListDef; page: number; got: Got } | undefined

  async #pastTheLast(): Promise<{ list: ListDef; page: number; got: Got } | undefined> {
    const list = OUT_OF_RANGE_LISTS.find((l) => this.#selected(l.group))
    if (!list) return undefined
    return { list, ...(await this.pastLast(list)) }
  }

  /** Asks for every read the selected groups need, at once. Failures show up in the checks. */
  async prefetch(): Promise<void> {
    const lists = LISTS.filter((list) => this.#selected(list.group))
    const reads: Array<Promise<unknown>> = []
    for (const list of lists) reads.push(this.first(list))
    if (this.#selected('metrics')) reads.push(this.metrics())
    await Promise.all(reads)
    for (const list of lists) reads.push(this.next(list), this.since(list), this.malformedSince(list), this.empty(list))
    if (this.#selected('candidates')) {
      reads.push(this.candidateDetail(), ...FILE_KINDS.map(({ kind }) => this.candidateFile(kind)))
    }
    if (this.#selected('applications')) reads.push(this.applicationDetail(), this.attachment(), this.vacancy())
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    for (const list of lists) reads.push(this.sinceNext(list), ...formsOf(list).map((filters) => this.walk(list, filters)), this.lastPage(list), this.sinceLast(list), this.pastLast(list))
    if (this.#selected('applications')) reads.push(this.vacancyNext(), this.vacancyLast(), this.lastDetail(APPLICATIONS))
    for (const list of lists) for (const filters of combinationsOf(list)) reads.push(this.combinedNext(list, filters))
    if (this.#selected('candidates')) reads.push(this.lastDetail(CANDIDATES))
    if (this.#selected('timesheets')) reads.push(this.timesheetDownload())
    if (this.#selected('auth')) reads.push(this.withoutCredentials(), this.wrongCredentials(), this.wrongPassword(), ...(Object.keys(AUTH_FORMS) as AuthForm[]).map((form) => this.authForm(form)))
    for (const group of this.#groups) for (const path of ID_PATHS[group] ?? []) reads.push(this.unknown(path))
    if (this.#profiling) reads.push(this.outOfRange())
    await Promise.all(reads)
    // last: they take what no other check asks for, which is known only now
    if (this.#selected('auth')) await Promise.all([this.detailWithoutCredentials(), this.downloadWithoutCredentials()])
  }
}

/** The number of the last page of an answer of `total` records in pages of `size` (1 for none). */
export const lastPageOf = (total: number, size: number) => (size === 0 ? 1 : Math.max(1, Math.ceil(total / size)))

/** The page past the last of a list by its first page's total and size (page 3 at least, past the `read` pages a walk read, and none of SPARE's), or undefined when the first page gives neither. */
function pastLastOf(first: Got, read = 1): number | undefined {
  const page = first.kind === 'answer' ? pageOf(first) : undefined
  const total = page ? int(page.total) : undefined
  if (!page || total === undefined || page.data.length === 0) return undefined
  const spare: readonly number[] = Object.values(SPARE.pages)
  let past = Math.max(lastPageOf(total, page.data.length) + 1, read + 1, 3)
  while (spare.includes(past)) past++
  return past
}

/** The page an outcome holds, or a Skip naming why there is none. */
export function pageOrSkip(got: Got, what: string): Page {
  const answer = need(got)
  const page = pageOf(answer)
  if (!page) throw new Skip(`${what} (${answer.method} ${where(answer.url)}) ${notAPage(answer)}`)
  return page
}

/** The answer's JSON object, or a Skip naming why there is none. */
export function bodyOrSkip(got: Got, what: string): Rec {
  const answer = need(got)
  if (answer.status !== 200 || !isRec(answer.json)) throw new Skip(`${what} (${answer.method} ${where(answer.url)}) ${notAPage(answer)}`)
  return answer.json
}
