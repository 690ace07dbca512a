// The examples a reader copies are code: the README's first test, and docs/fake.md's tap
// and node:test examples of the three ways in. Each runs here, as written but for its
// imports, which point at this checkout's source instead of the installed package.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ROOT } from './helpers/cli.js'

interface Example {
  page: string
  name: string
  code: string
}

/** The ```ts blocks of a page that start with `// example: NAME`. */
function examplesOf(page: string): Example[] {
  const text = readFileSync(join(ROOT, page), 'utf8')
  return [...text.matchAll(/```ts\n\/\/ example: ([a-z-]+)\n([\s\S]*?)```/g)].map(([, name, code]) => ({ page, name: name as string, code: code as string }))
}

const readme = examplesOf('README.md')
const fakeDoc = examplesOf('docs/fake.md')

/** How many tests each example holds, all of which must pass. */
const TESTS: Record<string, number> = { first: 1, tap: 3, 'node-test': 3 }

t.test('the README has its first test, and docs/fake.md a tap and a node:test example', async (t) => {
  t.same(readme.map((e) => e.name), ['first'])
  t.same(fakeDoc.map((e) => e.name).sort(), ['node-test', 'tap'])
  for (const { name, code } of fakeDoc) {
    for (const style of ['in-process', 'over a socket', 'through nock']) t.match(code, style, `${name} shows the ${style} style`)
  }
})

for (const { page, name, code } of [...readme, ...fakeDoc]) {
  t.test(`the ${name} example of ${page} passes`, async (t) => {
    // inside the checkout, so that tap, nock and tsx resolve from its node_modules
    const dir = mkdtempSync(join(ROOT, '.readme-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const source = code
      .replace("from 'jobboard-kit/nock'", `from '${join(ROOT, 'src/fake/nock.ts')}'`)
      .replace("from 'jobboard-kit'", `from '${join(ROOT, 'src/index.ts')}'`)
    const file = join(dir, `${name}.test.ts`)
    writeFileSync(file, source)
    // node:test's default reporter is tap before Node 23 and spec after: ask for tap on every Node
    const reporter = name === 'node-test' ? ['--test-reporter=tap'] : []
    const run = spawnSync(process.execPath, ['--import', 'tsx', ...reporter, file], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
    const count = TESTS[name] ?? 0
    t.equal(run.status, 0, `${name} exits 0:\n${run.stdout}\n${run.stderr}`)
    t.match(run.stdout, name === 'node-test' ? new RegExp(`^# pass ${count}$`, 'm') : new RegExp(`# \\{ total: ${count}, pass: ${count} \\}|^ok ${count} `, 'm'), `and all ${count} of its tests pass`)
    t.notMatch(run.stdout, /^not ok /m, 'and none fails')
  })
}
