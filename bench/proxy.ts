// The proxy's cost (issue 35), side by side with a bare pass-through on the same HTTP
// stack (node:http in, node:http out, the body piped), both in one process in front of
// one static upstream in another that answers a list page of the fake, loaded by wrk in
// alternating rounds: throughput with wrk's 32 connections, latency with one connection
// (a median under saturation is queueing, not the proxy's own time). The checks and the
// verdict are on. Figures: the medians over rounds of each round's req/s ratio (proxy ÷
// bare) and of its added median latency (proxy − bare), against the goals (≥ 0.8×, ≤ 1 ms).
// A part of `npm run bench` (bench/run.ts; `--proxy-only` runs it alone on each Node).
import { spawn } from 'node:child_process'
import { createServer, request as httpRequest, Agent, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream'
import { createMockServer } from '../src/fake/server.js'
import { createProxy, type RunningProxy } from '../src/proxy/proxy-server.js'
import { atLeast, atMost, type Cell, type GoalTable } from './goals.js'
import type { NodeColumn } from './goal-tables.js'
import { runWrk, type WrkRequest, type WrkSample } from './wrk.js'

const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

/** A list page of the fake, as bytes: what the upstream answers to every request. */
export async function listPage(): Promise<Buffer> {
  const fake = await createMockServer({ rateLimitWindow: 0 })
  const page = await fake.inject({ url: '/api/v1/applications/list', headers: { authorization: AUTH } })
  await fake.close()
  return page.rawPayload
}

/**
 * The upstream: one answer, as bytes, to every request (no rate limit, no work), its links
 * on the upstream's own origin, as a deployment writes them: the proxy rewrites them in
 * every answer, and a correct page breaks no rule (a bench of violations would measure
 * their logging, not the proxy). The same bytes each time, as a polling client gets them:
 * the proxy makes what it makes of them once (src/proxy/answer-memo.ts). `distinct`: each
 * answer's `total` counts up, other bytes every time, made afresh (by hand only: what an
 * answer the proxy has not seen costs).
 */
export async function startUpstream(page: Buffer, distinct = false): Promise<{ url: string; close(): void }> {
  let body = page
  let count = 0
  const upstream = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      count += 1
      const sent = distinct ? Buffer.from(body.toString('utf8').replace(/"total":[0-9]+/, `"total":${1_000_000 + count}`)) : body
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(sent.length) }).end(sent)
    })
  })
  const url = await listen(upstream)
  body = Buffer.from(page.toString('utf8').replaceAll(/http:\/\/localhost(:80)?/g, url))
  return { url, close: () => void upstream.close() }
}

/** The bare pass-through (what the proxy does less the rewrite, the checks, the journal and the verdict) and the proxy, in front of `upstreamUrl`. */
export async function startFronts(upstreamUrl: string): Promise<{ bareUrl: string; proxyUrl: string; proxy: RunningProxy; close(): Promise<void> }> {
  const { hostname, port } = new URL(upstreamUrl)
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const bare = createServer((request, response) => {
    const out = httpRequest({ hostname, port, method: request.method, path: request.url, headers: request.headers, agent }, (answer) => {
      // the client went away before the answer came (wrk closes its connections at the end of a round): nothing to pipe to
      if (response.destroyed) return void answer.resume()
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      pipeline(answer, response, () => {})
    })
    out.on('error', () => response.destroy())
    pipeline(request, out, () => {})
  })
  const bareUrl = await listen(bare)
  const proxy = createProxy({ to: upstreamUrl, port: 0 })
  const proxyUrl = await proxy.listen()
  return {
    bareUrl,
    proxyUrl,
    proxy,
    async close() {
      await proxy.close()
      bare.close()
      agent.destroy()
    },
  }
}


/** The issues' goals: throughput ≥ 0.8 of the bare pass-through, ≤ 1 ms more at the median (issue 35); an answer of new bytes (--distinct) ≤ 1.5× the bare pass-through's CPU (issue 45). */
export const PROXY_GOALS = {
  throughput: atLeast(0.8, 'ratio'),
  addedMedianMs: atMost(1, 'ms'),
  distinctCpu: atMost(1.5, 'ratio'),
}

export interface ProxyRound {
  bare: WrkSample
  proxy: WrkSample
  bareLatency: WrkSample
  proxyLatency: WrkSample
}

export interface ProxyFigures {
  rounds: ProxyRound[]
  /** Medians over rounds: proxy ÷ bare req/s; proxy − bare median latency (ms, one connection); CPU per answer (µs), and proxy ÷ bare of each round's. */
  throughputRatio: number
  addedMedianMs: number
  bareCpuMicros: number
  proxyCpuMicros: number
  cpuRatio: number
  bodyBytes: number
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** Starts `bench/proxy-serve.ts ROLE` on a Node; answers its first line (JSON) and its process. */
function serve(node: string, args: string[]): Promise<{ urls: Record<string, string>; pid: number; stop(): void }> {
  const child = spawn(node, ['--import', 'tsx', 'bench/proxy-serve.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n', 1)[0] as string
      if (out.includes('\n')) resolve({ urls: JSON.parse(line) as Record<string, string>, pid: child.pid as number, stop: () => void child.kill('SIGTERM') })
    })
    child.once('exit', (code) => reject(new Error(`bench/proxy-serve.ts ${args[0]} exited with ${code} before it listened`)))
  })
}

/** The proxy's rounds on one Node: `rounds` of wrk on the bare pass-through and the proxy in turn, the order swapped each round. */
export async function measureProxy(node: string, wrk: string, rounds: number, seconds: number, say: (line: string) => void = () => {}, distinct = false): Promise<ProxyFigures> {
  const upstream = await serve(node, distinct ? ['upstream', 'distinct'] : ['upstream'])
  const fronts = await serve(node, ['fronts', upstream.urls.upstream as string]).catch((error: unknown) => {
    upstream.stop()
    throw error
  })
  try {
    // the list's first page, as a client that walks it asks it: the page the upstream answers
    const requests: WrkRequest[] = [{ method: 'GET', path: '/api/v1/applications/list', headers: { authorization: AUTH } }]
    const script = join(tmpdir(), `jobboard-kit-proxy-bench-${process.pid}.lua`)
    const bareUrl = fronts.urls.bare as string
    const proxyUrl = fronts.urls.proxy as string
    // a warm-up of each, untimed: the JIT and the upstream's connections
    for (const url of [bareUrl, proxyUrl]) await runWrk(wrk, url, requests, 2, fronts.pid, script)
    const done: ProxyRound[] = []
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['bare', 'proxy'] as const) : (['proxy', 'bare'] as const)
      const sample: Partial<ProxyRound> = {}
      for (const which of order) sample[which] = await runWrk(wrk, which === 'bare' ? bareUrl : proxyUrl, requests, seconds, fronts.pid, script)
      for (const which of order) sample[`${which}Latency`] = await runWrk(wrk, which === 'bare' ? bareUrl : proxyUrl, requests, seconds, fronts.pid, script, 1)
      const r = sample as ProxyRound
      say(`round ${round + 1}: bare ${r.bare.rps.toFixed(0)} req/s, proxy ${r.proxy.rps.toFixed(0)} req/s (${(r.proxy.rps / r.bare.rps).toFixed(2)}×); one connection: median ${r.bareLatency.p50Ms.toFixed(2)} ms bare, ${r.proxyLatency.p50Ms.toFixed(2)} ms proxy`)
      done.push(r)
    }
    const cpu = (s: WrkSample) => (s.requests > 0 ? (s.serverCpu * s.seconds * 1e6) / s.requests : Number.NaN)
    return {
      rounds: done,
      throughputRatio: median(done.map((r) => r.proxy.rps / r.bare.rps)),
      addedMedianMs: median(done.map((r) => r.proxyLatency.p50Ms - r.bareLatency.p50Ms)),
      bareCpuMicros: median(done.map((r) => cpu(r.bare))),
      proxyCpuMicros: median(done.map((r) => cpu(r.proxy))),
      cpuRatio: median(done.map((r) => cpu(r.proxy) / cpu(r.bare))),
      bodyBytes: (await listPage()).length,
    }
  } finally {
    fronts.stop()
    upstream.stop()
  }
}

/** The proxy's goal table: a column per Node. */
export function proxyTable(columns: NodeColumn[], figures: Record<string, ProxyFigures> | undefined, rounds: number, missing?: string): GoalTable {
  const title = `the proxy beside a bare pass-through on node:http (wrk, medians of ${rounds} side-by-side rounds, checks and verdict on):`
  const labels = columns.map((c) => c.label)
  if (figures === undefined) return { group: 'proxy', title, columns: labels, rows: [], notes: [`not measured: ${missing ?? 'no rounds'}`] }
  const cells = (pick: (f: ProxyFigures) => Cell) => Object.fromEntries(columns.map((c) => [c.label, c.version === undefined || figures[c.version] === undefined ? undefined : pick(figures[c.version] as ProxyFigures)]))
  return {
    group: 'proxy',
    title,
    columns: labels,
    rows: [
      { figure: 'throughput: proxy ÷ bare pass-through (32 connections)', cells: cells((f) => ({ value: f.throughputRatio, unit: 'ratio', goal: PROXY_GOALS.throughput })) },
      { figure: 'added latency at the median: proxy − bare (one connection)', cells: cells((f) => ({ value: f.addedMedianMs, unit: 'ms', shown: `${f.addedMedianMs.toFixed(2)} ms`, goal: PROXY_GOALS.addedMedianMs })) },
      { figure: '  server CPU per answer: bare; proxy (proxy ÷ bare)', cells: cells((f) => ({ value: f.proxyCpuMicros, unit: 'ms', shown: `${f.bareCpuMicros.toFixed(0)} µs; ${f.proxyCpuMicros.toFixed(0)} µs (${f.cpuRatio.toFixed(2)}×)` })) },
    ],
    notes: ['the upstream answers the first page of applications/list of the fake (~17 KB, its links on the upstream: the proxy rewrites them; no rule broken) to every request, from a process of its own; the bare pass-through and the proxy share one process, loaded in turn'],
  }
}

// run by hand: node --import tsx bench/proxy.ts [seconds per round, default 3] [rounds, default 3] [--distinct: other bytes in every answer]
// It prints the figures as JSON, then the goals' ratios: throughput and latency, and the CPU
// per answer, proxy ÷ bare (the median of the rounds' ratios; with --distinct, issue 45's goal).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { findWrk } = await import('./wrk.js')
  const found = findWrk()
  if (!('path' in found)) throw new Error(found.missing)
  const [seconds, rounds] = process.argv.slice(2).filter((arg) => arg !== '--distinct')
  const distinct = process.argv.includes('--distinct')
  const figures = await measureProxy(process.execPath, found.path, Number(rounds ?? 3), Number(seconds ?? 3), (line) => process.stderr.write(`${line}\n`), distinct)
  process.stdout.write(`${JSON.stringify({ node: process.version, ...figures, rounds: figures.rounds.length }, null, 2)}\n`)
  process.stdout.write(`throughput ${figures.throughputRatio.toFixed(2)}x the bare pass-through (goal >= 0.8); median +${figures.addedMedianMs.toFixed(2)} ms (goal <= 1 ms)\n`)
  const cpuGoal = distinct ? ` (goal with new bytes in every answer <= ${PROXY_GOALS.distinctCpu.limit}x)` : ' (run with --distinct for the goal on answers of new bytes)'
  process.stdout.write(`CPU per answer ${figures.cpuRatio.toFixed(2)}x the bare pass-through's: ${figures.proxyCpuMicros.toFixed(0)} us against ${figures.bareCpuMicros.toFixed(0)} us${cpuGoal}\n`)
}
