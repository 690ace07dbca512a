// `npm test`'s first step: makes sure tap's Test class is built with the plugins package.json
// asks for (tap.plugin: without @tapjs/typescript and @tapjs/mock; the TypeScript is tsx's,
// test/helpers/register.mjs). npm installs tap built with its default plugins, and tap
// rebuilds itself only once a run has started, too late for that run's test processes:
// on a fresh clone every file of the first `npm test` also loaded @tapjs/typescript's loader
// (264 s where the next run took 121 s). Runs `tap build` only when the built signature
// disagrees with the config, so a run on a built tree costs a file read.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const plugins = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).tap?.plugin ?? []
let built
try {
  // the built Test class names its plugins in `signature`, one per line
  const source = readFileSync(join(dirname(require.resolve('@tapjs/test/package.json')), 'test-built', 'dist', 'esm', 'index.js'), 'utf8')
  built = new Set((/export const signature = `([^`]*)`/.exec(source)?.[1] ?? '').split('\n').filter(Boolean))
} catch {
  built = undefined
}
const agrees =
  built !== undefined &&
  built.size > 0 &&
  plugins.every((entry) => (entry.startsWith('!') ? !built.has(entry.slice(1)) : built.has(entry)))
if (!agrees) {
  process.stdout.write('tap-plugins: building tap with the plugins package.json names (tap build)\n')
  const tap = require('tap/package.json').bin.tap
  execFileSync(process.execPath, [join(dirname(require.resolve('tap/package.json')), tap), 'build'], { stdio: 'inherit' })
}
