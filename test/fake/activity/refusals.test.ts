// An activity file is checked whole before the fake answers anything: an unknown event, a
// time out of order or a record that breaks its schema is refused with an ActivityError
// naming the file, the line and the field, and `serve` exits 2 saying so.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { ActivityError } from '../../../src/fake/activity/load.js'
import { runToEnd } from '../../helpers/cli.js'

const dir = mkdtempSync(join(tmpdir(), 'activity-'))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const json = (events: unknown[]) => `${JSON.stringify({ name: 'test', events }, null, 2)}\n`

/** The refusal the fake gives for a file: the error createMockServer throws. */
async function refusal(path: string): Promise<ActivityError> {
  try {
    const server = await createMockServer({ clock: 'virtual', scenario: 'empty', activity: path })
    await server.close()
  } catch (error) {
    if (error instanceof ActivityError) return error
    throw error
  }
  throw new Error(`${path} was not refused`)
}

t.test('refuses an unknown event naming the file, its line and events[1].event', async (t) => {
  const path = file('unknown.json', json([{ at: '+00:10', event: 'new-candidate' }, { at: '+00:20', event: 'new-candidat' }]))
  const error = await refusal(path)
  t.equal(error.file, path)
  t.equal(error.field, 'events[1].event')
  // line 1 {, 2 "name", 3 "events": [, 4 {, 5 at, 6 event, 7 }, 8 {, 9 at, 10 event
  t.equal(error.line, 10)
  t.match(error.message, `${path}:10:`)
  t.match(error.message, /new-candidat/)
})

t.test('refuses a time earlier than the event before it, naming events[2].at and its line', async (t) => {
  const path = file('order.json', json([{ at: '+01:00', event: 'new-candidate' }, { at: '+02:00', event: 'new-candidate' }, { at: '+01:30', event: 'new-application' }]))
  const error = await refusal(path)
  t.equal(error.field, 'events[2].at')
  t.equal(error.line, 13)
  t.match(error.message, /earlier than the event before it/)
})

t.test('refuses a record that breaks its schema, naming events[0].record.email and its line', async (t) => {
  const path = file('record.json', json([{ at: '+00:10', event: 'new-candidate', record: { name: 'Sam', email: 'not an e-mail' } }]))
  const error = await refusal(path)
  t.equal(error.field, 'events[0].record.email')
  t.equal(error.line, 9)
  t.match(error.message, /email/)
})

t.test('refuses a field an event does not have, naming it', async (t) => {
  const error = await refusal(file('extra.json', json([{ at: '+00:10', event: 'outage', path: '/api/v1/candidates/list', for: '+00:10', colour: 'red' }])))
  t.equal(error.field, 'events[0].colour')
  t.equal(error.line, 9)
})

t.test('refuses a malformed time naming events[0].at', async (t) => {
  const error = await refusal(file('time.json', json([{ at: '9:30', event: 'new-candidate' }])))
  t.equal(error.field, 'events[0].at')
})

t.test('refuses a value job-fields does not know as a list, naming it', async (t) => {
  const error = await refusal(file('fields.json', json([{ at: '+00:10', event: 'job-fields', retire: { job_industries: ['x'] } }])))
  t.equal(error.field, 'events[0].retire.job_industries')
})

t.test('refuses text that is not JSON with the line it stops at', async (t) => {
  const error = await refusal(file('broken.json', '{\n  "events": [\n    { "at": "+00:10", }\n  ]\n}\n'))
  t.equal(error.line, 3)
  t.match(error.message, /not valid JSON/)
})

t.test('refuses a YAML file with the line and field of its fault', async (t) => {
  const path = file('bad.yaml', 'name: test\nevents:\n  - at: "+00:10"\n    event: new-candidate\n  - at: "+00:20"\n    event: burst\n    count: 0\n')
  const error = await refusal(path)
  t.equal(error.field, 'events[1].count')
  t.equal(error.line, 7)
})

t.test('refuses a name that is neither a shipped activity nor a .json or .yaml file, listing the shipped ones', async (t) => {
  const error = await refusal('no-such-day')
  t.match(error.message, /quiet-day/)
})

t.test('serve exits 2 with the file, the line and the field on one line', async (t) => {
  const path = file('cli.json', json([{ at: '+00:10', event: 'new-candidat' }]))
  const run = await runToEnd(['serve', '--scenario', 'empty', '--clock', 'virtual', '--activity', path])
  t.equal(run.code, 2)
  t.match(run.stderr, `${path}:6:`)
  t.match(run.stderr, /events\[0\]\.event/)
  t.equal(run.stderr.trim().split('\n').length, 1, 'one line')
})

t.test('serve exits 2 for --clock-speed with the virtual clock, naming the flag', async (t) => {
  const run = await runToEnd(['serve', '--scenario', 'empty', '--clock', 'virtual', '--clock-speed', '10'])
  t.equal(run.code, 2)
  t.match(run.stderr, /--clock-speed/)
})
