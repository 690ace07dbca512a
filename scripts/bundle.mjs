// Build step after tsc (`npm run build`): bundles the command line (dist/src/cli.js and
// what it imports) into dist/cli/, so that `jobboard-kit serve` loads a few files instead
// of some 400 modules: module resolution and loading was most of its start-up. Packages
// that find their own files at run time (swagger-ui's page, pino's workers) or that only
// `contract` needs stay in node_modules. The library (dist/src/index.js) is not bundled.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

const out = new URL('../dist/cli/', import.meta.url)
rmSync(out, { recursive: true, force: true })
await build({
  entryPoints: [new URL('../dist/src/cli.js', import.meta.url).pathname],
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
process.stdout.write(`bundled the command line into ${out.pathname}\n`)
