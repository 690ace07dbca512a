// The walk (issue 43 item 1): each paged list, and each filtered form of it (since, vacancy,
// both), read as a sync client reads it: page 1, then every page its next_page names, up to
// the page that says it is the last. Paging: "Where a response carries `next_page`, it is a
// full URL of the next page of the same list". A run can afford only so many pages: a walk
// goes in full while the run's walk budget lasts, else in part — its first pages by
// next_page, and a contiguous run at the end reached from the last page the first page's
// total and size give (going back by prev_page where the list has it, else by page number).
// Which walks go in full turns across runs: never walked in full first, then the one walked
// in full longest ago (the ledger keeps when), else by the night. The checks of every page
// read and of every pair of pages read one after the other are src/contract/groups/walk-checks.ts.
import type { Got } from './checks.js'
import { combinationsOf, filtersOf, type ListDef } from './lists.js'
import { int, pageOf, type Page } from './records.js'

/** Pages beyond the few every walk reads (its first two and last two) that one run may spend on walking lists in full. */
export const WALK_BUDGET = 40
/** A walk in part reads at least its first HEAD pages by next_page and its last TAIL pages. */
export const HEAD = 2
export const TAIL = 2
/** A walk in full follows next_page at most this many pages past the last its first page's total gives (records arriving add pages). */
const PAST_LAST = 3

/** The filters of each form a list is walked in: none, each alone, and each combination its query schema allows. */
export const formsOf = (list: Pick<ListDef, 'query'>): string[][] => [[], ...filtersOf(list).map((f) => [f]), ...combinationsOf(list)]

/** A walk's name, as the request matrix names its cells (`applications/list since+vacancy`). */
export const walkId = (list: Pick<ListDef, 'endpoint'>, filters: readonly string[]) => `${list.endpoint} ${filters.length === 0 ? 'none' : filters.join('+')}`

/** A walk in words, for messages: `the walk with since`, `the walk without filters`. */
export const walkWords = (filters: readonly string[]) => (filters.length === 0 ? 'the walk without filters' : `the walk with ${filters.join(' and ')}`)

export interface WalkPage {
  /** Its place in the list: 1 for the first page, one more for each next_page followed; the tail's by the last page's number. */
  readonly number: number
  readonly url: string
  readonly got: Got
  /** How the kit came to it: the list's own URL, a link of the page before or after, or its number. */
  readonly by: 'first' | 'next_page' | 'prev_page' | 'page'
  /** Its place in the order the walk read its pages (0 for the first page): the head up, then the tail down from its last page. */
  readonly read: number
}

export interface Walk {
  readonly id: string
  readonly list: ListDef
  readonly filters: readonly string[]
  /** The values of the filters asked (since, vacancy): what every page's links must carry. */
  readonly query: Readonly<Record<string, string>>
  /** The pages read, by number: the head (from page 1 by next_page) and, where it was walked in part, the tail. */
  readonly pages: readonly WalkPage[]
  /** The last page by the first page's total and size; undefined when it gives neither. */
  readonly last: number | undefined
  /** The records a page holds, by the first page (the spec does not show the page size). */
  readonly size: number | undefined
  /** Walked in full: from page 1 by next_page to the page that says it is the last (or as far as the chain goes). */
  readonly full: boolean
  /** Every page it asked for was answered (none left to a 429, the ledger or an outage). */
  readonly complete: boolean
  /** How it was walked, in words. */
  readonly why: string
}

/** How much of a walk a run reads. */
export type Allotment = { readonly full: true } | { readonly full: false; readonly head: number; readonly tail: number; readonly why: string }

/**
 * Which walks go in full in a run, and how far the others go: each form's last page known,
 * the budget goes to the walks in the order the rotation gives (never walked in full first,
 * then the one walked in full longest ago; the night turns the order of equals), each taking
 * what its middle pages cost while the budget lasts; what is left lengthens the others'
 * first and last pages.
 */
export function allot(forms: ReadonlyArray<{ id: string; last: number | undefined }>, lastFull: Readonly<Record<string, number>>, night: number, budget = WALK_BUDGET): Map<string, Allotment> {
  const n = forms.length
  const turned = forms.map((_, i) => forms[(i + (n === 0 ? 0 : night % n)) % n] as (typeof forms)[number])
  const order = turned.map((form, i) => ({ form, i })).sort((a, b) => (lastFull[a.form.id] ?? -Infinity) - (lastFull[b.form.id] ?? -Infinity) || a.i - b.i).map((x) => x.form)
  const allotted = new Map<string, Allotment>()
  let left = budget
  const extra = (last: number) => last - 1 - Math.min(last - 1, HEAD - 1 + TAIL)
  for (const { id, last } of order) {
    if (last === undefined) allotted.set(id, { full: false, head: HEAD, tail: 0, why: 'the first page gives no total and page size: read by next_page to page 2' })
    else if (extra(last) <= left) {
      allotted.set(id, { full: true })
      left -= extra(last)
    }
  }
  for (const { id, last } of order) {
    if (allotted.has(id) || last === undefined) continue
    const give = Math.min(left, extra(last) - 1)
    left -= give
    const head = HEAD + Math.ceil(give / 2)
    const tail = TAIL + Math.floor(give / 2)
    const why = extra(last) > budget
      ? `more pages than one run's walk budget (${budget} past each walk's first and last few): its ends each run`
      : `the run's walk budget (${budget} pages) went to walks due before it: a later run walks it in full`
    allotted.set(id, { full: false, head, tail, why })
  }
  return allotted
}

/** The last page of an answer by its first page's total and size, and that size: undefined when the first page gives neither (an empty first page of total 0 is the last). */
export function extentOf(first: Got): { last: number | undefined; size: number | undefined } {
  const page = pageOfGot(first)
  const total = page ? int(page.total) : undefined
  const size = page && page.data.length > 0 ? page.data.length : undefined
  if (total === undefined) return { last: undefined, size }
  if (size === undefined) return { last: total === 0 ? 1 : undefined, size }
  return { last: Math.max(1, Math.ceil(total / size)), size }
}

/** What a walk needs of the client: a GET made once per run, the URL of a page by number, and which links it may follow. */
export interface Pager {
  get(url: string): Promise<Got>
  /** The URL of a page of the list with the walk's filters. */
  pageUrl(page: number): string
  sameOrigin(url: string): boolean
  /** The path of a URL under the API root, undefined when it is not under it. */
  apiPath(url: string): string | undefined
}

const answered = (got: Got) => got.kind === 'answer'
const pageOfGot = (got: Got): Page | undefined => (got.kind === 'answer' ? pageOf(got) : undefined)

/** The page a link may be followed to: a string on the deployment's origin, of the same list, not read yet in this walk. */
function followable(link: unknown, list: ListDef, pager: Pager, read: readonly WalkPage[]): link is string {
  return typeof link === 'string' && pager.sameOrigin(link) && pager.apiPath(link) === list.path && !read.some((p) => p.url === link)
}

/**
 * Reads one walk: from its first page (`first`, already asked or asked now), by next_page, as
 * far as its allotment goes; then, walked in part or where the chain of next_page stopped
 * short, the last page by its number and the pages before it, by prev_page (a list that has
 * it) or by number.
 */
export async function readWalk(
  base: { id: string; list: ListDef; filters: readonly string[]; query: Readonly<Record<string, string>> },
  first: { url: string; got: Got },
  allotment: (last: number | undefined) => Promise<Allotment>,
  pager: Pager,
): Promise<Walk> {
  const pages: WalkPage[] = [{ number: 1, url: first.url, got: first.got, by: 'first', read: 0 }]
  const one = pageOfGot(first.got)
  const done = (last: number | undefined, size: number | undefined, full: boolean, why: string): Walk => {
    const sorted = [...pages].sort((a, b) => a.number - b.number)
    return { ...base, pages: sorted, last, size, full, complete: sorted.every((p) => answered(p.got)), why }
  }
  if (!one) return done(undefined, undefined, false, first.got.kind === 'answer' ? 'the first page is not a page of records' : `the first page has no answer (${first.got.reason})`)
  const { last, size } = extentOf(first.got)
  const given = await allotment(last)
  // the head: next_page after next_page, as a client walks; in full, past the last page the first page's total gives
  // while next_page still leads on (records arriving while the kit walks add pages)
  const cap = given.full ? (last ?? HEAD) + PAST_LAST : given.head
  let current: Page = one
  while (pages.length < cap) {
    const link = current.nextPage
    if (!followable(link, base.list, pager, pages)) break
    const got = await pager.get(link)
    pages.push({ number: pages.length + 1, url: link, got, by: 'next_page', read: pages.length })
    const page = pageOfGot(got)
    if (!page) break
    current = page
  }
  const reached = pages.length
  if (last === undefined || last <= reached) return done(last, size, given.full, given.full ? `in full: ${reached} page${reached === 1 ? '' : 's'} by next_page` : given.why)
  // the tail: the last page by its number, then back by prev_page (or by number) to the head or TAIL pages in all
  const tail = given.full ? 1 : given.tail
  const from = Math.max(reached + 1, last - tail + 1)
  let after: WalkPage = { number: last, url: pager.pageUrl(last), got: await pager.get(pager.pageUrl(last)), by: 'page', read: pages.length }
  pages.push(after)
  for (let number = last - 1; number >= from; number--) {
    const prev = base.list.twoWay ? pageOfGot(after.got)?.prevPage : undefined
    const back = base.list.twoWay && followable(prev, base.list, pager, pages)
    const url = back ? (prev as string) : pager.pageUrl(number)
    after = { number, url, got: await pager.get(url), by: back ? 'prev_page' : 'page', read: pages.length }
    pages.push(after)
  }
  const why = given.full ? `in full as far as next_page led (page ${reached}), then its last page (${last}) by number` : given.why
  return done(last, size, given.full, why)
}

/** The page numbers read, as runs: `1-2, 35-36`. */
export function pagesRead(walk: { readonly pages: ReadonlyArray<Pick<WalkPage, 'number'>> }): string {
  const numbers = walk.pages.map((p) => p.number)
  const runs: Array<[number, number]> = []
  for (const n of numbers) {
    const run = runs.at(-1)
    if (run && n === run[1] + 1) run[1] = n
    else runs.push([n, n])
  }
  return runs.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(', ')
}

/** One walk as the report carries it. */
export interface WalkEntry {
  /** The walk, as the request matrix names it: `applications/list since`. */
  id: string
  /** The last page by the first page's total and size, when it gives them. */
  pages?: number
  /** The page numbers read: `1-2, 35-36`. */
  read: string
  /** Walked in full this run. */
  full: boolean
  /** Every page asked was answered. */
  complete: boolean
  why: string
  /** When a run on the ledger last walked it in full, before this one. */
  lastFull?: string
}

export function walkEntry(walk: Walk, lastFull: number | undefined): WalkEntry {
  return {
    id: walk.id,
    ...(walk.last === undefined ? {} : { pages: walk.last }),
    read: pagesRead(walk),
    full: walk.full,
    complete: walk.complete,
    why: walk.why,
    ...(lastFull === undefined ? {} : { lastFull: new Date(lastFull).toISOString() }),
  }
}

/** The lines the summary gives the walks: which were walked in full this run and which in part. */
export function walkLines(entries: readonly WalkEntry[]): string[] {
  if (entries.length === 0) return []
  const full = entries.filter((e) => e.full).length
  const width = Math.max(...entries.map((e) => e.id.length))
  return [
    `Walks (each list and filter followed by next_page from page 1): ${full} of ${entries.length} in full this run`,
    ...entries.map((e) => {
      const of = e.pages === undefined ? '' : ` of ${e.pages}`
      const state = e.full ? `in full: page${e.read.includes('-') || e.read.includes(',') ? 's' : ''} ${e.read}${of}` : `in part: pages ${e.read}${of}`
      const when = e.full || e.lastFull === undefined ? '' : `; walked in full last ${e.lastFull}`
      return `  ${e.id.padEnd(width)}  ${state}${e.complete ? '' : ' (not every page answered)'}${e.full ? '' : ` (${e.why}${when})`}`
    }),
  ]
}
