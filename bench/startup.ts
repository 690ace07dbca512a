// Start-up measures for `npm run bench`, each in fresh processes, medians of several, on
// every Node the bench runs on (bench/nodes.ts): the CLI from spawn to its first 200
// against a bare Fastify server from spawn to its first 200; in-process, importing the
// package against importing `fastify` alone in the same round, createMockServer plus a
// first answer, a second answer, and later fakes in the same process (what each test of a
// file pays); and, with --large, the large board's build time and peak RSS (on the first
// Node). Everything runs the built package (dist/, through its exports), as users do;
// run.ts builds it first. The single executable (dist/exe/jobboard-kit, docs/exe.md, made
// of Node 24) is measured beside the npm CLI, spawn to first 200 in the same rounds, with
// its size, and the container image's size.
//
// After any exit: the code caches (src/cli/code-cache.ts) live in a folder of this run's
// own, empty at its start, and every `serve` is killed (SIGKILL), never stopped: before
// each measured spawn a run is spawned, asked its first 200 and killed once it has
// written its cache (or after KILLED_HOLD_MS), and the measured run is killed after its
// first 200 too. So every cache a measured start reads was left by a killed run.
import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { cp, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import type { NodeBinary } from './nodes.js'
import { median } from './report.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

/** Something measured, or why it was not. */
export type Measured<T> = T | { missing: string }

/** One Node's start-up figures, medians over the runs. */
export interface NodeStartup {
  /** Spawn to first 200, milliseconds: the CLI's `serve`, and a bare Fastify server, both on this Node. */
  cliMs: number
  ceilingMs: number
  /** The CPU time each had used at that first 200 (ms, medians; undefined where /proc is not): what a busy machine blurs less. */
  cliCpuMs?: number | undefined
  ceilingCpuMs?: number | undefined
  /** In-process, milliseconds: import, the first createMockServer + its first answer, a second answer. */
  importMs: number
  /** Importing `fastify` alone in a fresh process of the same round, milliseconds: what importMs is set against. */
  fastifyImportMs: number
  /** The CPU each import took (ms, medians): what a busy machine blurs less. */
  importCpuMs?: number | undefined
  fastifyImportCpuMs?: number | undefined
  createFirstMs: number
  secondMs: number
  /** A later createMockServer in the same process + its first answer (the median of LATER_FAKES of them in each run). */
  laterMs: number
}

export interface StartupFigures {
  runs: number
  /** By Node version (v24.21.0 …). */
  nodes: Record<string, NodeStartup>
  /** The single executable: its size in bytes, its `serve` spawn to first 200 (ms), and the Node version whose CLI it is set beside. */
  exe: Measured<{ bytes: number; ms: number; cliMs: number; beside: string }>
  /** The container image `npm run build:container` made: its size in bytes, as its builder reports it. */
  image: Measured<{ bytes: number; builder: string }>
}

/** Later fakes per in-process run: the median of them is that run's figure. */
export const LATER_FAKES = 5

export interface BuildFigures {
  scenario: string
  /** createMockServer to its first answer, in a fresh process, milliseconds; and the CPU it took. */
  firstAnswerMs: number
  firstAnswerCpuMs: number
  /** `jobboard-kit serve --scenario NAME`, spawn to its first 200, milliseconds. */
  spawnMs: number
  /** Peak resident set size of that process, bytes. */
  peakRss: number
}

/** A bare Fastify server: what a process that answers HTTP costs at the least. */
const CEILING = `
const { default: Fastify } = await import(${JSON.stringify(`${ROOT}node_modules/fastify/fastify.js`)})
const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
const url = await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write('listening on ' + url + '\\n')
`

/** How spawnToFirst200 runs its server and ends it. */
export interface SpawnOptions {
  program?: string
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** How the server is ended after its first 200: SIGTERM (a graceful stop, waited for) or SIGKILL. */
  stop?: 'SIGTERM' | 'SIGKILL'
  /** Awaited between the first 200 and the signal (not measured). */
  before?: () => Promise<void>
  /** Where the CPU time the server had used at its first 200 is put (ms, user + system; Linux's /proc, else nothing). */
  cpu?: number[]
}

/** The CPU time a process has used so far, ms (user + system, in clock ticks of 10 ms), from /proc; undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/** Spawns a server (Node with `args`, or `program`), waits for the URL on stdout, polls `path` until it answers 200. */
export function spawnToFirst200(args: string[], path: string, headers: Record<string, string> = {}, options: SpawnOptions = {}): Promise<number> {
  const { program = process.execPath, cwd = ROOT, env = process.env, stop = 'SIGTERM', before, cpu } = options
  const started = performance.now()
  const child = spawn(program, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise<number>((resolve, reject) => {
    let text = ''
    const fail = (error: Error) => {
      child.kill('SIGKILL')
      reject(error)
    }
    const timer = setTimeout(() => fail(new Error(`${args.join(' ')} gave no answer within 60 s.`)), 60_000)
    child.stdout.on('data', async (chunk: Buffer) => {
      text += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1]
      if (url === undefined) return
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      try {
        for (;;) {
          const response = await fetch(`${url}${path}`, { headers })
          await response.arrayBuffer()
          if (response.status === 200) break
        }
        clearTimeout(timer)
        const ms = performance.now() - started
        const used = cpuMsOf(child.pid)
        if (used !== undefined) cpu?.push(used)
        await before?.()
        child.once('exit', () => resolve(ms))
        child.kill(stop)
      } catch (error) {
        clearTimeout(timer)
        fail(error as Error)
      }
    })
    child.once('error', fail)
  })
}

/** The package's entry as its exports name it (what `import 'jobboard-kit'` loads). */
export const ENTRY = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { exports: { '.': { default: string } } }).exports['.'].default.replace(/^\.\//, '')

/**
 * A copy of the built package (what npm installs: bin, dist, scenarios, docs,
 * package.json; node_modules linked), in a folder of its own: others working in the same
 * checkout may rebuild dist/ while the measures run. Answers its path, ending in `/`.
 */
export async function snapshotPackage(): Promise<string> {
  const folder = await mkdtemp(join(process.env.TMPDIR ?? tmpdir(), 'jobboard-kit-bench-'))
  for (const part of ['bin', 'dist', 'scenarios', 'docs', 'package.json']) await cp(join(ROOT, part), join(folder, part), { recursive: true })
  await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir')
  return `${folder}/`
}

export const removeSnapshot = (folder: string) => rm(folder, { recursive: true, force: true })

/** The in-process measures, in a fresh Node that imports the built package in `pkg`. */
const inProcessScript = (pkg: string) => `
const c0 = process.cpuUsage()
const t0 = performance.now()
const { createMockServer } = await import(${JSON.stringify(`${pkg}${ENTRY}`)})
const t1 = performance.now()
const c1 = process.cpuUsage(c0)
const scenario = process.argv[1]
const mock = await createMockServer({ clock: 'virtual', scenario })
const headers = { authorization: ${JSON.stringify(AUTH)} }
const first = await mock.app.inject({ url: '/api/v1/candidates/list', headers })
const t2 = performance.now()
const c2 = process.cpuUsage(c0)
const second = await mock.app.inject({ url: '/api/v1/applications/list', headers })
const t3 = performance.now()
if (first.statusCode !== 200 || second.statusCode !== 200) throw new Error('the fake did not answer 200')
await mock.close()
const peakRss = process.resourceUsage().maxRSS * 1024
// later fakes, as a test file makes one per test: what the first paid once is not paid again
const later = []
for (let i = 0; i < Number(process.argv[2]); i++) {
  const began = performance.now()
  const again = await createMockServer({ clock: 'virtual', scenario })
  const answer = await again.app.inject({ url: '/api/v1/candidates/list', headers })
  later.push(performance.now() - began)
  if (answer.statusCode !== 200) throw new Error('a later fake did not answer 200')
  await again.close()
}
later.sort((a, b) => a - b)
const laterMs = later.length === 0 ? NaN : later[later.length >> 1]
process.stdout.write(JSON.stringify({ importMs: t1 - t0, importCpuMs: (c1.user + c1.system) / 1000, createFirstMs: t2 - t1, createFirstCpuMs: (c2.user + c2.system - c1.user - c1.system) / 1000, secondMs: t3 - t2, laterMs, peakRss }))
`

/** Importing `fastify` alone, in a fresh Node, from the package's node_modules: milliseconds, and the CPU it took. */
const fastifyImportScript = (pkg: string) => `
const c0 = process.cpuUsage()
const t0 = performance.now()
await import(${JSON.stringify(`${pkg}node_modules/fastify/fastify.js`)})
const c1 = process.cpuUsage(c0)
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, cpuMs: (c1.user + c1.system) / 1000 }))
`

interface InProcessFigures {
  importMs: number
  importCpuMs: number
  createFirstMs: number
  /** The CPU createMockServer and its first answer took (ms): what a busy machine blurs less than createFirstMs. */
  createFirstCpuMs: number
  secondMs: number
  laterMs: number
  peakRss: number
}

/** Runs `script` in a fresh Node (ES module, with `args`) and answers what it printed, as JSON. */
function runScript<T>(script: string, args: string[], node: string, pkg: string, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const child = spawn(node, ['--input-type=module', '-e', script, ...args], { cwd: pkg, env, stdio: ['ignore', 'pipe', 'inherit'] })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text) as T) : reject(new Error(`the in-process start-up run exited ${code}`))))
  })
}

function inProcess(scenario: string, node = process.execPath, later = 0, pkg = ROOT, env: NodeJS.ProcessEnv = process.env): Promise<InProcessFigures> {
  return runScript(inProcessScript(pkg), [scenario, String(later)], node, pkg, env)
}

/** Milliseconds a killed run is held after its first 200 when it writes no cache (it read one): a run that served a moment. */
export const KILLED_HOLD_MS = 1_000

/** The code caches in `dir` and when each was written. */
async function cacheTimes(dir: string): Promise<Map<string, number>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.v8'))
  return new Map(await Promise.all(names.map(async (name) => [name, (await stat(join(dir, name))).mtimeMs] as [string, number])))
}

/**
 * A run killed (SIGKILL) after its first 200, once it has left a code cache in `dir` (a
 * file new or rewritten since it started) or KILLED_HOLD_MS after that 200 when it leaves
 * none (it read one that V8 took).
 */
async function killedRun(args: string[], program: string, pkg: string, env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  const before = await cacheTimes(dir)
  const written = async () => {
    const until = performance.now() + KILLED_HOLD_MS
    while (performance.now() < until) {
      const now = await cacheTimes(dir)
      if ([...now].some(([name, time]) => before.get(name) !== time)) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  await spawnToFirst200(args, '/api/v1/candidates/list', { authorization: AUTH }, { program, cwd: pkg, env, stop: 'SIGKILL', before: written })
}

const SERVE = ['serve', '--port', '0', '--host', '127.0.0.1']

/** The size of the image `npm run build:container` tags, from podman or else docker. */
async function imageSize(): Promise<StartupFigures['image']> {
  for (const builder of ['podman', 'docker']) {
    try {
      const { stdout } = await promisify(execFile)(builder, ['image', 'inspect', '--format', '{{.Size}}', 'localhost/jobboard-kit:latest'], { timeout: 30_000 })
      return { bytes: Number(stdout.trim()), builder }
    } catch {
      // no such builder here, or no such image in it
    }
  }
  return { missing: 'no image localhost/jobboard-kit:latest in podman or docker (npm run build:container)' }
}

/** The Node the single executable is made of (scripts/build-exe.mjs): its start-up is set beside that Node's CLI. */
const EXE_NODE_MAJOR = 24

/**
 * Alternates the ceiling, the CLI, the executable and the in-process run, on each Node in
 * turn within a run, so all meet the same machine state.
 */
export async function measureStartup(runs: number, nodes: NodeBinary[], exeMissing?: string, pkg = ROOT): Promise<StartupFigures> {
  const exePath = `${pkg}dist/exe/jobboard-kit`
  const withExe = exeMissing === undefined && existsSync(exePath)
  const exe: number[] = []
  const per = new Map(
    nodes.map((node) => [node, { cli: [] as number[], ceiling: [] as number[], cliCpu: [] as number[], ceilingCpu: [] as number[], fastify: [] as Array<{ ms: number; cpuMs: number }>, figures: [] as InProcessFigures[] }]),
  )
  // the caches of this run alone, each left by a killed run
  const cacheDir = await mkdtemp(join(process.env.TMPDIR ?? tmpdir(), 'jobboard-kit-bench-cache-'))
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: cacheDir }
  delete env.NODE_DISABLE_COMPILE_CACHE
  const api = ['/api/v1/candidates/list', { authorization: AUTH }] as const
  try {
    for (let i = 0; i < runs; i++) {
      for (const node of nodes) {
        const own = per.get(node)
        if (own === undefined) continue
        own.ceiling.push(await spawnToFirst200(['--input-type=module', '-e', CEILING], '/', {}, { program: node.path, cwd: pkg, cpu: own.ceilingCpu }))
        const cli = ['bin/jobboard-kit.js', ...SERVE]
        await killedRun(cli, node.path, pkg, env, cacheDir)
        own.cli.push(await spawnToFirst200(cli, ...api, { program: node.path, cwd: pkg, env, stop: 'SIGKILL', cpu: own.cliCpu }))
        own.fastify.push(await runScript<{ ms: number; cpuMs: number }>(fastifyImportScript(pkg), [], node.path, pkg))
        own.figures.push(await inProcess('default', node.path, LATER_FAKES, pkg, env))
      }
      if (withExe) {
        await killedRun(SERVE, exePath, pkg, env, cacheDir)
        exe.push(await spawnToFirst200(SERVE, ...api, { program: exePath, cwd: pkg, env, stop: 'SIGKILL' }))
      }
    }
  } finally {
    await rm(cacheDir, { recursive: true, force: true })
  }
  const figures: Record<string, NodeStartup> = {}
  for (const [node, { cli, ceiling, cliCpu, ceilingCpu, fastify, figures: f }] of per) {
    figures[node.version] = {
      cliMs: median(cli),
      ceilingMs: median(ceiling),
      cliCpuMs: cliCpu.length === 0 ? undefined : median(cliCpu),
      ceilingCpuMs: ceilingCpu.length === 0 ? undefined : median(ceilingCpu),
      importMs: median(f.map((x) => x.importMs)),
      fastifyImportMs: median(fastify.map((x) => x.ms)),
      importCpuMs: median(f.map((x) => x.importCpuMs)),
      fastifyImportCpuMs: median(fastify.map((x) => x.cpuMs)),
      createFirstMs: median(f.map((x) => x.createFirstMs)),
      secondMs: median(f.map((x) => x.secondMs)),
      laterMs: median(f.map((x) => x.laterMs)),
    }
  }
  const beside = nodes.find((n) => n.major === EXE_NODE_MAJOR) ?? nodes[0]
  const besideCli = beside === undefined ? Number.NaN : (figures[beside.version]?.cliMs ?? Number.NaN)
  return {
    runs,
    nodes: figures,
    exe:
      withExe && beside !== undefined
        ? { bytes: statSync(exePath).size, ms: median(exe), cliMs: besideCli, beside: beside.version }
        : { missing: exeMissing ?? 'dist/exe/jobboard-kit was not built (npm run build:exe)' },
    image: await imageSize(),
  }
}

/** A scenario's build on a Node: createMockServer to first answer, and the process's peak RSS. */
export async function measureBuild(scenario: string, node = process.execPath, pkg = ROOT): Promise<BuildFigures> {
  const figures = await inProcess(scenario, node, 0, pkg)
  const spawnMs = await spawnToFirst200(
    ['bin/jobboard-kit.js', 'serve', '--scenario', scenario, '--port', '0', '--host', '127.0.0.1'],
    '/api/v1/candidates/list',
    { authorization: AUTH },
    { program: node, cwd: pkg },
  )
  return { scenario, firstAnswerMs: figures.createFirstMs, firstAnswerCpuMs: figures.createFirstCpuMs, spawnMs, peakRss: figures.peakRss }
}

/** One step of the build, in a child Node. */
function run(args: string[]): Promise<void> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))))
  })
}

/** Builds dist/ from the sources as `npm run build` does (tsc, the precompiled validators, the bundle), so the start-up figures measure this commit. */
export async function buildPackage(): Promise<void> {
  await run([`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'])
  await run([`${ROOT}scripts/precompile.mjs`])
  await run([`${ROOT}scripts/bundle.mjs`])
}

/** Builds the single executable from that build (npm run build:exe's second step); answers why not when it cannot. */
export async function buildExecutable(): Promise<string | undefined> {
  try {
    await run([`${ROOT}scripts/build-exe.mjs`])
    return undefined
  } catch (error) {
    return `the executable could not be built: ${(error as Error).message}`
  }
}
