// The code cache (src/cli/code-cache.ts) of the built package: the command line, run as users run it
// (bin/jobboard-kit.js over dist/lib/cli.cjs), leaves V8's code cache of its run, one per
// command, answers the same from it, survives a cache it cannot use, and keeps none when
// NODE_DISABLE_COMPILE_CACHE=1; a `serve` killed (SIGKILL) after its first answer leaves
// its cache, which the next start reads, and one killed at once leaves a whole cache or
// none; the library's is written after its first answer too. Needs the build: in
// test:exe, which .ci/run runs after building.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { ROOT } from '../helpers/cli.js'

const BIN = join(ROOT, 'bin', 'jobboard-kit.js')
const BUNDLE = join(ROOT, 'dist', 'lib', 'cli.cjs')
const run = promisify(execFile)

/** Runs the built command with its caches in `dir` (and the rest of the environment as given). */
async function command(dir: string, args: string[], env: Record<string, string | undefined> = {}) {
  const { stdout } = await run(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: undefined, ...env },
  })
  return stdout
}

const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((file) => /^cli-.*\.v8$/.test(file)) : [])

const AUTH = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `ready` holds, looking every 50 ms for at most `ms`; answers whether it did. */
async function until(ready: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await pause(50)) if (ready()) return true
  return ready()
}

/**
 * The built `serve` with its caches in `dir`: spawned, asked a first page until it answers
 * 200, then `before` awaited, then killed with SIGKILL. Answers the first answer's status.
 */
async function killedServe(dir: string, before: () => Promise<unknown> = async () => undefined): Promise<number> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: undefined },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk
        const found = /listening on (http:\/\/\S+)/.exec(out)?.[1]
        if (found !== undefined) resolve(found)
      })
      child.once('exit', (code) => reject(new Error(`serve exited ${code} before it listened`)))
    })
    const answer = await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })
    await answer.arrayBuffer()
    await before()
    return answer.status
  } finally {
    child.kill('SIGKILL')
    await exited
  }
}

t.test('the built command line', { skip: existsSync(BUNDLE) ? false : `${BUNDLE} is not built (npm run build)` }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-code-cache-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))

  t.test('a first run leaves the code cache of its command, and a second answers the same from it', async (t) => {
    const first = await command(dir, ['scenarios'])
    t.match(first, /^default\s+\d+ candidates/m)
    t.equal(caches(dir).filter((file) => file.startsWith('cli-scenarios-')).length, 1, 'one cache for `scenarios`')
    t.equal(await command(dir, ['scenarios']), first, 'the run from the cache prints the same')
  })

  t.test('each command has a cache of its own', async (t) => {
    const version = await command(dir, ['--version'])
    t.match(version, /^\d+\.\d+\.\d+/)
    const names = caches(dir).map((file) => file.split('-')[1])
    t.ok(names.includes('scenarios') && names.includes('other'), `scenarios and other (an option first) each have one: ${names.join(', ')}`)
  })

  t.test('a cache V8 cannot use is replaced, and the command answers as before', async (t) => {
    const file = caches(dir).find((name) => name.startsWith('cli-scenarios-')) as string
    writeFileSync(join(dir, file), 'not a code cache')
    const answer = await command(dir, ['scenarios'])
    t.match(answer, /^default\s+\d+ candidates/m)
    t.not(readFileSync(join(dir, file), 'utf8'), 'not a code cache', 'the file was written again')
  })

  t.test('a serve killed with SIGKILL after its first answer leaves its cache, and the next start reads it', async (t) => {
    const killed = mkdtempSync(join(tmpdir(), 'jobboard-kit-code-cache-killed-'))
    t.teardown(() => rmSync(killed, { recursive: true, force: true }))
    const serveCaches = () => caches(killed).filter((file) => file.startsWith('cli-serve-'))
    t.equal(await killedServe(killed, () => until(() => serveCaches().length > 0, 20_000)), 200, 'the first run answered')
    t.equal(serveCaches().length, 1, 'the killed run left the cache of `serve`')
    const [file] = serveCaches()
    if (file === undefined) return
    const written = readFileSync(join(killed, file))
    // a run whose cache V8 refused writes it again after its first answer: the next one, given time to, does not
    t.equal(await killedServe(killed, () => pause(2_000)), 200, 'the next run answered from it')
    t.ok(readFileSync(join(killed, file)).equals(written), 'and left it as it was: V8 took it')
    t.same(readdirSync(killed).filter((name) => name.startsWith('cli-') && !name.endsWith('.v8')), [], 'no partial file is left')
  })

  t.test('a serve killed at once after its first answer, maybe while writing its cache, leaves a whole cache or none', async (t) => {
    const hasty = mkdtempSync(join(tmpdir(), 'jobboard-kit-code-cache-hasty-'))
    t.teardown(() => rmSync(hasty, { recursive: true, force: true }))
    for (let round = 0; round < 3; round++) t.equal(await killedServe(hasty), 200, `run ${round + 1} answered`)
    const left = caches(hasty).map((name) => [name, readFileSync(join(hasty, name))] as const)
    t.equal(await killedServe(hasty, () => pause(2_000)), 200, 'a run after them answered')
    for (const [name, bytes] of left) t.ok(readFileSync(join(hasty, name)).equals(bytes), `${name} was whole: the run after took it as it was`)
  })

  t.test('NODE_DISABLE_COMPILE_CACHE=1 keeps no cache', async (t) => {
    const off = mkdtempSync(join(tmpdir(), 'jobboard-kit-code-cache-off-'))
    t.teardown(() => rmSync(off, { recursive: true, force: true }))
    t.match(await command(off, ['scenarios'], { NODE_DISABLE_COMPILE_CACHE: '1' }), /^default/m)
    t.same(caches(off), [], 'no cache file')
  })
})

t.test('the built library', { skip: existsSync(join(ROOT, 'dist', 'lib', 'lib.cjs')) ? false : 'dist/lib/lib.cjs is not built (npm run build)' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-code-cache-lib-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // a program importing the package's three entries as a user's does, twice: without a cache, then from it
  const program = `
    const index = await import(${JSON.stringify(join(ROOT, 'dist', 'lib', 'index.js'))})
    const nock = await import(${JSON.stringify(join(ROOT, 'dist', 'lib', 'nock.js'))})
    const contract = await import(${JSON.stringify(join(ROOT, 'dist', 'lib', 'contract', 'index.js'))})
    const board = await index.createMockServer({ scenario: 'empty' })
    const answer = await board.inject({ url: '/api/v1/metrics/list', headers: { authorization: 'Basic ' + btoa('jobboard:jobboard') } })
    await board.close()
    let refused = ''
    try { contract.resolveSettings({}, {}) } catch (error) { refused = error.constructor.name }
    console.log(JSON.stringify({ status: answer.statusCode, nock: typeof nock.interceptBoard, contract: typeof contract.runContract, refused, schemas: typeof index.schemas.candidate }))
  `
  const runProgram = async () =>
    JSON.parse(
      (
        await run(process.execPath, ['--input-type=module', '-e', program], {
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: undefined },
        })
      ).stdout,
    ) as Record<string, unknown>
  const first = await runProgram()
  t.same(first, { status: 200, nock: 'function', contract: 'function', refused: 'UsageError', schemas: 'object' }, 'each entry imports and works')
  t.equal(caches(dir).filter((file) => file.startsWith('cli-library-')).length, 1, 'the run left the library its code cache')
  t.same(await runProgram(), first, 'and a run from that cache does the same')

  t.test('a program killed with SIGKILL after its first answer leaves the library its cache', async (t) => {
    const killed = mkdtempSync(join(tmpdir(), 'jobboard-kit-code-cache-lib-killed-'))
    t.teardown(() => rmSync(killed, { recursive: true, force: true }))
    // it waits for the cache it is owed after its first answer, then kills itself: no exit handler runs
    const dying = `
      const { readdirSync } = await import('node:fs')
      const index = await import(${JSON.stringify(join(ROOT, 'dist', 'lib', 'index.js'))})
      const board = await index.createMockServer({ scenario: 'empty' })
      const answer = await board.inject({ url: '/api/v1/metrics/list', headers: { authorization: 'Basic ' + btoa('jobboard:jobboard') } })
      console.log(answer.statusCode)
      for (let i = 0; i < 400 && !readdirSync(process.env.NODE_COMPILE_CACHE).some((f) => f.startsWith('cli-library-') && f.endsWith('.v8')); i++) await new Promise((r) => setTimeout(r, 50))
      process.kill(process.pid, 'SIGKILL')
    `
    const child = spawn(process.execPath, ['--input-type=module', '-e', dying], {
      env: { ...process.env, NODE_COMPILE_CACHE: killed, NODE_DISABLE_COMPILE_CACHE: undefined },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk))
    const signal = await new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    t.equal(signal, 'SIGKILL', 'the program was killed')
    t.equal(out.trim(), '200', 'after its first answer')
    t.equal(caches(killed).filter((file) => file.startsWith('cli-library-')).length, 1, 'and left the library its code cache')
  })
})
