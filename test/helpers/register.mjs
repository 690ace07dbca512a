// What every test process loads first (package.json tap.node-arg): Node's compile cache
// (Node 22.1+), so the hundred test processes of a run do not each compile the same modules
// again, then the hooks that load this repository's TypeScript (test/helpers/ts-hooks.mjs:
// the JavaScript scripts/test-prepare.mjs made of each .ts file, by a digest of its text).
// In the process's own thread where Node has module.registerHooks (22.15+), else on
// the loader thread (module.register: Node 20).
import module from 'node:module'
import { join } from 'node:path'

const root = join(import.meta.dirname ?? '.', '..', '..')
module.enableCompileCache?.(join(root, 'node_modules', '.cache', 'jobboard-kit-tests', 'v8'))
if (typeof module.registerHooks === 'function') {
  const { resolveSync, loadSync } = await import('./ts-hooks.mjs')
  module.registerHooks({ resolve: resolveSync, load: loadSync })
} else {
  module.register('./ts-hooks.mjs', import.meta.url)
}
