// Start-up measures for `npm run bench`, each in fresh processes, on every Node the bench
// runs on (bench/nodes.ts): serve's spawn → first 200 against a bare Fastify server and the
// package's import against fastify's, measured as a user measures them (bench/start-as-user.ts:
// the same code, so the bench and a user's measure are one measure); in-process,
// createMockServer plus a first answer, a second answer, and later fakes in the same
// process (what each test of a file pays); and, with --large, the large board's build time
// and peak RSS (on the first Node). Everything runs the built package (dist/, through its
// exports), as users do; run.ts builds it first. The single executable (dist/exe/jobboard-kit,
// docs/exe.md, made of Node 24) is measured beside the npm CLI, spawn to first 200 in pairs
// with the bare server, with its size, and the container image's size.
import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import type { NodeBinary } from './nodes.js'
import { median } from './report.js'
import { type Compared, measureImport, measureServe, SERVE_HEADERS, SERVE_PATH, spawnToFirst200, type Stop, STOPS } from './start-as-user.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const AUTH = SERVE_HEADERS.authorization

/** Something measured, or why it was not. */
export type Measured<T> = T | { missing: string }

/** One Node's start-up figures. */
export interface NodeStartup {
  /** `serve` against the bare server, spawn → first 200, after each way a run can end (bench/start-as-user.ts, STOPS). */
  serve: Array<{ stop: Stop; figures: Compared }>
  /** `import 'jobboard-kit'` against `import 'fastify'`, from a consumer's folder. */
  import: Compared
  /** In-process, milliseconds (medians): the first createMockServer + its first answer, a second answer. */
  createFirstMs: number
  secondMs: number
  /** A later createMockServer in the same process + its first answer (the median of LATER_FAKES of them in each run). */
  laterMs: number
}

export interface StartupFigures {
  runs: number
  /** By Node version (v24.21.0 …). */
  nodes: Record<string, NodeStartup>
  /** The single executable: its size in bytes, its `serve` spawn to first 200 against the bare server (killed 100 ms after), and the npm CLI's on the Node it is set beside. */
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
function runScript<T>(script: string, args: string[], node: string, pkg: string): Promise<T> {
  const child = spawn(node, ['--input-type=module', '-e', script, ...args], { cwd: pkg, stdio: ['ignore', 'pipe', 'inherit'] })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text) as T) : reject(new Error(`the in-process start-up run exited ${code}`))))
  })
}

function inProcess(scenario: string, node = process.execPath, later = 0, pkg = ROOT): Promise<InProcessFigures> {
  return runScript(inProcessScript(pkg), [scenario, String(later)], node, pkg)
}

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

/** Where a `serve` killed 100 ms after its first answer stands among STOPS: the figure the executable is set beside. */
const KILLED = STOPS.findIndex((stop) => stop.kind === 'killed' && stop.afterMs > 0)

/**
 * On each Node in turn: serve's start after each way of ending (fresh caches for each),
 * the import, then the in-process runs; the executable beside Node 24's CLI.
 */
export async function measureStartup(runs: number, nodes: NodeBinary[], exeMissing?: string, pkg = ROOT): Promise<StartupFigures> {
  const exePath = `${pkg}dist/exe/jobboard-kit`
  const withExe = exeMissing === undefined && existsSync(exePath)
  const figures: Record<string, NodeStartup> = {}
  for (const node of nodes) {
    const serve: NodeStartup['serve'] = []
    for (const stop of STOPS) serve.push({ stop, figures: await measureServe(node.path, pkg, runs, stop) })
    const imported = await measureImport(node.path, pkg, runs)
    const own: InProcessFigures[] = []
    for (let i = 0; i < runs; i++) own.push(await inProcess('default', node.path, LATER_FAKES, pkg))
    figures[node.version] = {
      serve,
      import: imported,
      createFirstMs: median(own.map((x) => x.createFirstMs)),
      secondMs: median(own.map((x) => x.secondMs)),
      laterMs: median(own.map((x) => x.laterMs)),
    }
  }
  const beside = nodes.find((n) => n.major === EXE_NODE_MAJOR) ?? nodes[0]
  let exe: StartupFigures['exe'] = { missing: exeMissing ?? 'dist/exe/jobboard-kit was not built (npm run build:exe)' }
  if (withExe && beside !== undefined) {
    const measured = await measureServe(beside.path, pkg, runs, STOPS[KILLED] as Stop, exePath)
    exe = { bytes: statSync(exePath).size, ms: measured.ownMs, cliMs: figures[beside.version]?.serve[KILLED]?.figures.ownMs ?? Number.NaN, beside: beside.version }
  }
  return { runs, nodes: figures, exe, image: await imageSize() }
}

/** A scenario's build on a Node: createMockServer to first answer, and the process's peak RSS. */
export async function measureBuild(scenario: string, node = process.execPath, pkg = ROOT): Promise<BuildFigures> {
  const figures = await inProcess(scenario, node, 0, pkg)
  const { ms: spawnMs } = await spawnToFirst200(
    { node, args: [`${pkg}bin/jobboard-kit.js`, 'serve', '--scenario', scenario, '--port', '0', '--host', '127.0.0.1'], cwd: pkg, path: SERVE_PATH, headers: { authorization: AUTH } },
    process.env,
    { kind: 'graceful' },
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
