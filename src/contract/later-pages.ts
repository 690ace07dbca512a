// The request plan's pages after the first (plan.ts), for the request matrix
// (src/contract/matrix.ts): the second page of each filtered answer by its next_page, the
// last page by the first page's total and size, a page past the last (the profile's
// outOfRangePage is one), the last listed record's details; and the walks (walker.ts),
// each list and each filtered form read from page 1 by next_page.
import { notMade, type Got } from './checks.js'
import { isServiceError } from './request-outcomes.js'
import { APPLICATIONS, CANDIDATES, LISTS, MARKETING, TIMESHEETS, type ListDef } from './lists.js'
import { SPARE } from './plan-basis.js'
import { NO_EXPECTATION, RecordPicks, type Pick } from './record-picks.js'
import { int, pageOf, str, notAPage, type Rec } from './records.js'
import type { Walk, WalkEntry } from './walk.js'
import { Walker } from './walker.js'

/** Where the page past the last is asked, in order of preference: timesheets are paged by the spec's own words (prev_page). */
const OUT_OF_RANGE_LISTS = [TIMESHEETS, APPLICATIONS, MARKETING, CANDIDATES] as const

export class LaterPages extends RecordPicks {
  /** The walks of the selected lists (src/contract/walker.ts), started from this plan's first pages. */
  readonly #walker = new Walker(this, this.client, () => LISTS.filter((list) => this.selected(list.group)), this.rotation)

  /** The page a filtered answer's next_page names, when it names one on this origin. */
  #follow(what: string, got: Got): Promise<Got> {
    if (got.kind !== 'answer') return Promise.resolve(got.kind === 'not-made' ? got : notMade(`${what} has no answer (${got.reason})`, isServiceError(got.cause) ? 'error' : 'unavailable'))
    const page = pageOf(got)
    if (!page) return Promise.resolve(notMade(`${what} ${notAPage(got)}`))
    const total = int(page.total)
    if (typeof page.nextPage !== 'string') return Promise.resolve(notMade(`${what} fits on one page${total === undefined ? '' : ` (total ${total})`}: there is no second page`))
    if (!this.client.sameOrigin(page.nextPage)) return Promise.resolve(notMade(`next_page ${page.nextPage} is not on ${this.client.origin}: not followed with credentials`))
    return this.client.get(page.nextPage)
  }

  /** The second page of the answer with since, by its next_page. */
  sinceNext(list: ListDef): Promise<Got> {
    return this.once(`since-next ${list.path}`, async () => this.#follow('the answer with since', await this.since(list)))
  }

  /** The second page of the answer for one vacancy, by its next_page. */
  vacancyNext(): Promise<Got> {
    return this.once('vacancy-next', async () => this.#follow('the answer for one vacancy', await this.vacancy()))
  }

  /** The second page of the answer with a combination of filters, by its next_page. */
  combinedNext(list: ListDef, filters: readonly string[]): Promise<Got> {
    return this.once(`combined-next ${list.path} ${filters.join('+')}`, async () => this.#follow(`the answer with ${filters.join(' and ')}`, await this.combined(list, filters)))
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
    return read?.got ?? this.client.get(this.client.api(walk.list.path, { ...walk.query, page: last }))
  }

  /** The last page of a list without a filter. */
  lastPage(list: ListDef): Promise<Got> {
    return this.once(`last ${list.path}`, async () => this.#lastOf(await this.walk(list, []), `the first page of ${list.endpoint}`))
  }

  /** The last page of the answer with since. */
  sinceLast(list: ListDef): Promise<Got> {
    return this.once(`since-last ${list.path}`, async () => this.#lastOf(await this.walk(list, ['since']), 'the answer with since'))
  }

  /** The last page of the answer for one vacancy. */
  vacancyLast(): Promise<Got> {
    return this.once('vacancy-last', async () => this.#lastOf(await this.walk(APPLICATIONS, ['vacancy']), 'the answer for one vacancy'))
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
    return this.once(`past-last ${list.path}`, async () => {
      const first = await this.first(list)
      // asked once the walk without filters is read, past its pages: records arriving meanwhile may have made a page of it
      const walk = await this.walk(list, [])
      const past = pastLastOf(first, Math.max(...walk.pages.map((p) => p.number)))
      if (past === undefined) {
        return { page: 0, got: first.kind === 'answer' ? notMade(`the first page of ${list.endpoint} gives no total and page size to work out its last page from`) : await this.notMade(`the first page of ${list.endpoint} has no answer`, list) }
      }
      return { page: past, got: await this.client.get(this.client.api(list.path, { page: past })) }
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
    return this.once(`last-detail ${list.path}`, async () => {
      const record = (await this.#lastRecords(list)).filter((r) => int(r.id) !== undefined).at(-1)
      if (!record) return { got: await this.notMade(`no ${list.noun} with an id was fetched`, list), url: undefined, record: undefined, expected: NO_EXPECTATION }
      const href = str(record.href)
      const url = list === APPLICATIONS && href !== undefined && this.client.sameOrigin(href) ? href : this.client.api(`/${list.group}/details/${String(record.id)}`)
      return { got: await this.client.get(url), url, record, expected: NO_EXPECTATION }
    })
  }

  /**
   * A page past the last of one list, for the profile's outOfRangePage: a full request the
   * run needs for nothing else. The last page is worked out from the first page's total
   * and size.
   */
  outOfRange(): Promise<{ list: ListDef; page: number; got: Got } | undefined> {
    return this.once('out-of-range', async () => {
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
    const list = OUT_OF_RANGE_LISTS.find((l) => this.selected(l.group))
    if (!list) return undefined
    return { list, ...(await this.pastLast(list)) }
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
