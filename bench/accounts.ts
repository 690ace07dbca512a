// The accounts measure of `npm run bench` (issue 30): a fake with 64 accounts, each asked
// once, against a fake with one account asked 64 times, each in a fresh process on each
// Node, alternating, medians of several runs. Time: from createMockServer to the last
// answer (the package is imported first, untimed, the same in both). Memory: the growth
// of the V8 heap in use, after a full collection before and after (what the fake keeps,
// not what building it spent on the way); the growth of the resident set size is kept
// beside it. Goals: 64 accounts ≤ 1.2× the time and ≤ 1.2× the heap of one (issue 36: the
// accounts share the board of their scenario and seed, each keeping its own changes). The rate limit
// is off in both (one account asked 64 times in a row would meet its window).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { NodeBinary } from './nodes.js'
import { median } from './report.js'
import { ENTRY } from './startup.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Accounts in the many-accounts fake, and requests in each fake. */
export const ACCOUNTS = 64

/** One fake, fresh process, on the package's entry: accounts (1 or 64) and 64 requests spread over them, in turn. */
const script = (entry: string) => `
const { createMockServer } = await import(${JSON.stringify(entry)})
const count = Number(process.argv[1])
const asks = Number(process.argv[2])
const accounts = Array.from({ length: count }, (_, i) => ({ name: 'worker-' + (i + 1), password: 'jobboard' }))
const auth = accounts.map((a) => 'Basic ' + Buffer.from(a.name + ':jobboard').toString('base64'))
globalThis.gc()
const heap0 = process.memoryUsage().heapUsed
const rss0 = process.memoryUsage().rss
const t0 = performance.now()
const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, accounts })
for (let i = 0; i < asks; i++) {
  const answer = await mock.app.inject({ url: '/api/v1/candidates/list', headers: { authorization: auth[i % count] } })
  if (answer.statusCode !== 200) throw new Error('account ' + accounts[i % count].name + ' answered ' + answer.statusCode)
}
const ms = performance.now() - t0
const rssBytes = process.memoryUsage().rss - rss0
globalThis.gc()
const heapBytes = process.memoryUsage().heapUsed - heap0
process.stdout.write(JSON.stringify({ ms, heapBytes, rssBytes }))
await mock.close()
`

export interface FakeFigures {
  /** createMockServer to the last answer, milliseconds. */
  ms: number
  /** Heap in use after a collection, grown since before createMockServer, bytes. */
  heapBytes: number
  /** Resident set size grown over the same span (no collection), bytes. */
  rssBytes: number
}

/** One Node's figures, medians over the runs: one account asked 64 times, and 64 accounts asked once each. */
export interface AccountsFigures {
  one: FakeFigures
  many: FakeFigures
  /** many ÷ one, each the median of the runs' own ratios. */
  timeRatio: number
  heapRatio: number
  rssRatio: number
}

function run(node: string, count: number, pkg: string, source: boolean): Promise<FakeFigures> {
  // with `source`, the sources through tsx (a checkout whose build is broken), else the built package
  const entry = source ? `${ROOT}src/index.ts` : `${pkg}${ENTRY}`
  const child = spawn(node, [...(source ? ['--import', 'tsx'] : []), '--expose-gc', '--input-type=module', '-e', script(entry), String(count), String(ACCOUNTS)], {
    cwd: pkg,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text) as FakeFigures) : reject(new Error(`the accounts run (${count} accounts) exited ${code}`))))
  })
}

/** Runs one account and 64 accounts in turn, `runs` times, on each Node (Nodes in turn within a run); answers by Node version. */
export async function measureAccounts(runs: number, nodes: NodeBinary[], pkg = ROOT, source = false): Promise<Record<string, AccountsFigures>> {
  const samples = new Map(nodes.map((node) => [node.version, [] as Array<{ one: FakeFigures; many: FakeFigures }>]))
  for (let i = 0; i < runs; i++) {
    for (const node of nodes) {
      // the two in turns, so neither always meets the machine warmer
      const one = i % 2 === 0 ? await run(node.path, 1, pkg, source) : undefined
      const many = await run(node.path, ACCOUNTS, pkg, source)
      samples.get(node.version)?.push({ one: one ?? (await run(node.path, 1, pkg, source)), many })
    }
  }
  const figures: Record<string, AccountsFigures> = {}
  for (const [version, list] of samples) {
    const of = (side: 'one' | 'many'): FakeFigures => ({
      ms: median(list.map((s) => s[side].ms)),
      heapBytes: median(list.map((s) => s[side].heapBytes)),
      rssBytes: median(list.map((s) => s[side].rssBytes)),
    })
    const ratio = (pick: (f: FakeFigures) => number) => median(list.map((s) => pick(s.many) / pick(s.one)))
    figures[version] = { one: of('one'), many: of('many'), timeRatio: ratio((f) => f.ms), heapRatio: ratio((f) => f.heapBytes), rssRatio: ratio((f) => f.rssBytes) }
  }
  return figures
}
