// src/core/load-bundle.ts from the outside: a small CommonJS bundle run in fresh Node processes,
// without a code cache, from the one a run kept, and with caches that must not be used
// (made from other source, or damaged). Each way it answers the same, and says which it took.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { build } from 'esbuild'
import { codeCacheFileOf, sourceMapsAsked } from '../../src/core/load-bundle.js'

const LOADER = fileURLToPath(new URL('../../src/core/load-bundle.ts', import.meta.url))

/** A bundle as esbuild writes one: CommonJS, requiring Node's modules, throwing from a known line. */
const bundle = (answer: number) => `"use strict";
const { basename } = require('node:path');
function square(n) { return n * n }
exports.answer = () => square(${answer});
exports.file = basename(__filename);
exports.self = module.exports === exports;
exports.fail = () => { throw new Error('from line 7') };
`

interface Run {
  codeCache: string
  answer: number
  file: string
  self: boolean
  /** The line of the bundle the thrown error's stack names. */
  line: string | undefined
}

/**
 * Loads `file` in a fresh Node (as the package's entries do) and reports what it saw:
 * `write` keeps the code cache as the build does, `spareDir` is the loader's (none by default).
 */
function load(file: string, { write = false, spareDir = null as string | null } = {}): Run {
  const script = `
import { loadBundle, writeCodeCache } from ${JSON.stringify(LOADER)}
const loaded = loadBundle(${JSON.stringify(file)}, ${JSON.stringify({ spareDir })})
const { answer, file, self, fail } = loaded.exports
let line
try { fail() } catch (error) { line = /kit\\.cjs:(\\d+)/.exec(error.stack)?.[1] }
if (${write}) writeCodeCache(loaded)
process.stdout.write(JSON.stringify({ codeCache: loaded.codeCache, answer: answer(), file, self, line }))
`
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(child.stderr)
  return JSON.parse(child.stdout) as Run
}

t.test('the bundle loader', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-bundle-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'kit.cjs')
  writeFileSync(file, bundle(7))
  const cacheFile = codeCacheFileOf(file)

  t.test('runs a bundle that has no code cache, as Node runs a CommonJS module', async (t) => {
    t.same(load(file), { codeCache: 'absent', answer: 49, file: 'kit.cjs', self: true, line: '7' })
  })

  t.test('keeps the code a run compiled, and the next run starts from it', async (t) => {
    load(file, { write: true })
    t.ok(readFileSync(cacheFile).length > 12, 'the cache file holds V8 data after its header')
    t.same(load(file), { codeCache: 'accepted', answer: 49, file: 'kit.cjs', self: true, line: '7' })
  })

  t.test('ignores a cache made from other source, even of the same length', async (t) => {
    const kept = readFileSync(cacheFile)
    writeFileSync(file, bundle(8))
    t.equal(readFileSync(file).length, bundle(7).length, 'the new bundle is as long as the old one')
    t.same(load(file), { codeCache: 'stale', answer: 64, file: 'kit.cjs', self: true, line: '7' }, 'the new code runs')
    writeFileSync(file, bundle(7))
    writeFileSync(cacheFile, kept)
  })

  t.test('compiles from source when V8 refuses the cache', async (t) => {
    const damaged = Buffer.from(readFileSync(cacheFile))
    // V8's own header starts after ours: a wrong magic number is refused before anything is read
    damaged.writeUInt32LE(damaged.readUInt32LE(12) ^ 0xffffffff, 12)
    writeFileSync(cacheFile, damaged)
    t.same(load(file), { codeCache: 'rejected', answer: 49, file: 'kit.cjs', self: true, line: '7' })
  })

  t.test('ignores a cache file too short to name its source', async (t) => {
    writeFileSync(cacheFile, Buffer.alloc(5))
    t.same(load(file), { codeCache: 'stale', answer: 49, file: 'kit.cjs', self: true, line: '7' })
  })

  t.test('keeps a spare cache at exit where the build left none that fits, and starts from it next time', async (t) => {
    rmSync(cacheFile)
    const spareDir = join(dir, 'spare')
    t.same(load(file, { spareDir }), { codeCache: 'absent', answer: 49, file: 'kit.cjs', self: true, line: '7' })
    t.equal(readdirSync(spareDir).length, 1, 'the run left one spare cache')
    t.same(load(file, { spareDir }), { codeCache: 'accepted', answer: 49, file: 'kit.cjs', self: true, line: '7' })
    writeFileSync(file, bundle(8))
    t.same(load(file, { spareDir }), { codeCache: 'absent', answer: 64, file: 'kit.cjs', self: true, line: '7' }, 'the spare of other source is not read')
    t.equal(readdirSync(spareDir).length, 2, 'each source has its own spare')
    writeFileSync(file, bundle(7))
  })

  t.test('neither reads nor writes spares in a folder others may write in', async (t) => {
    const spareDir = join(dir, 'shared')
    load(file, { spareDir })
    const [spare] = readdirSync(spareDir)
    t.ok(spare, 'a run left a spare in a folder of its own')
    chmodSync(spareDir, 0o777)
    t.equal(load(file, { spareDir }).codeCache, 'absent', 'the spare in a folder anyone may write in is not read')
    rmSync(join(spareDir, spare as string))
    load(file, { spareDir })
    t.same(readdirSync(spareDir), [], 'nor is one written there')
  })

  t.test('keeps spares in its own folder of the temporary one, unless NODE_DISABLE_COMPILE_CACHE is set', async (t) => {
    /** The spare caches a run with the default folder leaves in a temporary folder of its own. */
    const spares = (env: NodeJS.ProcessEnv) => {
      const temporary = mkdtempSync(join(dir, 'tmp-'))
      const loaded = spawnSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', `import { loadBundle } from ${JSON.stringify(LOADER)}; loadBundle(${JSON.stringify(file)})`],
        { encoding: 'utf8', env: { ...process.env, TMPDIR: temporary, ...env } },
      )
      t.equal(loaded.status, 0, loaded.stderr)
      return readdirSync(temporary)
        .filter((name) => name.startsWith('jobboard-kit-code-cache'))
        .flatMap((name) => readdirSync(join(temporary, name)).map((cache) => `${name}/${cache}`))
    }
    t.match(spares({}), [new RegExp(`^jobboard-kit-code-cache-${process.getuid?.() ?? ''}/kit\\.cjs\\.[0-9a-f]+\\..+\\.cache$`)], 'one spare, in a folder named for the user')
    t.same(spares({ NODE_DISABLE_COMPILE_CACHE: '1' }), [], 'none with NODE_DISABLE_COMPILE_CACHE')
  })

  t.test('with source maps on, requires the bundle as a module, so that stack traces name its sources', async (t) => {
    const mapped = join(dir, 'mapped')
    mkdirSync(mapped)
    writeFileSync(join(mapped, 'original.ts'), "export const fail = (): never => {\n  throw new Error('from the source')\n}\n")
    await build({ entryPoints: [join(mapped, 'original.ts')], outfile: join(mapped, 'kit.cjs'), bundle: true, format: 'cjs', platform: 'node', sourcemap: true, logLevel: 'silent' })
    const script = `
import { loadBundle } from ${JSON.stringify(LOADER)}
const loaded = loadBundle(${JSON.stringify(join(mapped, 'kit.cjs'))}, { spareDir: null })
let stack = ''
try { loaded.exports.fail() } catch (error) { stack = error.stack }
process.stdout.write(JSON.stringify({ codeCache: loaded.codeCache, at: /\\(([^()]*):(\\d+):\\d+\\)/.exec(stack)?.slice(1) }))
`
    const run = (flags: string[]) => {
      const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
      if (child.status !== 0) throw new Error(child.stderr)
      return JSON.parse(child.stdout) as { codeCache: string; at: [string, string] }
    }
    t.same(run(['--enable-source-maps']), { codeCache: 'skipped', at: [join(mapped, 'original.ts'), '2'] }, 'the stack names original.ts, line 2')
    t.same(run([]), { codeCache: 'absent', at: [join(mapped, 'kit.cjs'), String(readFileSync(join(mapped, 'kit.cjs'), 'utf8').split('\n').findIndex((line) => line.includes('from the source')) + 1)] }, 'without, the bundle and its line')
  })

  t.test('takes source maps as asked for by every spelling of the flag Node accepts', async (t) => {
    t.ok(sourceMapsAsked(['--enable-source-maps']), '--enable-source-maps')
    t.ok(sourceMapsAsked(['--max-old-space-size=4096', '--enable-source-maps=true']), '--enable-source-maps=true')
    t.notOk(sourceMapsAsked(['--enable-source-maps=false']), 'not --enable-source-maps=false')
    t.notOk(sourceMapsAsked(['--import', 'tsx']), 'not a loader that maps its own files')
  })
})
