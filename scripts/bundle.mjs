// Build step after tsc and precompile.mjs (`npm run build`): bundles the package (the
// library, jobboard-kit/nock, jobboard-kit/contract and the command line) with what it
// imports into a few plain ES modules in dist/lib/, one per entry of package.json's exports
// and the code they share in dist/lib/chunks/. Importing the package or starting
// `jobboard-kit serve` then reads a handful of files instead of some 400 modules; on Node
// 22.1+ the command line also starts from Node's own compile cache (bin/jobboard-kit.js,
// module.enableCompileCache), which keeps V8's compiled code of those files between runs.
//
// Code split by esbuild: a class is the same class from any entry, and what only one entry
// or a later import() needs (the contract kit's runner, commander) is its own chunk, loaded
// when first asked for. Packages that find their own files at run time (swagger-ui's page,
// pino's workers) or that only `contract` needs stay in node_modules. Types and source maps
// of each module stay in dist/src/.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

const out = new URL('../dist/lib/', import.meta.url)
const src = new URL('../dist/src/', import.meta.url)
const EXTERNAL = ['@fastify/swagger', '@fastify/swagger-ui', 'pino', 'pino-pretty', '@tapjs/core', 'tap-parser', 'junit-report-builder', 'nock', 'undici']

/** Each entry: its file in dist/lib/ and the module of dist/src/ it exports. */
const ENTRIES = { index: './index.js', nock: './fake/nock.js', 'contract/index': './contract/index.js', cli: './cli/main.js' }

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
  entryPoints: Object.keys(ENTRIES).map((name) => ({ in: `jobboard-kit-entry:${name}`, out: name })),
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
process.stdout.write(`bundled the package into ${out.pathname}\n`)
