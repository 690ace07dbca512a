// The single executable (npm run build:exe, scripts/build-exe.mjs): copied alone into an
// empty folder and run with a PATH that holds no node, it answers as the npm command does
// (--version, scenarios, openapi, a usage error, contract, profile), and its fake serves
// a sync client written in Python's standard library: every page, a 429, a download.
import { spawn } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { ROOT, runToEnd } from '../helpers/cli.js'
import { onPath, unlessMissing } from '../helpers/tools.js'

const BUILT = join(ROOT, 'dist', 'exe', 'jobboard-kit')
const READY = /listening on (http:\/\/\S+)/
const skip = unlessMissing(existsSync(BUILT) ? undefined : 'dist/exe/jobboard-kit was not built (npm run build:exe makes it; .ci/run does)')

interface Placed {
  /** The executable's path in its empty folder. */
  exe: string
  dir: string
  /** An environment with no node on PATH (an empty folder), nor NODE_OPTIONS. */
  env: NodeJS.ProcessEnv
}

/** The executable copied alone into a new empty folder; removed at teardown. */
async function place(t: Test): Promise<Placed> {
  const dir = await mkdtemp(join(tmpdir(), 'jobboard-kit-exe-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const bin = join(dir, 'bin')
  await mkdir(bin)
  const exe = join(dir, 'jobboard-kit')
  await copyFile(BUILT, exe)
  const env = { PATH: bin, HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8' }
  t.equal(onPath('node', env.PATH), undefined, 'no node on its PATH')
  return { exe, dir, env }
}

function run(placed: Placed, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(placed.exe, args, { cwd: placed.dir, env: placed.env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/** `serve --port 0 ...args` from the executable; answers its URL and a stop that answers the exit code and the time it took. */
async function serve(t: Test, placed: Placed, args: string[] = []) {
  const child = spawn(placed.exe, ['serve', '--port', '0', ...args], { cwd: placed.dir, env: placed.env })
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = READY.exec(out)
      if (match) resolve(match[1] as string)
    })
    void exited.then((code) => reject(new Error(`the executable's serve exited ${code}: ${err}`)))
  })
  const stop = async () => {
    const started = performance.now()
    child.kill('SIGTERM')
    const code = await exited
    return { code, ms: performance.now() - started }
  }
  return { url, stop }
}

t.test('answers --version, scenarios, a usage error and --help as the npm command does, from an empty folder with no node', { skip }, async (t) => {
  const placed = await place(t)
  for (const args of [['--version'], ['scenarios'], ['serve', '--port', 'nope'], ['serve', '--help'], ['contract', '--help'], ['proxy', '--help'], ['proxy', '--to', 'nope'], ['profile', 'diff', 'a.json']]) {
    const [exe, npm] = await Promise.all([run(placed, args), runToEnd(args)])
    t.same({ code: exe.code, stdout: exe.stdout, stderr: exe.stderr }, npm, `jobboard-kit ${args.join(' ')}`)
  }
})

t.test('prints the OpenAPI document the npm command prints', { skip }, async (t) => {
  const placed = await place(t)
  const [exe, npm] = await Promise.all([run(placed, ['openapi']), runToEnd(['openapi'])])
  t.equal(exe.code, 0, exe.stderr)
  t.same(JSON.parse(exe.stdout), JSON.parse(npm.stdout))
})

t.test('serves the pages at /docs and /__mock/ui from inside itself, and stops on SIGTERM within a second', { skip }, async (t) => {
  const placed = await place(t)
  const { url, stop } = await serve(t, placed)
  const page = await fetch(`${url}/docs/static/index.html`)
  t.equal(page.status, 200)
  t.match(await page.text(), /swagger/i)
  const css = await fetch(`${url}/docs/static/swagger-ui.css`)
  t.equal(css.status, 200)
  t.match(css.headers.get('content-type'), /^text\/css/)
  t.ok((await css.arrayBuffer()).byteLength > 10_000, 'swagger-ui.css, whole')
  t.equal((await fetch(`${url}/docs/static/no-such-file.css`)).status, 404)
  // the page of the fake's day is code of the bundle (src/watch/ui/page.ts), not a file beside it
  const ui = await fetch(`${url}/__mock/ui`)
  t.equal(ui.status, 200, '/__mock/ui from inside the executable')
  t.match(await ui.text(), /The fake's day/)
  t.match(await (await fetch(`${url}/__mock/ui/ui.js`)).text(), /function draw\(\)/, 'and its script')
  const { code, ms } = await stop()
  t.equal(code, 0)
  t.ok(ms < 1000, `stopped in ${Math.round(ms)} ms`)
})

t.test('checks its own fake with contract, writes a profile, and profile diff finds none between it and itself', { skip }, async (t) => {
  const placed = await place(t)
  const { url } = await serve(t, placed, ['--rate-limit-window', '0'])
  const profile = join(placed.dir, 'profile.json')
  const contract = await run(placed, ['contract', '--base-url', url, '--username', 'jobboard', '--password', 'jobboard', '--rate-limit-window', '0', '--write-profile', profile])
  t.equal(contract.code, 0, contract.stderr)
  t.match(contract.stdout, /[1-9][0-9]* passed, 0 failed/)
  t.match(JSON.parse(await readFile(profile, 'utf8')), { points: Object })
  const diff = await run(placed, ['profile', 'diff', profile, profile])
  t.equal(diff.code, 0, diff.stdout + diff.stderr)
})

const python = onPath('python3')
t.test('serves a sync client written in Python: every page of a list, a 429 on a repeat, a download', { skip: skip || unlessMissing(python ? undefined : 'python3 is not on PATH (apt-get install -y python3)') }, async (t) => {
  const placed = await place(t)
  const { url } = await serve(t, placed)
  const client = spawn(python as string, [join(ROOT, 'test', 'fixtures', 'sync_client.py'), url, 'jobboard', 'jobboard'])
  let out = ''
  let err = ''
  client.stdout.on('data', (chunk: Buffer) => (out += chunk))
  client.stderr.on('data', (chunk: Buffer) => (err += chunk))
  const code = await new Promise((resolve) => client.on('close', resolve))
  t.equal(code, 0, `${out}${err}`)
  const seen = JSON.parse(out)
  t.match(seen, { ok: true, applications: 180, limited: { status: 429, retry_after: Number }, download_type: 'application/octet-stream' })
  t.ok(seen.pages > 1, `walked ${seen.pages} pages through next_page`)
  t.ok(seen.download_bytes > 0)
})
