// A prototype key (__proto__, constructor, prototype) anywhere in JSON from outside is
// refused at every door, naming where it is (src/core/prototype-keys.ts): the in-process
// control API (a 412 BoardInputError, as over HTTP), scenario files (at start, and named in
// a POST /__mock/reset: 412 {status, message}), activity files (JSON or YAML, with the
// line), profile files, a contract ledger, and JSON given as an option's value (exit 2).
// The bodies sent over HTTP, PUT /__mock/state included: test/fake/routes/framework-errors
// and test/fake/control/state-prototype-keys.
import { join } from 'node:path'
import t from 'tap'
import { prototypeKeyPath } from '../../src/core/prototype-keys.js'
import { createMockServer } from '../../src/fake/server.js'
import { runToEnd } from '../helpers/cli.js'

/** What a refusal names: the key and where it is. */
const names = (key: string, place: string) => `holds the key ${key} (${place}), which is refused`

/** The error a call throws, or undefined. */
async function thrown(call: () => unknown): Promise<(Error & { status?: number; field?: string }) | undefined> {
  try {
    await call()
    return undefined
  } catch (error) {
    return error as Error & { status?: number; field?: string }
  }
}

t.test('the in-process control API refuses a prototype key in what it is handed with the 412 of the HTTP door, naming where, and changes nothing', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => mock.close())
  const before = JSON.stringify(mock.exportState())
  // JSON.parse makes __proto__ an own key, as an input read from a file has it
  const cases: Array<[string, () => unknown, string, string, string]> = [
    ['store.addCandidate', () => mock.store.addCandidate(JSON.parse('{"name":"Ada","__proto__":{"polluted":1}}')), 'The candidate', '__proto__', 'at the top level'],
    ['store.addApplication', () => mock.store.addApplication(JSON.parse('{"applicant":{"constructor":{"prototype":{}}}}')), 'The application', 'constructor', 'at applicant.constructor'],
    ['store.addTimesheet', () => mock.store.addTimesheet(JSON.parse('{"prototype":1}')), 'The timesheet', 'prototype', 'at the top level'],
    ['store.addMarketing', () => mock.store.addMarketing(JSON.parse('{"__proto__":{}}')), 'The marketing record', '__proto__', 'at the top level'],
    ['store.addJob', () => mock.store.addJob(JSON.parse('{"job_title":"x","job_benefits":[{"__proto__":{}}]}')), 'The job', '__proto__', 'at job_benefits[0].__proto__'],
    ['faults.add', () => mock.faults.add(JSON.parse('{"path":"/api/v1/metrics/list","status":500,"headers":{"__proto__":"x"}}')), 'The fault', '__proto__', 'at headers.__proto__'],
    ['jobFields.change', () => mock.jobFields.change(JSON.parse('{"add":{"constructor":["x"]}}')), 'The change', 'constructor', 'at add.constructor'],
    ['reset', () => mock.reset(JSON.parse('{"seed":2,"prototype":1}')), 'The reset', 'prototype', 'at the top level'],
    ['verdict', () => mock.verdict(JSON.parse('{"__proto__":{"user":"x"}}')), 'The verdict query', '__proto__', 'at the top level'],
    ['verdictCopy', () => mock.verdictCopy(JSON.parse('{"candidates":[{"id":1,"prototype":1}]}')), 'The copy', 'prototype', 'at candidates[0].prototype'],
  ]
  for (const [door, call, subject, key, place] of cases) {
    const error = await thrown(call)
    t.equal(error?.name, 'BoardInputError', door)
    t.equal(error?.status, 412, `${door}: the status`)
    t.match(error?.message, `${subject} ${names(key, place)}`, `${door}: the message`)
  }
  t.equal(JSON.stringify(mock.exportState()), before, 'the board is unchanged')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
})

t.test('a scenario file holding a prototype key is refused at start and in a reset, naming where', async (t) => {
  const dir = t.testdir({
    'label.json': '{"name":"label","metricValues":{"__proto__":{"2024-01":3}}}',
    'counts.json': '{"name":"counts","counts":{"constructor":1}}',
    'top.json': '{"prototype":1,"name":"top"}',
  })
  const files: Array<[string, string, string]> = [
    ['label.json', '__proto__', 'metricValues.__proto__'],
    ['counts.json', 'constructor', 'counts.constructor'],
    ['top.json', 'prototype', 'prototype'],
  ]
  for (const [file, key, field] of files) {
    const error = await thrown(() => createMockServer({ clock: 'virtual', scenario: join(dir, file) }))
    t.equal(error?.name, 'ScenarioError', file)
    t.match(error?.message, `Scenario file ${join(dir, file)} ${names(key, field === key ? 'at the top level' : `at ${field}`)}`, `${file}: the message`)
    t.equal(error?.field, field, `${file}: the field`)
  }
  const served = await runToEnd(['serve', '--port', '0', '--scenario', join(dir, 'counts.json')])
  t.equal(served.code, 2, 'serve --scenario exits 2')
  t.match(served.stderr, names('constructor', 'at counts.constructor'), 'serve --scenario names where')

  // a file named through the control API is held to the scenario format first: the refusal names only keys a scenario has
  const mock = await createMockServer({ clock: 'virtual' })
  t.teardown(() => mock.close())
  const reset = async (file: string) => {
    const answer = await mock.inject({ method: 'POST', url: '/__mock/reset', payload: { scenario: join(dir, file) } })
    return { status: answer.statusCode, body: answer.json() as { status: number; message: string } }
  }
  const label = await reset('label.json')
  t.equal(label.status, 412, 'a reset to a file with a __proto__ metric label: 412')
  t.same(Object.keys(label.body).sort(), ['message', 'status'], 'as {status, message}')
  t.match(label.body.message, names('__proto__', 'at metricValues.__proto__'))
  const counts = await reset('counts.json')
  t.equal(counts.status, 412, 'a reset to a file with counts.constructor: 412')
  t.match(counts.body.message, /has a field no scenario has at counts/)
  t.equal(({} as Record<string, unknown>)[2024], undefined, 'Object.prototype is unpolluted')
})

t.test('an activity file holding a prototype key is refused, naming the line and where, in YAML as in JSON', async (t) => {
  const dir = t.testdir({
    'day.yaml': 'name: day\nevents:\n  - at: "+1h"\n    event: candidate\n    record:\n      name: Ada\n      __proto__:\n        polluted: 1\n',
    'day.json': '{"name":"day","events":[{"at":"+1h","event":"candidate","record":{"name":"Ada","constructor":{}}}]}',
  })
  const yaml = await thrown(() => createMockServer({ clock: 'virtual', activity: join(dir, 'day.yaml') }))
  t.equal(yaml?.name, 'ActivityError')
  // the line its value starts on, as for any field of an activity
  t.match(yaml?.message, `${join(dir, 'day.yaml')}:8: The activity ${names('__proto__', 'at events[0].record.__proto__')}`)
  const json = await thrown(() => createMockServer({ clock: 'virtual', activity: join(dir, 'day.json') }))
  t.equal(json?.name, 'ActivityError')
  t.match(json?.message, names('constructor', 'at events[0].record.constructor'))
})

t.test('a profile file holding a prototype key is refused, naming where', async (t) => {
  const dir = t.testdir({
    'profile.json': '{"kind":"jobboard-kit deployment profile","version":1,"deployment":{"origin":"http://127.0.0.1:1"},"points":{"constructor":{"seen":"yes"}}}',
  })
  const error = await thrown(() => createMockServer({ clock: 'virtual', profile: join(dir, 'profile.json') }))
  t.equal(error?.name, 'ProfileError')
  t.match(error?.message, `Profile ${join(dir, 'profile.json')} ${names('constructor', 'at points.constructor')}`)
})

t.test('a contract ledger and an option given as JSON holding a prototype key are refused with exit 2, naming where', async (t) => {
  const dir = t.testdir({ 'ledger.json': '{"kind":"jobboard-kit contract ledger","version":1,"requests":{"__proto__":{}}}' })
  const ledger = await runToEnd(['contract', '--base-url', 'http://127.0.0.1:9', '--ledger', join(dir, 'ledger.json')])
  t.equal(ledger.code, 2, 'contract --ledger exits 2')
  t.match(ledger.stderr, `--ledger ${join(dir, 'ledger.json')} ${names('__proto__', 'at requests.__proto__')}`)
  const option = await runToEnd(['serve', '--port', '0', '--extra-fields', '{"candidate":{"__proto__":{"type":"string"}}}'])
  t.equal(option.code, 2, 'serve --extra-fields exits 2')
  t.match(option.stderr, names('__proto__', 'at candidate.__proto__'))
  const env = await runToEnd(['serve', '--port', '0'], { JOBBOARD_EXTRA_FIELDS: '{"candidate":{"prototype":{"type":"string"}}}' })
  t.equal(env.code, 2, 'JOBBOARD_EXTRA_FIELDS exits 2')
  t.match(env.stderr, names('prototype', 'at candidate.prototype'))
})

t.test('the walk finds the first prototype key in the order the value is written, through values nested past the call stack or holding themselves', async (t) => {
  t.equal(prototypeKeyPath(JSON.parse('{"a":{"b":[1,{"constructor":1}]},"__proto__":1}')), 'a.b[1].constructor', 'depth first, in order')
  t.equal(prototypeKeyPath(JSON.parse('{"a":"__proto__","b":["prototype"]}')), undefined, 'the words as values are no keys')
  let deep: Record<string, unknown> = { prototype: 1 }
  for (let i = 0; i < 100_000; i++) deep = { a: deep }
  t.equal(prototypeKeyPath(deep)?.length, 'a.'.length * 100_000 + 'prototype'.length, 'a key 100,000 levels down')
  const cyclic: Record<string, unknown> = { name: 'Ada' }
  cyclic.self = cyclic
  t.equal(prototypeKeyPath(cyclic), undefined, 'an object holding itself is walked once')
})
