// The profile on a deployment we did not write: `contract --write-profile` against each
// style of the second server (test/helpers/other-board.ts) records its choices, and a
// second run with `--profile` of that file against the same style (a new instance, the
// same board) finds every recorded point as recorded, with credentials of every shape (a
// long password, a one-letter one, one in the base URL, one the answers hold in their
// keys: the profile file holds a `date` of its own). Issues 27, 28 and 43.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { loadProfile } from '../../src/profile/deployment-profile.js'
import { CREDENTIAL_SHAPES, contract } from '../contract/helpers.js'
import { startOtherBoard } from '../helpers/other-board.js'

// every read group and the 429 check, so that the limiter's answer is recorded too
const ONLY = 'fields,candidates,applications,timesheets,marketing,metrics,auth,rate-limit'

type Shape = (typeof CREDENTIAL_SHAPES)[number]

async function serve(t: Test, style: 'a' | 'b', { username, password, basePath }: Shape): Promise<string> {
  const board = await startOtherBoard({ style, username, password, basePath })
  t.teardown(() => board.close())
  return board.url
}

for (const style of ['a', 'b'] as const) {
  for (const shape of CREDENTIAL_SHAPES) {
  t.test(`style ${style}, ${shape.shape}: --write-profile writes a profile, and --profile of it passes on the same style`, async (t) => {
    const file = join(t.testdir(), 'staging.json')
    const credentials = { username: shape.username, password: shape.password }
    const first = await contract({ baseUrl: await serve(t, style, shape), ...credentials, only: ONLY, writeProfile: file })
    t.same(first.failed(), [], 'the recording run fails no check')
    t.equal(first.exitCode, 0, first.reason ?? 'the recording run exits 0')
    const points = Object.entries(loadProfile(file).points as Record<string, { seen: string; value?: unknown } | undefined>).filter(([, p]) => p?.value !== undefined)
    t.ok(points.length >= 15, `${points.length} points recorded: ${points.map(([name]) => name).join(', ')}`)
    const pageSize = points.find(([name]) => name === 'pageSize')?.[1]?.value
    t.equal(pageSize, style === 'a' ? 7 : 9, "the page size is the board's own")

    const second = await contract({ baseUrl: await serve(t, style, shape), ...credentials, only: ONLY, profile: file })
    const profileChecks = second.report.checks.filter((c) => c.endpoint === 'profile')
    t.equal(profileChecks.length, points.length, 'each recorded point is checked')
    t.same(profileChecks.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status} ${(c.failures ?? []).join('; ')}`), [], 'every recorded point is as recorded')
    t.same(second.failed(), [], 'the second run fails no check')
    t.equal(second.exitCode, 0, second.reason ?? 'the second run exits 0')
    if (shape.password.length >= 8) t.notOk(readFileSync(file, 'utf8').includes(shape.password), 'the profile file does not hold the password')
  })
  }
}
