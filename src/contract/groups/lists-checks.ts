// The checks every paged list gets: the schema of each answer fetched, total across
// pages, next_page (and prev_page) as absolute URLs on the same origin carrying page and
// the filters given, pages that differ, order, and `since` (a subset, respected at the
// minute). What the spec leaves open is observed, not checked: page size, the last
// page's next_page, the order where the spec gives none, what a malformed since answers.
import type { Minimal } from '@tapjs/core'
import { isTimestamp } from '../../../schemas/formats.js'
import { check, need, Skip, where, type Got } from '../checks.js'
import type { RunContext } from '../context.js'
import type { Client } from '../http.js'
import type { ListDef, SinceField } from '../lists.js'
import { MALFORMED_SINCE } from '../filter-requests.js'
import { pageOrSkip } from '../plan-basis.js'
import { describeLink, int, isRec, pageOf, recs, str, succeeded, type Page, type Rec } from '../records.js'
import { walkWords } from '../walk.js'

export interface LinkExpectation {
  path: string
  /** The page it must name; 1 also accepts no page parameter (the first page). */
  page: number
  carries: Readonly<Record<string, string>>
}

/** What is wrong with a paging link, in words; empty when nothing is. */
export function linkProblems(link: unknown, client: Pick<Client, 'origin' | 'api'> & { apiPathname?: (path: string) => string }, expect: LinkExpectation, name: string): string[] {
  if (typeof link !== 'string') return [`${name} is ${JSON.stringify(link) ?? 'absent'}, not a URL`]
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return [`${name} ${JSON.stringify(link)} is not an absolute URL`]
  }
  const problems: string[] = []
  if (url.origin !== client.origin) problems.push(`${name} is on ${url.origin}, not on ${client.origin}`)
  const path = client.apiPathname?.(expect.path) ?? new URL(client.api(expect.path)).pathname
  if (url.pathname !== path) problems.push(`${name} points at ${url.pathname}, not ${path}`)
  const page = url.searchParams.get('page')
  if (page === null) {
    if (expect.page !== 1) problems.push(`${name} carries no page parameter (${link})`)
  } else if (page !== String(expect.page)) problems.push(`${name} carries page=${page}, not page=${expect.page}`)
  for (const [key, value] of Object.entries(expect.carries)) {
    const given = url.searchParams.get(key)
    if (given === null) problems.push(`${name} does not carry ${key}=${value} (${link})`)
    else if (given !== value) problems.push(`${name} carries ${key}=${given}, not ${key}=${value}`)
  }
  return problems
}

/** The records of a page that the page before it held too, by the list's identity (records pushed on by arrivals, or a page that repeats). */
export function repeatedRecords(list: Pick<ListDef, 'identity'>, before: readonly Rec[], after: readonly Rec[]): string[] {
  const seen = new Set(before.map(list.identity))
  return after.map(list.identity).filter((id) => seen.has(id))
}

/** The answers of a list fetched so far but its first page, by what they are: the second page, the filtered answers, every page of each walk (once each). */
async function fetched(ctx: RunContext, list: ListDef): Promise<Array<{ what: string; got: Got }>> {
  const pages = [
    { what: 'the second page', got: await ctx.plan.next(list) },
    { what: 'the answer with since', got: await ctx.plan.since(list) },
  ]
  if (list.endpoint === 'applications/list') pages.push({ what: 'the answer for one vacancy', got: await ctx.plan.vacancy() })
  const first = await ctx.plan.first(list)
  const known = new Set([first, ...pages.map((p) => p.got)])
  for (const walk of await ctx.plan.walks(list)) {
    for (const p of walk.pages) {
      if (known.has(p.got)) continue
      known.add(p.got)
      pages.push({ what: `page ${p.number} of ${walkWords(walk.filters)}`, got: p.got })
    }
  }
  return pages
}

/** Notes what the spec leaves open about a page: its size, and what next_page holds at the end. */
function observe(ctx: RunContext, list: ListDef, page: Page): void {
  if (typeof page.nextPage === 'string') {
    ctx.observations.add({ topic: 'page-size', endpoint: list.endpoint, summary: `a full page holds ${page.data.length} records` })
  } else {
    ctx.observations.add({
      topic: 'last-page',
      endpoint: list.endpoint,
      summary: `the last page's next_page: ${describeLink(page, 'next_page')}`,
      details: { url: page.answer.url, next_page: page.hasNextPage ? page.nextPage : '(no such field)' },
    })
  }
}

const sinceOf = (url: string) => new URL(url).searchParams.get('since') ?? ''

/**
 * The first place the order keys do not run newest first, or undefined when they do:
 * ids strictly down, times down or equal (two records may share a second).
 */
export function firstDisorder(keys: Array<number | string | undefined>): string | undefined {
  for (let i = 1; i < keys.length; i++) {
    const [before, after] = [keys[i - 1], keys[i]]
    if (before === undefined || after === undefined) return `a record without an order key at position ${i}`
    if (typeof before === 'number' ? !(before > (after as number)) : before < after) return `${JSON.stringify(before)} comes before ${JSON.stringify(after)}`
  }
  return undefined
}

/**
 * Whether the records fetched without since tell which records an answer with since
 * must share with them: when they are all there is, or run newest first by the order
 * key, so that everything newer than the oldest of them was fetched.
 */
function comparable(list: ListDef, without: Rec[], total: unknown): boolean {
  return (typeof total === 'number' && without.length >= total) || firstDisorder(without.map(list.orderKey)) === undefined
}

/**
 * The fields of the list that explain the answer with since: every record of it is at
 * or after since by the field, and every fetched record at or after since by the field,
 * where the answer covers it, is in it.
 */
export function sinceVerdict(list: ListDef, since: string, answer: Page, without: Rec[]) {
  const at = `${since}:00`
  const inAnswer = new Set(answer.data.map(list.identity))
  const keys = answer.data.map(list.orderKey).filter((k) => k !== undefined)
  const partial = typeof answer.nextPage === 'string'
  // a partial answer covers the records down to its oldest only where the spec orders the list ("List entries are
  // ordered newest first (highest id first).": applications) and the page keeps that order; of a list the spec does not
  // order, a page that happens to run newest first says nothing of what its next page holds
  const ordered = list.newestFirst && firstDisorder(answer.data.map(list.orderKey)) === undefined
  // biome-ignore lint/complexity/useMathMinMax: order keys may be timestamp strings, which Math.min would turn into NaN
  const covered = partial && keys.length > 0 ? keys.reduce((a, b) => (a < b ? a : b)) : undefined
  return list.sinceFields.map((field: SinceField) => {
    const before = answer.data.filter((r) => {
      const value = str(r[field])
      return value === undefined || !isTimestamp(value) || value < at
    })
    const missing = without.filter((r) => {
      const value = str(r[field])
      const key = list.orderKey(r)
      const inRange = !partial || (ordered && covered !== undefined && key !== undefined && key >= covered)
      return value !== undefined && value >= at && inRange && !inAnswer.has(list.identity(r))
    })
    return { field, before, missing }
  })
}

/**
 * What may have arrived between two answers of a list, while the run read a live board:
 * a record newer than anything the first walk (the pages read without filters) held —
 * an id above its highest, or a created_at after its newest — or a record of the walk
 * whose time of change moved on (its updated_at later than the walk saw it), on any answer
 * of the list fetched (every page of each walk of it, src/contract/walk.ts); and how much
 * `total` grew between the first and the second page. Every comparison across two answers
 * goes through `judge`: consistent, inconsistent, or cannot tell (the check is left unmade
 * and the run is incomplete, never failed).
 */
export interface Arrivals {
  /** Whether a record is one that arrived, or changed, after the first walk read the board. */
  arrived(record: Rec): boolean
  /** Records seen that arrived (or changed) during the run. */
  seen: Rec[]
  /** How much total grew from the first page to the second (0 when it did not, or cannot be told). */
  growth: number
  /** Whether anything tells the board changed during the run. */
  live: boolean
}

export type Consistency = { verdict: 'consistent'; because: string } | { verdict: 'inconsistent'; because: string } | { verdict: 'cannot tell'; because: string }

/**
 * A count compared across two answers: `got` must be at most `atMost`, plus the records
 * seen to have arrived (`allowance`). Beyond that, on a board that changed during the run,
 * the excess may be arrivals the kit did not see: it cannot tell.
 */
export function judgeCount(arrived: Arrivals, got: number | undefined, atMost: number | undefined, allowance: number, what: string): Consistency {
  if (got === undefined || atMost === undefined) return { verdict: 'inconsistent', because: `${what}: ${String(got)} against ${String(atMost)}, not integers` }
  if (got <= atMost) return { verdict: 'consistent', because: `${what}: ${got}, at most ${atMost}` }
  if (got <= atMost + allowance) return { verdict: 'consistent', because: `${what}: ${got}, at most ${atMost} and the ${allowance} seen arriving during the run` }
  if (arrived.live) return { verdict: 'cannot tell', because: `${what}: ${got}, more than ${atMost} and the ${allowance} seen arriving, on a board that changed during the run` }
  return { verdict: 'inconsistent', because: `${what}: ${got}, more than ${atMost}` }
}

export async function arrivals(ctx: RunContext, list: ListDef): Promise<Arrivals> {
  const walk = await ctx.plan.records(list)
  const keys = walk.map(list.orderKey).filter((k) => k !== undefined)
  // biome-ignore lint/complexity/useMathMinMax: order keys may be timestamp strings, which Math.max would turn into NaN
  const highest = keys.length > 0 ? keys.reduce((x, y) => (x > y ? x : y)) : undefined
  const created = walk.map((r) => str(r.created_at)).filter((v): v is string => v !== undefined && isTimestamp(v)).sort()
  const newest = created.at(-1)
  const before = new Map(walk.map((r) => [list.identity(r), r]))
  const isNew = (record: Rec) => {
    const key = list.orderKey(record)
    const at = str(record.created_at)
    return (highest !== undefined && key !== undefined && key > highest) || (newest !== undefined && at !== undefined && isTimestamp(at) && at > newest)
  }
  // a record the walk held whose time of change moved on: it changed after the walk read it
  const changed = (record: Rec) => {
    const earlier = before.get(list.identity(record))
    return earlier !== undefined && list.sinceFields.some((field) => {
      const [was, now] = [str(earlier[field]), str(record[field])]
      return was !== undefined && now !== undefined && isTimestamp(was) && isTimestamp(now) && now > was
    })
  }
  const arrived = (record: Rec) => isNew(record) || changed(record)
  const later = await fetched(ctx, list)
  const seen = later.flatMap(({ got }) => (got.kind === 'answer' ? (pageOf(got)?.data ?? []) : [])).filter(arrived)
  const [first, second] = [await ctx.plan.first(list), await ctx.plan.next(list)]
  const totals = [first, second].map((got) => (got.kind === 'answer' ? int(pageOf(got)?.total) : undefined))
  const growth = totals[0] !== undefined && totals[1] !== undefined ? Math.max(0, totals[1] - totals[0]) : 0
  const unique = [...new Map(seen.map((r) => [list.identity(r), r])).values()]
  // a total that moved between the pages of any walk tells the board changed too
  const moved = (await ctx.plan.walks(list)).some((walk) => new Set(walk.pages.map((p) => (p.got.kind === 'answer' ? int(pageOf(p.got)?.total) : undefined)).filter((t) => t !== undefined)).size > 1)
  return { arrived, seen: unique, growth, live: growth > 0 || unique.length > 0 || moved }
}

/** A check that cannot tell an arrival on a live board from a fault: not made, so the run is incomplete rather than failed. */
export const undecidable = (reason: string) => new Skip(`the board changed during the run and this cannot tell an arrival from a fault: ${reason}`, 'unavailable')

/** Passes, fails or leaves unmade a check by a comparison's verdict. */
export function decide(a: { ok(cond: boolean, pass: string, fail: string): boolean }, consistency: Consistency): void {
  if (consistency.verdict === 'cannot tell') throw undecidable(consistency.because)
  a.ok(consistency.verdict === 'consistent', consistency.because, consistency.because)
}

export function listChecks(t: Minimal, ctx: RunContext, list: ListDef): void {
  const { plan, client } = ctx
  const nextOrSkip = async () => pageOrSkip(await plan.next(list), 'the second page')

  check(t, `the first page fits the ${list.noun} list schema`, async (a) => {
    const answer = need(await plan.first(list))
    if (!a.ok(succeeded(answer), `answers HTTP ${answer.status}, a success`, `answered HTTP ${answer.status}, not a success (2xx)`)) return
    ctx.fits(a, list.schema, answer, list.endpoint, 'the first page')
    const page = pageOf(answer)
    if (page) observe(ctx, list, page)
  })

  check(t, 'every other answer of the list fetched fits the schema too', async (a) => {
    const answers = (await fetched(ctx, list)).filter((p) => p.got.kind === 'answer')
    if (answers.length === 0) throw new Skip('no other answer of this list was fetched')
    for (const { what, got } of answers) {
      const answer = need(got)
      const label = `${what} (${where(answer.url)})`
      if (!a.ok(succeeded(answer), `${label} answers HTTP ${answer.status}, a success`, `${label} answered HTTP ${answer.status}, not a success (2xx)`)) continue
      ctx.fits(a, list.schema, answer, list.endpoint, label)
      const page = pageOf(answer)
      if (page) observe(ctx, list, page)
    }
  })

  check(t, "next_page of the first page is an absolute URL on the same origin carrying page", async (a) => {
    const first = await plan.firstPage(list)
    const total = int(first.total)
    if (total === undefined) throw new Skip('total is not an integer (see the schema check): whether there is a next page is unknown')
    if (total <= first.data.length) {
      throw new Skip(`one page holds every record (total ${total}); the last page's next_page is an observation`)
    }
    a.none(linkProblems(first.nextPage, client, { path: list.path, page: 2, carries: {} }, 'next_page'), `next_page carries page=2 on ${client.origin}`)
  })

  check(t, 'total is the same on the first and the second page, but for records that arrived during the run', async (a) => {
    const [first, second] = [await plan.firstPage(list), await nextOrSkip()]
    if (first.total === second.total) return a.pass(`total is ${JSON.stringify(first.total)} on both`)
    const { growth, seen } = await arrivals(ctx, list)
    if (growth === 0) return a.fail(`total is ${JSON.stringify(first.total)} on the first page and ${JSON.stringify(second.total)} on the second`)
    if (seen.length === 0) throw undecidable(`total grew from ${String(first.total)} to ${String(second.total)} between the pages, and no record newer than the first walk was seen`)
    a.pass(`total grew by ${growth} between the pages, and records arrived during the run (${seen.slice(0, 3).map(list.identity).join(', ')})`)
  })

  check(t, "the second page's records are not the first page's, but for those pushed on by arrivals", async (a) => {
    const [first, second] = [await plan.firstPage(list), await nextOrSkip()]
    const repeated = repeatedRecords(list, first.data, second.data)
    if (second.data.length === 0) return a.fail('the second page is empty though the first named it')
    if (repeated.length === 0) return a.pass(`the ${second.data.length} records of the second page are new`)
    // records that arrived at the top push the first page's last ones onto the second
    const { growth } = await arrivals(ctx, list)
    a.ok(repeated.length <= growth, `the ${repeated.length} records the second page repeats were pushed on by ${growth} arrivals`,
      `the second page repeats ${repeated.length} records of the first: ${repeated.slice(0, 5).join(', ')}${growth > 0 ? `, though total grew by only ${growth}` : ''}`)
  })

  if (list.newestFirst) {
    check(t, `${list.noun}s are newest first (highest id first) within and across pages`, async (a) => {
      const first = await plan.firstPage(list)
      const next = await plan.next(list)
      const pages = [first, ...(next.kind === 'answer' && pageOf(next) ? [pageOf(next) as Page] : [])]
      const within = pages.map((page, i) => ({ i, problem: firstDisorder(page.data.map(list.orderKey)) }))
      for (const { i, problem } of within) {
        a.ok(problem === undefined, `page ${i + 1} is newest first`, `page ${i + 1} is not newest first: id ${problem}`)
      }
      if (pages.length === 2) {
        // a record pushed from the first page onto the second by arrivals is not out of order
        const onFirst = new Set(pages[0]?.data.map(list.identity))
        const { growth } = await arrivals(ctx, list)
        const pushed = pages[1]?.data.findIndex((r) => !onFirst.has(list.identity(r))) ?? 0
        const head = pushed > 0 && pushed <= growth ? pages[1]?.data[pushed] : pages[1]?.data[0]
        const across = firstDisorder([pages[0]?.data.at(-1), head].map((r) => (r ? list.orderKey(r) : undefined)))
        a.ok(across === undefined, 'the second page continues after the first', `across pages: id ${across}`)
      }
    })
  }

  if (list.twoWay) {
    check(t, 'prev_page is false on the first page', async (a) => {
      const first = await plan.firstPage(list)
      a.ok(first.hasPrevPage && first.prevPage === false, 'prev_page is false', `prev_page is ${describeLink(first, 'prev_page')}, not false`)
    })
    check(t, 'prev_page on the second page is a URL of the first page', async (a) => {
      const second = await nextOrSkip()
      a.none(linkProblems(second.prevPage, client, { path: list.path, page: 1, carries: {} }, 'prev_page'), 'prev_page names the first page')
    })
  }

  check(t, 'the answer with since is a subset of the answer without', async (a) => {
    const answer = pageOrSkip(await plan.since(list), 'the answer with since')
    const first = await plan.firstPage(list)
    const without = await plan.records(list)
    const known = new Set(without.map(list.identity))
    const keys = without.map(list.orderKey).filter((k) => k !== undefined)
    // biome-ignore lint/complexity/useMathMinMax: order keys may be timestamp strings, which Math.min would turn into NaN
    const oldest = keys.length > 0 ? keys.reduce((x, y) => (x < y ? x : y)) : undefined
    const arrived = await arrivals(ctx, list)
    // records older than the oldest fetched without since are not known, nor are those that arrived during the run
    const strangers = answer.data.filter((r) => {
      const key = list.orderKey(r)
      return oldest !== undefined && key !== undefined && key >= oldest && !known.has(list.identity(r)) && !arrived.arrived(r)
    })
    decide(a, judgeCount(arrived, int(answer.total), int(first.total), answer.data.filter(arrived.arrived).length, 'total with since against total without'))
    if (comparable(list, without, first.total)) {
      a.ok(strangers.length === 0, `its records are among those without since`, `${strangers.length} records with since are not in the answer without: ${strangers.slice(0, 3).map(list.identity).join(', ')}`)
    }
  })

  check(t, 'the answer with since leaves out the records before since', async (a) => {
    const answer = pageOrSkip(await plan.since(list), 'the answer with since')
    const first = await plan.firstPage(list)
    const since = `${sinceOf(answer.answer.url)}:00`
    // before since by every field it may compare: no reading of since keeps these
    const older = (await plan.records(list)).filter((r) => list.sinceFields.every((f) => {
      const value = str(r[f])
      return value !== undefined && isTimestamp(value) && value < since
    }))
    if (older.length === 0) throw new Skip(`no record fetched is before since ${since}`)
    const arrived = await arrivals(ctx, list)
    const all = int(first.total)
    const verdict = judgeCount(arrived, int(answer.total), all === undefined ? undefined : all - older.length, answer.data.filter(arrived.arrived).length, `total with since, against total without (${String(all)}) less the ${older.length} records fetched that are before since`)
    decide(a, verdict.verdict === 'inconsistent' ? { ...verdict, because: `${verdict.because}: since is not applied` } : verdict)
  })

  check(t, 'every record of the answer with since is at or after since', async (a) => {
    const answer = pageOrSkip(await plan.since(list), 'the answer with since')
    const since = sinceOf(answer.answer.url)
    const verdicts = sinceVerdict(list, since, answer, await plan.records(list))
    const respected = verdicts.filter((v) => v.before.length === 0)
    const field = respected[0]?.field
    if (field === undefined) {
      const v = verdicts[0] as (typeof verdicts)[number]
      return a.fail(`${v.before.length} of ${answer.data.length} records are before since ${since} by ${list.sinceFields.join(' and by ')}, e.g. ${v.field} ${JSON.stringify(v.before[0]?.[v.field])}`)
    }
    a.pass(`all ${answer.data.length} records are at or after ${since} by ${respected.map((v) => v.field).join(' and by ')}`)
  })

  check(t, 'the answer with since leaves out no record at or after since', async (a) => {
    const answer = pageOrSkip(await plan.since(list), 'the answer with since')
    const since = sinceOf(answer.answer.url)
    const verdicts = sinceVerdict(list, since, answer, await plan.records(list))
    const explaining = verdicts.filter((v) => v.before.length === 0 && v.missing.length === 0)
    ctx.observations.add({
      topic: 'since-field',
      endpoint: list.endpoint,
      summary:
        explaining.length === 0
          ? `no field explains the answer with since ${since}`
          : explaining.length === 1
            ? `since compares ${explaining[0]?.field}`
            : `since compares ${explaining.map((v) => v.field).join(' or ')} (this answer cannot tell them apart)`,
    })
    // one page of several of a list the spec does not order: what its other pages hold is not known from it
    if (explaining.length > 0 && typeof answer.nextPage === 'string' && !list.newestFirst) return a.pass(`its first page is one of several, of a list the spec gives no order: no record fetched can be told left out of it`)
    if (explaining.length > 0) return a.pass(`every record fetched at or after ${since} by ${explaining[0]?.field} is in it`)
    for (const v of verdicts) {
      if (v.before.length === 0) a.fail(`by ${v.field}, ${v.missing.length} fetched records at or after ${since} are missing: ${v.missing.slice(0, 3).map(list.identity).join(', ')}`)
    }
    if (verdicts.every((v) => v.before.length > 0)) throw new Skip('no field is respected by every record (see the check before)')
  })

  check(t, 'the answer with since counts exactly the records at or after since, to the minute', async (a) => {
    const answer = pageOrSkip(await plan.since(list), 'the answer with since')
    const at = `${sinceOf(answer.answer.url)}:00`
    const without = await plan.records(list)
    const all = int((await plan.firstPage(list)).total)
    // the records fetched (the first pages) are the whole list when total without since says so
    const whole = all !== undefined && new Set(without.map(list.identity)).size >= all
    // By each field the service may compare: the records fetched at or after since, a floor of the count; the exact
    // count when no record left unfetched can be at or after since by it: the whole list was fetched, or the field is
    // the time of creation (the order the spec gives lists: newest first) and the records fetched run newest first by
    // it down below since. A time of change is no such bound: a record created long ago and changed lately may sit on
    // a page the kit never fetched.
    const counts = list.sinceFields.map((field) => {
      const values = without.map((r) => str(r[field]))
      const readable = values.every((v) => v !== undefined && isTimestamp(v))
      const floor = readable ? values.filter((v) => (v as string) >= at).length : 0
      const bounded = field === 'created_at' && readable && firstDisorder(values) === undefined && values.some((v) => (v as string) < at)
      return { field, floor, exact: readable && (whole || bounded) }
    })
    const total = int(answer.total)
    const arrived = await arrivals(ctx, list)
    const allowance = answer.data.filter(arrived.arrived).length
    const match = counts.find((c) => c.exact && total !== undefined && total >= c.floor && total <= c.floor + allowance)
    if (match) return a.pass(`total ${String(total)} is the ${match.floor} records at or after ${at} by ${match.field}${total !== match.floor ? `, and ${(total as number) - match.floor} that arrived during the run` : ''}`)
    // a field whose count is only a floor explains any total at or above it: nothing can be concluded
    const open = counts.filter((c) => !c.exact && total !== undefined && total >= c.floor)
    if (open.length > 0) {
      throw new Skip(`total with since ${at} is ${String(total)}, at least the ${open.map((c) => `${c.floor} records fetched at or after it by ${c.field}`).join(' or ')}; the pages not fetched may hold more by ${open.map((c) => c.field).join(' or ')}: the records at or after it cannot be counted`)
    }
    if (total !== undefined && arrived.growth > 0 && counts.some((c) => total > c.floor)) throw undecidable(`total with since is ${total}, more than the records fetched at or after ${at}, and total grew by ${arrived.growth} between the pages`)
    a.fail(`total with since ${at} is ${JSON.stringify(answer.total)}, expected ${counts.map((c) => `${c.exact ? '' : 'at least '}${c.floor} (the records fetched at or after it by ${c.field})`).join(' or ')}: since is read off by some minutes or more`)
  })

  check(t, 'the answer with no records (since after the newest) fits the schema, data an empty array and total 0', async (a) => {
    const answer = need(await plan.empty(list))
    const since = `${sinceOf(answer.url)}:00`
    const body = isRec(answer.json) ? answer.json : undefined
    const array = succeeded(answer) && Array.isArray(body?.data)
    const records = array ? recs(body?.data) : []
    // decided before any assertion: a check that cannot be made asserts nothing
    let before: Rec[] = []
    if (records.length > 0) {
      const arrived = await arrivals(ctx, list)
      const olderThanSince = (r: Rec) => list.sinceFields.every((field) => {
        const value = str(r[field])
        return value !== undefined && isTimestamp(value) && value < since
      })
      before = records.filter((r) => !arrived.arrived(r) && olderThanSince(r))
      // records at or after a day past the newest time seen (a clock far ahead), or that arrived during the run: not an empty answer
      if (before.length === 0) throw new Skip(`it holds ${records.length} records at or after ${since} or that arrived during the run: not an answer with no records`)
    } else if (array && body?.total !== 0 && (await arrivals(ctx, list)).live) {
      throw undecidable(`total with since ${since} is ${JSON.stringify(body?.total)} and data holds no record`)
    }
    if (!a.ok(succeeded(answer), `answers HTTP ${answer.status}, a success`, `${where(answer.url)} answered HTTP ${answer.status}, not a success (2xx) with no records`)) return
    if (!body) return a.fail(`${where(answer.url)} answered a body that is not a JSON object`)
    if (before.length > 0) return a.fail(`the answer with since ${since} holds ${before.length} records before it, e.g. ${list.identity(before[0] as Rec)}`)
    a.ok(Array.isArray(body.data), 'data is an array', `data is ${JSON.stringify(body.data) ?? 'absent'}, not an array: an answer with no records still carries data (array)`)
    ctx.fits(a, list.schema, answer, list.endpoint, `the answer with since ${since}`)
    a.ok(body.total === 0, 'total is 0', `total is ${JSON.stringify(body.total) ?? 'absent'}, not 0, though data holds no record`)
  })

  check(t, 'next_page of the answer with since carries since and page', async (a) => {
    const answer = pageOrSkip(await plan.since(list), 'the answer with since')
    const since = sinceOf(answer.answer.url)
    const total = int(answer.total)
    if (total !== undefined && total <= answer.data.length) throw new Skip(`the answer with since fits on one page (total ${total})`)
    a.none(linkProblems(answer.nextPage, client, { path: list.path, page: 2, carries: { since } }, 'next_page'), `next_page carries since=${since} and page=2`)
  })

}

/** The order of a list whose order the spec does not give: observed on its first page. */
export async function observeOrder(ctx: RunContext, list: ListDef): Promise<void> {
  const got = await ctx.plan.first(list)
  const page = got.kind === 'answer' ? pageOf(got) : undefined
  if (list.newestFirst || !page) return
  const problem = firstDisorder(page.data.map(list.orderKey))
  ctx.observations.add({ topic: 'order', endpoint: list.endpoint, summary: problem === undefined ? 'the first page is newest first' : `the first page is not newest first (${problem})` })
}

/** What a malformed since answers on each list the run read: the spec does not say, so it is observed. */
export async function observeMalformedSince(ctx: RunContext, list: ListDef): Promise<void> {
  const got = await ctx.plan.malformedSince(list)
  const seen = got.kind === 'answer' ? `HTTP ${got.status}${succeeded(got) ? ' (answered as if since were absent, or filtered)' : ''}${isRec(got.json) ? ` ${JSON.stringify(got.json).slice(0, 100)}` : ` (${got.headers['content-type'] ?? 'no content type'})`}` : got.reason
  ctx.observations.add({ topic: 'error-body', endpoint: list.endpoint, summary: `a malformed since (since=${MALFORMED_SINCE}) answers ${seen}` })
}
