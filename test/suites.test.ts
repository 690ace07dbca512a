// The test runs of package.json (npm test and the scripts for what it leaves out): every
// test file runs in at least one of them, so that .ci/run, which runs them all, runs every
// test; and npm test, the quick loop, leaves out exactly what another run takes.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'
import { ROOT } from './helpers/cli.js'

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; tap: { include: string[]; exclude: string[] } }

/** A glob of these scripts (`*`, `**`) as a regular expression over paths from the root. */
const globRe = (glob: string) =>
  new RegExp(`^${glob.split('**/').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('(?:.*/)?')}$`)

/** The file globs a tap command of a script names. */
const globsOf = (script: string) =>
  (pkg.scripts[script] ?? '')
    .split(/\s+/)
    .map((word) => word.replace(/^'|'$/g, ''))
    .filter((word) => word.startsWith('test/'))

const files = (function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [relative(ROOT, join(dir, entry.name))] : [],
  )
})(join(ROOT, 'test'))

const RUNS = ['test:integration', 'test:deep', 'test:slow', 'test:engine', 'test:exe']
const inRun = Object.fromEntries(RUNS.map((run) => [run, globsOf(run).map(globRe)]))
const quick = (file: string) => pkg.tap.include.map(globRe).some((re) => re.test(file)) && !pkg.tap.exclude.map(globRe).some((re) => re.test(file))

t.test('every test file runs in npm test or in a script .ci/run runs', async (t) => {
  t.ok(files.length > 100, `${files.length} test files`)
  for (const file of files) {
    const runs = [...(quick(file) ? ['test'] : []), ...RUNS.filter((run) => inRun[run]?.some((re) => re.test(file)))]
    t.ok(runs.length > 0, `${file} runs in ${runs.join(', ') || 'no run'}`)
  }
})

t.test('npm test leaves out only what another run takes', async (t) => {
  for (const file of files.filter((f) => !quick(f))) {
    t.ok(RUNS.some((run) => inRun[run]?.some((re) => re.test(file))), `${file}, left out of npm test, runs in another`)
  }
  for (const file of files.filter(quick)) {
    t.notOk(['test:integration', 'test:exe', 'test:slow', 'test:engine'].some((run) => inRun[run]?.some((re) => re.test(file))), `${file} runs once, in npm test`)
  }
})

t.test('.ci/run runs each of those scripts', async (t) => {
  const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
  for (const run of ['test', ...RUNS]) t.match(ci, new RegExp(`run_npm \\S+ ${run}\\b`), `.ci/run runs npm run ${run}`)
})
