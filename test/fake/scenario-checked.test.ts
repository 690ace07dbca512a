// A scenario file whose very bytes the build checked (scripts/precompile.mjs writes
// checkScenarios() to dist/precompiled/scenarios.json) loads in its checked form without
// being validated again; any other byte sequence is validated as it loads.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { SCENARIOS_DIR } from '../../src/core/paths.js'
import { checkScenarios, type LoadedScenario, loadScenario, ScenarioError, scenarioDigest, scenarioNames } from '../../src/fake/scenario.js'

// as the build writes them and a fake reads them back: JSON
const checks = JSON.parse(JSON.stringify(checkScenarios())) as Record<string, LoadedScenario>
const checked = new Map(Object.entries(checks)) as ReadonlyMap<string, LoadedScenario>
const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-checked-'))
let copies = 0
const copyOf = (name: string, change: (text: string) => string = (text) => text) => {
  copies += 1
  const path = join(dir, `${name}-${copies}.json`)
  writeFileSync(path, change(readFileSync(join(SCENARIOS_DIR, `${name}.json`), 'utf8')))
  return path
}

t.test('the build checks every shipped scenario, each as loading it validated gives it', async (t) => {
  t.equal(Object.keys(checks).length, scenarioNames().length)
  for (const name of scenarioNames()) {
    const validated = loadScenario(name, { checked: new Map() })
    const digest = scenarioDigest(readFileSync(join(SCENARIOS_DIR, `${name}.json`), 'utf8'))
    t.strictSame(checks[digest], validated, `${name}: the checked form is the validated one, defaults filled in`)
  }
})

t.test('a file with the checked bytes is taken in its checked form, by name or by path', async (t) => {
  const digest = scenarioDigest(readFileSync(join(SCENARIOS_DIR, 'default.json'), 'utf8'))
  t.equal(loadScenario('default', { checked }), checked.get(digest), 'by name: the checked object itself')
  t.equal(loadScenario(copyOf('default'), { checked }), checked.get(digest), 'by path: the same bytes elsewhere')
  t.ok(Object.isFrozen(loadScenario('default', { checked })), 'frozen, as a validated scenario is')
})

t.test('a file differing by one byte is validated as it loads, and refused naming the field', async (t) => {
  const bad = copyOf('default', (text) => text.replace('"seed": 20261122', '"seed": -1'))
  t.throws(() => loadScenario(bad, { checked }), { name: 'ScenarioError', field: 'seed' })
  const good = copyOf('default', (text) => text.replace('"seed": 20261122', '"seed": 20261123'))
  const loaded = loadScenario(good, { checked })
  t.equal(loaded.seed, 20261123)
  t.not(loaded, checked.get(scenarioDigest(readFileSync(join(SCENARIOS_DIR, 'default.json'), 'utf8'))))
})

t.test('an entry is taken only for the exact bytes it was checked from', async (t) => {
  const text = readFileSync(join(SCENARIOS_DIR, 'default.json'), 'utf8')
  const stale = new Map([[scenarioDigest(`${text} `), { ...checks[scenarioDigest(text)], seed: 1 } as LoadedScenario]])
  t.equal(loadScenario('default', { checked: stale }).seed, 20261122, 'a digest of other text is not a match')
})

t.test('a scenario file that cannot be read is refused as a scenario error, not a crash', async (t) => {
  const folder = join(dir, 'folder.json')
  mkdirSync(folder)
  t.throws(() => loadScenario(folder, { checked }), ScenarioError)
  t.throws(() => loadScenario(folder, { checked, redact: true }), { message: /is not valid JSON\.$/ })
})
