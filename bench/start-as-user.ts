// Start-up as a user measures it (issue 45): spawn → first 200 of `node bin/jobboard-kit.js
// serve` against a bare Fastify server written as a file (bench/bare-server.mjs), and the
// package's import against fastify's own, each in fresh processes, in pairs whose order
// alternates, so both sides meet the same machine. `npm run bench` takes its start-up goals
// from these functions (bench/startup.ts); run alone, this file is the user's measure:
//
//   npm run bench:start                                  # the Node running it, 9 pairs a line
//   npm run bench:start -- --node /path/to/node22 --runs 15
//   npm run bench:start -- --package /path/to/installed/jobboard-kit --json start.json
//
// It measures dist/ as it stands (`npm run build` after changing the sources). Each line
// starts from a fresh machine's caches: the children get a TMPDIR of their own, empty,
// where the package's code caches and Node's compile cache go by default (and no
// NODE_COMPILE_CACHE), and a first pair, not counted, writes them as a user's first run
// does. How each run ends decides what the next one reads: a graceful stop (SIGTERM,
// waited for), a kill (SIGKILL) some time after its first answer, or a kill at once, which
// never leaves the cache (src/cli/code-cache.ts) a run writes after its first answer.
// Figures are wall time (what a user waits for) and the CPU time each process had used at
// its first 200 (all its threads, from /proc: what a busy machine blurs less).
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./bare-server.mjs', import.meta.url))
const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`
/** What the first 200 of `serve` is asked of: the first page of a list, as a client's first call. */
export const SERVE_PATH = '/api/v1/candidates/list'
/** `serve`'s arguments: a free port, the URL on stdout. */
export const SERVE_ARGS = ['serve', '--port', '0', '--host', '127.0.0.1']
/** The default account's Authorization header, for the first 200. */
export const SERVE_HEADERS = { authorization: AUTH }

/** How a measured run ends after its first 200: SIGTERM and waited for, or SIGKILL `afterMs` later (0: at once). */
export type Stop = { kind: 'graceful' } | { kind: 'killed'; afterMs: number }

export const describeStop = (stop: Stop) =>
  stop.kind === 'graceful' ? 'graceful stop (SIGTERM)' : stop.afterMs === 0 ? 'killed at once' : `killed ${stop.afterMs} ms after`

/** The ends the goals name (a graceful stop; a kill 100 ms or more after the first answer) and a kill at once, printed without one. */
export const STOPS: Stop[] = [{ kind: 'graceful' }, { kind: 'killed', afterMs: 100 }, { kind: 'killed', afterMs: 0 }]

/** One fresh process: wall milliseconds from spawn (or from the import's start) and the CPU it had used, when /proc says. */
export interface Run {
  ms: number
  cpuMs: number | undefined
}

/** A measure of the package against its bare counterpart, over pairs of fresh processes. */
export interface Compared {
  pairs: number
  bareMs: number
  ownMs: number
  /** ownMs ÷ bareMs: the medians' ratio, as a user reading medians of each side gets it. */
  ratio: number
  /** Each pair's own ratio: their median, lowest and highest (how much the machine moved the figure). */
  pairRatio: { median: number; min: number; max: number }
  bareCpuMs: number | undefined
  ownCpuMs: number | undefined
  cpuRatio: number | undefined
  /** The first run of the package, not counted: what the first start (or import) after an install costs, with no cache. */
  firstMs: number
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/**
 * The CPU time a running process has used, ms: the sum of its threads' run time from
 * /proc/PID/task/*\/schedstat (nanoseconds), else utime + stime from /proc/PID/stat (10 ms
 * ticks); undefined where there is no /proc.
 */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    let ns = 0
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    if (Number.isFinite(ns) && ns > 0) return ns / 1e6
  } catch {
    // no schedstat here: the coarser figure below
  }
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/** The environment of a measured process: the user's, with its own TMPDIR and none of the variables that move the caches. */
function childEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp }
  delete env.NODE_COMPILE_CACHE
  delete env.NODE_DISABLE_COMPILE_CACHE
  return env
}

export interface Server {
  node: string
  args: string[]
  cwd: string
  path: string
  headers?: Record<string, string>
}

/** Spawns a server, waits for its URL on stdout, asks `path` until it answers 200, then ends it as `stop` says. */
export function spawnToFirst200(server: Server, env: NodeJS.ProcessEnv, stop: Stop): Promise<Run> {
  const started = performance.now()
  const child = spawn(server.node, server.args, { cwd: server.cwd, env, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise<Run>((resolve, reject) => {
    let text = ''
    const fail = (error: Error) => {
      child.kill('SIGKILL')
      reject(error)
    }
    const timer = setTimeout(() => fail(new Error(`${server.args.join(' ')} gave no 200 within 60 s`)), 60_000)
    const onData = async (chunk: Buffer) => {
      text += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1]
      if (url === undefined) return
      child.stdout.off('data', onData)
      child.stdout.resume()
      try {
        for (;;) {
          const response = await fetch(`${url}${server.path}`, { headers: server.headers ?? {} })
          await response.arrayBuffer()
          if (response.status === 200) break
        }
      } catch (error) {
        clearTimeout(timer)
        fail(error as Error)
        return
      }
      const run = { ms: performance.now() - started, cpuMs: cpuMsOf(child.pid) }
      clearTimeout(timer)
      child.once('exit', () => resolve(run))
      if (stop.kind === 'graceful') child.kill('SIGTERM')
      else setTimeout(() => child.kill('SIGKILL'), stop.afterMs)
    }
    child.stdout.on('data', onData)
    child.once('error', fail)
  })
}

/** Sets each pair's runs side by side: medians, the medians' ratio, and each pair's own ratio. */
function compare(bare: Run[], own: Run[], first: Run): Compared {
  const ratios = own.map((run, i) => run.ms / (bare[i] as Run).ms)
  const cpu = (runs: Run[]) => (runs.every((run) => run.cpuMs !== undefined) ? median(runs.map((run) => run.cpuMs as number)) : undefined)
  const bareCpuMs = cpu(bare)
  const ownCpuMs = cpu(own)
  return {
    pairs: own.length,
    bareMs: median(bare.map((run) => run.ms)),
    ownMs: median(own.map((run) => run.ms)),
    ratio: median(own.map((run) => run.ms)) / median(bare.map((run) => run.ms)),
    pairRatio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
    bareCpuMs,
    ownCpuMs,
    cpuRatio: bareCpuMs === undefined || ownCpuMs === undefined ? undefined : ownCpuMs / bareCpuMs,
    firstMs: first.ms,
  }
}

/** Runs `bare` and `own` in `pairs` pairs, the one going first alternating, after a first pair not counted. */
async function inPairs(pairs: number, bare: () => Promise<Run>, own: () => Promise<Run>): Promise<Compared> {
  await bare()
  const first = await own()
  const bares: Run[] = []
  const owns: Run[] = []
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      bares.push(await bare())
      owns.push(await own())
    } else {
      owns.push(await own())
      bares.push(await bare())
    }
  }
  return compare(bares, owns, first)
}

/** A folder of its own as the children's TMPDIR, removed afterwards: a fresh machine's caches. */
async function withFreshTmp<T>(work: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'jobboard-kit-start-'))
  try {
    return await work(tmp)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * `node bin/jobboard-kit.js serve --port 0` in `pkg` (a checkout or an installed package,
 * ending in `/`) against the bare server, on `node`: spawn → first 200, each run ended as
 * `stop` says.
 */
export function measureServe(node: string, pkg: string, pairs: number, stop: Stop, executable?: string): Promise<Compared> {
  return withFreshTmp((tmp) => {
    const env = childEnv(tmp)
    const bare = { node, args: [BARE_SERVER], cwd: pkg, path: '/' }
    // the single executable (docs/exe.md) is its own program: `jobboard-kit serve`
    const [program, ...first] = executable === undefined ? [node, `${pkg}bin/jobboard-kit.js`] : [executable]
    const serve = { node: program as string, args: [...first, ...SERVE_ARGS], cwd: pkg, path: SERVE_PATH, headers: SERVE_HEADERS }
    return inPairs(
      pairs,
      () => spawnToFirst200(bare, env, stop),
      () => spawnToFirst200(serve, env, stop),
    )
  })
}

/** Imports one specifier in a fresh process of a consumer's folder: what `import 'jobboard-kit'` costs a program. */
const IMPORTER = `const c0 = process.cpuUsage()
const t0 = performance.now()
await import(process.argv[2])
const ms = performance.now() - t0
const c = process.cpuUsage(c0)
process.stdout.write(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000 }))
`

function importOnce(node: string, folder: string, specifier: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(node, [join(folder, 'import.mjs'), specifier], { cwd: folder, env, stdio: ['ignore', 'pipe', 'inherit'] })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text) as Run) : reject(new Error(`importing ${specifier} exited ${code}`))))
  })
}

/**
 * `import 'jobboard-kit'` against `import 'fastify'` in a program of a consumer's folder
 * (its node_modules holding both, linked to `pkg` and to the fastify `pkg` uses), on
 * `node`: wall time of the import and the CPU it took.
 */
export function measureImport(node: string, pkg: string, pairs: number): Promise<Compared> {
  return withFreshTmp((tmp) => {
    const folder = join(tmp, 'consumer')
    const modules = join(folder, 'node_modules')
    mkdirSync(modules, { recursive: true })
    symlinkSync(realpathSync(pkg), join(modules, 'jobboard-kit'), 'dir')
    // the fastify the package resolves (its own node_modules, or the folder an install hoisted it to)
    symlinkSync(realpathSync(dirname(createRequire(`${pkg}package.json`).resolve('fastify/package.json'))), join(modules, 'fastify'), 'dir')
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n')
    writeFileSync(join(folder, 'import.mjs'), IMPORTER)
    const env = childEnv(tmp)
    return inPairs(
      pairs,
      () => importOnce(node, folder, 'fastify', env),
      () => importOnce(node, folder, 'jobboard-kit', env),
    )
  })
}

/** Each Node's figures: serve's start after each stop, and the import. */
export interface StartFigures {
  node: string
  version: string
  serve: Array<{ stop: Stop; figures: Compared }>
  import: Compared
}

export async function measureStart(node: string, version: string, pkg: string, pairs: number): Promise<StartFigures> {
  const serve = []
  for (const stop of STOPS) serve.push({ stop, figures: await measureServe(node, pkg, pairs, stop) })
  return { node, version, serve, import: await measureImport(node, pkg, pairs) }
}

const f0 = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(0))
const f2 = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(2))

/** One line of the table: ours ÷ bare, the ratio of medians, the pairs' own ratios, the CPU beside. */
export function describeCompared(c: Compared): string {
  return `${f0(c.ownMs)} ÷ ${f0(c.bareMs)} ms = ${f2(c.ratio)}× (pairs ${f2(c.pairRatio.median)}×, ${f2(c.pairRatio.min)}–${f2(c.pairRatio.max)}); CPU ${f0(c.ownCpuMs)} ÷ ${f0(c.bareCpuMs)} ms = ${f2(c.cpuRatio)}×; the first, not counted: ${f0(c.firstMs)} ms`
}

export function renderStart(figures: StartFigures): string {
  const lines = [`Node ${figures.version} (${figures.node}), ${figures.import.pairs} pairs a line, each line from empty caches:`]
  for (const { stop, figures: c } of figures.serve) lines.push(`  serve ÷ bare Fastify, spawn → first 200, ${describeStop(stop)}: ${describeCompared(c)}`)
  lines.push(`  import 'jobboard-kit' ÷ import 'fastify': ${describeCompared(figures.import)}`)
  return lines.join('\n')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '9' }, node: { type: 'string', multiple: true, default: [] }, package: { type: 'string', default: ROOT }, json: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  })
  if (values.help) {
    process.stdout.write(`${readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0]}\n`)
    return
  }
  const pairs = Number(values.runs)
  if (!Number.isInteger(pairs) || pairs < 1 || pairs > 100) throw new Error(`--runs takes a whole number from 1 to 100, not ${JSON.stringify(values.runs)}`)
  const pkg = values.package.endsWith('/') ? values.package : `${values.package}/`
  const all: StartFigures[] = []
  for (const node of values.node.length > 0 ? values.node : [process.execPath]) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
    const figures = await measureStart(node, version, pkg, pairs)
    all.push(figures)
    console.log(renderStart(figures))
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(all, null, 2)}\n`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`)
    process.exit(1)
  })
}
