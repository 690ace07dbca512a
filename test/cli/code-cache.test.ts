// The code cache (src/core/code-cache.ts) of the built package: the command line, run as users run it
// (bin/jobboard-kit.js over dist/lib/cli.cjs), leaves V8's code cache of its run, one per
// command, answers the same from it, survives a cache it cannot use, and keeps none when
// NODE_DISABLE_COMPILE_CACHE=1. Needs the build: in test:exe, which .ci/run runs after building.
import { execFile } from 'node:child_process'
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
})
