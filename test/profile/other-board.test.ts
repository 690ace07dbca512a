// The profile on a deployment we did not write: `contract --write-profile` against each
// style of the second server (test/helpers/other-board.ts) records its choices, and a
// second run with `--profile` of that file against the same style (a new instance, the
// same board) finds every recorded point as recorded. Issues 27 and 28.
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { loadProfile } from '../../src/profile/profile.js'
import { contract } from '../contract/helpers.js'
import { startOtherBoard } from '../helpers/other-board.js'

const CREDENTIALS = { username: 'staging-sync', password: 'a-long-staging-password-0042' }
// every read group and the 429 check, so that the limiter's answer is recorded too
const ONLY = 'fields,candidates,applications,timesheets,marketing,metrics,auth,rate-limit'

async function serve(t: Test, style: 'a' | 'b'): Promise<string> {
  const board = await startOtherBoard({ style, ...CREDENTIALS })
  t.teardown(() => board.close())
  return board.url
}

for (const style of ['a', 'b'] as const) {
  t.test(`style ${style}: --write-profile writes a profile, and --profile of it passes on the same style`, async (t) => {
    const file = join(t.testdir(), 'staging.json')
    const first = await contract({ baseUrl: await serve(t, style), ...CREDENTIALS, only: ONLY, writeProfile: file })
    t.same(first.failed(), [], 'the recording run fails no check')
    t.equal(first.exitCode, 0, first.reason ?? 'the recording run exits 0')
    const points = Object.entries(loadProfile(file).points as Record<string, { seen: string; value?: unknown } | undefined>).filter(([, p]) => p?.value !== undefined)
    t.ok(points.length >= 15, `${points.length} points recorded: ${points.map(([name]) => name).join(', ')}`)
    const pageSize = points.find(([name]) => name === 'pageSize')?.[1]?.value
    t.equal(pageSize, style === 'a' ? 7 : 9, "the page size is the board's own")

    const second = await contract({ baseUrl: await serve(t, style), ...CREDENTIALS, only: ONLY, profile: file })
    const profileChecks = second.report.checks.filter((c) => c.endpoint === 'profile')
    t.equal(profileChecks.length, points.length, 'each recorded point is checked')
    t.same(profileChecks.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.status} ${(c.failures ?? []).join('; ')}`), [], 'every recorded point is as recorded')
    t.same(second.failed(), [], 'the second run fails no check')
    t.equal(second.exitCode, 0, second.reason ?? 'the second run exits 0')
  })
}
