// The kit's reading of guestApplicants: the share of listed applications whose applicant
// matches no listed candidate. It is told only when the run listed every candidate; a
// walk of candidates cut short (more pages than one run's walk budget: the kit reads some
// pages, not every one) leaves it not seen, saying why. The share is read from the records, which arrivals
// move: two readings of it say the same whatever their size (held to its kind, a number).
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import type { ServerOptionsInput } from '../../src/core/types.js'
import { loadProfile, sameValue } from '../../src/profile/deployment-profile.js'
import { contract } from '../contract/helpers.js'

async function reading(t: Test, options: ServerOptionsInput): Promise<{ value?: unknown; seen: string; note?: string } | undefined> {
  const fake = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, ...options })
  t.teardown(() => fake.close())
  const url = await fake.listen(0)
  const file = join(t.testdir(), 'profile.json')
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates,applications', writeProfile: file })
  t.not(run.exitCode, 2, `the run went through: ${run.reason ?? ''}`)
  return (loadProfile(file).points as Record<string, { value?: unknown; seen: string; note?: string } | undefined>).guestApplicants
}

t.test("a default fake's share of guests is read off the applications listed, every candidate having been listed", async (t) => {
  const point = await reading(t, {})
  t.equal(point?.seen, 'inferred')
  // the applications the run happened to read hold about a tenth of guests: the share of those read, to two places
  const [, guests, listed] = /([0-9]+) of the ([0-9]+) applications listed match none of the 48 candidates/.exec(String(point?.note)) ?? []
  t.ok(Number(listed) > 0, `the note says how many applications were read and how many were guests: ${point?.note}`)
  t.equal(point?.value, Math.round((Number(guests) / Number(listed)) * 100) / 100, 'the value is the share of those read')
  t.ok(Math.abs(Number(point?.value) - 0.1) <= 0.1, `which is near the fake's tenth (${String(point?.value)}): a page or two of applications tells it to a record or two`)
})

t.test('a fake with no guests reads 0', async (t) => {
  const point = await reading(t, { guestApplicants: 0 })
  t.equal(point?.value, 0)
})

t.test('with candidates left unlisted the kit cannot tell a guest from a candidate on a page not read', async (t) => {
  // 48 candidates, one a page: more pages than a run's walk budget (src/contract/walk.ts), so the kit reads some pages, not all
  const point = await reading(t, { pageSize: 1 })
  t.same(point?.value, undefined, 'no value')
  t.equal(point?.seen, 'not-seen')
  const [, read] = /([0-9]+) of the 48 candidates were listed/.exec(String(point?.note)) ?? []
  t.ok(Number(read) > 0 && Number(read) < 48, `the note says how many were listed: ${point?.note}`)
})

t.test('two readings of the share say the same whatever their size: records arriving move it; a value of another kind differs', async (t) => {
  t.ok(sameValue('guestApplicants', 0.1, 0.14))
  t.ok(sameValue('guestApplicants', 0.3, 0.4))
  t.ok(sameValue('guestApplicants', 0.1, 0.25), 'guests arriving overnight')
  t.ok(sameValue('guestApplicants', 0, 0.04), 'the first guest arriving')
  t.ok(sameValue('guestApplicants', 0, 0))
  t.notOk(sameValue('guestApplicants', 0.1, null), 'a value that is no share is another kind')
})
