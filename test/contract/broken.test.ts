// Proof that the kit catches deviations: the fake behind a proxy that breaks one thing
// at a time, each a detail the spec documents, and for each the contract run fails on
// the check named for it (exit 1), while the unbroken fake behind the same proxy passes.
import t from 'tap'
import type { BuildOptions } from '../../src/fake/app.js'
import type { ContractFlags } from '../../src/contract/settings.js'
import { formatMinute } from '../../src/core/time.js'
import { TURNS, turnOf } from '../../src/contract/write-turns.js'
import type { Json } from '../helpers/board.js'
import { FREE_TEXT, REQUEST_CASES } from '../../src/contract/cases.js'
import { board, changeAnswer, changeJson, contract, dropHeader, json, on, type Breakage, type Exchange } from './helpers.js'

t.test('the unbroken fake behind the proxy passes every check, every write check in one run without a rate limit', async (t) => {
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, writes: true, rateLimitWindow: 0 })
  t.same(run.failed(), [], 'no check failed')
  t.equal(run.exitCode, 0)
  t.ok(run.report.summary.passed > 100, `${run.report.summary.passed} checks passed`)
  t.same(run.report.checks.filter((c) => c.skip === 'not-due' && c.endpoint.startsWith('job/')).map((c) => c.name), [], 'no write check is left for another run')
  const { checked, planned } = run.report.summary
  t.equal(checked, planned)
  t.match(run.output, new RegExp(`\\n\\d+ passed, 0 failed, \\d+ skipped, 0 errored; checked ${planned} of ${planned} planned\\n$`), 'the summary ends with the tally')
})

t.test('with its rate limit, the fake passes every check due this run, the other write checks not due and not planned', async (t) => {
  const { url } = await board(t)
  const run = await contract({ baseUrl: url, writes: true })
  t.same(run.failed(), [])
  t.equal(run.exitCode, 0)
  const notDue = run.report.checks.filter((c) => c.skip === 'not-due')
  // without --ledger only the lifecycle turn is made: every other turn of the catalogue (TURNS: the invalid adds, the add
  // with published 0, the operations after delete, each request case) waits, every one of its checks not due
  const waiting = TURNS.filter((turn) => turn.name !== 'lifecycle').map((turn) => turn.name)
  const turnChecks = run.report.checks.filter((c) => waiting.includes(turnOf(c.endpoint, c.name) ?? ''))
  const notDueWrites = notDue.filter((c) => c.endpoint.startsWith('job/'))
  t.same(notDueWrites, turnChecks, 'every check of a turn but the lifecycle waits for its turn, and no other write check')
  t.same(new Set(notDueWrites.map((c) => turnOf(c.endpoint, c.name))), new Set(waiting), 'every turn but the lifecycle is among them')
  t.same([...(run.report.rotation?.due ?? [])].sort(), [...waiting].sort(), 'the report names every waiting turn due, and only those')
  t.ok(notDue.every((c) => /^not due this run: /.test(c.reason ?? '')))
  t.equal(run.report.summary.checked, run.report.summary.planned)
})

/** One page of a list (1 without a page parameter) with its JSON body changed. */
const pageChange = (path: RegExp, page: number, change: Parameters<typeof json>[1]): Breakage => ({
  reply: (x, r) => (on(x, path) && Number(new URL(x.url, 'http://board').searchParams.get('page') ?? '1') === page ? json(r, change) : r),
})

/** Moves the `since` a list is asked with by some minutes, as a service off by that much would read it. */
const shiftSince = (pattern: RegExp, minutes: number): Breakage => ({
  request: (x: Exchange) => {
    const url = new URL(x.url, 'http://board')
    const since = url.searchParams.get('since')
    if (!on(x, pattern) || since === null || !/^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(since)) return x
    url.searchParams.set('since', formatMinute(Date.parse(`${since.replace(' ', 'T')}:00Z`) + minutes * 60_000))
    return { ...x, url: `${url.pathname}${url.search}` }
  },
})

/** A proxy that answers operations on a job it has seen deleted as if the job were still there. */
function undead(): Breakage {
  const deleted = new Set<number>()
  const idOf = (x: Exchange) => (JSON.parse(x.body.toString('utf8') || '{}') as { id?: number }).id
  return {
    reply: (x, r) => {
      if (!on(x, /^\/job\/(close|expire|repost|delete)$/)) return r
      const id = idOf(x)
      if (id !== undefined && deleted.has(id)) return json({ ...r, status: 200, headers: { ...r.headers, 'content-type': 'application/json' } }, () => ({ status: 200, message: 'closed' }))
      if (on(x, /^\/job\/delete$/) && r.status === 200 && id !== undefined) deleted.add(id)
      return r
    },
  }
}

/** Without a rate limit on either side: a variant whose checks take turns runs them all at once. */
const ALL_WRITES = { flags: { only: 'fields,jobs', writes: true, rateLimitWindow: 0 }, fake: { rateLimitWindow: 0 } } as const

/** The answers to the job/adds `which` picks by what they sent, rewritten by `change`. */
const addAnswer = (which: (sent: { job_reference?: string }) => boolean, change: (body: Record<string, unknown>) => Record<string, unknown>): Breakage => ({
  reply: (x, r) => {
    if (!on(x, /^\/job\/add$/) || r.status !== 200) return r
    const sent = JSON.parse(x.body.toString('utf8') || '{}') as { job_reference?: string }
    return which(sent) ? json(r, change) : r
  },
})
/** The request case whose add this is (its job_reference ends in -C<its index>). */
const caseOf = (sent: { job_reference?: string }) => REQUEST_CASES[Number(/-C([0-9]+)$/.exec(sent.job_reference ?? '')?.[1])]?.name
const REPOST_FIRST = (REQUEST_CASES.find((c) => c.operation === 'repost' && c.needsJob && c.allowed) as (typeof REQUEST_CASES)[number]).name
const FREE_TEXT_ADD = (REQUEST_CASES.find((c) => c.operation === 'add' && c.kind === 'free-text') as (typeof REQUEST_CASES)[number]).name
const WRITES_NO_LIMIT = { only: 'fields,jobs', writes: true, rateLimitWindow: 0 } as const

interface Variant {
  deviation: string
  breakage: Breakage
  flags?: Omit<ContractFlags, 'baseUrl'>
  /** Options of the fake: a request rewritten into one the kit also makes needs no rate limit. */
  fake?: BuildOptions
  endpoint: string
  check: string
  /** What its message must say: what was expected and what came. */
  says?: RegExp
}

const VARIANTS: Variant[] = [
  {
    deviation: 'a list answer without status',
    breakage: changeJson(/^\/candidates\/list$/, (b) => void delete b.status),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
  },
  {
    deviation: 'total as a string',
    breakage: changeJson(/^\/applications\/list$/, (b) => {
      b.total = String(b.total)
    }),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: 'the first page fits the application list schema',
  },
  {
    deviation: 'a timestamp in ISO 8601',
    breakage: changeJson(/^\/candidates\/list$/, (b) => {
      for (const c of (b.data as Array<{ created_at: string }>).slice(0, 1)) c.created_at = `${c.created_at.replace(' ', 'T')}Z`
    }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
  },
  {
    deviation: 'applications oldest first',
    breakage: changeJson(/^\/applications\/list$/, (b) => void b.data.reverse()),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: 'applications are newest first (highest id first) within and across pages',
  },
  {
    deviation: 'next_page without page',
    breakage: changeJson(/^\/timesheets\/list$/, (b) => {
      if (typeof b.next_page === 'string') b.next_page = b.next_page.replace(/[?&]page=[0-9]+/, '')
    }),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'next_page of the first page is an absolute URL on the same origin carrying page',
  },
  {
    deviation: 'prev_page null on the first page',
    breakage: changeJson(/^\/timesheets\/list$/, (b) => {
      if (b.prev_page === false) b.prev_page = null
    }),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'prev_page is false on the first page',
  },
  {
    deviation: 'a download whose Content-Length is more than the bytes sent',
    breakage: changeAnswer(/^\/candidates\/resume\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-length': String(r.body.length + 7) }, keepLength: true, cut: true })),
    flags: { only: 'candidates' },
    endpoint: 'candidates/resume/{id}',
    check: 'Content-Length equals the bytes received',
  },
  {
    deviation: 'a download whose Content-Length is not the listed filesize',
    breakage: changeAnswer(/^\/candidates\/document\/[0-9]+$/, (r) => ({ ...r, body: r.body.subarray(0, r.body.length - 3) })),
    flags: { only: 'candidates' },
    endpoint: 'candidates/document/{id}',
    check: 'Content-Length equals the listed filesize',
  },
  {
    deviation: 'a download without Content-Disposition',
    breakage: dropHeader('content-disposition', /^\/applications\/attachment\/[0-9]+$/),
    flags: { only: 'applications' },
    endpoint: 'applications/attachment/{id}',
    check: 'Content-Disposition is attachment with the listed filename',
  },
  {
    deviation: 'a 429 without Retry-after',
    breakage: dropHeader('retry-after'),
    flags: { only: 'rate-limit' },
    endpoint: 'rate limit',
    check: 'a repeated request within the window answers 429 with Retry-after in seconds',
  },
  {
    deviation: '200 for a request without credentials',
    breakage: {
      request: (x) => (x.headers.authorization === undefined ? { ...x, headers: { ...x.headers, authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } } : x),
    },
    flags: { only: 'auth' },
    endpoint: 'auth',
    check: 'a request without credentials is refused with 401 or 403',
  },
  {
    // the body says 400 (a 412 body on a 400 status line is legal: the spec names the body's status)
    deviation: '400 instead of 412 for an invalid job',
    breakage: {
      reply: (x, r) =>
        on(x, /^\/job\/add$/) && r.status === 412
          ? { ...r, status: 400, body: Buffer.from(JSON.stringify({ ...(JSON.parse(r.body.toString('utf8')) as object), status: 400 })) }
          : r,
    },
    ...ALL_WRITES,
    endpoint: 'job/add',
    check: 'an invalid salary_unit answers 412 with a message naming salary_unit',
  },
  {
    deviation: 'a candidate whose sector_disciplines breaks the <Sector>::<Discipline> form',
    breakage: changeJson(/^\/candidates\/list$/, (b) => {
      for (const c of (b.data as Array<{ sector_disciplines: string[] }>).slice(0, 1)) c.sector_disciplines = ['Veterinary Surgeon/Small Animal Vet Surgeon']
    }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
  },
  {
    deviation: 'metrics oldest month first',
    breakage: changeJson(/^\/metrics\/list$/, (b) => {
      for (const m of b.metrics as Array<{ aggregations: unknown[] }>) m.aggregations.reverse()
    }),
    flags: { only: 'metrics' },
    endpoint: 'metrics/list',
    check: 'months are newest first within each metric',
  },
  // more than the issue lists
  {
    deviation: 'since ignored',
    breakage: { request: (x) => ({ ...x, url: on(x, /^\/marketing\/list$/) ? x.url.replace(/[?&]since=[^&]*/, '') : x.url }) },
    flags: { only: 'marketing' },
    fake: { rateLimitWindow: 0 },
    endpoint: 'marketing/list',
    check: 'the answer with since leaves out the records before since',
  },
  {
    deviation: 'next_page on another origin',
    breakage: changeJson(/^\/marketing\/list$/, (b) => {
      if (typeof b.next_page === 'string') b.next_page = b.next_page.replace(/^http:\/\/[^/]+/, 'http://elsewhere.example')
    }),
    flags: { only: 'marketing' },
    endpoint: 'marketing/list',
    check: 'next_page of the first page is an absolute URL on the same origin carrying page',
  },
  {
    // a total that grows may be records arriving (test/contract/live-board.test.ts); one that shrinks is not
    deviation: 'total that shrinks from page to page',
    breakage: {
      reply: (x, r) =>
        on(x, /^\/candidates\/list$/) && x.url.includes('page=2')
          ? json(r, (b) => {
              b.total -= 1
            })
          : r,
    },
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'total is the same on the first and the second page, but for records that arrived during the run',
  },
  {
    deviation: 'the public page still shown after close',
    breakage: { reply: (x, r) => (/^\/jobs\/[0-9]+$/.test(x.url) ? { ...r, status: 200 } : r) },
    flags: { only: 'fields,jobs', writes: true },
    endpoint: 'job/close',
    check: 'the public page answers 404 after close',
  },
  {
    deviation: 'a deleted job that can still be closed',
    breakage: undead(),
    ...ALL_WRITES,
    endpoint: 'job/delete',
    check: 'close of the deleted job is refused',
  },
  // every documented detail can fail
  {
    deviation: 'a JSON answer that says Content-Type text/html',
    breakage: changeAnswer(/^\/marketing\/list$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/html; charset=utf-8' } })),
    flags: { only: 'marketing' },
    endpoint: 'every answer',
    check: 'each JSON answer says Content-Type application/json',
    says: /GET \/marketing\/list.*Content-Type "text\/html; charset=utf-8", not application\/json/,
  },
  {
    deviation: "a candidate's sector_disciplines value in another casing",
    breakage: changeJson(/^\/candidates\/list$/, (b) => {
      for (const c of (b.data as Array<{ sector_disciplines: string[] }>).slice(0, 1)) c.sector_disciplines = ['veterinary surgeon::small animal vet surgeon']
    }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
    says: /"veterinary surgeon::small animal vet surgeon": expected <Sector>::<Discipline> or a sector alone, in the casing/,
  },
  {
    deviation: 'the vacancy filter ignored',
    breakage: { request: (x) => ({ ...x, url: x.url.replace(/[?&]vacancy=[0-9]+/, '') }) },
    flags: { only: 'applications' },
    fake: { rateLimitWindow: 0 },
    endpoint: 'applications/list',
    check: 'the vacancy filter answers only applications for that vacancy',
  },
  {
    deviation: 'since read a few minutes late',
    breakage: shiftSince(/^\/marketing\/list$/, 3),
    flags: { only: 'marketing' },
    endpoint: 'marketing/list',
    check: 'the answer with since counts exactly the records at or after since, to the minute',
    says: /since is read off by some minutes or more/,
  },
  {
    deviation: 'since read a day early (a date compared, not a time)',
    breakage: shiftSince(/^\/timesheets\/list$/, -24 * 60),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'the answer with since counts exactly the records at or after since, to the minute',
    says: /since is read off by some minutes or more/,
  },
  {
    deviation: 'a candidate timesheet download as text/plain',
    breakage: changeAnswer(/^\/candidates\/timesheet\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/plain' } })),
    flags: { only: 'candidates' },
    endpoint: 'candidates/timesheet/{id}',
    check: 'the listed link answers 200 with an octet-stream Content-Type',
    says: /Content-Type is text\/plain, expected a timesheet-specific octet-stream type/,
  },
  {
    deviation: 'a timesheets/download without Content-Transfer-Encoding',
    breakage: dropHeader('content-transfer-encoding', /^\/candidates\/timesheets\/download\/[0-9]+$/),
    flags: { only: 'timesheets' },
    endpoint: 'candidates/timesheets/download/{id}',
    check: 'Content-Transfer-Encoding is binary',
  },
  {
    deviation: 'a resume download without Content-Disposition',
    breakage: dropHeader('content-disposition', /^\/candidates\/resume\/[0-9]+$/),
    flags: { only: 'candidates' },
    endpoint: 'candidates/resume/{id}',
    check: 'Content-Disposition is attachment with the listed filename',
  },
  {
    deviation: 'an application attachment as application/pdf',
    breakage: changeAnswer(/^\/applications\/attachment\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/pdf' } })),
    flags: { only: 'applications' },
    endpoint: 'applications/attachment/{id}',
    check: 'the listed link answers 200 with Content-Type application/octet-stream',
    says: /Content-Type is application\/pdf, expected application\/octet-stream/,
  },
  {
    deviation: 'a month that is no month name',
    breakage: changeJson(/^\/metrics\/list$/, (b) => {
      b.metrics[0].aggregations[1].month = 'Smarch'
    }),
    flags: { only: 'metrics' },
    endpoint: 'metrics/list',
    check: 'months are newest first within each metric',
    says: /aggregation 2 cannot be ordered: month "Smarch" is not a month name/,
  },
  // found by the deviation engine (test/contract/engine): answers the kit read but did not hold to their table
  {
    deviation: 'the add of a job with published 0 answering without its id',
    breakage: { reply: (x, r) => (on(x, /^\/job\/add$/) && (JSON.parse(x.body.toString('utf8') || '{}') as { published?: number }).published === 0 ? json(r, (b) => void delete b.id) : r) },
    flags: { only: 'jobs', writes: true, rateLimitWindow: 0 },
    fake: { rateLimitWindow: 0 },
    endpoint: 'job/add',
    check: 'the public page of a job added with published 0 does not answer 200',
    says: /id/,
  },
  // every add the run makes is held to the add's row, not the lifecycle's alone (the deviation engine's findings)
  {
    deviation: 'the job a repost case adds first answering an id that is no integer',
    breakage: addAnswer((sent) => caseOf(sent) === REPOST_FIRST, (b) => ({ ...b, id: `J${String(b.id)}` })),
    flags: WRITES_NO_LIMIT,
    fake: { rateLimitWindow: 0 },
    endpoint: 'job/repost',
    check: REPOST_FIRST,
    says: /the add of the job to repost: .*id/,
  },
  {
    deviation: 'the free-text add answering its page URL without its origin',
    // the free-text case sends its text in job_reference too
    breakage: addAnswer((sent) => sent.job_reference === FREE_TEXT, (b) => ({ ...b, message: String(b.message).replace(/^https?:\/\/[^/]+/, '') })),
    flags: WRITES_NO_LIMIT,
    fake: { rateLimitWindow: 0 },
    endpoint: 'job/add',
    check: FREE_TEXT_ADD,
    says: /holds no public page URL/,
  },
  {
    deviation: "an add of other forms naming a page no job has",
    breakage: addAnswer((sent) => /-F0$/.test(sent.job_reference ?? ''), (b) => ({ ...b, message: String(b.message).replace(/[0-9]+$/, '999999') })),
    flags: WRITES_NO_LIMIT,
    fake: { rateLimitWindow: 0 },
    endpoint: 'job/add',
    check: 'a valid job answers 200 with the public page URL and the new id',
    says: /its page .*999999 answered HTTP 404, not a success/,
  },
  {
    deviation: 'the application a candidate links answering without its applicant',
    breakage: changeJson(/^\/applications\/details\/[0-9]+$/, (b) => void delete b.data[0].applicant),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'an application href resolves',
    says: /applicant/,
  },
  {
    deviation: 'the candidate a timesheet links answering with a numeric e-mail',
    breakage: changeJson(/^\/candidates\/details\/[0-9]+$/, (b) => {
      b.data[0].email = 12345
    }),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'a candidate href resolves',
    says: /email/,
  },
  // found by the deviation engine: a record's links held on the first pages only, and a linked detail to its table only
  {
    deviation: 'a timesheet on page 3 linking another candidate than its own',
    breakage: pageChange(/^\/timesheets\/list$/, 3, (b) => {
      b.data[0].candidate.href = String(b.data[0].candidate.href).replace(/[0-9]+$/, (id) => String(Number(id) + 1))
    }),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'candidate hrefs point at /candidates/details/{id} of the candidate',
    says: /\(\/timesheets\/list\?page=3\)/,
  },
  {
    deviation: 'a candidate on page 2 whose resume href is relative',
    breakage: pageChange(/^\/candidates\/list$/, 2, (b) => {
      const file = b.data.flatMap((c: { resumes: Array<{ href: string }> }) => c.resumes)[0]
      file.href = new URL(file.href).pathname
    }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'file hrefs point at /candidates/{timesheet,resume,document}/{id}',
    says: /resumes href \(\/candidates\/list\?page=2\) .* is not an absolute URL/,
  },
  {
    deviation: 'an application on page 5 whose attachment href points at another list',
    breakage: pageChange(/^\/applications\/list$/, 5, (b) => {
      b.data[0].applicant.attachment.href = String(b.data[0].applicant.attachment.href).replace('/applications/', '/timesheets/')
    }),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: 'attachment hrefs point at /applications/attachment/{id}',
    says: /\(\/applications\/list\?page=5\)/,
  },
  {
    deviation: 'the application a candidate links holding its record twice',
    breakage: changeJson(/^\/applications\/details\/[0-9]+$/, (b) => {
      b.data = [b.data[0], b.data[0]]
    }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'an application href resolves',
    says: /holds total 1 and 2 records, not 1 and 1/,
  },
  // found by the deviation engine: a GET with a Content-Type compared with the same GET without it by status and total only
  ...(
    [
      ['its last record left out', (b: Json) => {
        b.data.pop()
      }, /holds \d+ records, \d+ without it, of the same total/],
      ['its first record twice', (b: Json) => {
        b.data.unshift(b.data[0])
      }, /lists .* twice/],
      ['a relative next_page', (b: Json) => ({ ...b, next_page: new URL(b.next_page).pathname }), /its next_page is "\/api\/v1\/marketing\/list/],
    ] as const
  ).map(([what, change, says]): Variant => ({
    deviation: `the first page asked with Content-Type text/plain answered with ${what}`,
    breakage: { reply: (x, r) => (on(x, /^\/marketing\/list$/) && x.headers['content-type'] === 'text/plain' ? json(r, change) : r) },
    flags: { only: 'marketing', rateLimitWindow: 0 },
    fake: { rateLimitWindow: 0 },
    endpoint: 'marketing/list',
    check: 'a GET sent with Content-Type text/plain is answered as without it',
    says,
  })),
  {
    deviation: 'a metric label the spec names missing',
    breakage: changeJson(/^\/metrics\/list$/, (b) => void b.metrics.splice(2, 1)),
    flags: { only: 'metrics' },
    endpoint: 'metrics/list',
    check: 'every label the spec names is there once',
    says: /Client enquiries is missing/,
  },
]

for (const variant of VARIANTS) {
  t.test(`fails on "${variant.check}" for ${variant.deviation}`, async (t) => {
    const { url } = await board(t, variant.breakage, variant.fake)
    const run = await contract({ baseUrl: url, ...variant.flags })
    const named = run.check(variant.endpoint, variant.check)
    t.ok(named, 'the check ran')
    t.equal(named?.status, 'fail', `${variant.endpoint}: ${variant.check} failed`)
    t.ok(named?.failures.length, `it says why: ${named?.failures[0]}`)
    if (variant.says) t.match(named?.failures.join('\n'), variant.says, 'naming what was expected and what came')
    t.equal(run.exitCode, 1, 'the run exits 1')
    t.match(run.reason, /checks? failed/)
    t.same(run.report.jobs.notDeleted, [], 'every job the run made is deleted')
  })
}

t.test("a GET with a Content-Type answered with marketing's records in another order passes: the spec gives that list no order", async (t) => {
  const reversed: Breakage = { reply: (x, r) => (on(x, /^\/marketing\/list$/) && x.headers['content-type'] !== undefined ? json(r, (b) => void b.data.reverse()) : r) }
  const { url } = await board(t, reversed, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, only: 'marketing', rateLimitWindow: 0 })
  t.same(run.failed(), [], 'no check fails')
  t.equal(run.check('marketing/list', 'a GET sent with Content-Type application/json is answered as without it')?.status, 'pass')
})

t.test('a field the schemas do not know is an observation, not a failure', async (t) => {
  // in the lists and the details alike, as a service that added a field would
  const { url } = await board(t, changeJson(/^\/applications\/(list|details\/[0-9]+)$/, (b) => {
      for (const a of b.data as Array<Record<string, unknown>>) a.source = 'job board'
    }))
  const run = await contract({ baseUrl: url, only: 'applications' })
  t.equal(run.exitCode, 0, 'the run passes')
  t.equal(run.check('applications/list', 'the first page fits the application list schema')?.status, 'pass')
  const drift = run.report.observations.find((o) => o.topic === 'drift' && o.endpoint === 'applications/list')
  t.match(drift, { summary: /data\[\]\.source/, details: [{ field: 'data[].source', example: '"job board"' }] }, 'the field is named with a value seen')
  t.match(run.output, /\[drift\] applications\/list: fields the schemas do not know: data\[\]\.source/, 'and shown on screen')
})

t.test("a job/fields answer of a shape the kit cannot read is an observation, and the spec's values are used", async (t) => {
  const { url } = await board(t, changeJson(/^\/job\/fields$/, (b) => ({ status: 200, fields: Object.entries(b.data).map(([name, values]) => ({ name, values })) })))
  const run = await contract({ baseUrl: url, only: 'fields,candidates' })
  t.equal(run.check('job/fields', 'gives every constrained list, each a non-empty list of distinct strings')?.status, 'skip')
  t.ok(run.report.observations.some((o) => o.topic === 'job-fields' && /not understood/.test(o.summary)), 'the shape is observed')
  t.equal(run.check('candidates/list', 'the first page fits the candidate list schema')?.status, 'pass', "candidates are checked against the spec's values")
  t.equal(run.exitCode, 0)
})

// "the current values of the constrained job fields": whatever the shape, an answer with no text in it gives none
for (const [what, body] of [
  ['its lists gone', { status: 200 }],
  ['data null', { status: 200, data: null }],
  ['data an empty object', { status: 200, data: {} }],
  ['data an empty array', { status: 200, data: [] }],
] as const) {
  t.test(`a job/fields answer with ${what} holds no value in any shape: it fails`, async (t) => {
    const { url } = await board(t, changeJson(/^\/job\/fields$/, () => body))
    const run = await contract({ baseUrl: url, only: 'fields' })
    t.equal(run.exitCode, 1)
    t.match(run.check('job/fields', 'gives every constrained list, each a non-empty list of distinct strings')?.failures, [/holds no value of any constrained field, in any shape/])
  })
}

t.test('values job/fields gives are bound into the schemas', async (t) => {
  // a board whose industries are not the spec's: candidates carry them, and pass
  const { url } = await board(t, {}, { scenarioData: { name: 'other-industries', fieldValues: { job_industry: ['Equine', 'Equine/Farrier', 'Zoo'] } } })
  const run = await contract({ baseUrl: url, only: 'fields,candidates' })
  t.equal(run.check('candidates/list', 'the first page fits the candidate list schema')?.status, 'pass')
  t.ok(run.report.observations.some((o) => o.topic === 'job-fields' && /job_industry differs from the spec's list: added Equine, Equine\/Farrier, Zoo/.test(o.summary)))
})
