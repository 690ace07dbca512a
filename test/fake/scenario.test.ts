// Scenario files: every shipped one loads with defaults; a bad one fails naming the field.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { loadScenario, ScenarioError, scenarioNames } from '../../src/fake/scenario.js'

t.test('ships default, empty, edge-cases and large', async (t) => {
  for (const name of ['default', 'empty', 'edge-cases', 'large', 'xl']) t.ok(scenarioNames().includes(name), name)
})

t.test('loads every shipped scenario with its defaults filled in', async (t) => {
  for (const name of scenarioNames()) {
    const scenario = loadScenario(name)
    t.equal(scenario.name, name, `${name} is named after its file`)
    t.type(scenario.behaviour.lastPageNextPage, 'string', `${name} has the behaviour defaults`)
    t.ok(scenario.credentials.length >= 1, `${name} has credentials`)
    t.ok(Object.isFrozen(scenario.counts), `${name} is frozen`)
  }
})

t.test('the default scenario is a realistic small board', async (t) => {
  const { counts, historyMonths } = loadScenario('default')
  t.ok(counts.candidates >= 40)
  t.ok(counts.jobs >= 10)
  t.ok(counts.applications >= 150)
  t.ok(counts.timesheets >= 60)
  t.ok(counts.marketing >= 80)
  t.equal(historyMonths, 24)
})

t.test('refuses a bad scenario with an error naming the field', async (t) => {
  t.throws(() => loadScenario({ name: 'bad', counts: { jobs: -1 } }), { name: 'ScenarioError', message: /counts\.jobs/ })
  // ten million records of a kind (the xl board's applications) at most: memory stays bounded
  t.doesNotThrow(() => loadScenario({ name: 'big', counts: { applications: 10_000_000 } }))
  t.throws(() => loadScenario({ name: 'bad', counts: { applications: 10_000_001 } }), { name: 'ScenarioError', message: /counts\.applications/ })
  t.throws(() => loadScenario({ name: 'bad', pageSize: 0 }), /pageSize/)
  t.throws(() => loadScenario({ name: 'bad', credentials: [{ username: 'a:b', password: 'x' }] }), /credentials\[0\]\.username/)
  t.throws(() => loadScenario({ name: 'bad', now: '2026-11-22T09:30:00Z' }), /now.*YYYY-MM-DD HH:MM:SS/)
  t.throws(() => loadScenario({ name: 'bad', fieldValues: { salary_unit: [] } }), /fieldValues\.salary_unit/)
  t.throws(() => loadScenario({ name: 'bad', colour: 'blue' } as never), /colour.*not a known scenario field/)
})

t.test('loads a scenario from a path and names the file when it is bad', async (t) => {
  const dir = t.testdir({})
  const good = join(dir, 'mine.json')
  writeFileSync(good, JSON.stringify({ name: 'mine', seed: 5 }))
  t.equal(loadScenario(good).seed, 5)
  const bad = join(dir, 'broken.json')
  writeFileSync(bad, '{"name": "broken", "seed": "five"}')
  t.throws(() => loadScenario(bad), { message: new RegExp(`${bad}.*seed`) })
  const notJson = join(dir, 'not.json')
  writeFileSync(notJson, '{name: broken')
  t.throws(() => loadScenario(notJson), /not valid JSON/)
  t.throws(() => loadScenario('no-such-scenario'), ScenarioError)
})

t.test('reads only .json files as scenarios', async (t) => {
  t.throws(() => loadScenario('/etc/passwd'), { name: 'ScenarioError', message: /neither one of .* nor a \.json file/ })
  t.throws(() => loadScenario('../README.md'), /nor a \.json file/)
})
