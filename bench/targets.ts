// The endpoints the bench loads and the requests each sends. Ids, pages and dates are
// read from the running fake over its own API first, so the requests stay valid when
// a scenario changes; each target cycles through several URLs rather than one.
import type autocannon from 'autocannon'
import { MAX_CACHED_ANSWERS } from '../src/fake/http/answers.js'
import { jobInputSample } from '../test/fixtures/samples.js'
import { send, type Target } from './load.js'

const API = '/api/v1'
const AUTH = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

/** What the targets need to know about one board. */
export interface BoardFacts {
  /** Pages of applications/list at the board's page size. */
  applicationPages: number
  /** Pages of candidates/list. */
  candidatePages: number
  candidateIds: number[]
  resumeIds: number[]
  /** The board's clock, YYYY-MM-DD HH:MM:SS. */
  now: string
}

async function call(method: string, url: string): Promise<void> {
  const response = await fetch(url, { method, signal: AbortSignal.timeout(60_000) })
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}.`)
}

async function getJson(url: string, headers: Record<string, string> = AUTH): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) })
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}; the bench needs it to answer 200.`)
  return (await response.json()) as Record<string, unknown>
}

type Listed = { id: number; resumes?: Array<{ href: string }> }

/** Pages of applications/list at the board's page size. */
export async function applicationPages(origin: string): Promise<number> {
  const first = await getJson(`${origin}${API}/applications/list?page=1`)
  const perPage = Math.max(1, (first.data as unknown[]).length)
  return Math.max(1, Math.ceil(Number(first.total) / perPage))
}

/** Reads a board's page count, candidate and resume ids and clock through its API. */
export async function readBoard(origin: string): Promise<BoardFacts> {
  const candidateIds: number[] = []
  const resumeIds: number[] = []
  // Follow next_page to the end, bounded in case a board pages without end.
  let next: unknown = `${origin}${API}/candidates/list`
  let candidatePages = 0
  for (; typeof next === 'string' && candidatePages < 100; candidatePages++) {
    const page = await getJson(next)
    for (const candidate of page.data as Listed[]) {
      candidateIds.push(candidate.id)
      for (const resume of candidate.resumes ?? []) resumeIds.push(Number(resume.href.split('/').pop()))
    }
    next = page.next_page
  }
  return { applicationPages: await applicationPages(origin), candidatePages, candidateIds, resumeIds, now: await boardClock(origin) }
}

/** The board's clock, YYYY-MM-DD HH:MM:SS, read through the control API. */
export async function boardClock(origin: string): Promise<string> {
  return String((await getJson(`${origin}/__mock/clock`, {})).now)
}

/** A `since` value `days` before the board's clock, as a query string writes it. */
export function sinceDaysBefore(now: string, days: number): string {
  const iso = new Date(new Date(`${now.replace(' ', 'T')}Z`).getTime() - days * 86_400_000).toISOString()
  return `${iso.slice(0, 10)}+${iso.slice(11, 16)}`
}

/** `since` values 1 to 60 days before the board's clock, so lists of several sizes are asked for. */
const sinceValues = (now: string) => [1, 3, 7, 14, 30, 60].map((days) => sinceDaysBefore(now, days))

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)
const gets = (paths: string[], headers: Record<string, string> = AUTH) => paths.map((path) => ({ path, headers }))

/** The bare Fastify route every ratio is taken against. */
export function ceilingTarget(origin: string): Target {
  return { name: 'ceiling (bare Fastify)', url: origin, requests: [{ path: '/' }], expect: 200 }
}

/** The rows measured against a bare Fastify route sending the same bytes, too. */
export const SAME_BYTES_ROWS = ['applications/list?page=N', 'applications/list?since=…', 'candidates/list?page=N', 'candidates/details/{id}', 'metrics/list', 'candidates/resume/{id}']

/**
 * Copies the answers of a target's requests into the ceiling server, and returns the
 * target that asks the ceiling for them: the same bytes, from a bare Fastify route.
 */
export async function sameBytes(ceilingOrigin: string, target: Target): Promise<Target> {
  for (const request of target.requests) {
    const path = String(request.path)
    const response = await fetch(`${target.url}${path}`, { headers: request.headers as Record<string, string>, signal: AbortSignal.timeout(60_000) })
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}; the bench needs 200.`)
    const base64 = Buffer.from(await response.arrayBuffer()).toString('base64')
    const type = response.headers.get('content-type') ?? 'application/octet-stream'
    const put = await fetch(`${ceilingOrigin}/__bytes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path, type, base64 }),
    })
    if (!put.ok) throw new Error(`the ceiling refused the copy of ${path}: ${put.status}`)
  }
  return { name: `  same bytes, bare Fastify`, url: ceilingOrigin, expect: 200, requests: target.requests.map((r) => ({ path: r.path })) }
}

/** Asks for each of a target's requests once, unmeasured: the board makes and keeps what it would make on a first request. */
export async function fetchEach(target: Target): Promise<void> {
  for (const request of target.requests) {
    const response = await fetch(`${target.url}${String(request.path)}`, { headers: request.headers as Record<string, string>, signal: AbortSignal.timeout(60_000) })
    await response.arrayBuffer()
  }
}

/** Reads, failures and a write on a board without a rate limit. */
export function openTargets(origin: string, facts: BoardFacts): Target[] {
  const pages = range(1, facts.applicationPages)
  const sinces = sinceValues(facts.now)
  const jobBody = JSON.stringify(jobInputSample())
  return [
    { name: 'applications/list?page=N', url: origin, expect: 200, requests: gets(pages.map((p) => `${API}/applications/list?page=${p}`)) },
    { name: 'applications/list?since=…', url: origin, expect: 200, requests: gets(sinces.map((s) => `${API}/applications/list?since=${s}`)) },
    { name: 'candidates/list?page=N', url: origin, expect: 200, requests: gets(range(1, facts.candidatePages).map((p) => `${API}/candidates/list?page=${p}`)) },
    { name: 'candidates/details/{id}', url: origin, expect: 200, requests: gets(facts.candidateIds.map((id) => `${API}/candidates/details/${id}`)) },
    { name: 'candidates/resume/{id}', url: origin, expect: 200, requests: gets(facts.resumeIds.map((id) => `${API}/candidates/resume/${id}`)) },
    { name: 'metrics/list', url: origin, expect: 200, requests: gets([`${API}/metrics/list`]) },
    { name: '401 (no auth)', url: origin, expect: 401, requests: gets(pages.map((p) => `${API}/applications/list?page=${p}`), {}) },
    // An ISO `T` between date and time is one of the shapes docs/behaviour.md answers 412 to.
    { name: '412 (bad since)', url: origin, expect: 412, requests: gets(sinces.map((s) => `${API}/applications/list?since=${s.replace('+', 'T')}`)) },
    {
      name: 'POST job/add',
      url: origin,
      expect: 200,
      requests: [{ method: 'POST', path: `${API}/job/add`, headers: { ...AUTH, 'content-type': 'application/json' }, body: jobBody }],
      // A fresh board, so each round's writes land on the same board as the first round's.
      prepare: () => call('POST', `${origin}/__mock/reset`),
    },
  ]
}

/** Windows the rate limiter holds before it sweeps on every new one (src/fake/http/rate-limit.ts). */
const SWEEP_THRESHOLD = 10_000

/**
 * The paged list under a 900 s window. Every request carries a unique unknown parameter
 * (ignored by the route, counted apart by the limit), so each opens its own window and
 * answers 200. Measured twice: from an empty window table, and with 10,000 windows
 * already open, as a client leaves them that made that many distinct requests within
 * the window (paging through the large board's applications takes 10,000).
 */
export function limitedTargets(origin: string, facts: BoardFacts, connections: number): Target[] {
  const pages = range(1, facts.applicationPages)
  const requests = gets(pages.map((p) => `${API}/applications/list?page=${p}&bench=[<id>]`))
  const clear = () => call('DELETE', `${origin}/__mock/rate-limits`)
  const empty: Target = { name: 'rate-limited list, no windows open', url: origin, expect: 200, unique: true, requests, prepare: clear }
  return [
    empty,
    {
      ...empty,
      name: `rate-limited list, ${SWEEP_THRESHOLD / 1000}k windows open`,
      prepare: async () => {
        await clear()
        await send(empty, connections, SWEEP_THRESHOLD)
      },
    },
  ]
}

/**
 * Spellings of one list URL with `page` written with leading zeros (`page=007`): the
 * same answer, but each a URL of its own to the answer cache (src/fake/http/answers.ts), and
 * more of them than it keeps, so that every answer is made rather than sent from memory.
 * What paging deep or filtering by an old `since` costs the store shows only so.
 */
function madeEachTime(query: string, page: number): autocannon.Request[] {
  const spellings = range(0, MAX_CACHED_ANSWERS + 100).map((zeros) => `${API}/applications/list?${query}page=${'0'.repeat(zeros)}${page}`)
  return gets(spellings)
}

/** How far back the old `since` reaches: before any board's first record. */
const OLD_SINCE_DAYS = 3650

/** What the depth rows compare: the deepest full page, and the most recent `since` whose first page is full. */
export interface Depth {
  /** The last page that holds a full page of records (the last page itself when the count divides evenly). */
  lastFullPage: number
  /** Days before the board's clock: the fewest (1, 2, 4, …) whose `since` still fills a first page. */
  recentDays: number
  now: string
}

/**
 * Reads what the depth rows need from a board: pages of equal size, so that a deeper page
 * or an older since is not cheaper merely for holding fewer records.
 */
export async function readDepth(origin: string): Promise<Depth> {
  const first = await getJson(`${origin}${API}/applications/list?page=1`)
  const perPage = Math.max(1, (first.data as unknown[]).length)
  const now = await boardClock(origin)
  let recentDays = 1
  for (; recentDays < OLD_SINCE_DAYS; recentDays *= 2) {
    const page = await getJson(`${origin}${API}/applications/list?since=${sinceDaysBefore(now, recentDays)}`)
    if ((page.data as unknown[]).length >= perPage) break
  }
  return { lastFullPage: Math.max(1, Math.floor(Number(first.total) / perPage)), recentDays: Math.min(recentDays, OLD_SINCE_DAYS), now }
}

/** A pair of rows whose latencies are compared: `slow` should cost no more than `fast`. */
export interface DepthPair {
  name: string
  fast: string
  slow: string
}

/**
 * The first and the last full page of applications/list, and its first page under the
 * most recent `since` that fills it and under one ten years old, every answer made (not
 * kept): how latency moves with depth in the list and with the reach of the `since`
 * filter, for pages of the same size. `label` prefixes the rows.
 */
export function depthTargets(origin: string, { lastFullPage, recentDays, now }: Depth, label = ''): { targets: Target[]; pairs: DepthPair[] } {
  const row = (name: string, query: string, page: number): Target => ({ name: `${label}${name}`, url: origin, expect: 200, requests: madeEachTime(query, page) })
  const targets = [
    row('applications/list, first page, made', '', 1),
    row(`applications/list, last full page (${lastFullPage}), made`, '', lastFullPage),
    row(`applications/list?since= ${recentDays} day${recentDays === 1 ? '' : 's'} ago, made`, `since=${sinceDaysBefore(now, recentDays)}&`, 1),
    row(`applications/list?since= ${OLD_SINCE_DAYS / 365} years ago, made`, `since=${sinceDaysBefore(now, OLD_SINCE_DAYS)}&`, 1),
  ]
  const [first, last, recent, old] = targets.map((t) => t.name) as [string, string, string, string]
  return {
    targets,
    pairs: [
      { name: `${label || 'default: '}last page vs first page`, fast: first, slow: last },
      { name: `${label || 'default: '}an old since vs a recent one`, fast: recent, slow: old },
    ],
  }
}
