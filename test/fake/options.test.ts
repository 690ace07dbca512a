// Options: validated with defaults, frozen, and laid over the scenario's settings.
import t from 'tap'
import { effectiveScenario, resolveOptions } from '../../src/fake/options.js'
import { loadScenario } from '../../src/fake/scenario.js'

t.test('fills in the defaults and freezes the result', async (t) => {
  const options = resolveOptions({})
  t.equal(options.scenario, 'default')
  t.equal(options.clock, 'real')
  t.equal(options.host, '127.0.0.1')
  t.equal(options.port, 4010)
  t.ok(Object.isFrozen(options))
})

t.test('refuses a bad option naming it', async (t) => {
  t.throws(() => resolveOptions({ port: 70000 }), /port/)
  t.throws(() => resolveOptions({ clock: 'sundial' as never }), /clock.*real, virtual/)
  t.throws(() => resolveOptions({ lastPageNextPage: 'maybe' as never }), /lastPageNextPage/)
  t.throws(() => resolveOptions({ colour: 'blue' } as never), /colour.*not a known option/)
})

t.test('options given take the place of the scenario\'s settings', async (t) => {
  const scenario = loadScenario('default')
  const same = effectiveScenario(scenario, resolveOptions({}))
  t.equal(same.seed, scenario.seed)
  t.same(same.credentials, scenario.credentials)
  const changed = effectiveScenario(
    scenario,
    resolveOptions({ seed: 9, pageSize: 3, username: 'u', password: 'p', rateLimitWindow: 0, publicBaseUrl: 'https://x.test/', lastPageNextPage: 'null' }),
  )
  t.equal(changed.seed, 9)
  t.equal(changed.pageSize, 3)
  t.same(changed.credentials, [{ username: 'u', password: 'p' }])
  t.equal(changed.rateLimitWindow, 0)
  t.equal(changed.publicBaseUrl, 'https://x.test', 'without the trailing slash')
  t.equal(changed.behaviour.lastPageNextPage, 'null')
  t.equal(changed.behaviour.sinceField, scenario.behaviour.sinceField, 'knobs not given keep the scenario\'s')
})
