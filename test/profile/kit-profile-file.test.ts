// `contract --write-profile` merging with the file already there, and `contract
// --profile` on points a run cannot see: a later run fills what an earlier one could not
// see, keeps what it cannot see itself, updates and reports a point that moved; a
// recorded point this run cannot observe is skipped with the reason, not failed; a file
// that is not a profile stops the run before it asks anything (exit 2), and is left as it was.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { PROFILE_POINTS } from '../../schemas/profile.js'
import { loadProfile } from '../../src/profile/deployment-profile.js'
import { createMockServer } from '../../src/fake/server.js'
import type { ServerOptionsInput } from '../../src/core/types.js'
import { contract } from '../contract/helpers.js'

const point = (path: string, name: string) => (loadProfile(path).points as Record<string, { value?: unknown; seen: string; note?: string } | undefined>)[name]

async function fake(t: Test, options: ServerOptionsInput = {}): Promise<string> {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, ...options })
  t.teardown(() => server.close())
  return server.listen(0)
}

t.test('a second run fills what the first could not see, keeps what it cannot see, and reports a point that changed', async (t) => {
  const file = join(t.testdir(), 'staging.json')
  // night 1: candidates and the 429 check only, against a deployment with its limit on
  const first = await contract({ baseUrl: await fake(t, { rateLimitWindow: 900 }), only: 'candidates,rate-limit', rateLimitWindow: 900, writeProfile: file })
  t.equal(first.exitCode, 0, first.reason ?? 'exit 0')
  t.match(first.output, new RegExp(`Profile .*staging\\.json: \\d+ of ${PROFILE_POINTS.length} points recorded`))
  t.equal(point(file, 'notFoundBody')?.value, 'json')
  t.equal(point(file, 'rateLimitBody')?.value, 'json', 'the 429 check showed the 429 body')
  t.same(point(file, 'authStatus'), { seen: 'not-seen', note: 'the auth group did not run' }, 'not seen, and why')
  t.match(first.output, /not seen: authStatus: the auth group did not run/)

  // night 2: every read group, no 429 this time; the unknown id now answers text
  const second = await contract({ baseUrl: await fake(t, { notFoundBody: 'text' }), writeProfile: file })
  t.equal(second.exitCode, 0, second.reason ?? 'exit 0')
  t.match(second.output, /merged with the earlier file/)
  t.match(second.output, / {2}deployment: the file was recorded from http:\/\/127\.0\.0\.1:\d+, this run asked http:\/\/127\.0\.0\.1:\d+/, 'another origin is said')
  t.match(second.output, / {2}changed: notFoundBody json → text \(GET \/api\/v1\/candidates\/details\/2147483647\)/, 'the change is printed with the request that showed it')
  t.match(second.output, / {2}filled: authStatus 401 \(GET \/api\/v1\/marketing\/list\?page=\d+\)/, 'a point the first could not see is filled')
  t.equal(point(file, 'notFoundBody')?.value, 'text', 'the changed point is updated')
  t.equal(point(file, 'authStatus')?.value, 401)
  t.equal(point(file, 'rateLimitBody')?.value, 'json', 'a point this run could not see keeps its earlier value')
  t.notMatch(second.output, /changed: rateLimitBody/)

  // night 3: nothing moved
  const third = await contract({ baseUrl: await fake(t, { notFoundBody: 'text' }), writeProfile: file })
  t.match(third.output, / {2}no recorded point changed/)
})

t.test('--profile skips a recorded point this run cannot see, with the reason, and fails only on one that moved', async (t) => {
  const file = join(t.testdir(), 'p.json')
  await contract({ baseUrl: await fake(t, { authStatus: 403, notFoundBody: 'empty' }), writeProfile: file })
  t.equal(point(file, 'authStatus')?.value, 403)
  const run = await contract({ baseUrl: await fake(t, { notFoundBody: 'text' }), only: 'candidates', profile: file })
  t.equal(run.exitCode, 1, 'the moved point fails the run')
  t.same(run.failed(), ['profile: notFoundBody is as the profile records it'])
  t.match(run.check('profile', 'notFoundBody is as the profile records it')?.failures, [/^profile: notFoundBody empty \(GET .*\); deployment now answers text \(GET \/api\/v1\/candidates\/details\/2147483647\)$/])
  const auth = run.check('profile', 'authStatus is as the profile records it')
  t.equal(auth?.status, 'skip')
  t.equal(auth?.skip, 'not-applicable', 'not planned: the run did not ask')
  t.match(auth?.reason, /authStatus could not be seen this run: the auth group did not run/)
})

t.test('without --profile the same deployment passes: the points stay observations', async (t) => {
  const run = await contract({ baseUrl: await fake(t, { notFoundBody: 'text', monthNames: 'short' }) })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.notOk(run.report.checks.some((c) => c.endpoint === 'profile'), 'no profile checks')
  t.ok(run.report.observations.some((o) => o.topic === 'unknown-id' && /text\/plain/.test(o.summary)))
})

t.test('a --profile or --write-profile file that is not a profile stops the run with exit 2, naming the field', async (t) => {
  const dir = t.testdir()
  const bad = join(dir, 'bad.json')
  writeFileSync(bad, JSON.stringify({ kind: 'jobboard-kit deployment profile', version: 1, deployment: { origin: 'http://x.example' }, points: { authStatus: { value: 402, seen: 'directly' } } }))
  const url = await fake(t)
  for (const flags of [{ profile: bad }, { writeProfile: bad }]) {
    const run = await contract({ baseUrl: url, ...flags })
    t.equal(run.exitCode, 2)
    t.match(run.reason, /points\.authStatus\.value/)
  }
  t.match(readFileSync(bad, 'utf8'), /402/, 'the file is left as it was')
})
