#!/usr/bin/env node
// The package's command: runs the built CLI (npm builds dist/ on install from git): the
// bundle in dist/lib/ (one file, run from V8's code cache: src/core/load-bundle.ts), or
// dist/src/ when built with tsc alone.
import { existsSync } from 'node:fs'
import module from 'node:module'

// Node 22.1+ keeps compiled code between runs for the modules its loader loads: here the
// packages left out of the bundle (the bundle has its own cache); Node 20 has no such cache
module.enableCompileCache?.()
const bundled = new URL('../dist/lib/cli.js', import.meta.url)
const cli = existsSync(bundled) ? bundled : new URL('../dist/src/cli/main.js', import.meta.url)
if (!existsSync(cli)) {
  process.stderr.write('jobboard-kit: dist/ is missing; run `npm run build` in the package folder first.\n')
  process.exit(2)
}
const { main } = await import(cli.href)
// main answers the exit code; the process then ends by itself, its output flushed
main(process.argv).then((code) => {
  process.exitCode = code
})
