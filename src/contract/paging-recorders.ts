// The recorders of the profile's paging points (docs/profile.md): how many records a page
// holds, whether candidates/list is paged, what next_page says on the last page and what
// a page past the last answers, which field since compares, and the lists' order. Each
// reads the answers a run already got (point-evidence.ts); the table is point-recorders.ts.
import { firstDisorder, sinceVerdict } from './groups/lists-checks.js'
import { APPLICATIONS, CANDIDATES, MARKETING, TIMESHEETS, type ListDef } from './lists.js'
import { MALFORMED_SINCE } from './filter-requests.js'
import { directly, essence, type Evidence, type Got, meant, notSeen, type Reading, seenOther, where } from './point-evidence.js'
import { int, pageOf } from './records.js'

const PAGED_LISTS = [TIMESHEETS, APPLICATIONS, MARKETING] as const

/** Records a full page holds: a first page with a next_page, of the lists the spec shows paged. */
export function pageSize(e: Evidence): Reading {
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

/** Whether candidates/list is paged: a next_page on its first page, or one page holding more than a page of the others. */
export function pageCandidates(e: Evidence): Reading {
  const got = e.first(CANDIDATES)
  const page = got ? pageOf(got.answer) : undefined
  if (!got || !page) return notSeen(e.selected(CANDIDATES) ? 'the first page of candidates/list was not answered as a list' : 'the candidates group did not run', e.missed(CANDIDATES.path))
  if (typeof page.nextPage === 'string') return directly(got, true)
  const size = pageSize(e).value
  if (typeof size === 'number' && page.data.length > size) return directly(got, false, `one page holds all ${page.data.length} candidates; other lists hold ${size} a page`)
  return notSeen(`one page holds every candidate (${page.data.length}), no more than a page of the other lists holds: paged or not, it looks the same`)
}

/** What next_page holds on a last page that has records (an out-of-range page aside). */
export function lastPageNextPage(e: Evidence): Reading {
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

export function outOfRangePage(e: Evidence): Reading {
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

export function sinceField(e: Evidence): Reading {
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

/** The order of the first pages of candidates, timesheets and marketing: all newest first, or all oldest first. */
export function listOrder(e: Evidence): Reading {
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
