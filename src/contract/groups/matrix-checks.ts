// The checks that read the request matrix's shapes past the first page (src/contract/matrix.ts):
// the last page of each list, the pages after the first and the last page of an answer
// with since and for one vacancy, a page past the last (an observation: the spec does not
// say what it answers), and the details of the last listed record. Each reads only its
// own cell's answer, so a deployment broken on one shape fails that cell's check alone.
import type { Minimal } from '@tapjs/core'
import { isTimestamp } from '../../../schemas/formats.js'
import { check, need, Skip, where, type Asserter, type Got } from '../checks.js'
import type { RunContext } from '../context.js'
import { APPLICATIONS, combinationsOf, type ListDef } from '../lists.js'
import type { Pick } from '../record-picks.js'
import { int, isRec, pageOf, rec, recs, str, succeeded, type Page, type Rec } from '../records.js'
import { arrivals, undecidable } from './lists-checks.js'

const sinceOf = (url: string) => new URL(url).searchParams.get('since') ?? ''

/** `e.g. <the first record>` for a failure message; empty when there is none (the message is built before the condition is read). */
const eg = (list: ListDef, records: readonly Rec[]) => (records[0] === undefined ? '' : `, e.g. ${list.identity(records[0])}`)

/** A page the matrix asks: fits the list's schema when it answers a success (2xx). */
function fitsPage(a: Asserter, ctx: RunContext, list: ListDef, got: Got, what: string): Page | undefined {
  const answer = need(got)
  if (!a.ok(succeeded(answer), `${what} answers HTTP ${answer.status}, a success`, `${what} (${where(answer.url)}) answered HTTP ${answer.status}, not a success (2xx)`)) return undefined
  if (!ctx.fits(a, list.schema, answer, list.endpoint, what)) return undefined
  return pageOf(answer)
}

/** Records before since by every field since may compare: no reading of since keeps them. */
export function beforeSince(list: ListDef, since: string, records: readonly Rec[]): Rec[] {
  const at = `${since}:00`
  return records.filter((r) => list.sinceFields.every((field) => {
    const value = str(r[field])
    return value !== undefined && isTimestamp(value) && value < at
  }))
}

/** A page of the answer with since, past the first: every record of it at or after since. */
async function sincePage(a: Asserter, ctx: RunContext, list: ListDef, got: Got, what: string): Promise<void> {
  const answer = need(got)
  const first = await ctx.plan.since(list)
  // the first page is the last: the answer with since's own checks read it
  if (first.kind === 'answer' && first.url === answer.url) throw new Skip(`the answer with since fits on one page: ${what} is its first, read by the since checks`)
  const page = fitsPage(a, ctx, list, got, what)
  if (!page) return
  const since = sinceOf(answer.url)
  const before = beforeSince(list, since, page.data)
  a.ok(before.length === 0, `all ${page.data.length} records of ${what} are at or after since ${since}`, `${before.length} of ${page.data.length} records of ${what} (${where(answer.url)}) are before since ${since} by ${list.sinceFields.join(' and by ')}${eg(list, before)}`)
}

/** A page of the answer for one vacancy, past the first: every application of it for that vacancy. */
async function vacancyPage(a: Asserter, ctx: RunContext, got: Got, what: string): Promise<void> {
  const answer = need(got)
  const first = await ctx.plan.vacancy()
  if (first.kind === 'answer' && first.url === answer.url) throw new Skip(`the vacancy answer fits on one page: ${what} is its first, read by the vacancy filter's check`)
  const vacancy = await ctx.plan.vacancyId()
  const page = fitsPage(a, ctx, APPLICATIONS, got, what)
  if (!page) return
  const others = page.data.filter((r) => int(rec(r.vacancy).id) !== vacancy)
  a.ok(others.length === 0, `every application of ${what} is for vacancy ${String(vacancy)}`, `${others.length} applications of ${what} (${where(answer.url)}) are for other vacancies, e.g. application ${String(others[0]?.id)}`)
}

/**
 * A page of the answer with a combination of filters: it fits the list's schema, and every
 * record of it honours each filter: for the vacancy asked, at or after since (by some field
 * since may compare). A deployment that lets one filter override another keeps records
 * the other leaves out.
 */
async function combinedPage(a: Asserter, ctx: RunContext, list: ListDef, filters: readonly string[], got: Got, what: string): Promise<void> {
  const page = fitsPage(a, ctx, list, got, what)
  if (!page) return
  const url = new URL(page.answer.url)
  for (const filter of filters) {
    const value = url.searchParams.get(filter) ?? ''
    if (filter === 'since') {
      const before = beforeSince(list, value, page.data)
      a.ok(before.length === 0, `all ${page.data.length} records of ${what} are at or after since ${value}`, `${before.length} of ${page.data.length} records of ${what} (${where(page.answer.url)}) are before since ${value} by ${list.sinceFields.join(' and by ')}${eg(list, before)}: since is not applied with ${filters.filter((f) => f !== 'since').join(' and ')}`)
    } else if (filter === 'vacancy') {
      const others = page.data.filter((r) => String(int(rec(r.vacancy).id)) !== value)
      a.ok(others.length === 0, `every record of ${what} is for vacancy ${value}`, `${others.length} of ${page.data.length} records of ${what} (${where(page.answer.url)}) are for other vacancies${eg(list, others)}: vacancy is not applied with ${filters.filter((f) => f !== 'vacancy').join(' and ')}`)
    } else a.fail(`the kit does not know how to hold a record to ${filter}`)
  }
}

/** The checks of each combination of a list's filters (lists.ts combinationsOf): its first page and the page its next_page names. */
function combinationChecks(t: Minimal, ctx: RunContext, list: ListDef): void {
  for (const filters of combinationsOf(list)) {
    const words = filters.join(' and ')
    check(t, `the answer with ${words} holds only records matching each`, async (a) => {
      await combinedPage(a, ctx, list, filters, await ctx.plan.combined(list, filters), `the answer with ${words}`)
    })
    check(t, `the second page of the answer with ${words} holds only records matching each`, async (a) => {
      await combinedPage(a, ctx, list, filters, await ctx.plan.combinedNext(list, filters), `the second page of the answer with ${words}`)
    })
  }
}

export function matrixListChecks(t: Minimal, ctx: RunContext, list: ListDef): void {
  const { plan } = ctx
  combinationChecks(t, ctx, list)

  check(t, "the last page fits the schema and holds none of the first page's records", async (a) => {
    const got = await plan.lastPage(list)
    const first = await plan.firstPage(list)
    const answer = need(got)
    if (answer.url === first.answer.url) throw new Skip(`one page holds every record (total ${JSON.stringify(first.total)}): the first page is the last, read by the first page's checks`)
    const page = fitsPage(a, ctx, list, got, 'the last page')
    if (!page) return
    const firstIds = new Set(first.data.map(list.identity))
    const arrived = await arrivals(ctx, list)
    const shared = page.data.filter((r) => firstIds.has(list.identity(r)))
    // records that arrived at the top push the first page's last ones on, as far as the last page when it is the second
    if (shared.length > 0 && shared.length <= arrived.growth) a.pass(`the ${shared.length} records the last page repeats were pushed on by ${arrived.growth} arrivals`)
    else if (shared.length > 0 && arrived.live) throw undecidable(`${shared.length} records of the first page are on the last page too`)
    else a.ok(shared.length === 0, `its ${page.data.length} records are not the first page's`, `${shared.length} records of the last page (${where(answer.url)}) are the first page's too${eg(list, shared)}`)
    if (list.newestFirst) {
      const lowest = Math.min(...first.data.map((r) => int(r.id)).filter((id): id is number => id !== undefined))
      const higher = page.data.filter((r) => !arrived.arrived(r) && (int(r.id) ?? 0) > lowest)
      a.ok(higher.length === 0, `the last page's ids are below the first page's (newest first)`, `${higher.length} records of the last page have an id above the first page's lowest (${lowest})${eg(list, higher)}: not newest first across pages`)
    }
  })

  check(t, 'the second page of the answer with since holds only records at or after since', async (a) => {
    await sincePage(a, ctx, list, await plan.sinceNext(list), 'the second page of the answer with since')
  })

  check(t, 'the last page of the answer with since holds only records at or after since', async (a) => {
    await sincePage(a, ctx, list, await plan.sinceLast(list), 'the last page of the answer with since')
  })

  check(t, 'a page past the last answers (what it answers is an observation)', async (a) => {
    const { page, got } = await plan.pastLast(list)
    const answer = need(got)
    const records = succeeded(answer) && isRec(answer.json) && Array.isArray(answer.json.data) ? recs(answer.json.data).length : undefined
    const what = `page ${page} answers HTTP ${answer.status}${records === undefined ? '' : ` with ${records} records`}`
    // the spec does not say what a page past the last answers: seen, never failed
    ctx.observations.add({ topic: 'last-page', endpoint: list.endpoint, summary: `a page past the last: ${what}` })
    a.pass(what)
  })

  if (list === APPLICATIONS) {
    check(t, 'the second page of the vacancy answer holds only applications for that vacancy', async (a) => {
      await vacancyPage(a, ctx, await plan.vacancyNext(), 'the second page of the vacancy answer')
    })
    check(t, 'the last page of the vacancy answer holds only applications for that vacancy', async (a) => {
      await vacancyPage(a, ctx, await plan.vacancyLast(), 'the last page of the vacancy answer')
    })
  }
}

/** The details of the last listed record: the one asked for, and only it, each field of it and of its nested entries as its schema says. */
export function lastDetailCheck(t: Minimal, ctx: RunContext, detail: { endpoint: string; schema: object }, noun: string, pick: () => Promise<Pick>, first: () => Promise<Pick>): void {
  check(t, `the detail of the last listed ${noun} holds that ${noun}`, async (a) => {
    const { got, record, url } = await pick()
    if (url !== undefined && url === (await first()).url) throw new Skip(`the last listed ${noun} is the one whose detail the other checks read`)
    const answer = need(got)
    if (!a.ok(succeeded(answer) && isRec(answer.json), `answers HTTP ${answer.status}, a success, with a JSON object`, `${where(answer.url)} answered HTTP ${answer.status}, not a success (2xx) with a JSON object`)) return
    const body = rec(answer.json)
    const data = recs(body.data)
    a.ok(body.total === 1 && data.length === 1, 'total 1 and one record', `total ${JSON.stringify(body.total)} and ${data.length} records, not 1 and 1`)
    a.ok(int(data[0]?.id) === int(record?.id), `it is ${noun} ${String(record?.id)}`, `${where(answer.url)} holds ${noun} ${String(data[0]?.id)}, not ${String(record?.id)}`)
    ctx.fits(a, detail.schema, answer, detail.endpoint, 'the detail of the last listed record')
  })
}
