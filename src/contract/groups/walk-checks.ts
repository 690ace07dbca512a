// The checks of the walks (src/contract/walk.ts): every page each walk of a list read, and
// every pair of pages read one after the other, held to the Paging sentence ("Where a
// response carries `next_page`, it is a full URL of the next page of the same list, using
// the query parameter `page` (and `since` where given).") and the list's own words: next_page
// on every page but the last, naming the next page of the same list with its filters; the
// last page answered as the last; one total on every page, never less than on a page read
// before it; every record read once, none twice (within a page or across pages) and none
// skipped, the last page's total the records read from page 1 to it; the filters kept on
// every page; applications newest first across
// every boundary ("List entries are ordered newest first (highest id first)."); timesheets'
// prev_page naming the page before ("URL string, or false when there is none"). What records
// arriving during the run explain (pushed records read twice, a total that grew) goes through
// the one arrivals helper (groups/lists-checks.ts): consistent, or cannot tell (the check is left
// unmade), never a failure. The order of the other lists is not shown: observed.
import type { Minimal } from '@tapjs/core'
import { check, need, Skip, where, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import type { ListDef } from '../lists.js'
import { describeLink, int, pageOf, rec, type Page, type Rec } from '../records.js'
import { walkWords, type Walk, type WalkPage } from '../walk.js'
import { arrivals, firstDisorder, judgeCount, linkProblems, undecidable, type Arrivals, type Consistency } from './lists-checks.js'
import { beforeSince } from './matrix-checks.js'

/** A page of a walk that answered as a page of records. */
type Read = WalkPage & { page: Page }

const readable = (walk: Walk): Read[] =>
  walk.pages.flatMap((p) => {
    const page = p.got.kind === 'answer' ? pageOf(p.got) : undefined
    return page ? [{ ...p, page }] : []
  })

/** The pages read one after the other (page n and n + 1), both pages of records. */
const pairs = (pages: readonly Read[]): Array<[Read, Read]> => pages.slice(1).flatMap((q, i) => ((pages[i] as Read).number + 1 === q.number ? [[pages[i] as Read, q] as [Read, Read]] : []))

/** The head of a walk: its pages of records from page 1 on, one after the other (by next_page). */
function head(pages: readonly Read[]): Read[] {
  const run: Read[] = []
  for (const p of pages) if (p.number === run.length + 1) run.push(p)
  return run
}

const totals = (pages: readonly Read[]) => pages.map((p) => int(p.page.total)).filter((t): t is number => t !== undefined)

/** What a page is, in messages: `page 3 of the walk with since (/applications/list?page=3&since=…)`. */
const label = (walk: Walk, p: Pick<WalkPage, 'number' | 'url'>) => `page ${p.number} of ${walkWords(walk.filters)} (${where(p.url)})`

/** What one check found over every walk of a list: failures, what records arriving may explain, and a page that did not come. */
class Findings {
  readonly failures: string[] = []
  readonly unsure: string[] = []
  missing: Skip | undefined
  passes = 0

  /** A comparison's verdict: consistent passes, inconsistent fails, cannot tell waits for the end. */
  judge(verdict: Consistency): void {
    if (verdict.verdict === 'consistent') this.passes++
    else if (verdict.verdict === 'inconsistent') this.failures.push(verdict.because)
    else this.unsure.push(verdict.because)
  }

  /** A fault no arrival explains. */
  fail(problem: string): void {
    this.failures.push(problem)
  }

  /** A fault only records arriving (or changing) during the run could explain. */
  faultUnless(arrived: Arrivals, problem: string): void {
    if (arrived.live) this.unsure.push(problem)
    else this.failures.push(problem)
  }

  /** Notes the first page of a walk that did not come (a 429, the ledger, an outage): the check is then not made in full. */
  note(walk: Walk): void {
    if (this.missing) return
    for (const p of walk.pages.slice(1)) {
      try {
        need(p.got)
      } catch (error) {
        if (error instanceof Skip) {
          this.missing = new Skip(`${label(walk, p)}: ${error.reason}`, error.kind)
          return
        }
        throw error
      }
    }
  }

  /** Asserts what was found: every failure; else, when something cannot be told, not made; else a pass. */
  conclude(a: Asserter, pass: string): void {
    for (const failure of this.failures) a.fail(failure)
    if (this.failures.length === 0 && this.unsure.length > 0) throw undecidable(this.unsure.slice(0, 3).join('; '))
    if (this.failures.length === 0) a.pass(pass)
    if (this.missing) throw this.missing
  }
}

/**
 * Each walk of a list whose first page is a page of records, with its pages of records; the
 * Skip of the list's own first page when none is (errored, not made, or not applicable as it went).
 */
async function walksOf(ctx: RunContext, list: ListDef, filtered = false): Promise<Array<{ walk: Walk; pages: Read[] }>> {
  const walks = await ctx.plan.walks(list)
  const usable = walks.map((walk) => ({ walk, pages: readable(walk) })).filter(({ pages }) => pages[0]?.number === 1)
  if (usable.length === 0) {
    need((walks[0] as Walk).pages[0]?.got ?? { kind: 'not-made', reason: 'no walk', skip: 'not-applicable' })
    throw new Skip(`the first page of ${list.endpoint} is not a page of records (see the schema check)`)
  }
  const chosen = filtered ? usable.filter(({ walk }) => walk.filters.length > 0) : usable
  if (chosen.length === 0) throw new Skip('no filtered walk of this list has a first page of records')
  return chosen
}

/** Distinct records read, by the list's identity, on the given pages. */
const distinct = (list: ListDef, pages: readonly Read[]) => new Set(pages.flatMap((p) => p.page.data.map(list.identity))).size

/**
 * Whether records remain after a page: of the head, by the records read up to it against the
 * least total the walk's pages give; of the tail, by its number against the last page its
 * total and the page size give. Undefined when no total tells (the schema check says so).
 */
function notLast(walk: Walk, pages: readonly Read[], p: Read): boolean | undefined {
  const run = head(pages)
  const fewest = Math.min(...totals(pages))
  if (run.includes(p)) return Number.isFinite(fewest) ? distinct(walk.list, run.filter((q) => q.number <= p.number)) < fewest : undefined
  const total = int(p.page.total)
  return walk.size === undefined || total === undefined ? undefined : p.number < Math.ceil(total / walk.size)
}

/** A check over every walk of a list: what `each` finds on each walk, concluded once (failures; else cannot tell; else a pass). */
/** Whether the totals of a walk's pages differ: the board changed while it was read, or a page says so wrongly. */
const moved = (walk: Walk) => new Set(totals(readable(walk))).size > 1

/**
 * A check over every walk of a list: what `each` finds on each walk, concluded once (failures; else cannot tell; else a
 * pass). `elsewhere`: whether anything but the walk's own totals tells the board changed during the run (a record seen
 * to arrive, a total that moved on another walk or between the first two pages): what only the walk's own pages say
 * cannot be their own excuse.
 */
function walkCheck(t: Minimal, ctx: RunContext, list: ListDef, name: string, pass: string, each: (found: Findings, walk: Walk, pages: Read[], arrived: Arrivals, elsewhere: boolean) => void, filtered = false): void {
  check(t, name, async (a) => {
    const found = new Findings()
    const arrived = await arrivals(ctx, list)
    const every = await ctx.plan.walks(list)
    for (const { walk, pages } of await walksOf(ctx, list, filtered)) {
      found.note(walk)
      const elsewhere = arrived.seen.length > 0 || (walk.filters.length > 0 && arrived.growth > 0) || every.some((other) => other !== walk && moved(other))
      each(found, walk, pages, arrived, elsewhere)
    }
    found.conclude(a, pass)
  })
}

export function walkChecks(t: Minimal, ctx: RunContext, list: ListDef): void {
  const { client } = ctx

  walkCheck(t, ctx, list, 'each walk carries next_page on every page but its last, naming the next page of the same list with its filters', 'every page but the last of each walk names the next page of the same list, with its filters', (found, walk, pages, arrived) => {
    for (const p of pages) {
      if (notLast(walk, pages, p) !== true) continue
      const link = p.page.nextPage
      if (typeof link !== 'string') {
        const read = distinct(list, head(pages).filter((q) => q.number <= p.number))
        found.faultUnless(arrived, `${label(walk, p)} has next_page ${describeLink(p.page, 'next_page')}, though ${head(pages).includes(p) ? `${read} of the ${Math.min(...totals(pages))} records were read by then` : `its total ${String(p.page.total)} in pages of ${String(walk.size)} runs to page ${Math.ceil(Number(p.page.total) / Number(walk.size))}`}: the records after it cannot be reached`)
        continue
      }
      const problems = linkProblems(link, client, { path: list.path, page: p.number + 1, carries: walk.query }, `next_page of ${label(walk, p)}`)
      for (const problem of problems) found.fail(problem)
      if (problems.length === 0) found.passes++
    }
  })

  walkCheck(t, ctx, list, "each walk's last page is answered as the last", "each walk's last page names no next page", (found, walk, pages, arrived) => {
    const run = head(pages)
    const fewest = Math.min(...totals(pages))
    for (const p of pages) {
      const link = p.page.nextPage
      if (typeof link !== 'string' || notLast(walk, pages, p) !== false) continue
      // a page after which no record remains names a next page: it must hold records (arrivals, or a total that lagged)
      const after = walk.pages.find((q) => q.number === p.number + 1)
      const seen = new Set(run.filter((q) => q.number <= p.number).flatMap((q) => q.page.data.map(list.identity)))
      const next = after?.got.kind === 'answer' ? pageOf(after.got) : undefined
      if (next?.data.some((r) => !seen.has(list.identity(r)))) {
        found.passes++
        continue
      }
      const answered = after === undefined ? 'not followed' : after.got.kind !== 'answer' ? `not answered (${after.got.reason})` : next ? (next.data.length === 0 ? 'which holds no record' : 'which holds only records read before') : `which answers HTTP ${after.got.status}`
      const why = run.includes(p) ? `all ${Number.isFinite(fewest) ? fewest : '?'} records were read by then` : `its total ${String(p.page.total)} in pages of ${String(walk.size)} ends there`
      found.faultUnless(arrived, `${label(walk, p)} is the last page (${why}), yet names a next page, ${link}: ${answered}`)
    }
    const end = run.at(-1)
    if (end && typeof end.page.nextPage !== 'string') found.passes++
  })

  walkCheck(t, ctx, list, 'each walk keeps one total on every page, but for arrivals', 'every page of each walk says the total of its first page (or more, as records arrived)', (found, walk, pages, arrived) => {
    // in the order they were read: records arriving only add to a list, so no page says less than a page read before it
    let most: { total: number; p: Read } | undefined
    for (const p of [...pages].sort((a, b) => a.read - b.read)) {
      const total = int(p.page.total)
      if (total === undefined) continue
      if (most !== undefined && total < most.total) found.fail(`total is ${most.total} on ${label(walk, most.p)} and ${total} on ${label(walk, p)}, read after it: the pages of the same list hold the same records, and records arriving only add to them`)
      else if (most !== undefined) found.passes++
      if (most === undefined || total > most.total) most = { total, p }
    }
    const first = int((pages[0] as Read).page.total)
    if (first === undefined) return
    for (const p of pages.slice(1)) {
      const total = int(p.page.total)
      if (total === undefined || total === first) {
        found.passes++
        continue
      }
      // a total below the first page's is failed above, as a fall in the order the pages were read
      if (total < first) continue
      if (arrived.seen.length > 0) found.passes++
      else found.unsure.push(`total grew from ${first} to ${total} by ${label(walk, p)}, and no record newer than the first walk was seen`)
    }
  })

  walkCheck(t, ctx, list, 'each walk reads every record once: none twice, none skipped, but for arrivals', 'each walk reads every record once, as its total says', (found, walk, pages, arrived, elsewhere) => {
    const all = totals(pages)
    const moved = all.length === 0 ? 0 : Math.max(...all) - Math.min(...all)
    const seen = new Map<string, number>()
    const twice: string[] = []
    for (const p of pages) {
      const onPage = new Set<string>()
      for (const record of p.page.data) {
        const id = list.identity(record)
        // one answer is one moment of the list: no arrival lists a record twice within it
        if (onPage.has(id)) found.fail(`${label(walk, p)} lists ${id} twice: every record once, on one page as across them`)
        onPage.add(id)
        const on = seen.get(id)
        if (on !== undefined && on !== p.number) twice.push(`${id} (pages ${on} and ${p.number})`)
        else seen.set(id, p.number)
      }
    }
    // records pushed onto the next page by records arriving at the top are read twice: as many as total moved by
    found.judge(judgeCount(arrived, twice.length, 0, moved, `${walkWords(walk.filters)} reads ${twice.length} records twice${twice.length > 0 ? `, e.g. ${twice.slice(0, 3).join(', ')}` : ''}`))
    const run = head(pages)
    const end = run.at(-1)
    // the pages read by next_page from page 1 to one naming no next page: each page before the last was a full page when it
    // was read, and the last one's total counts the records of the pages before it and its own, however records arrived
    // or moved between the requests (a page is a place in the list): every record read, repeats included, is its total.
    // Only a record arriving between the count and the rows of that one answer parts them: on a board seen to change
    // elsewhere, the kit cannot tell
    if (end && typeof end.page.nextPage !== 'string' && walk.pages.every((p) => p.number <= end.number)) {
      const total = int(end.page.total)
      const read = run.reduce((n, p) => n + p.page.data.length, 0)
      if (total === undefined || read === total) found.passes++
      else (elsewhere ? found.unsure : found.failures).push(`${walkWords(walk.filters)} reads ${read} records${twice.length > 0 ? ` (${twice.length} of them twice)` : ''} from page 1 to its last page (${end.number}), whose total is ${total}: ${read < total ? `${total - read} are never reached` : `${read - total} more than it counts`}`)
    }
    // none skipped: a walk read in full to its end holds as many records as its total says
    if (!walk.full || !end || typeof end.page.nextPage === 'string' || all.length === 0) return
    const count = distinct(list, run)
    const [fewest, most] = [Math.min(...all), Math.max(...all)]
    if (count < fewest) found.faultUnless(arrived, `${walkWords(walk.filters)} reads ${count} records from page 1 to its last page (${end.number}), though its total is ${fewest}: ${fewest - count} were never reached`)
    else if (count > most) found.faultUnless(arrived, `${walkWords(walk.filters)} reads ${count} records from page 1 to its last page (${end.number}), more than its total ${most}`)
    else found.passes++
  })

  walkCheck(t, ctx, list, 'each filtered walk holds only records matching its filters on every page', 'every page of each filtered walk keeps its filters', (found, walk, pages) => {
    for (const p of pages) {
      for (const [filter, value] of Object.entries(walk.query)) {
        const off = filter === 'since' ? beforeSince(list, value, p.page.data) : filter === 'vacancy' ? p.page.data.filter((r) => String(int(rec(r.vacancy).id)) !== value) : []
        if (off.length === 0) found.passes++
        else found.fail(`${off.length} of ${p.page.data.length} records of ${label(walk, p)} ${filter === 'since' ? `are before since ${value}` : `are for other vacancies than ${value}`}, e.g. ${list.identity(off[0] as Rec)}`)
      }
    }
  }, true)

  if (list.newestFirst) {
    walkCheck(t, ctx, list, `each walk runs newest first (highest id first) within and across every page`, 'every walk runs newest first, page after page', (found, walk, pages) => {
      for (const p of pages) {
        const problem = firstDisorder(p.page.data.map(list.orderKey))
        if (problem === undefined) found.passes++
        else found.fail(`${label(walk, p)} is not newest first: id ${problem}`)
      }
      for (const [p, q] of pairs(pages)) {
        // records pushed from page n onto page n + 1 by arrivals come again at its top: compared from the first record that is new
        const before = new Set(p.page.data.map(list.identity))
        const next = q.page.data.find((r) => !before.has(list.identity(r)))
        const lastKey = p.page.data.at(-1)
        if (!lastKey || !next) continue
        const across = firstDisorder([list.orderKey(lastKey), list.orderKey(next)])
        if (across === undefined) found.passes++
        else found.fail(`across pages ${p.number} and ${q.number} of ${walkWords(walk.filters)} (${where(p.url)}, then ${where(q.url)}): id ${across}`)
      }
    })
  }

  if (list.twoWay) {
    walkCheck(t, ctx, list, "each walk's prev_page names the page before on every page (false on the first)", "every page's prev_page names the page before it, the first page's is false", (found, walk, pages) => {
      for (const p of pages) {
        if (p.number === 1) {
          if (p.page.hasPrevPage && p.page.prevPage === false) found.passes++
          else found.fail(`prev_page on ${label(walk, p)} is ${describeLink(p.page, 'prev_page')}, not false: there is no page before the first`)
          continue
        }
        const problems = linkProblems(p.page.prevPage, client, { path: list.path, page: p.number - 1, carries: walk.query }, `prev_page of ${label(walk, p)}`)
        for (const problem of problems) found.fail(problem)
        if (problems.length === 0) found.passes++
      }
    })
  }
}

/** The order of a list the spec gives none for ("List entries are ordered newest first" is said of applications), across each walk: seen, never failed. */
export async function observeWalkOrder(ctx: RunContext, list: ListDef): Promise<void> {
  if (list.newestFirst) return
  for (const walk of await ctx.plan.walks(list)) {
    const pages = head(readable(walk))
    const keys = pages.flatMap((p) => p.page.data.map(list.orderKey))
    if (pages.length < 2 || new Set(keys).size < 2) continue
    const order = firstDisorder(keys) === undefined ? 'newest first' : firstDisorder([...keys].reverse()) === undefined ? 'oldest first' : 'in neither order'
    ctx.observations.add({ topic: 'order', endpoint: list.endpoint, summary: `${walkWords(walk.filters)} runs ${order} across its first ${pages.length} pages` })
  }
}
