// since-no-gap over a walk resumed across windows: a walk's start is its first page,
// however many windows it then spans. A walk of the candidates list is cut on its second
// page by an outage; while it waits a candidate signs up (on the first page, already read)
// and an older one changes (on the second page, read when the walk resumes). A `since`
// taken from the newest time the walk returned is later than the walk's start and skips
// the sign-up: a finding. One taken from the newest change of its first page is none.
import t, { type Test } from 'tap'
import type { ActivityFile } from '../../../src/core/types.js'
import { createMockServer, type MockServer } from '../../../src/fake/server.js'
import { AUTH, checked, type Json } from '../../helpers/board.js'

const day: ActivityFile = {
  name: 'a-walk-resumed',
  events: [
    { at: '+00:05', event: 'new-candidate' },
    { at: '+00:10', event: 'update-candidate', id: 1, changes: { hot: 1 } },
  ],
}

const get = async (fake: MockServer, url: string) => fake.inject({ url, headers: AUTH })
const rule = async (fake: MockServer, id: string): Promise<Json> => ((await fake.inject('/__mock/verdict')).json() as Json).rules.find((r: Json) => r.id === id)
const changedAt = (record: Json): string => record.updated_at ?? record.created_at
const newest = (records: Json[]): string => records.map(changedAt).sort().at(-1) as string
const sinceQuery = (time: string) => `?since=${time.slice(0, 16).replace(' ', '+')}`

/** The walk: page 1 at the board's start, page 2 cut by an outage, resumed 16 minutes later. */
async function resumedWalk(t: Test): Promise<{ fake: MockServer; firstPage: Json[]; walk: Json[] }> {
  const fake = await createMockServer({ clock: 'virtual', activityData: day, ...checked(t) })
  t.teardown(() => fake.close())
  const first = (await get(fake, '/api/v1/candidates/list')).json() as Json
  t.ok(first.next_page, 'the list has a second page')
  fake.faults.add({ path: '/api/v1/candidates/list', status: 503 })
  fake.clock.advance(5)
  t.equal((await get(fake, '/api/v1/candidates/list?page=2')).statusCode, 503, 'the second page meets the outage')
  fake.clock.advance(16 * 60)
  t.same(fake.activity.status()?.failures, [], 'the board changed while the walk waited')
  const second = (await get(fake, '/api/v1/candidates/list?page=2')).json() as Json
  t.notOk(second.next_page, 'the resumed page is the last: the walk is complete')
  return { fake, firstPage: first.data, walk: [...first.data, ...second.data] }
}

/** The candidate who signed up while the walk waited: created five minutes in. */
const signedUp = (records: Json[]) => records.filter((record) => record.created_at.startsWith('2026-11-22 09:35'))

t.test('a since taken from the newest time a resumed walk returned is a gap, and skips what landed on its first page meanwhile', async (t) => {
  const { fake, firstPage, walk } = await resumedWalk(t)
  const since = newest(walk)
  t.ok(since.slice(0, 16) > newest(firstPage).slice(0, 16), `the resumed page returned a change (${since}) made after the walk began`)
  const next = (await get(fake, `/api/v1/candidates/list${sinceQuery(since)}`)).json() as Json
  t.same(signedUp(next.data), [], 'the walk with that since does not return the sign-up')
  const found = await rule(fake, 'since-no-gap')
  t.equal(found.outcome, 'fail')
  t.match(found.findings[0]?.message, `walked since ${since.slice(0, 16)}, later than 2026-11-22 09:30, when the previous complete walk of it began`)
  t.same(found.findings[0]?.requests, [1, 4], 'it names the walk\'s first page and the walk with since')
})

t.test('a since taken from the newest change on the first page of a resumed walk leaves no gap', async (t) => {
  const { fake, firstPage } = await resumedWalk(t)
  const next = (await get(fake, `/api/v1/candidates/list${sinceQuery(newest(firstPage))}`)).json() as Json
  t.equal(signedUp(next.data).length, 1, 'the walk with that since returns the sign-up')
  t.equal((await rule(fake, 'since-no-gap')).outcome, 'pass')
})
