// docs/profile.md lists every profile point with its flag and default, and
// docs/behaviour.md names every knob: both kept in step with the schemas here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { behaviourProperties } from '../../schemas/behaviour.js'
import { NOT_HONOURED, PROFILE_POINTS, profilePointValues } from '../../schemas/profile.js'
import { kebab } from '../../src/core/cli-options.js'
import { parseProfile } from '../../src/profile/deployment-profile.js'
import { ROOT } from '../helpers/cli.js'

const profileDoc = readFileSync(join(ROOT, 'docs/profile.md'), 'utf8')
const behaviourDoc = readFileSync(join(ROOT, 'docs/behaviour.md'), 'utf8')

const rows = (() => {
  const start = profileDoc.indexOf('| point | flag | default |')
  const lines = profileDoc.slice(start).split('\n')
  const end = lines.findIndex((line) => !line.startsWith('|'))
  return lines.slice(2, end).map((line) => line.split(' | ').map((cell) => cell.replace(/^\| ?|`/g, '').trim()))
})()

t.test('docs/profile.md has one row per point, in the schema\'s order', async (t) => {
  t.same(rows.map((r) => r[0]), PROFILE_POINTS)
})

t.test('each row gives the point\'s flag (none for a point the fake does not honour) and default', async (t) => {
  for (const [point, flag, fallback] of rows) {
    const schema = profilePointValues[point as keyof typeof profilePointValues]
    t.equal(flag, Object.hasOwn(NOT_HONOURED, point as string) ? '(not honoured)' : `--${kebab(point as string)}`, `${point}'s flag`)
    t.equal(fallback, JSON.stringify(schema?.default), `${point}'s default`)
  }
})

t.test('docs/behaviour.md names every knob', async (t) => {
  for (const knob of Object.keys(behaviourProperties)) t.match(behaviourDoc, `\`${knob}\``, `${knob} is in docs/behaviour.md`)
})

t.test('the example profile in docs/profile.md is a valid profile', async (t) => {
  const example = /```json\n([\s\S]*?)```/.exec(profileDoc)?.[1]
  t.ok(example, 'there is an example')
  t.doesNotThrow(() => parseProfile(JSON.parse(example as string)))
})
