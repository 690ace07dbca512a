// Build step after tsc (`npm run build`): bundles the package's entries (the library,
// jobboard-kit/nock, jobboard-kit/contract and the command line) with what they import
// into dist/lib/, so that importing the package or starting `jobboard-kit serve` loads a
// few files instead of some 400 modules: module resolution and loading was most of their
// start-up. The entries share their modules' one copy (chunks), so a class is the same
// class from any entry. Packages that find their own files at run time (swagger-ui's
// page, pino's workers) or that only `contract` needs stay in node_modules. Types and
// source maps of each module stay in dist/src/.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

const out = new URL('../dist/lib/', import.meta.url)
const entry = (path) => new URL(`../dist/src/${path}`, import.meta.url).pathname
rmSync(out, { recursive: true, force: true })
await build({
  entryPoints: [entry('index.js'), entry('nock.js'), entry('contract/index.js'), entry('cli.js')],
  outbase: new URL('../dist/src/', import.meta.url).pathname,
  outdir: out.pathname,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['@fastify/swagger', '@fastify/swagger-ui', 'pino', 'pino-pretty', '@tapjs/core', 'tap-parser', 'junit-report-builder', 'nock'],
  // the CommonJS packages bundled in (fastify's) require Node's modules: give them a require
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
})
process.stdout.write(`bundled the package's entries into ${out.pathname}\n`)
