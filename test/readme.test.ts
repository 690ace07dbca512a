// The README's examples are code a reader copies: each runs here, as written but for
// its imports, which point at this checkout's source instead of the installed package.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ROOT } from './helpers/cli.js'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const examples = [...readme.matchAll(/```ts\n\/\/ example: ([a-z-]+)\n([\s\S]*?)```/g)].map(([, name, code]) => ({ name: name as string, code: code as string }))

t.test('the README has a tap and a node:test example', async (t) => {
  t.same(examples.map((e) => e.name).sort(), ['node-test', 'tap'])
  for (const { name, code } of examples) {
    for (const style of ['in-process', 'over a socket', 'through nock']) t.match(code, style, `${name} shows the ${style} style`)
  }
})

for (const { name, code } of examples) {
  t.test(`the ${name} example passes`, async (t) => {
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
    t.equal(run.status, 0, `${name} exits 0:\n${run.stdout}\n${run.stderr}`)
    t.match(run.stdout, name === 'tap' ? /# \{ total: 3, pass: 3 \}|^ok 3 /m : /^# pass 3$/m, 'and all three of its tests pass')
    t.notMatch(run.stdout, /^not ok /m, 'and none fails')
  })
}
