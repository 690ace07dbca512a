// Start-up measures for `npm run bench`, each in fresh processes, medians of several:
// the CLI from spawn to its first 200 against a bare Fastify server from spawn to its
// first 200; in-process, importing the package, createMockServer plus a first answer,
// and a second answer; and, with --large, the large board's build time and peak RSS.
// Everything runs the built package (dist/, through its exports), as users do; run.ts builds it first.
// The single executable (dist/exe/jobboard-kit, docs/exe.md) is measured beside the npm CLI,
// spawn to first 200 in the same rounds, with its size, and the container image's size.
import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { median } from './report.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

/** Something measured, or why it was not. */
export type Measured<T> = T | { missing: string }

export interface StartupFigures {
  runs: number
  /** Spawn to first 200, milliseconds: the CLI's `serve`, and a bare Fastify server. */
  cliMs: number
  ceilingMs: number
  /** The single executable: its size in bytes and its `serve`, spawn to first 200, milliseconds. */
  exe: Measured<{ bytes: number; ms: number }>
  /** The container image `npm run build:container` made: its size in bytes, as its builder reports it. */
  image: Measured<{ bytes: number; builder: string }>
  /** In-process, milliseconds. */
  importMs: number
  createFirstMs: number
  secondMs: number
}

export interface BuildFigures {
  scenario: string
  /** createMockServer to its first answer, in a fresh process, milliseconds. */
  firstAnswerMs: number
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

/** Spawns a server (Node with `args`, or `program`), waits for the URL on stdout, polls `path` until it answers 200. */
export function spawnToFirst200(args: string[], path: string, headers: Record<string, string> = {}, program = process.execPath): Promise<number> {
  const started = performance.now()
  const child = spawn(program, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
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
        child.kill('SIGTERM')
        child.once('exit', () => resolve(ms))
      } catch (error) {
        clearTimeout(timer)
        fail(error as Error)
      }
    })
    child.once('error', fail)
  })
}

/** The package's entry as its exports name it (what `import 'jobboard-kit'` loads). */
const ENTRY = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { exports: { '.': { default: string } } }).exports['.'].default.replace(/^\.\//, '')

/** The in-process measures, in a fresh Node that imports the built package. */
const IN_PROCESS = `
const t0 = performance.now()
const { createMockServer } = await import(${JSON.stringify(`${ROOT}${ENTRY}`)})
const t1 = performance.now()
const scenario = process.argv[1]
const mock = await createMockServer({ clock: 'virtual', scenario })
const headers = { authorization: ${JSON.stringify(AUTH)} }
const first = await mock.app.inject({ url: '/api/v1/candidates/list', headers })
const t2 = performance.now()
const second = await mock.app.inject({ url: '/api/v1/applications/list', headers })
const t3 = performance.now()
if (first.statusCode !== 200 || second.statusCode !== 200) throw new Error('the fake did not answer 200')
await mock.close()
process.stdout.write(JSON.stringify({ importMs: t1 - t0, createFirstMs: t2 - t1, secondMs: t3 - t2, peakRss: process.resourceUsage().maxRSS * 1024 }))
`

function inProcess(scenario: string): Promise<{ importMs: number; createFirstMs: number; secondMs: number; peakRss: number }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', IN_PROCESS, scenario], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  let text = ''
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`the in-process start-up run exited ${code}`))))
  })
}

export const EXE = `${ROOT}dist/exe/jobboard-kit`
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

/** Alternates CLI, executable and ceiling runs, so all meet the same machine state. */
export async function measureStartup(runs: number, exeMissing?: string): Promise<StartupFigures> {
  const cli: number[] = []
  const exe: number[] = []
  const ceiling: number[] = []
  const figures: Array<{ importMs: number; createFirstMs: number; secondMs: number }> = []
  const withExe = exeMissing === undefined && existsSync(EXE)
  for (let i = 0; i < runs; i++) {
    ceiling.push(await spawnToFirst200(['--input-type=module', '-e', CEILING], '/'))
    cli.push(await spawnToFirst200(['bin/jobboard-kit.js', ...SERVE], '/api/v1/candidates/list', { authorization: AUTH }))
    if (withExe) exe.push(await spawnToFirst200(SERVE, '/api/v1/candidates/list', { authorization: AUTH }, EXE))
    figures.push(await inProcess('default'))
  }
  return {
    runs,
    cliMs: median(cli),
    ceilingMs: median(ceiling),
    exe: withExe ? { bytes: statSync(EXE).size, ms: median(exe) } : { missing: exeMissing ?? 'dist/exe/jobboard-kit was not built (npm run build:exe)' },
    image: await imageSize(),
    importMs: median(figures.map((f) => f.importMs)),
    createFirstMs: median(figures.map((f) => f.createFirstMs)),
    secondMs: median(figures.map((f) => f.secondMs)),
  }
}

/** A scenario's build: createMockServer to first answer, and the process's peak RSS. */
export async function measureBuild(scenario: string): Promise<BuildFigures> {
  const figures = await inProcess(scenario)
  const spawnMs = await spawnToFirst200(
    ['bin/jobboard-kit.js', 'serve', '--scenario', scenario, '--port', '0', '--host', '127.0.0.1'],
    '/api/v1/candidates/list',
    { authorization: AUTH },
  )
  return { scenario, firstAnswerMs: figures.createFirstMs, spawnMs, peakRss: figures.peakRss }
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
