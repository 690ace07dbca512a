// A profile against a live deployment (issue 43, item 5): the nightly loop a team runs
// against staging, which receives records while the kit runs and between two nights.
// Yesterday's run writes the profile (--write-profile), records go on arriving and time
// passes, tonight's run checks the same deployment against it (--profile): no profile
// point fails, reads alone and with --writes, on the fake playing arrivals and on the
// second server in its live mode (a one-letter password, a password in the base URL). A
// point read from the records and what records bring to the others are held to their
// kind, not their value (test/profile/held-to-kind.test.ts, one by one).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { contract, type KitRun } from '../contract/helpers.js'
import { isDeep } from '../helpers/deep.js'
import { liveBoard } from '../helpers/live-board.js'
import { type OtherBoardOptions, startOtherBoard } from '../helpers/other-board.js'

// whole kit runs, two a night
t.setTimeout(480_000)

const profileChecks = (run: KitRun) => run.report.checks.filter((c) => c.endpoint === 'profile')

/** Tonight's run holds to yesterday's profile: every point it could see passes; one it could not is left aside, never failed nor unmade. */
function holds(t: Test, run: KitRun, what: string): void {
  const checks = profileChecks(run)
  t.ok(checks.length > 10, `${what}: the profile's points are checked (${checks.length})`)
  t.same(
    checks.filter((c) => c.status !== 'pass' && !(c.status === 'skip' && c.skip === 'not-applicable')).map((c) => `${c.name}: ${c.status} ${c.skip ?? ''} ${(c.failures ?? []).join('; ')}${c.reason ?? ''}`),
    [],
    `${what}: every point of yesterday's profile is as recorded, or not seen tonight for want of records`,
  )
  t.not(run.exitCode, 1, `${what}: the run does not fail (exit ${run.exitCode}${run.reason ? `: ${run.reason}` : ''}; failed: ${run.failed().join('; ') || 'none'})`)
}

const RUNS = [
  { name: 'reads', flags: {}, fake: {} },
  { name: 'reads and writes', flags: { writes: true, rateLimitWindow: 0 }, fake: { rateLimitWindow: 0 } },
] as const

const SEEDS = isDeep() ? [1, 2, 3, 4, 5] : [1, 2]

for (const run of RUNS) {
  t.test(`the fake receiving records: yesterday's profile holds tonight, ${run.name}`, async (t) => {
    const exits: number[] = []
    for (const seed of SEEDS) {
      // 900 arrivals: a day and a half of them, so that records arrive during both runs and the night between
      const live = await liveBoard(t, { seed, count: 900, ...run.fake })
      const file = join(t.testdir(), `seed-${seed}.json`)
      const yesterday = await contract({ baseUrl: live.url, ...run.flags, writeProfile: file })
      t.not(yesterday.exitCode, 1, `seed ${seed}: yesterday's run does not fail (${yesterday.failed().join('; ') || 'none failed'})`)
      const played = live.fake.activity.status()?.played ?? 0
      live.night(8)
      const tonight = await contract({ baseUrl: live.url, ...run.flags, profile: file, writeProfile: file })
      t.ok((live.fake.activity.status()?.played ?? 0) > played + 100, `seed ${seed}: records arrived between the two runs`)
      holds(t, tonight, `seed ${seed}`)
      t.notMatch(tonight.output, /\n {2}changed: /, `seed ${seed}: the merged file reports no change of choice`)
      exits.push(tonight.exitCode)
    }
    t.ok(exits.filter((code) => code === 0).length >= SEEDS.length / 2, `most of tonight's runs are conforming and complete (exits ${exits.join(', ')})`)
  })
}

/** The second server in its live mode (a record before every third request), its rate-limit windows on a clock the test moves. */
async function otherLive(t: Test, options: Omit<OtherBoardOptions, 'elapsed'>): Promise<{ url: string; night(arrivals: number): void }> {
  let elapsed = 0
  const other = await startOtherBoard({ ...options, elapsed: () => elapsed })
  t.teardown(() => other.close())
  return {
    url: other.url,
    night: (arrivals) => {
      elapsed += 20 * 3600_000
      for (let i = 0; i < arrivals; i++) other.arrive()
    },
  }
}

const SHAPES = [
  { style: 'a', username: 'u', password: 'p', what: 'a one-letter password' },
  { style: 'b', username: 'staging-sync', password: 'staging', basePath: '/staging', what: 'a password that occurs in the base URL' },
] as const

for (const run of RUNS) {
  for (const shape of SHAPES) {
    t.test(`the second server live, style ${shape.style}, ${shape.what}: yesterday's profile holds tonight, ${run.name}`, async (t) => {
      const { style, username, password } = shape
      const live = await otherLive(t, { style, username, password, live: 3, ...('basePath' in shape ? { basePath: shape.basePath } : {}), ...run.fake })
      const file = join(t.testdir(), 'staging.json')
      const credentials = { baseUrl: live.url, username, password, ...run.flags }
      const yesterday = await contract({ ...credentials, writeProfile: file })
      t.not(yesterday.exitCode, 1, `yesterday's run does not fail (${yesterday.failed().join('; ') || 'none failed'})`)
      t.notMatch(readFileSync(file, 'utf8'), 'staging-sync', 'the profile holds no user name')
      live.night(80)
      const tonight = await contract({ ...credentials, profile: file })
      holds(t, tonight, `style ${style}`)
      // style a explains every arrival; style b's lists leave some comparisons unmade on a live board (exit 3), never for the profile
      if (style === 'a') t.equal(tonight.exitCode, 0, tonight.reason ?? 'exit 0')
    })
  }
}
