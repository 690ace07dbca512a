// What every test process loads first (package.json tap.node-arg): Node's compile cache,
// so the hundred test processes of a run do not each compile the same modules again,
// then tsx's ESM loader for the TypeScript. Node 20 has no compile cache: it just loads tsx.
import module from 'node:module'
import { join } from 'node:path'

module.enableCompileCache?.(join(import.meta.dirname ?? '.', '..', '..', 'node_modules', '.cache', 'jobboard-kit-tests'))
await import('tsx/esm')
