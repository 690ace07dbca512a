// The endpoints the bench loads and the requests each sends. Ids, pages and dates are
// read from the running fake over its own API first, so the requests stay valid when
// a scenario changes; each target cycles through several URLs rather than one.
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
  const clock = await getJson(`${origin}/__mock/clock`, {})
  return { applicationPages: await applicationPages(origin), candidatePages, candidateIds, resumeIds, now: String(clock.now) }
}

/** `since` values 1 to 60 days before the board's clock, so lists of several sizes are asked for. */
function sinceValues(now: string): string[] {
  const at = new Date(`${now.replace(' ', 'T')}Z`).getTime()
  return [1, 3, 7, 14, 30, 60].map((days) => {
    const iso = new Date(at - days * 86_400_000).toISOString()
    return `${iso.slice(0, 10)}+${iso.slice(11, 16)}`
  })
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)
const gets = (paths: string[], headers: Record<string, string> = AUTH) => paths.map((path) => ({ path, headers }))

/** The bare Fastify route every ratio is taken against. */
export function ceilingTarget(origin: string): Target {
  return { name: 'ceiling (bare Fastify)', url: origin, requests: [{ path: '/' }], expect: 200 }
}

/** The rows measured against a bare Fastify route sending the same bytes, too. */
export const SAME_BYTES_ROWS = ['applications/list?page=N', 'candidates/list?page=N', 'candidates/details/{id}', 'metrics/list', 'candidates/resume/{id}']

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

/** Windows the rate limiter holds before it sweeps on every new one (src/http/rate-limit.ts). */
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

/** The large board's list near its start and deep in it, ten pages each. */
export function largeTargets(origin: string, pages: number): Target[] {
  const deep = Math.max(1, Math.min(9000, pages - 10))
  return [
    { name: 'large: applications/list?page=1..10', url: origin, expect: 200, requests: gets(range(1, 10).map((p) => `${API}/applications/list?page=${p}`)) },
    {
      name: `large: applications/list?page=${deep}..${deep + 9}`,
      url: origin,
      expect: 200,
      requests: gets(range(deep, 10).map((p) => `${API}/applications/list?page=${p}`)),
    },
  ]
}
