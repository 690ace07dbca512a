#!/usr/bin/env node
// The package's command: runs the built CLI (npm builds dist/ on install from git): the
// CommonJS file dist/lib/cli.cjs, or cli-serve.cjs for `serve` (scripts/bundle.mjs),
// compiled with V8's code cache of an earlier run (src/cli/code-cache.ts), or dist/src/
// when built with tsc alone.
// Node's modules as require gives them: an ES import of node:fs builds its ES facade, which
// loads fs/promises, streams and readline first (src/cli/code-cache.ts says why that matters)
const { existsSync } = process.getBuiltinModule('node:fs')
const module = process.getBuiltinModule('node:module')

// Node 22.1+ keeps the compiled code of the modules its loader loads (this file's next
// import, the packages the CLI requires from node_modules) in its compile cache; the CLI's
// own file has a code cache of its own, made by an earlier run once it had answered (or as it
// ended, if it never answered: src/cli/code-cache.ts). Both are
// kept in the temporary folder (or NODE_COMPILE_CACHE's); NODE_DISABLE_COMPILE_CACHE=1 turns both off.
module.enableCompileCache?.()
// `serve` starts from a bundle of its own, without the other commands (src/cli/serve-main.ts)
const bundled = new URL(process.argv[2] === 'serve' ? '../dist/lib/cli-serve.cjs' : '../dist/lib/cli.cjs', import.meta.url)
const built = new URL('../dist/src/cli/main.js', import.meta.url)
if (!existsSync(bundled) && !existsSync(built)) {
  process.stderr.write('jobboard-kit: dist/ is missing; run `npm run build` in the package folder first.\n')
  process.exit(2)
}
const { main } = existsSync(bundled) ? (await import('../dist/src/cli/code-cache.js')).loadWithCodeCache(bundled, process.argv[2]) : await import(built.href)
// main answers the exit code; the process then ends by itself, its output flushed
main(process.argv).then((code) => {
  process.exitCode = code
})
