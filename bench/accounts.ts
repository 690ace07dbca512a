// The accounts measure of `npm run bench` (issue 30): a fake with 64 accounts, each asked
// once, against a fake with one account asked 64 times, each in a fresh process on each
// Node, in pairs, medians of the pairs' own ratios. Time: from createMockServer to the last
// answer (the package is imported first, untimed, the same in both), on the wall clock and
// in CPU (user + system of the process over the same span, beside it: on a busy machine
// the wall clock is mostly waiting for a core). Two runs of about half a second each swung
// the wall ratio from 0.6× to 1.7× between bench runs on the shared machine, so: a pair per
// Node first that is not counted (the code cache and the files read warm for both sides),
// at least MIN_PAIRS pairs, the side that goes first alternating, the Nodes in turn within
// each pair. Memory: the growth
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
/** Pairs measured on each Node at the least, whatever --startup-runs says: a median of 3 ratios still swung by the goal's 20 %. */
export const MIN_PAIRS = 9

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
const c0 = process.cpuUsage()
const t0 = performance.now()
const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, accounts })
for (let i = 0; i < asks; i++) {
  const answer = await mock.app.inject({ url: '/api/v1/candidates/list', headers: { authorization: auth[i % count] } })
  if (answer.statusCode !== 200) throw new Error('account ' + accounts[i % count].name + ' answered ' + answer.statusCode)
}
const ms = performance.now() - t0
const cpu = process.cpuUsage(c0)
const rssBytes = process.memoryUsage().rss - rss0
globalThis.gc()
const heapBytes = process.memoryUsage().heapUsed - heap0
process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, heapBytes, rssBytes }))
await mock.close()
`

export interface FakeFigures {
  /** createMockServer to the last answer, milliseconds. */
  ms: number
  /** The process's CPU time (user + system) over the same span, milliseconds. */
  cpuMs: number
  /** Heap in use after a collection, grown since before createMockServer, bytes. */
  heapBytes: number
  /** Resident set size grown over the same span (no collection), bytes. */
  rssBytes: number
}

/** One Node's figures, medians over the runs: one account asked 64 times, and 64 accounts asked once each. */
export interface AccountsFigures {
  one: FakeFigures
  many: FakeFigures
  /** many ÷ one, each the median of the pairs' own ratios. */
  timeRatio: number
  cpuRatio: number
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

/** The pairs measured on each Node for `runs` (--startup-runs): at least MIN_PAIRS. */
export const accountPairs = (runs: number) => Math.max(runs, MIN_PAIRS)

/**
 * Runs one account and 64 accounts as a pair, accountPairs(runs) times on each Node (the
 * Nodes in turn within a pair), after a pair on each that is not counted; answers by Node version.
 */
export async function measureAccounts(runs: number, nodes: NodeBinary[], pkg = ROOT, source = false): Promise<Record<string, AccountsFigures>> {
  const samples = new Map(nodes.map((node) => [node.version, [] as Array<{ one: FakeFigures; many: FakeFigures }>]))
  const pair = async (node: NodeBinary, manyFirst: boolean) => {
    // the two in turns, so neither always meets the machine warmer
    const many = manyFirst ? await run(node.path, ACCOUNTS, pkg, source) : undefined
    const one = await run(node.path, 1, pkg, source)
    return { one, many: many ?? (await run(node.path, ACCOUNTS, pkg, source)) }
  }
  // the warm-up: the built package's code cache is written by its first run, and the files are read cold
  for (const node of nodes) await pair(node, false)
  for (let i = 0; i < accountPairs(runs); i++) for (const node of nodes) samples.get(node.version)?.push(await pair(node, i % 2 === 1))
  const figures: Record<string, AccountsFigures> = {}
  for (const [version, list] of samples) {
    const of = (side: 'one' | 'many'): FakeFigures => ({
      ms: median(list.map((s) => s[side].ms)),
      cpuMs: median(list.map((s) => s[side].cpuMs)),
      heapBytes: median(list.map((s) => s[side].heapBytes)),
      rssBytes: median(list.map((s) => s[side].rssBytes)),
    })
    const ratio = (pick: (f: FakeFigures) => number) => median(list.map((s) => pick(s.many) / pick(s.one)))
    figures[version] = {
      one: of('one'),
      many: of('many'),
      timeRatio: ratio((f) => f.ms),
      cpuRatio: ratio((f) => f.cpuMs),
      heapRatio: ratio((f) => f.heapBytes),
      rssRatio: ratio((f) => f.rssBytes),
    }
  }
  return figures
}
