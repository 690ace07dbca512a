#!/usr/bin/env node
// The package's command: runs the built CLI (npm builds dist/ on install from git).
import { existsSync } from 'node:fs'

const cli = new URL('../dist/src/cli.js', import.meta.url)
if (!existsSync(cli)) {
  process.stderr.write('jobboard-kit: dist/ is missing; run `npm run build` in the package folder first.\n')
  process.exit(2)
}
const { main } = await import(cli.href)
// main answers the exit code; the process then ends by itself, its output flushed
main(process.argv).then((code) => {
  process.exitCode = code
})
