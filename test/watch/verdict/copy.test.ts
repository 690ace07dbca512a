// POST /__mock/verdict/copy: a client's copy of a list judged against the board as it
// stood when the client's last complete walk of that list began; the result joins the
// verdict as copy-in-step. Bad copies get a 4xx {status, message} naming the problem.
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../../src/fake/server.js'
import { AUTH, checked, type Json } from '../../helpers/board.js'

const server = async (t: Test): Promise<MockServer> => {
  const fake = await createMockServer({ clock: 'virtual', ...checked(t) })
  t.teardown(() => fake.close())
  return fake
}

/** Walks a list to its last page, following next_page; answers every record. */
async function walk(fake: MockServer, path: string): Promise<Json[]> {
  const records: Json[] = []
  let url: string | false = path
  while (url) {
    const answer: Json = (await fake.inject({ url, headers: AUTH })).json()
    records.push(...answer.data)
    url = typeof answer.next_page === 'string' ? new URL(answer.next_page).pathname + new URL(answer.next_page).search : false
  }
  return records
}

const copy = async (fake: MockServer, body: unknown) => fake.inject({ method: 'POST', url: '/__mock/verdict/copy', payload: body as object })

t.test('a copy made by a complete walk is in step, and copy-in-step passes', async (t) => {
  const fake = await server(t)
  const candidates = await walk(fake, '/api/v1/candidates/list')
  const marketing = await walk(fake, '/api/v1/marketing/list')
  const answer = await copy(fake, { candidates, marketing })
  t.equal(answer.statusCode, 200)
  t.same(answer.json(), {
    status: 200,
    outcome: 'pass',
    lists: {
      candidates: { missing: [], extra: [], stale: [], walkStarted: '2026-11-22 09:30:00' },
      marketing: { missing: [], extra: [], stale: [], walkStarted: '2026-11-22 09:30:00' },
    },
  })
  const verdict: Json = fake.verdict()
  t.equal(verdict.rules.find((r: Json) => r.id === 'copy-in-step').outcome, 'pass')
})

t.test('names the missing, extra and stale records of a copy, and copy-in-step fails with them', async (t) => {
  const fake = await server(t)
  const applications = await walk(fake, '/api/v1/applications/list')
  const pairs = applications.map((a) => ({ id: a.id, updated_at: a.updated_at }))
  const [first, second, ...rest] = pairs as [{ id: number; updated_at: string }, { id: number; updated_at: string }, ...Json[]]
  const older = { id: second.id, updated_at: '2000-01-01 00:00:00' }
  const answer = await copy(fake, { applications: [older, ...rest, { id: 999999 }] })
  t.same(answer.json().lists.applications, { missing: [first.id], extra: [999999], stale: [second.id], walkStarted: '2026-11-22 09:30:00' })
  t.equal(answer.json().outcome, 'fail')
  const rule = fake.verdict().rules.find((r) => r.id === 'copy-in-step')
  t.equal(rule?.outcome, 'fail')
  t.match(rule?.findings.map((f) => f.message).join('\n'), /applications: 1 missing against the board as it stood at 2026-11-22 09:30:00/)
  t.same(rule?.findings[0]?.requests, [1], 'the finding names the first request of the walk')
})

t.test('records made after the walk began are neither missing nor stale', async (t) => {
  const fake = await server(t)
  const before = await walk(fake, '/api/v1/applications/list')
  fake.clock.advance(600)
  const added = fake.store.addApplication({})
  const answer = (await copy(fake, { applications: before })).json()
  t.same(answer.lists.applications, { missing: [], extra: [], stale: [], walkStarted: '2026-11-22 09:30:00' })
  t.ok(added.id > 0)
  // a client that walks again later is judged against the later board
  fake.clock.advance(1000)
  await walk(fake, '/api/v1/applications/list?since=2026-11-22+09:30')
  const later = (await copy(fake, { applications: before })).json()
  t.same(later.lists.applications.missing, [added.id], 'the new application is missing once a walk after it completed')
})

t.test('without a complete walk the copy is judged against the board now, and says so', async (t) => {
  const fake = await server(t)
  const answer = (await copy(fake, { timesheets: [] })).json()
  t.equal(answer.lists.timesheets.walkStarted, null)
  t.equal(answer.lists.timesheets.missing.length, 72)
})

t.test('the copy check changes nothing on the board', async (t) => {
  const fake = await server(t)
  const state = JSON.stringify(fake.exportState())
  await copy(fake, { candidates: [{ id: 1 }] })
  t.equal(JSON.stringify(fake.exportState()), state)
})

for (const [name, body, field] of [
  ['an unknown list', { jobs: [] }, /jobs/],
  ['a non-integer id', { applications: [{ id: 'seven' }] }, /applications\/0\/id|applications\[0\]\.id/],
  ['a malformed timestamp', { candidates: [{ id: 1, updated_at: 'yesterday' }] }, /updated_at/],
  ['an empty copy', {}, /must|list/i],
  ['too many entries', { timesheets: Array.from({ length: 200_001 }, () => ({ id: 1 })) }, /timesheets/],
] as const) {
  t.test(`answers ${name} with a 4xx naming the problem`, async (t) => {
    const fake = await server(t)
    const answer = await copy(fake, body)
    t.ok(answer.statusCode >= 400 && answer.statusCode < 500, `4xx, not ${answer.statusCode}`)
    t.equal(answer.json().status, answer.statusCode)
    t.match(answer.json().message, field)
  })
}

t.test('answers a body over 32 MiB with 413 {status, message}', async (t) => {
  const fake = await server(t)
  const payload = `{"applications":[${'{"id":1},'.repeat(4_000_000)}{"id":1}]}`
  const answer = await fake.inject({ method: 'POST', url: '/__mock/verdict/copy', headers: { 'content-type': 'application/json' }, payload })
  t.equal(answer.statusCode, 413)
  t.match(answer.json(), { status: 413, message: /too large/ })
})
