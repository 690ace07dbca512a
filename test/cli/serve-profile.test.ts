// `jobboard-kit serve --profile FILE` over a real socket: the profile's points are the
// fake's answers; a flag given beside it wins, and serve says so on stderr before its
// ready line.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { basic } from '../helpers/board.js'
import { runToEnd, serve } from '../helpers/cli.js'
import { nonDefaultProfile } from '../helpers/profile-values.js'

const dir = mkdtempSync(join(tmpdir(), 'serve-profile-'))
const path = join(dir, 'staging.json')
writeFileSync(path, JSON.stringify(nonDefaultProfile()))

t.test('answers with the profile\'s choices, and a flag beside it wins and is reported first', async (t) => {
  const { url, stderrAtReady } = await serve(t, ['--clock', 'virtual', '--profile', path, '--page-size', '5', '--auth-status', '401'])
  const reported = stderrAtReady.split('\n').filter((line) => line.includes('overrides'))
  t.same(reported.sort(), [
    "jobboard-kit: --auth-status 401 overrides the profile's authStatus 403",
    "jobboard-kit: --page-size 5 overrides the profile's pageSize 7",
  ])

  const list = await fetch(`${url}/api/v1/candidates/list`, { headers: { authorization: basic() } })
  const body = (await list.json()) as { data: Array<Record<string, unknown>> }
  t.equal(body.data.length, 48, 'pageCandidates off from the profile: one page of every candidate')
  t.equal(body.data[0]?.id, 1, 'listOrder oldest-first from the profile')
  t.type(body.data[0]?.crm_id, 'string', 'the profile\'s extra candidate field')
  const fields = (await (await fetch(`${url}/api/v1/job/fields`, { headers: { authorization: basic() } })).json()) as Record<string, unknown>
  t.notOk('data' in fields, 'job/fields at the top level')
  const refused = await fetch(`${url}/api/v1/metrics/list`)
  t.equal(refused.status, 401, 'the flag, not the profile\'s 403')
  t.match(refused.headers.get('www-authenticate'), /^Basic realm="/, "a 401 carries its challenge whatever the profile's authChallenge says (RFC 9110 §11.6.1: MUST)")
  t.equal(await refused.text(), 'Authentication required: send HTTP Basic credentials (Authorization: Basic ...).', 'a text body')
})

t.test('a bad profile stops serve with exit 2 naming the field', async (t) => {
  const bad = join(dir, 'bad.json')
  writeFileSync(bad, JSON.stringify({ ...nonDefaultProfile(), points: { monthNames: { value: 'roman', seen: 'directly' } } }))
  const { code, stderr } = await runToEnd(['serve', '--port', '0', '--profile', bad])
  t.equal(code, 2)
  t.match(stderr, /bad\.json is not a valid deployment profile: .*points\.monthNames\.value/)
})
