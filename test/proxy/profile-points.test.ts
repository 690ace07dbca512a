// --profile: a deployment profile's points that one answer shows are held against the
// answers that pass, each read by the contract kit's own recorder of the point; a change
// is a violation of the profile, never of the spec, and says so; a profile the deployment
// keeps shows none. The second server (style a) for three points; the fake serving a
// non-default value of every point (test/helpers/profile-values.ts) for every point its
// answers show.
import t, { type Test } from 'tap'
import { PROFILE_KIND, PROFILE_POINTS } from '../../schemas/profile.js'
import type { ProfileFile } from '../../src/core/types.js'
import { createMockServer } from '../../src/fake/server.js'
import { createProxy, type Violation } from '../../src/proxy/proxy-server.js'
import { AUTH } from '../helpers/board.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { defaultValue, nonDefaultOptions, nonDefaultProfile } from '../helpers/profile-values.js'

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
  t.match(found.find((v) => v.rule.includes('pageSize'))?.message, /this answer shows 7; the profile records 9/)
  t.match(found.find((v) => v.rule.includes('lastPage'))?.message, /this answer shows omit; the profile records false/)
  t.match(found.find((v) => v.rule.includes('precondition'))?.message, /this answer shows 412; the profile records 200/)
})

t.test('a deployment that keeps its profile shows no violation', async (t) => {
  t.same(await run(t, { pageSize: 7, lastPageNextPage: 'omit', preconditionHttpStatus: 412 }), [])
})

/** The fake serving every point's non-default value, behind a proxy holding `profile`; a day's answers that show a point each. */
async function fakeDay(t: Test, profile: ProfileFile): Promise<Violation[]> {
  const fake = await createMockServer({ clock: 'virtual', ...nonDefaultOptions() } as never)
  t.teardown(() => fake.close())
  await fake.listen(0)
  const proxy = createProxy({ to: fake.url, port: 0, profile: profile as never })
  await proxy.listen()
  t.teardown(() => proxy.close())
  const ask = async (path: string, init: RequestInit = { headers: AUTH }) => (await fetch(`${proxy.url}${path}`, init)).arrayBuffer()
  const timesheets = (await (await fetch(`${proxy.url}/api/v1/timesheets/list`, { headers: AUTH })).json()) as { total: number; data: unknown[] }
  const last = Math.ceil(timesheets.total / timesheets.data.length)
  for (const page of [last, last + 1]) await ask(`/api/v1/timesheets/list?page=${page}`)
  const paths = ['/api/v1/candidates/details/99999', '/api/v1/candidates/timesheet/1', '/api/v1/metrics/list', '/api/v1/metrics/list', '/api/v1/job/fields', '/api/v1/marketing/list', '/api/v1/candidates/list?since=yesterday']
  for (const path of paths) await ask(path)
  await ask('/api/v1/job/add', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"salary_unit":"Per fortnight"}' })
  await ask('/api/v1/candidates/list', { headers: {} })
  return ((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: Violation[] }).violations.filter((v) => v.basis === 'profile')
}

t.test('every point an answer shows is held to the profile: the fake answering otherwise than the profile breaks each', async (t) => {
  const defaults = { ...nonDefaultProfile(), points: Object.fromEntries(PROFILE_POINTS.map((point) => [point, { value: defaultValue(point), seen: 'directly' }])) } as ProfileFile
  const broken = new Set((await fakeDay(t, defaults)).map((v) => v.rule.replace(/^profile: (\S+) .*$/, '$1')))
  // each point the day's answers show by itself, as the contract kit's recorders read it from one answer (the
  // unknown id, the page past the last and the since that is no time stand for the kit's own); not errorHttpStatus
  // (the fake's 404 is text under notFoundBody, no JSON error) nor envelopeKeys (the defaults record no kind of
  // envelope, and a kind a profile does not record is not compared, as the kit compares it)
  const shown = [
    ...['pageSize', 'lastPageNextPage', 'outOfRangePage', 'preconditionHttpStatus', 'timesheetContentType', 'notFoundBody', 'malformedSince', 'monthNames'],
    ...['extraMetricLabels', 'rateLimitBody', 'jobFieldsShape', 'marketingApprovalAction', 'listOrder', 'extraFields', 'authStatus', 'authChallenge', 'authBody'],
  ]
  t.same([...broken].sort(), [...shown].sort())
})

t.test('the fake answering as its profile records breaks none of it', async (t) => {
  t.same(await fakeDay(t, nonDefaultProfile()), [])
})
