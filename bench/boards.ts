// The shared-board measures of `npm run bench` (issue 36): a board built once per process
// and shared by every account and every in-process fake on its scenario and seed. Each in
// a fresh process on each Node, medians of several runs:
// - large workers: a fake on `large` with 8 accounts, each asked once at the same time,
//   against one account asked 8 times: the heap each keeps (growth after a full
//   collection, with its array buffers: a board's relations are typed arrays), and how
//   long after the first worker's first answer the last one's came, asked in a row;
// - reset: a changed board (a candidate added, untimed) reset, the median of 100, in
//   process (`reset()`) and over HTTP (`POST /__mock/reset` on loopback), on `default` and
//   on `large`;
// - a later fake: in a process that made a fake of the same scenario and seed before,
//   createMockServer → its first answer (wall clock, and the process's CPU time beside
//   it), and the part of it the board takes (its build and first page, the app already
//   made); and, in turn with each later fake, Fastify alone with the same routes (the
//   fake's methods and URLs, trivial handlers, no schemas or hooks) → its first answer:
//   the floor a fresh Fastify app of that many routes sets on the same machine.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { NodeColumn } from './goal-tables.js'
import { atMost, type Cell, type Goal, type GoalRow, type GoalTable } from './goals.js'
import type { NodeBinary } from './nodes.js'
import { median } from './report.js'
import { ENTRY } from './startup.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Workers of the large measure. */
export const LARGE_WORKERS = 8
/** Resets timed in each process. */
const RESETS = 100

const head = (entry: string) => `
const { createMockServer } = await import(${JSON.stringify(entry)})
const basic = (name, password) => 'Basic ' + Buffer.from(name + ':' + password).toString('base64')
const heap = () => { globalThis.gc(); return process.memoryUsage().heapUsed }
// what a fake keeps: its heap and its array buffers (a board's relations are typed arrays, outside the heap)
const kept = () => { globalThis.gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }
const middle = (values) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] }
const out = (value) => process.stdout.write(JSON.stringify(value))
`

/** One fake on large with `count` accounts (1 or 8), asked 8 times in a row: each account once, or the one 8 times. */
const largeScript = (entry: string) => `${head(entry)}
const count = Number(process.argv[1])
const accounts = Array.from({ length: count }, (_, i) => ({ name: 'worker-' + (i + 1), password: 'p' }))
const heap0 = kept()
const mock = await createMockServer({ scenario: 'large', clock: 'virtual', rateLimitWindow: 0, accounts })
const answered = []
const ask = async (i) => {
  const answer = await mock.app.inject({ url: '/api/v1/candidates/list', headers: { authorization: basic(accounts[i % count].name, 'p') } })
  if (answer.statusCode !== 200) throw new Error('worker ' + (i + 1) + ' answered ' + answer.statusCode)
  answered.push(performance.now())
}
// in a row: each worker's first answer waits for those before it, as workers starting together on one server do
for (let i = 0; i < ${LARGE_WORKERS}; i++) await ask(i)
await new Promise((resolve) => setImmediate(resolve))
const heapBytes = kept() - heap0
out({ heapBytes, spreadMs: Math.max(...answered) - Math.min(...answered) })
await mock.close()
`

/** Resets of a changed board on one scenario: in process, then over HTTP on loopback. */
const resetScript = (entry: string) => `${head(entry)}
const scenario = process.argv[1]
const mock = await createMockServer({ scenario, clock: 'virtual', rateLimitWindow: 0 })
await mock.inject({ url: '/api/v1/candidates/list', headers: { authorization: basic('jobboard', 'jobboard') } })
const inProcess = []
for (let i = 0; i < ${RESETS}; i++) {
  mock.store.addCandidate({ name: 'Ada Lovelace' })
  const t0 = performance.now()
  mock.reset()
  inProcess.push(performance.now() - t0)
}
const url = new URL(await mock.listen(0))
// node:http with a kept-alive connection: the client's own cost (fetch's is several times it on Node 20) kept small
const { request, Agent } = await import('node:http')
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const post = (path, body) => new Promise((resolve, reject) => {
  const text = JSON.stringify(body)
  const sent = request({ host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (answer) => {
    answer.resume()
    answer.on('end', () => resolve(answer.statusCode))
  })
  sent.on('error', reject)
  sent.end(text)
})
const overHttp = []
for (let i = 0; i < ${RESETS}; i++) {
  await post('/__mock/candidates', { name: 'Ada Lovelace' })
  const t0 = performance.now()
  const status = await post('/__mock/reset', {})
  overHttp.push(performance.now() - t0)
  if (status !== 200) throw new Error('reset answered ' + status)
}
agent.destroy()
out({ inProcessMs: middle(inProcess), httpMs: middle(overHttp) })
await mock.close()
`

/** A fake, then a later one of the same scenario and seed: createMockServer → first answer, and its board's part. */
const laterScript = (entry: string) => `${head(entry)}
const first = await createMockServer({ clock: 'virtual' })
await first.inject({ url: '/api/v1/candidates/list', headers: { authorization: basic('jobboard', 'jobboard') } })
const { default: Fastify } = await import('fastify')
const routes = first.app.endpoints.filter((e) => e.method !== 'HEAD')
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000 }
const totals = []
const cpus = []
const boards = []
const bare = []
const bareCpus = []
for (let i = 0; i < 5; i++) {
  const c0 = cpu()
  const t0 = performance.now()
  const later = await createMockServer({ clock: 'virtual' })
  const t1 = performance.now()
  const answer = await later.inject({ url: '/api/v1/candidates/list', headers: { authorization: basic('jobboard', 'jobboard') } })
  const t2 = performance.now()
  cpus.push(cpu() - c0)
  if (answer.statusCode !== 200) throw new Error('the later fake answered ' + answer.statusCode)
  // the board's part, the app being ready: a reset builds the board as a new fake does, then an answer none was kept for
  const t3 = performance.now()
  later.reset()
  await later.inject({ url: '/api/v1/candidates/list?page=1', headers: { authorization: basic('jobboard', 'jobboard') } })
  boards.push(performance.now() - t3)
  totals.push(t2 - t0)
  await later.close()
  const b0 = cpu()
  const t4 = performance.now()
  const app = Fastify()
  for (const { method, url } of routes) app.route({ method, url, handler: async () => ({ ok: true }) })
  const floor = await app.inject({ url: '/api/v1/candidates/list' })
  bare.push(performance.now() - t4)
  bareCpus.push(cpu() - b0)
  if (floor.statusCode !== 200) throw new Error('the bare app answered ' + floor.statusCode)
  await app.close()
}
out({ laterMs: middle(totals), laterCpuMs: middle(cpus), boardMs: middle(boards), bareMs: middle(bare), bareCpuMs: middle(bareCpus), routes: routes.length })
await first.close()
`

function run<T>(node: string, script: string, args: string[], pkg: string, execArgv: string[]): Promise<T> {
  const child = spawn(node, [...execArgv, '--expose-gc', '--input-type=module', '-e', script, ...args], { cwd: pkg, stdio: ['ignore', 'pipe', 'inherit'] })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text) as T) : reject(new Error(`the boards measure (${args.join(' ') || 'later'}) exited ${code}`))))
  })
}

/** One Node's figures, medians over the runs. */
export interface BoardsFigures {
  large: {
    /** Heap kept by a fake of one account asked 8 times, and of 8 accounts each asked once, bytes. */
    oneHeapBytes: number
    manyHeapBytes: number
    /** The median of the runs' own ratios. */
    heapRatio: number
    /** From the first worker's first answer to the last one's, 8 asked at once, ms. */
    spreadMs: number
  }
  /** Median reset of a changed board, ms, by scenario. */
  reset: Record<'default' | 'large', { inProcessMs: number; httpMs: number }>
  /** A later in-process fake of the same scenario and seed: createMockServer → first answer (and its CPU time), its board's part, and Fastify alone with its routes, ms. */
  later: Later
}

/** A later fake's figures, ms; `routes`: the fake's routes less the HEAD ones Fastify adds, which the bare app is given. */
interface Later {
  laterMs: number
  laterCpuMs: number
  boardMs: number
  bareMs: number
  bareCpuMs: number
  routes: number
}

/**
 * Runs the measures `runs` times on each Node (Nodes in turn within a run); answers by
 * Node version. `pkg` is the built package (the package's entry is imported); with
 * `source`, the sources are run through tsx instead (a checkout whose build is broken).
 */
export async function measureBoards(runs: number, nodes: NodeBinary[], pkg = ROOT, source = false): Promise<Record<string, BoardsFigures>> {
  const entry = source ? `${ROOT}src/index.ts` : `${pkg}${ENTRY}`
  const execArgv = source ? ['--import', 'tsx'] : []
  type Large = { heapBytes: number; spreadMs: number }
  type Reset = { inProcessMs: number; httpMs: number }
  const samples = new Map(nodes.map((node) => [node.version, [] as Array<{ one: Large; many: Large; reset: Record<'default' | 'large', Reset>; later: Later }>]))
  for (let i = 0; i < runs; i++) {
    for (const node of nodes) {
      const go = <T>(script: (entry: string) => string, args: string[]) => run<T>(node.path, script(entry), args, pkg, execArgv)
      // the two sides in turns, so neither always meets the machine warmer
      const one = i % 2 === 0 ? await go<Large>(largeScript, ['1']) : undefined
      const many = await go<Large>(largeScript, [String(LARGE_WORKERS)])
      samples.get(node.version)?.push({
        one: one ?? (await go<Large>(largeScript, ['1'])),
        many,
        reset: { default: await go<Reset>(resetScript, ['default']), large: await go<Reset>(resetScript, ['large']) },
        later: await go<Later>(laterScript, []),
      })
    }
  }
  const figures: Record<string, BoardsFigures> = {}
  for (const [version, list] of samples) {
    const m = (pick: (s: (typeof list)[number]) => number) => median(list.map(pick))
    figures[version] = {
      large: {
        oneHeapBytes: m((s) => s.one.heapBytes),
        manyHeapBytes: m((s) => s.many.heapBytes),
        heapRatio: m((s) => s.many.heapBytes / s.one.heapBytes),
        spreadMs: m((s) => s.many.spreadMs),
      },
      reset: {
        default: { inProcessMs: m((s) => s.reset.default.inProcessMs), httpMs: m((s) => s.reset.default.httpMs) },
        large: { inProcessMs: m((s) => s.reset.large.inProcessMs), httpMs: m((s) => s.reset.large.httpMs) },
      },
      later: {
        laterMs: m((s) => s.later.laterMs),
        laterCpuMs: m((s) => s.later.laterCpuMs),
        boardMs: m((s) => s.later.boardMs),
        bareMs: m((s) => s.later.bareMs),
        bareCpuMs: m((s) => s.later.bareCpuMs),
        routes: m((s) => s.later.routes),
      },
    }
  }
  return figures
}

/** Issue 36's goals for the shared board. */
export const BOARD_GOALS = {
  /** 8 workers on large ÷ one: heap kept, and the last first answer after the first worker's. */
  largeWorkersMemory: atMost(1.2, 'ratio'),
  largeWorkersSpreadMs: atMost(50, 'ms'),
  /** A reset of a changed board, median: in process and over HTTP, on default and large. */
  resetMs: atMost(1, 'ms'),
  resetHttpMs: atMost(3, 'ms'),
  /** A later in-process fake of the same scenario and seed → its first answer. */
  laterMs: atMost(5, 'ms'),
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)

/** A row from one figure per found Node. */
function row(figure: string, columns: NodeColumn[], cell: (column: NodeColumn & { version: string }) => Cell | undefined): GoalRow {
  const cells: GoalRow['cells'] = {}
  for (const column of columns) cells[column.label] = column.version === undefined ? undefined : cell({ ...column, version: column.version })
  return { figure, cells }
}

/** The shared board's figures (issue 36, bench/boards.ts), a column per Node. */
export function boardsTable(columns: NodeColumn[], figures: Record<string, BoardsFigures> | undefined, runs: number): GoalTable {
  const title = `one board per scenario and seed, shared (fresh processes, medians of ${runs}):`
  if (figures === undefined) return { group: 'boards', title, columns: columns.map((c) => c.label), rows: [], notes: ['not measured (--startup-runs 0)'] }
  const cell = (pick: (f: BoardsFigures) => Cell | undefined) => ({ version }: { version: string }) => {
    const f = figures[version]
    return f && pick(f)
  }
  const ms = (value: number, goal: Goal): Cell => ({ value, unit: 'ms', shown: `${value.toFixed(2)} ms`, goal })
  return {
    group: 'boards',
    title,
    columns: columns.map((c) => c.label),
    rows: [
      row(`large: ${LARGE_WORKERS} workers each asked once ÷ one asked ${LARGE_WORKERS} times, heap + array buffers kept`, columns, cell((f) => ({
        value: f.large.heapRatio,
        unit: 'ratio',
        shown: `${mib(f.large.manyHeapBytes)} ÷ ${mib(f.large.oneHeapBytes)} MiB = ${f.large.heapRatio.toFixed(2)}×`,
        goal: BOARD_GOALS.largeWorkersMemory,
      }))),
      row(`large: the last of ${LARGE_WORKERS} first answers after the first`, columns, cell((f) => ms(f.large.spreadMs, BOARD_GOALS.largeWorkersSpreadMs))),
      row('reset of a changed board, in process: default', columns, cell((f) => ms(f.reset.default.inProcessMs, BOARD_GOALS.resetMs))),
      row('reset of a changed board, in process: large', columns, cell((f) => ms(f.reset.large.inProcessMs, BOARD_GOALS.resetMs))),
      row('reset of a changed board, over HTTP: default', columns, cell((f) => ms(f.reset.default.httpMs, BOARD_GOALS.resetHttpMs))),
      row('reset of a changed board, over HTTP: large', columns, cell((f) => ms(f.reset.large.httpMs, BOARD_GOALS.resetHttpMs))),
      row('a later in-process fake of the same scenario and seed → first answer', columns, cell((f) => ({ ...ms(f.later.laterMs, BOARD_GOALS.laterMs), shown: `${f.later.laterMs.toFixed(2)} ms (CPU ${f.later.laterCpuMs.toFixed(2)} ms)` }))),
      row('  of which the board (built over the shared one) and its first answer', columns, cell((f) => ({ value: f.later.boardMs, unit: 'ms', shown: `${f.later.boardMs.toFixed(2)} ms` }))),
      row('  beside it: Fastify alone with its routes → first answer', columns, cell((f) => ({ value: f.later.bareMs, unit: 'ms', shown: `${f.later.bareMs.toFixed(2)} ms (CPU ${f.later.bareCpuMs.toFixed(2)} ms)` }))),
    ],
    notes: [
      `large workers: ${LARGE_WORKERS} first answers asked in a row; what each fake keeps after a full collection (heap and array buffers)`,
      "a later fake's board: on the later fake once it answered, a reset (the board a new fake builds, over the shared one) and an answer no kept answer serves (?page=1: the same records, made already, another URL)",
      'reset: the median of 100 resets, each after a candidate added (untimed); over HTTP, POST /__mock/reset on loopback',
      "Fastify alone: a new Fastify() given the fake's methods and URLs (its HEAD routes added by Fastify, as the fake's are), each answering a constant, no schemas or hooks, in turn with each later fake: the floor a fresh app of that many routes sets",
      ...columns.flatMap((c) => (c.missing === undefined ? [] : [`${c.label}: not measured, ${c.missing}.`])),
    ],
  }
}
