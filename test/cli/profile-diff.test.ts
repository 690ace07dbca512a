// `jobboard-kit profile diff A B`: a table of the points two profiles differ on; exit 1
// when they differ, 0 when they agree, 2 on a file that is no profile.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runToEnd } from '../helpers/cli.js'
import { nonDefaultProfile } from '../helpers/profile-values.js'

const dir = mkdtempSync(join(tmpdir(), 'profile-diff-'))
const write = (name: string, data: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(data))
  return path
}
const staging = nonDefaultProfile('https://staging.example.com')
const production = nonDefaultProfile('https://board.example.com')
Object.assign(production.points, {
  authStatus: { value: 401, seen: 'directly', request: 'GET /api/v1/metrics/list' },
  monthNames: { value: 'long', seen: 'inferred' },
  listOrder: { seen: 'not-seen' },
  // how a point was seen is no difference while its value agrees
  pageSize: { value: 7, seen: 'inferred' },
})
const a = write('staging.json', staging)
const b = write('production.json', production)

t.test('prints the three points that differ as a table and exits 1', async (t) => {
  const { code, stdout } = await runToEnd(['profile', 'diff', a, b])
  t.equal(code, 1)
  const lines = stdout.trim().split('\n')
  t.match(lines[0], /^point\s+\S*staging\.json\s+\S*production\.json$/)
  t.match(lines[1], /^-+\s+-+\s+-+$/)
  t.same(
    lines.slice(2, -1).map((line) => line.split(/\s{2,}/)),
    [
      ['authStatus', '403', '401'],
      ['monthNames', '"short"', '"long"'],
      ['listOrder', '"oldest-first"', '(not seen)'],
    ],
  )
  t.equal(lines.at(-1), '3 points differ.')
})

t.test('exits 0 when the profiles agree', async (t) => {
  const { code, stdout } = await runToEnd(['profile', 'diff', a, write('copy.json', { ...staging, deployment: { origin: 'https://other.example.com' } })])
  t.equal(code, 0)
  t.match(stdout, /agree on every point/)
})

t.test('exits 2 naming the field of a file that is no profile', async (t) => {
  const bad = write('bad.json', { ...staging, points: { ...staging.points, rateLimitWindow: { value: -5, seen: 'directly' } } })
  const { code, stdout, stderr } = await runToEnd(['profile', 'diff', a, bad])
  t.equal(code, 2)
  t.equal(stdout, '')
  t.match(stderr, /bad\.json is not a valid deployment profile: .*points\.rateLimitWindow\.value/)
  const missing = await runToEnd(['profile', 'diff', a, join(dir, 'none.json')])
  t.equal(missing.code, 2)
  t.match(missing.stderr, /Cannot read profile .*none\.json/)
})
