// The proxy's cost, side by side with a bare pass-through on the same HTTP stack
// (node:http in, node:http out, the body piped): the same static upstream answering a
// list page of the fake, the same load, alternating rounds. Prints req/s and the median
// and p99 latency of each, and the proxy's ratios, against the goals (throughput
// ≥ 0.8 of the bare pass-through, ≤ 1 ms more at the median, with the checks and the
// verdict on). Not yet a row of `npm run bench`; run by hand:
//   node --import tsx bench/proxy.ts [seconds per round, default 3] [rounds, default 2]
import { createServer, request as httpRequest, Agent, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream'
import { createMockServer } from '../src/fake/server.js'
import { createProxy } from '../src/proxy/server.js'
import { runLoad, type Sample, type Target } from './load.js'

const seconds = Number(process.argv[2] ?? 3)
const rounds = Number(process.argv[3] ?? 2)
const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

// the upstream: one answer of the fake, as bytes, to every request (no rate limit, no work)
const fake = await createMockServer({ rateLimitWindow: 0 })
const page = await fake.inject({ url: '/api/v1/applications/list', headers: { authorization: AUTH } })
const body = page.rawPayload
await fake.close()
const upstream = createServer((request, response) => {
  request.resume()
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }).end(body))
})
const upstreamUrl = await listen(upstream)
const { hostname, port } = new URL(upstreamUrl)

// the bare pass-through: what the proxy does less the rewrite, the checks, the journal and the verdict
const agent = new Agent({ keepAlive: true, maxSockets: 256 })
const bare = createServer((request, response) => {
  const out = httpRequest({ hostname, port, method: request.method, path: request.url, headers: request.headers, agent }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers)
    pipeline(answer, response, () => {})
  })
  out.on('error', () => response.destroy())
  pipeline(request, out, () => {})
})
const bareUrl = await listen(bare)
const proxy = createProxy({ to: upstreamUrl, port: 0 })
const proxyUrl = await proxy.listen()

const target = (name: string, url: string): Target => ({ name, url, expect: 200, requests: [{ method: 'GET', path: '/api/v1/applications/list?page=[<id>]', headers: { authorization: AUTH } }], unique: true })
const settings = { connections: 10, duration: seconds, warmup: 1, maxRequests: 1_000_000 }
const cpu = async () => {
  const usage = process.cpuUsage()
  return usage.user + usage.system
}
const samples: Record<string, Sample[]> = { bare: [], proxy: [] }
for (let round = 0; round < rounds; round++) {
  samples.bare?.push(await runLoad(target('bare', bareUrl), settings, cpu))
  samples.proxy?.push(await runLoad(target('proxy', proxyUrl), settings, cpu))
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const of = (name: string, key: 'rps' | 'p50' | 'p99') => median((samples[name] ?? []).map((s) => s[key]))
const result = {
  node: process.version,
  bodyBytes: body.length,
  bare: { rps: of('bare', 'rps'), p50: of('bare', 'p50'), p99: of('bare', 'p99') },
  proxy: { rps: of('proxy', 'rps'), p50: of('proxy', 'p50'), p99: of('proxy', 'p99') },
  throughputRatio: of('proxy', 'rps') / of('bare', 'rps'),
  addedMedianMs: of('proxy', 'p50') - of('bare', 'p50'),
  journaled: proxy.journal.size,
  violations: proxy.violations().length,
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
process.stdout.write(`throughput ${result.throughputRatio.toFixed(2)}x the bare pass-through (goal >= 0.8); median +${result.addedMedianMs.toFixed(2)} ms (goal <= 1 ms)\n`)
await proxy.close()
bare.close()
upstream.close()
agent.destroy()
