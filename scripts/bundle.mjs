// Build step after tsc and precompile.mjs (`npm run build`): bundles the package with what
// it imports. The library (its entry, jobboard-kit/nock and jobboard-kit/contract) becomes a
// few plain ES modules in dist/lib/, one per entry of package.json's exports and the code
// they share in dist/lib/chunks/: importing the package reads a handful of files instead of
// some 400 modules. The command line becomes one CommonJS file, dist/lib/cli.cjs, that
// bin/jobboard-kit.js starts from V8's code cache of an earlier run (below).
//
// Code split by esbuild: a class is the same class from any entry, and what only one entry
// or a later import() needs (the contract kit's runner) is its own chunk, loaded when first
// asked for. Packages that find their own files at run time (swagger-ui's page, pino's
// workers) or that only `contract` needs stay in node_modules. Types and source maps of
// each module stay in dist/src/.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

const out = new URL('../dist/lib/', import.meta.url)
const src = new URL('../dist/src/', import.meta.url)
const EXTERNAL = ['@fastify/swagger', '@fastify/swagger-ui', 'pino', 'pino-pretty', '@tapjs/core', 'tap-parser', 'junit-report-builder', 'nock', 'undici']

/** Each entry: its file in dist/lib/ and the module of dist/src/ it exports. */
const ENTRIES = { index: './index.js', nock: './fake/nock.js', 'contract/index': './contract/index.js', cli: './cli/main.js' }
/** The library's entries, as ES modules; the command line is one CommonJS file (below). */
const LIBRARY = ['index', 'nock', 'contract/index']

// Each entry first hands the precompiled validators to src/core/validation.ts, so they travel
// in the bundle (and the compile cache) rather than as files to load; one module all share.
const entries = {
  name: 'jobboard-kit-entries',
  setup(build) {
    build.onResolve({ filter: /^jobboard-kit-entry:/ }, (args) => ({ path: args.path.slice('jobboard-kit-entry:'.length), namespace: 'entry' }))
    build.onLoad({ filter: /.*/, namespace: 'entry' }, (args) => ({
      resolveDir: src.pathname,
      contents:
        args.path === 'carry'
          ? "import { carryPrecompiled } from './core/validation.js'\nimport precompiled from '../precompiled/index.cjs'\ncarryPrecompiled(precompiled)\n"
          : `import 'jobboard-kit-entry:carry'\nexport * from '${ENTRIES[args.path]}'\n`,
    }))
  },
}

rmSync(out, { recursive: true, force: true })
await build({
  entryPoints: LIBRARY.map((name) => ({ in: `jobboard-kit-entry:${name}`, out: name })),
  outdir: out.pathname,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: EXTERNAL,
  plugins: [entries],
  // the bundled CommonJS packages (fastify, ajv, …) require Node's modules and their own
  // files: an ES module has no `require`, so each file of the bundle makes one
  banner: { js: "import { createRequire as __kitCreateRequire } from 'node:module'; const require = __kitCreateRequire(import.meta.url);" },
})
process.stdout.write(`bundled the library into ${out.pathname}\n`)

// The command line: one CommonJS file with everything it may load inside (its later
// imports too), which bin/jobboard-kit.js compiles with V8's code cache of an earlier run
// (bin/code-cache.js). That cache is made as a run ends, so it holds every function the
// run compiled; Node's compile cache holds what compiling a module makes, before any of it
// runs, and an ES module graph of chunks costs linking besides: measured, the CLI's spawn
// to first answer took 1.36-1.46x a bare Fastify server's with Node's cache, 1.04-1.08x
// with this one on Node 22 and 24, and Node 20 has no compile cache at all (docs/architecture.md).
const cli = new URL('cli.cjs', out)
await build({
  entryPoints: [{ in: 'jobboard-kit-entry:cli', out: 'cli' }],
  outfile: cli.pathname,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: EXTERNAL,
  plugins: [entries],
  supported: { 'dynamic-import': false },
  // import.meta of the ES sources: this file's own URL (paths.ts finds the package from it)
  define: { 'import.meta.url': '__kitUrl', 'import.meta.resolve': '__kitResolve' },
  banner: {
    js: "'use strict'; const __kitUrl = require('node:url').pathToFileURL(__filename).href; const __kitResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;",
  },
})
process.stdout.write(`bundled the command line into ${cli.pathname}\n`)
