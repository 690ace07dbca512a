// The team's loop over real sockets, as docs/profile.md tells it: a fake started with a
// non-default value for every point (extra record fields too) → `contract
// --write-profile p.json` → a second fake `serve --profile p.json` → `contract --profile
// p.json` against it exits 0, and what the kit reads from it agrees with the first fake
// on every point; the same check against a default fake exits 1 naming each point that
// moved, a point read from the records (held to its kind) aside. Both sides run with the rate limit off (`--rate-limit-window 0`) so that one run
// makes every write check, the default fake aside, which keeps its 15-minute window.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { heldToKind, NOT_HONOURED, PROFILE_POINTS, type ProfilePointName } from '../../schemas/profile.js'
import { loadProfile, sameValue } from '../../src/profile/deployment-profile.js'
import { createMockServer } from '../../src/fake/server.js'
import { runToEnd, serve } from '../helpers/cli.js'
import { defaultValue, nonDefaultOptions } from '../helpers/profile-values.js'

const CREDENTIALS = ['--username', 'jobboard', '--password', 'jobboard']
const contract = (url: string, ...flags: string[]) => runToEnd(['contract', '--base-url', url, ...CREDENTIALS, '--writes', '--rate-limit-window', '0', ...flags])

const pointValue = (path: string, point: ProfilePointName) => (loadProfile(path).points as Record<string, { value?: unknown } | undefined>)[point]?.value

t.test('a profile written from one fake makes a second fake answer the same, and a default fake fails on each point that moved', async (t) => {
  const dir = t.testdir()
  const written = join(dir, 'p.json')
  const reread = join(dir, 'second.json')

  // every point off its default; the rate limit off so that one run makes every write check
  const first = await createMockServer({ ...nonDefaultOptions(), clock: 'virtual', rateLimitWindow: 0 } as never)
  t.teardown(() => first.close())
  const firstUrl = await first.listen(0)

  const wrote = await contract(firstUrl, '--write-profile', written)
  t.equal(wrote.code, 0, `the first run exits 0: ${wrote.stderr}`)
  t.match(wrote.stdout, new RegExp(`Profile .*p\\.json: \\d+ of ${PROFILE_POINTS.length} points recorded`), 'it says what it recorded')
  const profile = loadProfile(written)
  // a point the fake does not honour (a burst limiter) is recorded at its default from every fake
  const recorded = PROFILE_POINTS.filter((point) => pointValue(written, point) !== undefined && !Object.hasOwn(NOT_HONOURED, point))
  t.ok(recorded.length >= 18, `most points are recorded (${recorded.join(', ')})`)
  t.same(Object.keys(profile.points).sort(), [...PROFILE_POINTS].sort(), 'every point has an entry, seen or not')
  for (const point of recorded) t.not(JSON.stringify(pointValue(written, point)), JSON.stringify(defaultValue(point)), `${point} is recorded off its default`)
  t.notMatch(readFileSync(written, 'utf8'), /CR-20931|"Indeed"|"night"/, "no example is the first fake's own value")

  // the consumers' fake: serve --profile, over a socket
  const second = await serve(t, ['--profile', written, '--clock', 'virtual'])
  const checked = await contract(second.url, '--profile', written, '--write-profile', reread)
  t.equal(checked.code, 0, `contract --profile against the profiled fake exits 0: ${checked.stderr}`)
  t.match(checked.stdout, /\nprofile\n( {2}pass {2}.*\n)+/, 'the profile checks ran and passed')
  t.notMatch(checked.stdout, /FAIL|ERROR/)
  for (const point of recorded) {
    t.ok(sameValue(point, pointValue(reread, point), pointValue(written, point)), `${point}: the second fake answers as the first did`)
  }
  const diff = await runToEnd(['profile', 'diff', written, reread])
  t.equal(diff.code, 0, 'profile diff finds no difference between the two readings')

  // a default fake: every recorded point has moved
  const plain = await serve(t, ['--clock', 'virtual'])
  const moved = await contract(plain.url, '--profile', written)
  t.equal(moved.code, 1, 'contract --profile against a default fake exits 1')
  for (const point of recorded) {
    // a point read from the records (a share of guests) is held to its kind: another value is records, not a choice
    if (heldToKind(point)) t.match(moved.stdout, new RegExp(`\n {2}pass {2}${point} is as the profile records it`), `${point}, read from the records, passes at another value`)
    else t.match(moved.stdout, new RegExp(`profile: ${point} .*; deployment now answers `), `names ${point}, with the profile's value and the deployment's`)
  }
  t.ok(recorded.some(heldToKind), 'a point held to its kind was among those recorded off its default')
  t.match(moved.stdout, /profile: notFoundBody text .*; deployment now answers json/)
})
