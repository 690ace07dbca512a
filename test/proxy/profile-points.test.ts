// --profile: a deployment profile's points that one answer shows (pageSize,
// lastPageNextPage, preconditionHttpStatus) are held against the answers that pass; a
// change is a violation of the profile, never of the spec, and says so; a profile the
// deployment keeps shows none.
import t, { type Test } from 'tap'
import { PROFILE_KIND } from '../../schemas/profile.js'
import type { ProfileFile } from '../../src/core/types.js'
import { createProxy, type Violation } from '../../src/proxy/server.js'
import { startOtherBoard } from '../helpers/other-board.js'

const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

const profileOf = (points: Record<string, unknown>): ProfileFile =>
  ({
    kind: PROFILE_KIND,
    version: 1,
    deployment: { origin: 'http://127.0.0.1:1' },
    points: Object.fromEntries(Object.entries(points).map(([name, value]) => [name, { value, seen: 'directly' }])),
  }) as unknown as ProfileFile

async function run(t: Test, points: Record<string, unknown>): Promise<Violation[]> {
  // style a: 7 records a page, no next_page on the last page, a 412 as HTTP 412
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const proxy = createProxy({ to: board.url, port: 0, profile: profileOf(points) as never })
  await proxy.listen()
  t.teardown(() => proxy.close())
  for (const path of ['/api/v1/timesheets/list', '/api/v1/timesheets/list?page=3']) await (await fetch(`${proxy.url}${path}`, { headers })).arrayBuffer()
  await (await fetch(`${proxy.url}/api/v1/job/add`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"salary_unit":"Per fortnight"}' })).arrayBuffer()
  return ((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: Violation[] }).violations
}

t.test('a deployment that changed from its profile: each point a violation of the profile', async (t) => {
  const found = await run(t, { pageSize: 9, lastPageNextPage: 'false', preconditionHttpStatus: 200 })
  t.same(found.map((v) => v.rule).sort(), ['profile: lastPageNextPage is as the profile records it', 'profile: pageSize is as the profile records it', 'profile: preconditionHttpStatus is as the profile records it'])
  t.ok(found.every((v) => v.basis === 'profile' && v.spec.length === 0), 'resting on the profile, not on words of the spec')
  t.match(found.find((v) => v.rule.includes('pageSize'))?.message, /holds 7 records; the profile records a page size of 9/)
  t.match(found.find((v) => v.rule.includes('lastPage'))?.message, /next_page is omit; the profile records false/)
  t.match(found.find((v) => v.rule.includes('precondition'))?.message, /came as HTTP 412; the profile records HTTP 200/)
})

t.test('a deployment that keeps its profile shows no violation', async (t) => {
  t.same(await run(t, { pageSize: 7, lastPageNextPage: 'omit', preconditionHttpStatus: 412 }), [])
})
