// The blind spots issue 22 found from outside, each closed by a check that can fail: a
// deployment that breaks exactly one rule fails that check (exit 1), and a legal
// deployment choosing differently passes it. Authentication on every operation kind,
// links that point home, the rate limit kept per full request (and a limiter answering
// 5xx), what the spec says inside a value, the visible effects of the job lifecycle,
// and a live board receiving records while the kit reads it.
import t, { type Test } from 'tap'
import type { BuildOptions } from '../../src/fake/app.js'
import type { ContractFlags } from '../../src/contract/settings.js'
import { formatTimestamp } from '../../src/core/time.js'
import { AUTHORIZATION, board, contract, json, jsonReply, on, steppingClock, type Breakage, type Exchange, type Reply } from './helpers.js'

// whole kit runs, one after another: on a busy machine (CI's second Node, a shared runner) they
// outlast tap's 120 s a file; the guard against a hang, not a timing
t.setTimeout(6 * 60_000)

type Json = Record<string, unknown> & { data: Array<Record<string, unknown>>; total: number; next_page?: unknown }

const READS = { only: 'candidates,applications,timesheets,auth' } as const
const ALL_WRITES = { flags: { only: 'fields,jobs', writes: true, rateLimitWindow: 0 }, fake: { rateLimitWindow: 0 } } as const

const decoded = (x: Exchange) => Buffer.from(String(x.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8')
const withAuthorization = (x: Exchange): Exchange => ({ ...x, headers: { ...x.headers, authorization: AUTHORIZATION } })
const isPublicPage = (x: Exchange) => !x.url.startsWith('/api/')

/** Lets requests matching `when` through without credentials, as a deployment that forgot to guard them. */
const unguarded = (when: (x: Exchange) => boolean): Breakage => ({ request: (x) => (x.headers.authorization === undefined && when(x) ? withAuthorization(x) : x) })

/** A limiter of the proxy's own, keyed by `key`: the first request of a key passes, later ones get `refusal`. */
function limiter(key: (x: Exchange) => string, refusal: Reply, only: RegExp = /./): Breakage {
  const seen = new Set<string>()
  return {
    answer: (x) => {
      if (isPublicPage(x) || !on(x, only)) return undefined
      const k = key(x)
      if (seen.has(k)) return refusal
      seen.add(k)
      return undefined
    },
  }
}
const TOO_MANY = jsonReply(429, { status: 429, message: 'Too many requests' }, { 'retry-after': '900' })
const UNAVAILABLE_LATER: Reply = { status: 503, headers: { 'content-type': 'text/html', 'retry-after': '900' }, body: Buffer.from('<h1>Slow down</h1>') }

/** The fake served under /staging, its links rewritten to match, but for the fields `keep` names. */
function underPath(holder: { url: string }, keep: readonly string[] = []): Breakage {
  const rewrite = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string') return keep.includes(key) ? value : value.split(`${holder.url}/api/v1`).join(`${holder.url}/staging/api/v1`)
    if (Array.isArray(value)) return value.map((v) => rewrite(v))
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, k)]))
    return value
  }
  return {
    request: (x) => ({ ...x, url: x.url.replace(/^\/staging/, '') }),
    reply: (_x, r) => json(r, (b) => rewrite(b)),
  }
}

/** Candidates (list and detail) changed one by one. */
const candidates = (change: (c: Record<string, unknown>) => void): Breakage => ({
  reply: (x, r) => (on(x, /^\/candidates\/(list|details\/[0-9]+)$/) ? json(r, (b) => (b as Json).data.forEach(change)) : r),
})

/** Applications (list and detail) changed one by one. */
const applications = (change: (a: Record<string, unknown>) => void): Breakage => ({
  reply: (x, r) => (on(x, /^\/applications\/(list|details\/[0-9]+)$/) ? json(r, (b) => (b as Json).data.forEach(change)) : r),
})

/**
 * applications/list on a live board: one application arrives after the first page is
 * read. Every later page then starts with the record the page before ended with (the page
 * before as the fake sent it: the arrival pushed it on; the last page grows by one) and
 * total is one more; the answer with since holds the new one. `show` false hides the
 * newcomer (a board that grew where the kit cannot see); `grow` false keeps total (a repeat
 * with no cause). A walk reads every page of it (src/contract/walk.ts).
 */
function liveBoard({ show = true, grow = true } = {}): Breakage {
  let first: Array<Record<string, unknown>> | undefined
  // each page as the fake sent it, by its query without page and its number
  const sent = new Map<string, Array<Record<string, unknown>>>()
  return {
    reply: (x, r) => {
      if (!on(x, /^\/applications\/list$/)) return r
      const query = new URL(x.url, 'http://board').searchParams
      return json(r, (raw) => {
        const b = raw as Json
        const page = Number(query.get('page') ?? 1)
        const list = new URLSearchParams(query)
        list.delete('page')
        sent.set(`${list} ${page}`, structuredClone(b.data))
        if ([...query.keys()].length === 0) {
          first = structuredClone(b.data)
          return
        }
        if (!first || query.has('vacancy') || query.get('since') === 'not-a-time') return
        if (grow) b.total += 1
        const before = sent.get(`${list} ${page - 1}`)
        if (page >= 2 && !query.has('since') && before !== undefined) {
          b.data = [before.at(-1) as Record<string, unknown>, ...(typeof b.next_page === 'string' ? b.data.slice(0, -1) : b.data)]
          return
        }
        // the answer with since holds the newcomer at its top: its later pages are pushed on by one too
        if (page >= 2 && show && before !== undefined) {
          b.data = [before.at(-1) as Record<string, unknown>, ...(typeof b.next_page === 'string' ? b.data.slice(0, -1) : b.data)]
          return
        }
        if (query.has('since') && !query.has('page') && show) {
          const newest = first[0] as Record<string, unknown>
          const id = (newest.id as number) + 1
          const at = formatTimestamp(Date.parse(`${String(newest.created_at).replace(' ', 'T')}Z`) + 60_000)
          const arrival = { ...structuredClone(newest), id, created_at: at, updated_at: at, href: String(newest.href).replace(/[0-9]+$/, String(id)), vacancy: { ...(newest.vacancy as object), id: 987654 } }
          b.data = [arrival, ...(typeof b.next_page === 'string' ? b.data.slice(0, -1) : b.data)]
        }
      })
    },
  }
}

/** A deployment: the fake behind a proxy breaking or changing it, and the kit's flags. */
interface Deployment {
  breakage: Breakage | ((holder: { url: string }) => Breakage)
  flags?: Omit<ContractFlags, 'baseUrl'>
  fake?: BuildOptions
  /** The base URL's path below the proxy's origin. */
  path?: string
}

interface Variant extends Deployment {
  deviation: string
  endpoint: string
  check: string
  says?: RegExp
}

const FAILING: Variant[] = [
  {
    deviation: 'a known user let in with any password',
    breakage: { request: (x) => (decoded(x).startsWith('jobboard:') ? withAuthorization(x) : x) },
    flags: { only: 'auth' },
    endpoint: 'auth',
    check: 'a request of the known user with a wrong password is refused with 401 or 403',
    says: /answered 200 to a request of the known user with a wrong password: it was not authenticated/,
  },
  {
    deviation: 'details served without credentials',
    breakage: unguarded((x) => on(x, /^\/(candidates|applications)\/details\//)),
    flags: READS,
    endpoint: 'auth',
    check: 'a detail asked without credentials is refused with 401 or 403',
  },
  {
    deviation: 'downloads served without credentials',
    breakage: unguarded((x) => on(x, /^\/(candidates\/(timesheet|resume|document|timesheets\/download)|applications\/attachment)\//)),
    flags: READS,
    endpoint: 'auth',
    check: 'a download asked without credentials is refused with 401 or 403',
  },
  {
    deviation: 'writes served without credentials',
    breakage: unguarded((x) => x.method === 'POST'),
    ...ALL_WRITES,
    endpoint: 'job/repost',
    check: 'a write without credentials is refused with 401 or 403',
  },
  {
    deviation: 'file hrefs on another port',
    breakage: (holder) =>
      candidates((c) => {
        for (const list of ['timesheets', 'resumes', 'documents']) {
          for (const file of c[list] as Array<{ href: string }>) file.href = file.href.replace(holder.url, holder.url.replace(/:([0-9]+)$/, (_m, p: string) => `:${Number(p) + 1}`))
        }
      }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'file hrefs point at /candidates/{timesheet,resume,document}/{id}',
    says: /is on http:\/\/127\.0\.0\.1:[0-9]+, not on http:\/\/127\.0\.0\.1:[0-9]+/,
  },
  {
    deviation: 'next_page outside the base URL path',
    breakage: (holder) => underPath(holder, ['next_page']),
    path: '/staging',
    flags: { only: 'marketing' },
    endpoint: 'marketing/list',
    check: 'next_page of the first page is an absolute URL on the same origin carrying page',
    says: /points at \/api\/v1\/marketing\/list, not \/staging\/api\/v1\/marketing\/list/,
  },
  {
    deviation: 'a limiter keyed by path, not by the full request',
    breakage: limiter((x) => `${x.method} ${x.url.split('?')[0]}`, TOO_MANY, /^\/marketing\/list$/),
    flags: { only: 'rate-limit' },
    fake: { rateLimitWindow: 0 },
    endpoint: 'rate limit',
    check: 'fresh full requests (another page, a since, another download) are not limited by the 429 of another',
    says: /another page \(\/marketing\/list\?page=1004\) answered 429 right after the 429 of/,
  },
  {
    deviation: 'a limiter answering 503 with Retry-after while fresh requests answer',
    breakage: limiter((x) => `${x.method} ${x.url}`, UNAVAILABLE_LATER),
    flags: { only: 'rate-limit' },
    fake: { rateLimitWindow: 0 },
    endpoint: 'rate limit',
    check: 'a repeated request within the window answers 429 with Retry-after in seconds',
    says: /answered HTTP 503 with Retry-after "900", not 429, while another page .* answered: the limit answers a 5xx/,
  },
  {
    deviation: 'available_from_year that is not the year of available_from',
    breakage: candidates((c) => {
      c.available_from_year = String(Number(c.available_from_year) + 1)
    }),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'available_from_year, _month and _day tell the date available_from gives',
    says: /available_from_year is "[0-9]{4}", not "[0-9]{4}"/,
  },
  {
    deviation: "a vacancy salary without currency symbol",
    breakage: applications((a) => {
      ;(a.vacancy as Record<string, unknown>).salary = '45000 per year'
    }),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: "a vacancy's salary shows a currency symbol and a unit",
    says: /the vacancy's salary "45000 per year" lacks a currency symbol/,
  },
  {
    deviation: 'a job/add message without the public page URL',
    breakage: { reply: (x, r) => (on(x, /^\/job\/add$/) ? json(r, (b) => ({ ...(b as object), message: 'Job added' })) : r) },
    ...ALL_WRITES,
    endpoint: 'job/add',
    check: 'a valid job answers 200 with the public page URL and the new id',
    says: /holds no URL/,
  },
  {
    deviation: "a published job's public page answering 404",
    breakage: { answer: (x) => (isPublicPage(x) ? { status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>Not found</h1>') } : undefined) },
    ...ALL_WRITES,
    endpoint: 'job/add',
    check: 'the public page of the new published job answers 200',
  },
  {
    deviation: "a deleted job's public page still shown",
    breakage: (() => {
      let deleted = false
      return {
        answer: (x: Exchange) => (deleted && isPublicPage(x) ? { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>A job</h1>') } : undefined),
        reply: (x: Exchange, r: Reply) => {
          if (on(x, /^\/job\/delete$/) && r.status === 200) deleted = true
          return r
        },
      }
    })(),
    ...ALL_WRITES,
    endpoint: 'job/delete',
    check: 'the public page answers 404 after delete',
  },
  {
    deviation: 'a second page repeating a record of the first while total holds',
    breakage: liveBoard({ grow: false }),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: "the second page's records are not the first page's, but for those pushed on by arrivals",
  },
]

async function runOf(t: Test, variant: Deployment) {
  const holder = { url: '' }
  const breakage = typeof variant.breakage === 'function' ? variant.breakage(holder) : variant.breakage
  const { url } = await board(t, breakage, variant.fake)
  holder.url = url
  return contract({ baseUrl: `${url}${variant.path ?? ''}`, ...variant.flags })
}

for (const variant of FAILING) {
  t.test(`fails on "${variant.check}" for ${variant.deviation}`, async (t) => {
    const run = await runOf(t, variant)
    const named = run.check(variant.endpoint, variant.check)
    t.equal(named?.status, 'fail', `${variant.endpoint}: ${variant.check} failed`)
    t.ok(named?.failures.length, `it says why: ${named?.failures[0]}`)
    if (variant.says) t.match(named?.failures.join('\n'), variant.says, 'naming what was expected and what came')
    t.equal(run.exitCode, 1, 'the run exits 1')
    t.same(run.report.jobs.notDeleted, [], 'every job the run made is deleted')
  })
}

interface Twin extends Deployment {
  choice: string
  /** Checks that must have passed (endpoint: name). */
  passed: string[]
}

const LEGAL: Twin[] = [
  {
    choice: 'refusing with 403 and a text body, no WWW-Authenticate',
    // the scheme's name in any case is Basic (RFC 9110 §11.1): `basic` is let in as the account
    breakage: { answer: (x) => (!isPublicPage(x) && String(x.headers.authorization ?? '').replace(/^basic /i, 'Basic ') !== AUTHORIZATION ? { status: 403, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Forbidden') } : undefined) },
    flags: READS,
    passed: [
      'auth: a request of the known user with a wrong password is refused with 401 or 403',
      'auth: a detail asked without credentials is refused with 401 or 403',
      'auth: a download asked without credentials is refused with 401 or 403',
    ],
  },
  {
    choice: 'serving the API under a base path, every link under it',
    breakage: (holder) => underPath(holder),
    path: '/staging',
    flags: { only: 'candidates,applications,timesheets,marketing' },
    passed: [
      'marketing/list: next_page of the first page is an absolute URL on the same origin carrying page',
      'candidates/list: file hrefs point at /candidates/{timesheet,resume,document}/{id}',
      'timesheets/list: prev_page on the second page is a URL of the first page',
    ],
  },
  {
    choice: 'keeping its rate limit per full request',
    breakage: {},
    flags: { only: 'rate-limit' },
    passed: ['rate limit: a repeated request within the window answers 429 with Retry-after in seconds', 'rate limit: fresh full requests (another page, a since, another download) are not limited by the 429 of another'],
  },
  {
    choice: 'writing the day with a leading zero and months short',
    breakage: candidates((c) => {
      c.available_from_day = String(c.available_from_day).padStart(2, '0')
      c.available_from_month = String(c.available_from_month).slice(0, 3)
    }),
    flags: { only: 'candidates' },
    passed: ['candidates/list: available_from_year, _month and _day tell the date available_from gives'],
  },
  {
    choice: 'a salary written with another symbol and an abbreviated unit',
    breakage: applications((a) => {
      ;(a.vacancy as Record<string, unknown>).salary = '€30/hr'
    }),
    flags: { only: 'applications' },
    passed: ["applications/list: a vacancy's salary shows a currency symbol and a unit"],
  },
  {
    choice: 'a job/add message with words around the public page URL',
    breakage: { reply: (x, r) => (on(x, /^\/job\/add$/) ? json(r, (b) => ({ ...(b as object), message: `Job added: ${(b as { message: string }).message}.` })) : r) },
    ...ALL_WRITES,
    passed: ['job/add: a valid job answers 200 with the public page URL and the new id', 'job/close: the public page answers 404 after close', 'job/delete: the public page answers 404 after delete'],
  },
  {
    choice: 'a live board receiving an application during the run',
    breakage: liveBoard(),
    flags: { only: 'applications' },
    passed: [
      'applications/list: total is the same on the first and the second page, but for records that arrived during the run',
      "applications/list: the second page's records are not the first page's, but for those pushed on by arrivals",
      'applications/list: applications are newest first (highest id first) within and across pages',
      'applications/list: the answer with since is a subset of the answer without',
    ],
  },
]

for (const twin of LEGAL) {
  t.test(`passes a deployment ${twin.choice}`, async (t) => {
    const run = await runOf(t, twin)
    t.same(run.failed(), [], 'no check failed')
    t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
    for (const name of twin.passed) {
      const [endpoint, check] = name.split(/: (.*)/s) as [string, string]
      t.equal(run.check(endpoint, check)?.status, 'pass', `${name} passed`)
    }
  })
}

t.test('a live board whose total grows where the kit cannot see an arrival leaves the check unmade: incomplete, not failed', async (t) => {
  const run = await runOf(t, { breakage: liveBoard({ show: false }), flags: { only: 'applications' } })
  t.same(run.failed(), [], 'no check failed')
  t.equal(run.exitCode, 3, 'incomplete')
  const check = run.check('applications/list', 'total is the same on the first and the second page, but for records that arrived during the run')
  t.match(check, { status: 'skip', skip: 'unavailable', reason: /the board changed during the run and this cannot tell an arrival from a fault/ })
})

t.test('an outage on every request of the 429 check errors it: exit 3, not a failure', async (t) => {
  const down: Reply = { status: 503, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>Down</h1>') }
  const run = await runOf(t, { breakage: { answer: (x) => (on(x, /^\/marketing\/list$/) ? down : undefined) }, flags: { only: 'rate-limit' }, fake: { rateLimitWindow: 0 } })
  t.same(run.failed(), [], 'no check failed')
  t.equal(run.exitCode, 3)
  t.equal(run.check('rate limit', 'a repeated request within the window answers 429 with Retry-after in seconds')?.status, 'error')
})

t.test("the valid job takes the constrained values in turn by night: a deployment refusing a sub-sector fails on that night, the fake passes", async (t) => {
  // the night whose turn is the request matrix's second job_industry form (src/contract/matrix.ts FIELD_FORMS),
  // "Veterinary Surgeon/Small Animal Vet Surgeon": without a ledger the night picks among the four forms
  const base = Date.UTC(2026, 10, 22, 9, 30)
  const night = Math.floor(base / 86_400_000)
  const start = base + (((1 - (night % 4)) % 4) + 4) % 4 * 86_400_000
  const refusing: Breakage = {
    answer: (x) => {
      const industry = x.method === 'POST' && on(x, /^\/job\/add$/) ? (JSON.parse(x.body.toString('utf8')) as { job_industry?: string }).job_industry : undefined
      return industry?.includes('/') ? jsonReply(412, { status: 412, message: 'job_industry is invalid' }) : undefined
    },
  }
  const broken = await board(t, refusing, ALL_WRITES.fake)
  const run = await contract({ baseUrl: broken.url, ...ALL_WRITES.flags }, { clock: steppingClock(start) })
  t.equal(run.check('job/add', 'a valid job answers 200 with the public page URL and the new id')?.status, 'fail')
  t.ok(run.report.observations.some((o) => /job_industry "Veterinary Surgeon\/Small Animal Vet Surgeon"/.test(o.summary)), 'the values of the night are named')
  const legal = await board(t, {}, ALL_WRITES.fake)
  const twin = await contract({ baseUrl: legal.url, ...ALL_WRITES.flags }, { clock: steppingClock(start) })
  t.same(twin.failed(), [], 'the fake takes the same values')
})
