// The start-up measure a user runs and `npm run bench` takes its start-up goals from
// (bench/start-as-user.ts): run as `npm run bench:start` runs it, against the built package,
// it prints each of issue 45's ratios on a line of its own (serve ÷ a bare Fastify server
// after a graceful stop, after a kill 100 ms after the first answer, after a kill at once;
// the import ÷ fastify's), the CPU ratio beside each, and writes the same figures as JSON;
// a count of runs it cannot take is refused with a message. Figures are never asserted:
// only that they are there and agree with each other. Needs the build: in test:exe.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import type { StartFigures } from '../../bench/start-as-user.js'
import { ROOT } from '../helpers/cli.js'

const run = promisify(execFile)
const SCRIPT = ['--import', 'tsx', join(ROOT, 'bench', 'start-as-user.ts')]
const built = existsSync(join(ROOT, 'dist', 'lib', 'cli.cjs'))

t.test('the measure prints each ratio the issue names and writes them as JSON', { skip: built ? false : 'dist/ is not built (npm run build)' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-start-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const json = join(dir, 'start.json')
  const { stdout } = await run(process.execPath, [...SCRIPT, '--runs', '1', '--json', json], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 })
  const lines = stdout.trim().split('\n')
  t.match(lines[0], new RegExp(`^Node ${process.version.replaceAll('.', '\\.')} \\(.+\\), 1 pairs a line, each line from empty caches:$`))
  const ratio = String.raw`\d+ ÷ \d+ ms = \d+\.\d\d× \(pairs \d+\.\d\d×, \d+\.\d\d–\d+\.\d\d\); CPU (\d+ ÷ \d+ ms = \d+\.\d\d×|– ÷ – ms = –×); the first, not counted: \d+ ms`
  t.match(lines[1], new RegExp(`^  serve ÷ bare Fastify, spawn → first 200, graceful stop \\(SIGTERM\\): ${ratio}$`))
  t.match(lines[2], new RegExp(`^  serve ÷ bare Fastify, spawn → first 200, killed 100 ms after: ${ratio}$`))
  t.match(lines[3], new RegExp(`^  serve ÷ bare Fastify, spawn → first 200, killed at once: ${ratio}$`))
  t.match(lines[4], new RegExp(`^  import 'jobboard-kit' ÷ import 'fastify': ${ratio}$`))
  t.equal(lines.length, 5, 'nothing else')

  const [figures] = JSON.parse(readFileSync(json, 'utf8')) as StartFigures[]
  if (figures === undefined) return t.fail('no figures in the JSON')
  t.equal(figures.version, process.version)
  t.same(
    figures.serve.map((s) => s.stop),
    [{ kind: 'graceful' }, { kind: 'killed', afterMs: 100 }, { kind: 'killed', afterMs: 0 }],
    'serve after each way a run ends',
  )
  for (const c of [...figures.serve.map((s) => s.figures), figures.import]) {
    t.equal(c.pairs, 1)
    t.ok(c.ownMs > 0 && c.bareMs > 0, 'both sides were timed')
    t.equal(c.ratio, c.ownMs / c.bareMs, 'the ratio is that of the medians')
    t.equal(c.pairRatio.min, c.pairRatio.max, "one pair: its ratio is the pairs' lowest and highest")
  }
  // each line is printed from the JSON's figures
  t.ok(lines[1]?.includes(`= ${figures.serve[0]?.figures.ratio.toFixed(2)}×`), 'the printed ratio is the written one')
})

t.test('a count of runs it cannot take is refused, saying which it takes', async (t) => {
  for (const runs of ['0', '1.5', 'many', '101']) {
    const failed = await run(process.execPath, [...SCRIPT, '--runs', runs], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    t.equal(failed?.code, 1, `--runs ${runs} exits 1`)
    t.match(failed?.stderr, `--runs takes a whole number from 1 to 100, not ${JSON.stringify(runs)}`)
  }
})
