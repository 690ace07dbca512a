// Build step after tsc and precompile.mjs (`npm run build`): bundles the package with what
// it imports into CommonJS files in dist/lib/: cli.cjs, the command line, cli-serve.cjs,
// its `serve` alone (what `jobboard-kit serve` starts from), and lib.cjs,
// the library (the entry, jobboard-kit/nock and jobboard-kit/contract, each a namespace of
// it). Each is compiled with V8's code cache of an earlier run (src/cli/code-cache.ts):
// the command by bin/jobboard-kit.js, the library by the ES modules package.json's exports
// name (index.js, nock.js, contract/index.js), which this script writes: each loads lib.cjs
// once (dist/lib/load.js) and exports its namespace's names, so a class is the same class
// from any entry. Importing the package or starting `jobboard-kit serve` reads one file
// instead of some 400 modules, and compiles little of it.
//
// Why V8's code cache and not Node's compile cache: that cache is made by a run once it has
// answered (the library's again as it ends), so it holds every function the run compiled by then; Node's compile cache holds what compiling a module
// makes before it runs (most of a bundle's functions are compiled later, as first called),
// an ES module graph of chunks costs linking besides, and Node 20 has no compile cache.
// Measured, `serve`'s spawn to first answer took 1.36-1.46x a bare Fastify server's with
// Node's cache and ES chunks, 1.04-1.08x with this one on Node 22 and 24 (docs/architecture.md, Start-up).
//
// Everything a command or an entry may load later (import()) is inside its file: compiled
// only when first called. Packages that find their own files at run time (swagger-ui's
// page, pino's workers) or that only `contract` needs stay in node_modules. Types and
// source maps of each module stay in dist/src/.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import module, { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { build } from 'esbuild'

const out = new URL('../dist/lib/', import.meta.url)
const src = new URL('../dist/src/', import.meta.url)
const EXTERNAL = ['@fastify/swagger', '@fastify/swagger-ui', 'pino', 'pino-pretty', '@tapjs/core', 'tap-parser', 'junit-report-builder', 'nock', 'undici']

/** What each bundle holds: the command line's main, or the library's entries as namespaces. */
const BUNDLES = {
  cli: "export * from './cli/main.js'",
  // `jobboard-kit serve` alone (src/cli/serve-main.ts): bin/jobboard-kit.js starts serve from it
  'cli-serve': "export * from './cli/serve-main.js'",
  // the contract kit (and the packages only it needs, tap's core and undici) is loaded when jobboard-kit/contract is
  lib: ["export * as index from './index.js'", "export * as nock from './fake/nock.js'", "export const contract = () => import('./contract/index.js')"].join('\n'),
}
/** The library's ES entries (package.json's exports): the file each is written to, and its namespace in lib.cjs. */
const ENTRIES = { 'index.js': 'index', 'nock.js': 'nock', 'contract/index.js': 'contract' }

// Each bundle first hands the precompiled validators to src/core/validation.ts, so they
// travel in the bundle (and its code cache) rather than as files to load.
const entries = {
  name: 'jobboard-kit-entries',
  setup(build) {
    build.onResolve({ filter: /^jobboard-kit-entry:/ }, (args) => ({ path: args.path.slice('jobboard-kit-entry:'.length), namespace: 'entry' }))
    build.onLoad({ filter: /.*/, namespace: 'entry' }, (args) => ({
      resolveDir: src.pathname,
      contents:
        "import { carryPrecompiled } from './core/validation.js'\nimport precompiled from '../precompiled/index.cjs'\ncarryPrecompiled(precompiled)\n" +
        BUNDLES[args.path],
    }))
  },
}

/**
 * Writes each character of a bundle past ASCII as its \\u escape. esbuild escapes them in
 * strings but leaves comments, regular expressions and template literals as written (a few
 * ×, →, … and §), and one such character makes the whole file a two-byte string: reading
 * the 5 MB bundle as UTF-8 then took 3.5× as long (33 ms against 9.5 ms on a busy machine,
 * at every start) and V8 holds it at twice the size. An escape means the same character
 * everywhere in JavaScript but in a raw template (String.raw), where it would stand as
 * written: one there stops the build.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8')
  // where the raw templates stand: from String.raw` to the next backtick not escaped
  const raws = []
  for (let at = text.indexOf('String.raw`'); at !== -1; at = text.indexOf('String.raw`', at + 1)) {
    let end = at + 'String.raw`'.length
    while (end < text.length && !(text[end] === '`' && text[end - 1] !== '\\')) end++
    raws.push([at, end])
  }
  const escaped = text.replace(/[\u0080-\uffff]/g, (char, at) => {
    if (raws.some(([from, to]) => at > from && at < to)) {
      const line = text.slice(text.lastIndexOf('\n', at) + 1, at)
      throw new Error(`${file.pathname}: ${JSON.stringify(char)} stands in a raw template: ${line.trim().slice(0, 80)}`)
    }
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
  if (escaped !== text) writeFileSync(file, escaped)
}

/**
 * Writes a bundle as the function CommonJS wraps a module in (module.wrap's text): the
 * loader (src/cli/code-cache.ts) compiles the file's text as it was read. Read as Latin-1,
 * a text this long is a string outside V8's heap (Node keeps it as an external string);
 * wrapped at run time instead, the concatenation was a second copy of the 5 MB on the heap,
 * which the first answer's collections then walked (a mark-compact before it, measured).
 * The file is thereby no longer a module `require` runs: only that loader (and evaluated(),
 * below) load it.
 */
function wrapped(file) {
  writeFileSync(file, module.wrap(readFileSync(file, 'latin1')), 'latin1')
}

/** A wrapped bundle's exports, as the loader gets them (without its code cache): for the names the ES entries export. */
function evaluated(file) {
  const filename = fileURLToPath(file)
  const wrapper = vm.runInThisContext(readFileSync(filename, 'latin1'), { filename })
  const loaded = { exports: {} }
  wrapper.call(loaded.exports, loaded.exports, createRequire(filename), loaded, filename, dirname(filename))
  return loaded.exports
}

// fflate's build for Node loads worker_threads (and node:module) as it is first evaluated,
// for the asynchronous functions the package never calls (it zips with zipSync and
// zlibSync): part of every start before the first answer. Its ES build without the Node
// worker shim has the same code otherwise, and loads nothing.
const fflateWithoutWorkers = {
  name: 'fflate-without-workers',
  setup(build) {
    build.onResolve({ filter: /^fflate$/ }, () => ({ path: createRequire(import.meta.url).resolve('fflate').replace(/lib\/node\.cjs$/, 'esm/browser.js') }))
  },
}

// The script of the page of /__mock/ui (src/watch/ui/page-script.ts) is bundled from its
// browser code when that module runs: once, here, and its compiled form in dist/src/ is
// written over with the text it made. So the bundles below, the single executable
// (scripts/build-exe.mjs bundles dist/src/ too) and anything run from dist/ carry the script
// inside their code, loaded when the page is first asked for, and need neither esbuild nor
// the browser code's sources.
const pageScript = new URL('watch/ui/page-script.js', src)
const { SCRIPT } = await import(pageScript.href)
writeFileSync(
  pageScript,
  `// Written by scripts/bundle.mjs: the page's script, bundled from src/watch/ui/browser/ by src/watch/ui/page-script.ts.\nexport const SCRIPT = ${JSON.stringify(SCRIPT)}\n`,
)
rmSync(new URL('page-script.js.map', pageScript), { force: true })

rmSync(out, { recursive: true, force: true })
for (const name of Object.keys(BUNDLES)) {
  await build({
    entryPoints: [{ in: `jobboard-kit-entry:${name}`, out: name }],
    outfile: new URL(`${name}.cjs`, out).pathname,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    external: EXTERNAL,
    plugins: [entries, fflateWithoutWorkers],
    // later imports are part of the file: compiled when first called, and then in the code cache
    supported: { 'dynamic-import': false },
    // import.meta of the ES sources: the bundle's own URL (paths.ts finds the package from it)
    define: { 'import.meta.url': '__kitUrl', 'import.meta.resolve': '__kitResolve' },
    banner: {
      js: "'use strict'; const __kitUrl = require('node:url').pathToFileURL(__filename).href; const __kitResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;",
    },
  })
  asciiOnly(new URL(`${name}.cjs`, out))
  wrapped(new URL(`${name}.cjs`, out))
}

// The ES entries: each exports, by name, its namespace of lib.cjs, loaded once by load.js.
// The names are read off the bundle itself, so an export added to a source is exported here.
const library = evaluated(new URL('lib.cjs', out))
writeFileSync(
  new URL('load.js', out),
  [
    '// Written by scripts/bundle.mjs: loads dist/lib/lib.cjs once, through V8\'s code cache of an earlier run (src/cli/code-cache.ts).',
    "import { loadWithCodeCache } from '../src/cli/code-cache.js'",
    'let loaded',
    "export const loadLibrary = () => (loaded ??= loadWithCodeCache(new URL('./lib.cjs', import.meta.url), 'library'))",
    '',
  ].join('\n'),
)
for (const [file, namespace] of Object.entries(ENTRIES)) {
  const lazy = typeof library[namespace] === 'function'
  const names = Object.keys(lazy ? await library[namespace]() : library[namespace]).filter((name) => name !== '__esModule' && name !== 'default')
  const target = new URL(file, out)
  mkdirSync(new URL('.', target), { recursive: true })
  const load = file.includes('/') ? '../load.js' : './load.js'
  writeFileSync(
    target,
    [
      `// Written by scripts/bundle.mjs: the names of ${namespace === 'index' ? 'the package' : `jobboard-kit/${namespace}`}, from dist/lib/lib.cjs.`,
      `import { loadLibrary } from '${load}'`,
      `export const { ${names.join(', ')} } = ${lazy ? `await loadLibrary().${namespace}()` : `loadLibrary().${namespace}`}`,
      '',
    ].join('\n'),
  )
}
process.stdout.write(`bundled the library into ${new URL('lib.cjs', out).pathname} (${Object.keys(ENTRIES).join(', ')})\n`)
process.stdout.write(`bundled the command line into ${new URL('cli.cjs', out).pathname}, and its serve alone into ${new URL('cli-serve.cjs', out).pathname}\n`)
