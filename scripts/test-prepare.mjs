// `npm test`'s first step (scripts/tap.mjs imports it; `node scripts/test-prepare.mjs` alone
// does the same), so that its hundred test processes start as cheaply as they can:
// 1. tap's Test class is built with the plugins package.json asks for (tap.plugin: without
//    @tapjs/typescript and @tapjs/mock). npm installs tap built with its default plugins, and
//    tap rebuilds itself only once a run has started, too late for that run's test processes:
//    on a fresh clone every file of the first `npm test` also loaded @tapjs/typescript's loader
//    (264 s where the next run took 121 s). `tap build` runs only when the built signature
//    disagrees with the config, so on a built tree this costs a file read; on a fresh
//    clone it runs while steps 2 and 3 do.
// 2. Every .ts file of the repository is transformed to JavaScript once, in one esbuild call
//    (about a second), into the cache test/helpers/ts-hooks.mjs reads by a digest of each
//    file's path and text; a test process then loads each file without transforming it.
//    A file already in the cache is not transformed again.
// 3. The validators a fake compiles as it starts are written as the build writes them
//    (scripts/precompile.mjs --sources into dist/precompiled, with the shipped scenarios
//    checked), so that a test process loads them instead of compiling them with ajv: 0.14 s
//    of CPU of each process that makes a fake, on a clone with no build. The files are named
//    by a digest of their schema, so a changed schema is compiled at run time as before;
//    they are made again when a source or scenario changed since (a stamp of their texts).
// 4. Once tap is built, `tap`, `@tapjs/core` and `tap-parser`, and the packages a fake loads
//    (Fastify, ajv and the others TAP_BUNDLED names), are bundled with esbuild into a few
//    files (test/helpers/ts-hooks.mjs resolves this repository's imports of them there):
//    about 0.07 s of CPU a test process spent loading tap's 220 modules one by one, 0.12 s
//    (Node 22) a process that makes a fake the fake's 250. Made again when the install or
//    tap's build changed since (a stamp of their files).
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUNDLED_COMMONJS, cachePath, TAP_BUNDLE, TAP_BUNDLED, tapBundleStamp, transformOptions, writeCached } from '../test/helpers/ts-hooks.mjs'

const require = createRequire(import.meta.url)
const ROOT = fileURLToPath(new URL('..', import.meta.url))

const plugins = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).tap?.plugin ?? []
let built
try {
  // the built Test class names its plugins in `signature`, one per line
  const source = readFileSync(join(dirname(require.resolve('@tapjs/test/package.json')), 'test-built', 'dist', 'esm', 'index.js'), 'utf8')
  built = new Set((/export const signature = `([^`]*)`/.exec(source)?.[1] ?? '').split('\n').filter(Boolean))
} catch {
  built = undefined
}
const agrees =
  built !== undefined &&
  built.size > 0 &&
  plugins.every((entry) => (entry.startsWith('!') ? !built.has(entry.slice(1)) : built.has(entry)))
/** A Node process of this repository's, its end as a promise (rejected on a failure). */
const child = (args, stdio) =>
  new Promise((done, failed) => {
    spawn(process.execPath, args, { cwd: ROOT, stdio })
      .on('error', failed)
      .on('exit', (code, signal) => (code === 0 ? done() : failed(new Error(`node ${args.join(' ')}: ${signal ?? `exit ${code}`}`))))
  })
// tap's build (a TypeScript compile, seconds) runs while the sources are transformed below
let building = Promise.resolve()
if (!agrees) {
  process.stdout.write('test-prepare: building tap with the plugins package.json names (tap build)\n')
  const tap = require('tap/package.json').bin.tap
  building = child([join(dirname(require.resolve('tap/package.json')), tap), 'build'], 'inherit')
}

/** Every .ts file under the repository, but in node_modules, dist and dot-folders. */
function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* tsFiles(path)
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path
  }
}
const todo = []
// what the precompiled validators are made from: the sources of src/ and schemas/, the scenarios, the script
const stamp = createHash('sha1').update(readFileSync(join(ROOT, 'scripts', 'precompile.mjs')))
for (const file of tsFiles(ROOT)) {
  const text = readFileSync(file, 'utf8')
  const cached = cachePath(file, text)
  if (!existsSync(cached)) todo.push({ file, text, cached })
  const path = relative(ROOT, file)
  if (path.startsWith(`src${sep}`) || path.startsWith(`schemas${sep}`)) stamp.update(`${path}\0`).update(text)
}
const scenarios = join(ROOT, 'scenarios')
for (const name of readdirSync(scenarios).sort()) if (name.endsWith('.json')) stamp.update(`${name}\0`).update(readFileSync(join(scenarios, name)))
if (todo.length > 0) {
  const esbuild = require('esbuild')
  await Promise.all(
    todo.map(async ({ file, text, cached }) => {
      try {
        writeCached(cached, (await esbuild.transform(text, transformOptions(file))).code)
      } catch {
        // a file esbuild cannot read is left to its test process, which reports it where it is imported
      }
    }),
  )
  esbuild.stop?.()
}

const precompiled = join(ROOT, 'dist', 'precompiled')
const stampFile = join(precompiled, 'sources.stamp')
const digest = stamp.digest('hex')
if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== digest) {
  try {
    await child(['--import', './test/helpers/register.mjs', join('scripts', 'precompile.mjs'), '--sources'], ['ignore', 'ignore', 'inherit'])
    writeFileSync(stampFile, digest)
  } catch {
    // a source that does not load now fails in its own tests; every validator is then compiled where it is used
    process.stdout.write('test-prepare: the validators could not be precompiled; the test processes compile them\n')
  }
}
await building

const bundleStamp = tapBundleStamp()
let bundled
try {
  bundled = readFileSync(join(TAP_BUNDLE, 'stamp'), 'utf8')
} catch {
  bundled = undefined
}
if (bundled !== bundleStamp) {
  const partial = `${TAP_BUNDLE}.${process.pid}.tmp`
  try {
    // a CommonJS package's entry names each export Node's import of it gives (esbuild cannot know them statically)
    const entries = {}
    for (const name of BUNDLED_COMMONJS) {
      const exports = Object.keys(await import(name)).filter((key) => key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key))
      entries[name] = `import * as m from '${name}'\nexport default m.default\n${exports.map((key) => `export const ${key} = m.${key}`).join('\n')}\n`
    }
    await require('esbuild').build({
      entryPoints: Object.entries(TAP_BUNDLED).map(([name, out]) => ({ in: name in entries ? `bundled:${name}` : fileURLToPath(import.meta.resolve(name)), out })),
      plugins: [
        {
          name: 'commonjs-entries',
          setup(build) {
            build.onResolve({ filter: /^bundled:/ }, (args) => ({ path: args.path.slice('bundled:'.length), namespace: 'bundled' }))
            build.onLoad({ filter: /.*/, namespace: 'bundled' }, (args) => ({ contents: entries[args.path], resolveDir: ROOT, loader: 'js' }))
          },
        },
      ],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: partial,
      outExtension: { '.js': '.mjs' },
      // what the bundled packages require at run time (tcompare's react-element-to-jsx-string, a package's optional ones)
      banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
      logLevel: 'error',
    })
    writeFileSync(join(partial, 'stamp'), bundleStamp)
    rmSync(TAP_BUNDLE, { recursive: true, force: true })
    renameSync(partial, TAP_BUNDLE)
  } catch (error) {
    // the test processes then load tap as it comes
    rmSync(partial, { recursive: true, force: true })
    process.stdout.write(`test-prepare: tap could not be bundled (${error.message.split('\n')[0]}); the test processes load it as it comes\n`)
  }
}
