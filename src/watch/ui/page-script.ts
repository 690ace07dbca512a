// The script of /__mock/ui as the text served at ui.js and written into a day's file: the
// page's browser code (browser/, TypeScript checked with the DOM's types by its own
// tsconfig.json, linted by Biome) bundled into one script by esbuild. From source (tsx,
// the tests), it is bundled here, once per process, when the page is first asked for (this
// module is imported only then: page.ts, by routes.ts); esbuild is a dev dependency, there
// in any checkout. The build never ships this: scripts/bundle.mjs runs it once and writes
// its compiled form in dist/src/ as the bundled text itself, so the package, its bundles,
// the single executable and the container carry the script inside their code and need
// neither esbuild nor a file beside it, and load it as late as from source.
import { build } from 'esbuild'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../core/paths.js'

/** The page's browser code, as the build and the sources find it: under the package's src/ (not dist/). */
const BROWSER = join(PACKAGE_ROOT, 'src', 'watch', 'ui', 'browser')

const bundled = await build({
  entryPoints: [join(BROWSER, 'page-main.ts')],
  tsconfig: join(BROWSER, 'tsconfig.json'),
  bundle: true,
  write: false,
  format: 'iife',
  target: 'es2020',
  // a character past ASCII as its escape: the bundles keep their text ASCII (scripts/bundle.mjs)
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'silent',
})

export const SCRIPT: string = (bundled.outputFiles[0] as { text: string }).text
