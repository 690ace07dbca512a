// The throughput rounds with wrk (bench/wrk.ts): per endpoint, the fake's req/s with the
// verdict on (as `serve` runs it) against a bare Fastify route sending the same bytes with
// the same status and headers, over the same keep-alive connections, after the same Basic
// credentials check (a string compare), in the same rounds, fake and bare in turns. Each
// run also says which side was the limit (wrk's CPU against the server's), so a ratio
// near 1 cannot come from the load generator running out first. Reports; never fails.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jobInputSample } from '../test/fixtures/samples.js'
import type { NodeBinary } from './nodes.js'
import { median } from './report.js'
import type { ServerSpec } from './server.js'
import type { Server } from './servers.js'
import { readBoard, sinceDaysBefore } from './targets.js'
import { runWrk, WRK_CONNECTIONS, WRK_THREADS, type WrkRequest, type WrkSample } from './wrk.js'

const API = '/api/v1'
const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

/** The rows the wrk rounds measure, in order; the throughput goal (≥ 0.9×) is judged on each. */
export const WRK_ROWS = [
  'applications/list?page=1',
  'applications/list?since=…',
  'candidates/list?page=N',
  'candidates/details/{id}',
  'candidates/resume/{id}',
  'metrics/list',
  'job/fields',
  '429 (a URL asked again in its window)',
  '412 (job/add, a field not in job/fields)',
] as const

export interface WrkSettings {
  rounds: number
  /** Seconds of measured load per run (wrk counts whole seconds). */
  duration: number
  /** Seconds of unmeasured load before each run (0: none). */
  warmup: number
}

interface WrkTarget {
  name: string
  /** The fake that answers it: the open board, or the one with a rate limit (the 429s). */
  board: 'open' | 'limited'
  expect: number
  requests: WrkRequest[]
  /** Unmeasured, before anything is copied or measured: a 429 row asks its URL once, to open its window. */
  prepare?: (origin: string) => Promise<void>
}

const get = (path: string): WrkRequest => ({ method: 'GET', path: `${API}/${path}`, headers: { Authorization: AUTH } })
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

async function targets(origin: string): Promise<WrkTarget[]> {
  const facts = await readBoard(origin)
  // a client whose list of job types is out of date: the 412 names the field, and the verdict notes the stale value
  const badJob = JSON.stringify({ ...jobInputSample(), job_type: 'Full time, mostly' })
  const again = get('applications/list?page=2')
  return [
    { name: WRK_ROWS[0], board: 'open', expect: 200, requests: [get('applications/list?page=1')] },
    { name: WRK_ROWS[1], board: 'open', expect: 200, requests: [1, 3, 7, 14, 30, 60].map((days) => get(`applications/list?since=${sinceDaysBefore(facts.now, days)}`)) },
    { name: WRK_ROWS[2], board: 'open', expect: 200, requests: range(1, facts.candidatePages).map((page) => get(`candidates/list?page=${page}`)) },
    { name: WRK_ROWS[3], board: 'open', expect: 200, requests: facts.candidateIds.map((id) => get(`candidates/details/${id}`)) },
    { name: WRK_ROWS[4], board: 'open', expect: 200, requests: facts.resumeIds.map((id) => get(`candidates/resume/${id}`)) },
    { name: WRK_ROWS[5], board: 'open', expect: 200, requests: [get('metrics/list')] },
    { name: WRK_ROWS[6], board: 'open', expect: 200, requests: [get('job/fields')] },
    {
      name: WRK_ROWS[7],
      board: 'limited',
      expect: 429,
      requests: [again],
      prepare: async (o) => void (await (await fetch(`${o}${again.path}`, { headers: again.headers })).arrayBuffer()),
    },
    {
      name: WRK_ROWS[8],
      board: 'open',
      expect: 412,
      requests: [{ method: 'POST', path: `${API}/job/add`, headers: { Authorization: AUTH, 'Content-Type': 'application/json' }, body: badJob }],
    },
  ]
}

/** Headers the server writes for itself, whoever it is: not copied. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-type'])

/**
 * Asks the fake each request of a target once, checks the status, and copies the answer
 * (status, headers, body) into the bare server with the Authorization header to expect.
 */
async function copyAnswers(target: WrkTarget, fake: string, bare: string): Promise<void> {
  for (const request of target.requests) {
    const response = await fetch(`${fake}${request.path}`, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(60_000) })
    const bytes = Buffer.from(await response.arrayBuffer())
    if (response.status !== target.expect) throw new Error(`${request.method} ${request.path} answered ${response.status}; the row ${target.name} needs ${target.expect}.`)
    const headers: Record<string, string> = {}
    for (const [name, value] of response.headers) if (!OWN_HEADERS.has(name)) headers[name] = value
    const put = await fetch(`${bare}/__bytes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: request.method,
        path: request.path,
        status: response.status,
        type: response.headers.get('content-type') ?? 'application/octet-stream',
        headers,
        auth: request.headers.Authorization,
        bytes: true,
        base64: bytes.toString('base64'),
      }),
    })
    if (!put.ok) throw new Error(`the bare server refused the copy of ${request.path}: ${put.status}`)
  }
}

/** What limited a run: the side that used (nearly) a whole core while the other did not. */
export type Limit = 'server' | 'wrk' | 'neither'

function limitOf(sample: WrkSample): Limit {
  if (sample.serverCpu >= 0.85 && sample.serverCpu > sample.wrkCpu) return 'server'
  if (sample.wrkCpu >= 0.85) return 'wrk'
  return 'neither'
}

/** One endpoint over the rounds: the medians, each round's ratio, and who was the limit. */
export interface WrkRow {
  name: string
  expect: number
  /** Median req/s of the fake and of the bare route. */
  rps: number
  bareRps: number
  /** The fake's req/s ÷ the bare route's, the median of each round's own ratio (the goal: ≥ 0.9). */
  rpsRatio: number
  ratioMin: number
  ratioMax: number
  /** Server CPU per answer, microseconds, the fake's and the bare route's (medians). */
  cpuPerAnswer: number
  bareCpuPerAnswer: number
  /**
   * The bare route's CPU per answer ÷ the fake's, the median of the rounds' own: the ratio
   * of their req/s were each given a whole core. It moves less than req/s when other
   * processes take the cores (runs limited by "neither").
   */
  cpuRatio: number
  /** Median shares of a core: the fake's server and wrk during its runs; the bare server and wrk during its. */
  serverCpu: number
  wrkCpu: number
  bareServerCpu: number
  bareWrkCpu: number
  /** Runs limited by the server, by wrk, by neither (the machine busy elsewhere), fake and bare together. */
  limits: Record<Limit, number>
  /** Answers with another status than the row's, plus connection errors, summed over the rounds (fake and bare). */
  unexpected: number
  rounds: Array<{ fake: WrkSample; bare: WrkSample }>
}

function unexpected(sample: WrkSample, expect: number): number {
  // wrk counts answers that are not 2xx or 3xx: a row expecting a 4xx expects every one to be so
  return sample.errors + (expect < 400 ? sample.non2xx : sample.requests - sample.non2xx)
}

function summarise(target: WrkTarget, rounds: Array<{ fake: WrkSample; bare: WrkSample }>): WrkRow {
  const ratios = rounds.map((r) => r.fake.rps / r.bare.rps)
  const of = (pick: (r: { fake: WrkSample; bare: WrkSample }) => number) => median(rounds.map(pick))
  const perAnswer = (s: WrkSample) => (s.rps > 0 ? (s.serverCpu / s.rps) * 1e6 : Number.NaN)
  const limits: Record<Limit, number> = { server: 0, wrk: 0, neither: 0 }
  for (const r of rounds) for (const s of [r.fake, r.bare]) limits[limitOf(s)] += 1
  return {
    name: target.name,
    expect: target.expect,
    rps: of((r) => r.fake.rps),
    bareRps: of((r) => r.bare.rps),
    rpsRatio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    cpuPerAnswer: of((r) => perAnswer(r.fake)),
    cpuRatio: of((r) => perAnswer(r.bare) / perAnswer(r.fake)),
    bareCpuPerAnswer: of((r) => perAnswer(r.bare)),
    serverCpu: of((r) => r.fake.serverCpu),
    wrkCpu: of((r) => r.fake.wrkCpu),
    bareServerCpu: of((r) => r.bare.serverCpu),
    bareWrkCpu: of((r) => r.bare.wrkCpu),
    limits,
    unexpected: rounds.reduce((sum, r) => sum + unexpected(r.fake, target.expect) + unexpected(r.bare, target.expect), 0),
    rounds,
  }
}

export type StartOn = (name: string, spec: ServerSpec) => Promise<Server>

/**
 * The wrk rounds on one Node: the bare server and two fakes (verdict on; one with a
 * 900 s window for the 429s) started with `start`, every answer copied, then each round
 * loads every endpoint on the fake and on the bare route in turns (the fake first in odd
 * rounds, the bare route first in even ones).
 */
export async function measureWithWrk(wrk: string, node: NodeBinary, settings: WrkSettings, start: StartOn, progress: (text: string) => void): Promise<WrkRow[]> {
  const bare = await start('bare Fastify (same bytes, status, headers, Basic check)', { kind: 'ceiling' })
  const open = await start('default board, verdict on (rate limit off)', { kind: 'fake', scenario: 'default', rateLimitWindow: 0 })
  const limited = await start('default board, verdict on (window 900)', { kind: 'fake', scenario: 'default', rateLimitWindow: 900 })
  const list = await targets(open.url)
  for (const target of list) {
    const fake = target.board === 'open' ? open : limited
    await target.prepare?.(fake.url)
    await copyAnswers(target, fake.url, bare.url)
  }
  const script = join(tmpdir(), `jobboard-kit-wrk-${process.pid}.lua`)
  const results = new Map<WrkTarget, Array<{ fake: WrkSample; bare: WrkSample }>>(list.map((t) => [t, []]))
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of list) {
      const fake = target.board === 'open' ? open : limited
      const run = async (server: Server) => {
        if (settings.warmup > 0) await runWrk(wrk, server.url, target.requests, settings.warmup, server.pid, script)
        return runWrk(wrk, server.url, target.requests, settings.duration, server.pid, script)
      }
      const [first, second] = round % 2 === 1 ? [fake, bare] : [bare, fake]
      const a = await run(first)
      const b = await run(second)
      const sample = first === fake ? { fake: a, bare: b } : { fake: b, bare: a }
      progress(`Node ${node.major} wrk round ${round}/${settings.rounds}: ${target.name} ${sample.fake.rps.toFixed(0)} ÷ ${sample.bare.rps.toFixed(0)} req/s = ${(sample.fake.rps / sample.bare.rps).toFixed(2)}`)
      results.get(target)?.push(sample)
    }
  }
  return list.map((target) => summarise(target, results.get(target) ?? []))
}

const pct = (n: number) => `${(n * 100).toFixed(0)}%`

/** The table of one Node's wrk rounds. */
export function renderWrkTable(rows: WrkRow[], settings: WrkSettings): string {
  const header = ['endpoint', 'fake req/s', 'bare req/s', 'ratio', 'rounds from … to', 'µs/answer fake ÷ bare', 'cpu ratio', 'cpu fake/wrk', 'cpu bare/wrk', 'limit (runs)', 'unexpected']
  const whole = (n: number) => n.toFixed(0)
  const cells = rows.map((r) => [
    r.name,
    whole(r.rps),
    whole(r.bareRps),
    `${r.rpsRatio.toFixed(2)}×`,
    `${r.ratioMin.toFixed(2)} … ${r.ratioMax.toFixed(2)}`,
    `${whole(r.cpuPerAnswer)} ÷ ${whole(r.bareCpuPerAnswer)}`,
    `${r.cpuRatio.toFixed(2)}×`,
    `${pct(r.serverCpu)} / ${pct(r.wrkCpu)}`,
    `${pct(r.bareServerCpu)} / ${pct(r.bareWrkCpu)}`,
    Object.entries(r.limits)
      .filter(([, n]) => n > 0)
      .map(([limit, n]) => `${limit} ${n}`)
      .join(', '),
    String(r.unexpected),
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] ?? '').length)))
  const format = (line: string[]) => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd()
  return [
    `throughput with wrk (${WRK_THREADS} thread, ${WRK_CONNECTIONS} connections, ${settings.rounds} rounds × ${settings.duration} s, fake and bare route in turns; the verdict on):`,
    format(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.map(format),
    'limit: the side that used most of a core while the other did not (wrk\'s CPU from /proc, the server\'s too); "server" in every run means wrk was not the bottleneck.',
    'cpu ratio: the bare route\'s server CPU per answer ÷ the fake\'s (the req/s ratio were each given a core); with "neither" runs, other processes had the cores and it is the steadier figure.',
  ].join('\n')
}
