// "A content-type header on GET requests is ignored.": a GET sent with a Content-Type (JSON,
// and one that is not) is the same request as without it, so it is answered as that
// request is — its status, and where it asks the same page again, its total, its records
// (once each, as many, each alike; in a list the spec orders, applications, the same ones
// in the same order) and its links. Where the spec gives no order (candidates, timesheets,
// marketing) two answers of one request may list a page otherwise: that is not the header. Asked of one list
// (groups/marketing-checks.ts: marketing, whose spare pages it may spend). What records arriving between the two answers
// explain (records at the top, the page's last ones pushed off, a record changed, a total
// grown) goes through the one arrivals helper (groups/lists-checks.ts): consistent, or on a
// board seen to change, not made; never a failure.
import { isDeepStrictEqual } from 'node:util'
import type { Minimal } from '@tapjs/core'
import { check, need, Skip, where } from '../checks.js'
import type { RunContext } from '../context.js'
import type { ListDef } from '../lists.js'
import { excerpt } from '../request-outcomes.js'
import { int, pageOf, succeeded, type Page } from '../records.js'
import { GET_CONTENT_TYPES } from '../spare-requests.js'
import { arrivals, decide, judgeCount, undecidable, type Arrivals } from './lists-checks.js'

/** A link member of a page as it came: its value, or that there is none. */
const link = (page: Page, field: 'next_page' | 'prev_page') => (field in page.body ? JSON.stringify(page.body[field]) : '(no such field)')

/**
 * How a page asked again (`now`) differs from the page as first answered (`then`), as the
 * same request: `faults`, what no arrival explains; `moved`, what records arriving (or
 * changing) between the two may explain, and only they.
 */
export function asAnswered(list: ListDef, then: Page, now: Page, arrived: Pick<Arrivals, 'arrived'>): { faults: string[]; moved: string[] } {
  const faults: string[] = []
  const moved: string[] = []
  const ids = (page: Page) => page.data.map(list.identity)
  const [before, after] = [ids(then), ids(now)]
  const twice = after.filter((id, i) => after.indexOf(id) !== i)
  if (twice.length > 0) faults.push(`it lists ${twice[0]} twice: every record once, on one page as across them`)
  const [had, has] = [new Set(before), new Set(after)]
  const added = now.data.filter((r) => !had.has(list.identity(r)))
  if (list.newestFirst) {
    // the spec gives the list's order: the first page's records are the newest, in that order, each time it is asked
    const strangers = added.filter((r) => !arrived.arrived(r))
    if (strangers.length > 0) faults.push(`it holds ${strangers.length} records the answer without it does not and that did not arrive in between, e.g. ${list.identity(strangers[0] as (typeof strangers)[number])}`)
    const missing = then.data.filter((r) => !has.has(list.identity(r)))
    // records arriving at the top push as many off the page's end
    if (missing.length > added.length) faults.push(`it leaves out ${missing.length} records the answer without it holds, e.g. ${list.identity(missing[0] as (typeof missing)[number])}`)
    else if (missing.length > 0) moved.push(`${missing.length} records of the answer without it are not in it, as many as arrived`)
    // the records both hold, in the order each gives them (one that changed in between may have moved)
    const still = (page: Page, other: Set<string>) => page.data.filter((r) => other.has(list.identity(r)) && !arrived.arrived(r)).map(list.identity)
    const [order, reorder] = [still(then, has), still(now, had)]
    if (!isDeepStrictEqual(order, reorder)) faults.push(`it gives the records both hold in another order: ${reorder.slice(0, 3).join(', ')}… where the answer without it gives ${order.slice(0, 3).join(', ')}…`)
  } else if (now.data.length !== then.data.length) {
    // an order the spec does not give may differ from one answer to the next, which records make the page too; not how
    // many: a page of the same total holds as many records
    const count = `it holds ${now.data.length} records, ${then.data.length} without it`
    if (int(now.total) === int(then.total)) faults.push(`${count}, of the same total ${String(now.total)}`)
    else moved.push(`${count}, as the total moved`)
  }
  const unlike = now.data.filter((r) => {
    const was = then.data.find((w) => list.identity(w) === list.identity(r))
    return was !== undefined && !arrived.arrived(r) && !isDeepStrictEqual(was, r)
  })
  if (unlike.length > 0) faults.push(`it answers ${unlike.length} records otherwise than the answer without it, e.g. ${list.identity(unlike[0] as (typeof unlike)[number])}`)
  for (const field of ['next_page', 'prev_page'] as const) {
    if (link(now, field) === link(then, field)) continue
    const problem = `its ${field} is ${link(now, field)}, ${link(then, field)} without it`
    // a page more, where records arrived past the page's end: the first page names a next page it did not
    if (field === 'next_page' && added.length > 0 && typeof then.body.next_page !== 'string') moved.push(problem)
    else faults.push(problem)
  }
  return { faults, moved }
}

export function contentTypeChecks(t: Minimal, ctx: RunContext, list: ListDef): void {
  for (const { contentType, use } of GET_CONTENT_TYPES) {
    check(t, `a GET sent with Content-Type ${contentType} is answered as without it`, async (a) => {
      const { got, without } = await ctx.plan.withContentType(contentType, use)
      const answer = need(got)
      if (without === undefined) throw new Skip('the first page gives no total and page size: what the page asked answers without a Content-Type is unknown')
      const label = `${where(answer.url)} with Content-Type ${contentType}`
      if (without === 'records') {
        if (a.ok(succeeded(answer), `${label} answered HTTP ${answer.status}, a success`, `${label} answered HTTP ${answer.status} ${excerpt(answer)}, not a success (2xx) as that page of records is: the header is to be ignored`)) ctx.fits(a, list.schema, answer, list.endpoint, label)
        return
      }
      const before = need(without)
      // answered alike: a success both ways (any 2xx is one, records.ts succeeded), else the same status
      const alike = succeeded(answer) ? succeeded(before) : answer.status === before.status
      if (!a.ok(alike, `${label} answered HTTP ${answer.status}, as without it (HTTP ${before.status})`, `${label} answered HTTP ${answer.status} ${excerpt(answer)}, HTTP ${before.status} without it: the header is to be ignored`)) return
      if (!succeeded(answer) || before.url !== answer.url) return
      const [now, then] = [pageOf(answer), pageOf(before)]
      if (!now || !then) return a.fail(`${label} answered no page of records though the answer without it is one`)
      const arrived = await arrivals(ctx, list)
      const { faults, moved } = asAnswered(list, then, now, arrived)
      // decided before any assertion: a check that cannot be made asserts nothing
      const total = int(now.total) === int(then.total) ? { verdict: 'consistent' as const, because: `total ${String(now.total)}, as without it` } : judgeCount(arrived, int(now.total), int(then.total), now.data.filter(arrived.arrived).length, `total ${label}, against total without it`)
      // a record twice within the answer no arrival explains; the rest, on a board seen to change, the kit cannot tell
      const twice = faults.filter((f) => / twice: /.test(f))
      const unsure = total.verdict === 'cannot tell' || (faults.length > twice.length && arrived.live)
      if (twice.length === 0 && total.verdict !== 'inconsistent' && unsure) throw undecidable(`${label}: ${[total.because, ...faults].join('; ')}`)
      if (total.verdict !== 'cannot tell') decide(a, total)
      a.none(faults.map((f) => `${label}: ${f}: the header is to be ignored`), `its ${now.data.length} records, their order and its links are the answer's without it${moved.length > 0 ? ` (but for what arrived in between: ${moved.join('; ')})` : ''}`)
    })
  }
}
