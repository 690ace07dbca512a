// Where the package's own files are, from source (src/) or from the build (dist/src/).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { executableVersion, inExecutable } from './shipped.js'

/** The package's folder; for the single executable, the executable's own (its files are inside it: core/shipped.ts). */
function findRoot(): string {
  if (inExecutable()) return dirname(process.execPath)
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'jobboard-kit') {
      return dir
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('jobboard-kit: cannot find the package root')
    dir = parent
  }
}

export const PACKAGE_ROOT = findRoot()
export const SCENARIOS_DIR = join(PACKAGE_ROOT, 'scenarios')
export const PACKAGE_VERSION = executableVersion() ?? (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version
