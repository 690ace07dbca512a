#!/usr/bin/env node
// The package's command: runs the built CLI (npm builds dist/ on install from git): the
// bundle in dist/lib/ (a few ES modules, scripts/bundle.mjs), or dist/src/ when built with
// tsc alone.
import { existsSync } from 'node:fs'
import module from 'node:module'

// Node 22.1+ keeps V8's compiled code of the modules it loads between runs (in the
// temporary folder, or NODE_COMPILE_CACHE's; NODE_DISABLE_COMPILE_CACHE=1 turns it off):
// compiling the bundle was the largest part of a start. Node 20 has no such cache and
// compiles it each time. Called before the CLI is imported, so that its modules are cached.
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
