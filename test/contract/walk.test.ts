// The walk (issue 43 item 1): the kit reads each list, and each filtered form of it, from
// page 1 by next_page as a sync client does, and holds every page and every pair of pages
// read one after the other to the Paging sentence. The three faults that got through when
// it read only page 1, page 2 and a computed last page are caught as a consequence, in front
// of the fake and of the second server (both styles: other page sizes and link forms): a
// next_page missing on page 3, pages 2 and 3 served in swapped order, prev_page pointing at
// page 1 on page 3 and later. Legal choices pass: page sizes, link forms, every form of the
// last page's next_page, records arriving during the run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { BuildOptions } from '../../src/fake/app.js'
import type { OtherBoardOptions } from '../helpers/other-board.js'
import { board, contract, json, on, otherBoard, steppingClock, type Breakage, type Exchange, type KitRun } from './helpers.js'

// whole kit runs of a group or two each, some twenty of them
t.setTimeout(300_000)

const NEXT_PAGE = 'Where a response carries `next_page`, it is a full URL of the next page of the same list, using the query parameter `page` (and `since` where given).'
const NEWEST_FIRST = 'List entries are ordered newest first (highest id first).'
const PREV_PAGE = '`prev_page` (URL string, or false when there is none)'

const pageOf = (x: Exchange) => Number(new URL(x.url, 'http://x').searchParams.get('page') ?? '1')

/** The JSON body of a 200 answer of a list, rewritten. */
const listReply = (path: RegExp, change: (x: Exchange, body: Record<string, unknown>) => void): Breakage => ({
  reply: (x, r) => (on(x, path) ? json(r, (b) => change(x, b as Record<string, unknown>)) : r),
})

/** A deployment fault and the list it breaks. */
interface Fault {
  what: string
  only: string
  breakage: (upstream: () => string) => Breakage
  checks: readonly string[]
  words: string
}

const FAULTS: readonly Fault[] = [
  {
    what: 'next_page missing on page 3 (the records after it cannot be reached)',
    only: 'applications',
    breakage: () => listReply(/^\/applications\/list$/, (x, b) => {
      if (pageOf(x) === 3) delete b.next_page
    }),
    checks: ['applications/list: each walk carries next_page on every page but its last, naming the next page of the same list with its filters'],
    words: NEXT_PAGE,
  },
  {
    what: 'pages 2 and 3 served in swapped order',
    only: 'applications',
    breakage: (upstream) => ({
      reply: async (x, r) => {
        const page = pageOf(x)
        if (!on(x, /^\/applications\/list$/) || (page !== 2 && page !== 3) || r.status !== 200) return r
        // the other page's records under this page's links, as a deployment whose offsets are swapped serves them
        const other = new URL(x.url, upstream())
        other.searchParams.set('page', String(5 - page))
        const text = await (await fetch(other, { headers: { authorization: String(x.headers.authorization) } })).text()
        // the upstream's own origin in its links, as the proxy rewrites every answer's
        const [from, to] = [new URL(upstream()).origin, `http://${String(x.headers.host)}`]
        const swapped = JSON.parse(text.replaceAll(from, to).replaceAll(from.replaceAll('/', '\\/'), to.replaceAll('/', '\\/'))) as { data: unknown }
        return json(r, (b) => {
          ;(b as { data: unknown }).data = swapped.data
        })
      },
    }),
    checks: ['applications/list: each walk runs newest first (highest id first) within and across every page'],
    words: NEWEST_FIRST,
  },
  {
    what: 'prev_page pointing at page 1 on page 3 and later',
    only: 'timesheets',
    breakage: () => listReply(/^\/timesheets\/list$/, (x, b) => {
      if (pageOf(x) >= 3 && typeof b.prev_page === 'string') {
        const first = new URL(b.prev_page)
        first.searchParams.set('page', '1')
        b.prev_page = first.toString()
      }
    }),
    checks: ["timesheets/list: each walk's prev_page names the page before on every page (false on the first)"],
    words: PREV_PAGE,
  },
  {
    what: 'a record listed twice within page 2 (its first record again in place of its last)',
    only: 'candidates',
    breakage: () => listReply(/^\/candidates\/list$/, (x, b) => {
      const data = b.data as unknown[]
      if (pageOf(x) === 2 && data.length > 1) data[data.length - 1] = data[0]
    }),
    checks: ['candidates/list: each walk reads every record once: none twice, none skipped, but for arrivals'],
    words: NEXT_PAGE,
  },
  {
    what: 'total one more on page 2 than on the pages before and after it',
    only: 'applications',
    breakage: () => listReply(/^\/applications\/list$/, (x, b) => {
      if (pageOf(x) === 2 && typeof b.total === 'number') b.total += 1
    }),
    checks: ['applications/list: each walk keeps one total on every page, but for arrivals'],
    words: NEXT_PAGE,
  },
  {
    what: "the last page of the walk without filters saying a total one more than the records of the walk's pages",
    only: 'applications',
    breakage: () => listReply(/^\/applications\/list$/, (x, b) => {
      const last = typeof b.next_page !== 'string' || b.next_page === ''
      const unfiltered = [...new URL(x.url, 'http://x').searchParams.keys()].every((key) => key === 'page')
      if (pageOf(x) > 1 && last && unfiltered && typeof b.total === 'number' && (b.data as unknown[]).length > 0) b.total += 1
    }),
    checks: ['applications/list: each walk reads every record once: none twice, none skipped, but for arrivals'],
    words: NEXT_PAGE,
  },
]

/** Exit 1 with the fault's checks among those failing, the summary quoting the spec's words for them. */
function caught(t: Test, run: KitRun, fault: Fault): void {
  t.equal(run.exitCode, 1, `exit 1 (${run.reason ?? 'exit 0'})`)
  for (const check of fault.checks) t.ok(run.failed().includes(check), `${check} fails (failed: ${run.failed().join('; ') || 'none'})`)
  t.ok(run.output.includes(`spec: "${fault.words}"`), 'the summary quotes the words it breaks')
}

const SERVERS: ReadonlyArray<{ name: string; other?: Partial<OtherBoardOptions> }> = [{ name: 'the fake' }, { name: 'the second server, style a', other: { style: 'a' } }, { name: 'the second server, style b', other: { style: 'b' } }]

async function deployment(t: Test, server: (typeof SERVERS)[number], breakage: (upstream: () => string) => Breakage, fake: BuildOptions = {}, other: Partial<OtherBoardOptions> = {}): Promise<string> {
  if (server.other === undefined) {
    const holder: { url?: string } = {}
    const { url, fake: mock } = await board(t, breakage(() => holder.url as string), { rateLimitWindow: 0, ...fake })
    holder.url = mock.url
    return url
  }
  const holder: { url?: string } = {}
  const { url, board: second } = await otherBoard(t, breakage(() => holder.url as string), { username: 'jobboard', password: 'jobboard', rateLimitWindow: 0, ...server.other, ...other })
  holder.url = second.url
  return url
}

for (const fault of FAULTS) {
  for (const server of SERVERS) {
    t.test(`${fault.what}: caught in front of ${server.name}`, async (t) => {
      const url = await deployment(t, server, fault.breakage)
      caught(t, await contract({ baseUrl: url, only: fault.only, rateLimitWindow: 0 }), fault)
    })
  }
}

/** No check fails, and the run is complete (or, where records arrive, at worst incomplete). */
function conforms(t: Test, run: KitRun, live = false): void {
  const failing = run.report.checks.filter((c) => c.status === 'fail').map((c) => `${c.endpoint}: ${c.name}: ${c.failures.join('; ')}`)
  t.same(failing, [], 'no check fails')
  t.ok(live ? run.exitCode === 0 || run.exitCode === 3 : run.exitCode === 0, `exit ${run.exitCode}${run.reason ? ` (${run.reason})` : ''}`)
  const walked = run.report.walks.filter((w) => w.full)
  t.ok(walked.length > 0, `walks in full: ${walked.map((w) => `${w.id} (${w.read})`).join(', ')}`)
}

const LEGAL: ReadonlyArray<{ what: string; fake?: BuildOptions; other?: Partial<OtherBoardOptions> }> = [
  { what: 'the fake on pages of 7, its last page without next_page', fake: { pageSize: 7, lastPageNextPage: 'omit' } },
  { what: 'the fake on pages of 9, its last page with next_page null', fake: { pageSize: 9, lastPageNextPage: 'null' } },
  { what: 'the fake on pages of 11, its last page with next_page ""', fake: { pageSize: 11, lastPageNextPage: 'empty' } },
  { what: 'the second server, style a (pages of 7, page first in its links, next_page absent on the last page)', other: { style: 'a' } },
  { what: 'the second server, style b (pages of 9, no page for page 1, next_page false on the last page)', other: { style: 'b' } },
  { what: 'the second server, style a, its last pages with next_page "" and lists of their own page sizes', other: { style: 'a', lastPageNextPage: '', pageSizes: { applications: 4, timesheets: 5, candidates: 6 } } },
]

for (const legal of LEGAL) {
  t.test(`${legal.what}: every walk passes`, async (t) => {
    const url = legal.other === undefined ? (await board(t, {}, legal.fake)).url : (await otherBoard(t, {}, { username: 'jobboard', password: 'jobboard', ...legal.other })).url
    conforms(t, await contract({ baseUrl: url }))
  })
}

for (const style of ['a', 'b'] as const) {
  t.test(`the second server, style ${style}, receiving a record before every other request: no walk fails`, async (t) => {
    const { url } = await otherBoard(t, {}, { style, username: 'jobboard', password: 'jobboard', live: 2 })
    conforms(t, await contract({ baseUrl: url }), true)
  })
}

t.test('a board whose records arrive between every two requests the kit makes: no walk fails', async (t) => {
  const holder: { advance?: (seconds: number) => void } = {}
  // one event every three minutes, each kind in turn; the board's clock moves a minute before each request
  const events = Array.from({ length: 200 }, (_, i) => {
    const minutes = (i + 1) * 3
    return { at: `+${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`, event: ['new-application', 'new-timesheet', 'marketing-approval', 'new-candidate'][i % 4] }
  })
  const step = (x: Exchange) => {
    holder.advance?.(60)
    return x
  }
  const { url, fake } = await board(t, { request: step }, { seed: 3, now: '2026-03-02 08:00:00', pageSize: 9, activityData: { name: 'arrivals', events } as BuildOptions['activityData'] })
  holder.advance = (seconds) => fake.clock.advance(seconds)
  conforms(t, await contract({ baseUrl: url }), true)
  t.ok((fake.activity.status()?.played ?? 0) > 5, 'records arrived during the run')
})

t.test('a read-only run against the default fake walks every list in full within 150 requests', async (t) => {
  const run = await contract({ baseUrl: (await board(t)).url })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.same(run.report.walks.filter((w) => !w.full).map((w) => w.id), [], 'every walk in full')
  t.ok(run.report.requests.length <= 150, `${run.report.requests.length} requests`)
  t.match(run.output, /Walks \(each list and filter followed by next_page from page 1\): 10 of 10 in full this run/)
  t.match(run.output, / {2}applications\/list none +in full: pages 1-8 of 8/)
})

t.test('a board too large for one run walks its lists in full in turn, night after night, on one ledger', async (t) => {
  // pages of 3: applications run to 60 pages, more than one run's walk budget; the others fit, not all in one run
  const { url } = await board(t, {}, { pageSize: 3, rateLimitWindow: 0 })
  const ledger = join(t.testdir(), 'ledger.json')
  const clock = steppingClock()
  const walkedInFull = new Set<string>()
  const nights: KitRun[] = []
  for (let night = 0; night < 4; night++) {
    const run = await contract({ baseUrl: url, rateLimitWindow: 0, ledger }, { clock })
    nights.push(run)
    t.equal(run.exitCode, 0, `night ${night + 1}: ${run.reason ?? 'exit 0'}`)
    for (const walk of run.report.walks) if (walk.full) walkedInFull.add(walk.id)
    clock.advance(86_400)
  }
  const [first, second] = nights as [KitRun, KitRun]
  const inPart = first.report.walks.filter((w) => !w.full)
  t.ok(inPart.length > 0 && inPart.length < first.report.walks.length, `the first night walks some in full and some in part (${inPart.map((w) => w.id).join(', ')})`)
  const applications = first.report.walks.find((w) => w.id === 'applications/list none')
  t.match(applications, { full: false, pages: 60 }, 'applications/list, 60 pages, is walked in part')
  t.match(applications?.why, /more pages than one run's walk budget/, 'and says why')
  t.match(applications?.read, /^1-\d+, \d+-60$/, 'its first pages and a run at its end')
  t.match(first.output, /Walks \(each list and filter followed by next_page from page 1\): \d+ of 10 in full this run/)
  t.match(first.output, / {2}applications\/list none +in part: pages 1-\d+, \d+-60 of 60 \(more pages than one run's walk budget/)
  const cell = first.report.matrix.find((c) => c.id === 'applications/list none walk')
  t.match(cell, { status: 'skipped', why: 'budget' }, "its cell of the request matrix is skipped for the run's budget")
  const written = JSON.parse(readFileSync(ledger, 'utf8')) as { walks?: Record<string, Record<string, string>> }
  const kept = Object.values(written.walks ?? {})[0] ?? {}
  t.ok(Object.keys(kept).length >= walkedInFull.size - 1, `the ledger keeps when each walk went in full (${Object.keys(kept).join(', ')})`)
  const due = inPart.filter((w) => w.id !== 'applications/list none').map((w) => w.id)
  t.ok(due.some((id) => second.report.walks.find((w) => w.id === id)?.full), 'the next night walks in full one the first walked in part')
  const fits = first.report.walks.filter((w) => w.id !== 'applications/list none').map((w) => w.id)
  t.same(fits.filter((id) => !walkedInFull.has(id)), [], 'within four nights every walk the budget can hold went in full')
  t.notOk(walkedInFull.has('applications/list none'), 'one larger than the budget never does, and is read by its ends each night')
})

t.test('timesheets walked in part reach their end back by prev_page, and a prev_page wrong there is caught', async (t) => {
  // 70 timesheets, one a page: more than a run's walk budget
  const options = { style: 'a', counts: { timesheets: 70 }, pageSize: 1 } as const
  const { url } = await otherBoard(t, {}, { username: 'jobboard', password: 'jobboard', rateLimitWindow: 0, ...options })
  const run = await contract({ baseUrl: url, only: 'timesheets', rateLimitWindow: 0 })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  const walk = run.report.walks.find((w) => w.id === 'timesheets/list none')
  t.match(walk, { full: false, pages: 70 }, 'the walk without filters goes in part')
  t.match(walk?.read, /^1-\d+, \d+-70$/, 'its first pages and a run at its end are read')
  t.ok(run.report.requests.some((r) => r.url.endsWith('/timesheets/list?page=70')), 'the last page asked by its number')
  // the same board with prev_page naming page 1 from page 3 on: the kit goes back from the last page as prev_page says
  const broken = FAULTS.find((f) => f.only === 'timesheets') as Fault
  const { url: wrong } = await otherBoard(t, broken.breakage(() => ''), { username: 'jobboard', password: 'jobboard', rateLimitWindow: 0, ...options })
  const caughtRun = await contract({ baseUrl: wrong, only: 'timesheets', rateLimitWindow: 0 })
  caught(t, caughtRun, broken)
  t.ok(caughtRun.report.requests.some((r) => r.url.endsWith('/timesheets/list?page=1')), "page 1 asked by the last page's prev_page: the end is reached back by prev_page")
  t.match(caughtRun.check('timesheets/list', "each walk's prev_page names the page before on every page (false on the first)")?.failures.join('\n'), /prev_page of page 70 of the walk without filters .* carries page=1, not page=69/)
})
