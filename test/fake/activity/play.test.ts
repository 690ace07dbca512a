// Playing an activity: under the virtual clock each event happens at its own time as the
// control API moves the clock past it; under a sped-up real clock events come on their own
// and Retry-After is divided by the speed; a reset plays the day again; close() ends it.
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../../src/fake/server.js'
import type { ActivityFile } from '../../../src/core/types.js'
import { AUTH } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

const START = '2026-03-02 08:00:00'

async function fake(t: Test, options: Parameters<typeof createMockServer>[0] = {}): Promise<MockServer> {
  const server = await createMockServer({ clock: 'virtual', now: START, scenario: 'default', rateLimitWindow: 0, ...options })
  t.teardown(() => server.close())
  return server
}

const two: ActivityFile = {
  name: 'two sign-ups',
  events: [
    { at: '+01:00', event: 'new-candidate', record: { name: 'Early Riser' } },
    { at: '+02:00:30', event: 'new-candidate', record: { name: 'Late Comer' } },
  ],
}

const newest = (server: MockServer) => server.store.candidates().items[0]

t.test('an advance past two events plays each at its own time', async (t) => {
  const server = await fake(t, { activityData: two })
  const before = server.store.candidates().total
  server.clock.advance(3 * 3600)
  const page = server.store.candidates()
  t.equal(page.total, before + 2)
  const made = page.items.filter((c) => c.name === 'Early Riser' || c.name === 'Late Comer').map((c) => [c.name, c.created_at])
  t.same(made.sort(), [
    ['Early Riser', '2026-03-02 09:00:00'],
    ['Late Comer', '2026-03-02 10:00:30'],
  ])
  t.equal(server.clock.now(), '2026-03-02 11:00:00', 'the clock ends where it was sent')
})

t.test('an event does not happen before its time', async (t) => {
  const server = await fake(t, { activityData: two })
  const before = server.store.candidates().total
  server.clock.advance(3599)
  t.equal(server.store.candidates().total, before)
  server.clock.advance(1)
  t.equal(newest(server)?.name, 'Early Riser')
  t.match(server.activity.status(), { played: 1, pending: 1, next: { at: '2026-03-02 10:00:30', event: 'new-candidate' } })
})

t.test('POST /__mock/clock/advance plays the bad day: outage, timeouts, a retired industry, a burst', async (t) => {
  const server = await fake(t, { activity: 'bad-day' })
  const advance = (seconds: number) => server.inject({ method: 'POST', url: '/__mock/clock/advance', payload: { seconds } })
  const get = (url: string) => server.inject({ url, headers: AUTH })
  const applications = (await get('/api/v1/applications/list')).json().total
  t.equal((await advance(2 * 3600 + 60)).statusCode, 200)
  const down = await get('/api/v1/candidates/list')
  t.equal(down.statusCode, 503, 'the candidates list is down at +02:01')
  t.equal(down.headers['retry-after'], '1140', 'Retry-After: the rest of the outage')
  t.equal(down.json().status, 503)
  await advance(20 * 60)
  t.match(server.faults.list(), [{ path: '/api/v1/candidates/list', delayMs: 10000 }], 'then its requests are held')
  await advance(10 * 60)
  t.same(server.faults.list(), [], 'and then it is back')
  t.equal((await get('/api/v1/candidates/list')).statusCode, 200)
  await advance(30 * 60)
  const refused = await server.inject({ method: 'POST', url: '/api/v1/job/add', headers: AUTH, payload: { ...jobInputSample(), job_industry: 'Veterinary Surgeon/Night Vet Surgeon' } })
  t.equal(refused.statusCode, 412, 'the retired industry is refused from +03:00')
  t.match(refused.json().message, /job_industry/)
  t.ok((await get('/api/v1/job/fields')).json().data.job_industry.includes('Veterinary Physiotherapist'))
  await advance(7 * 3600)
  const status = (await server.inject('/__mock/activity')).json()
  t.match(status, { status: 200, name: 'bad-day', pending: 0, failures: [] })
  t.equal((await get('/api/v1/applications/list')).json().total, applications + 3 + 200, 'three applications and a burst of 200')
  t.ok(server.journal.list().length > 0, 'the journal is kept through the day')
})

t.test('a reset plays the day again from the new board\'s start', async (t) => {
  const server = await fake(t, { activityData: two })
  server.clock.advance(4 * 3600)
  server.reset()
  t.match(server.activity.status(), { played: 0, pending: 2, start: START })
  server.clock.advance(4 * 3600)
  t.equal(server.activity.status()?.played, 2)
})

t.test('an event the board refuses when it comes is skipped and shown as a failure', async (t) => {
  const server = await fake(t, { activityData: { events: [{ at: '+00:10', event: 'new-application', record: { candidate_id: 2147483000 } }, { at: '+00:20', event: 'new-candidate' }] } })
  server.clock.advance(3600)
  const status = server.activity.status()
  t.equal(status?.played, 2)
  t.match(status?.failures, [{ at: '2026-03-02 08:10:00', event: 'new-application', index: 0, message: /Candidate 2147483000 does not exist/ }])
})

t.test('GET /__mock/activity answers 404 when no activity plays', async (t) => {
  const server = await fake(t)
  const answer = await server.inject('/__mock/activity')
  t.equal(answer.statusCode, 404)
  t.match(answer.json().message, /--activity/)
})

t.test('under a sped-up real clock events come on their own, over a real socket', async (t) => {
  const server = await fake(t, {
    clock: 'real',
    clockSpeed: 600,
    // thirty board minutes at 600 times: three real seconds, room for a first answer on a busy machine
    activityData: { events: [{ at: '+00:30', event: 'new-candidate', record: { name: 'Quick Sign-up' } }] },
  })
  const url = await server.listen(0)
  const headers = { authorization: AUTH.authorization }
  const first = await (await fetch(`${url}/api/v1/candidates/list`, { headers })).json()
  t.notOk(JSON.stringify(first).includes('Quick Sign-up'), 'not yet at the start')
  let found = false
  for (let i = 0; i < 100 && !found; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    found = JSON.stringify(await (await fetch(`${url}/api/v1/candidates/list?page=1&i=${i}`, { headers })).json()).includes('Quick Sign-up')
  }
  t.ok(found, 'the candidate appears within ten real seconds')
  t.equal(server.activity.status()?.pending, 0)
})

t.test('under a sped-up clock Retry-After is the window divided by the speed', async (t) => {
  const server = await fake(t, { clock: 'real', clockSpeed: 60, rateLimitWindow: 900 })
  const url = await server.listen(0)
  const headers = { authorization: AUTH.authorization }
  t.equal((await fetch(`${url}/api/v1/candidates/list`, { headers })).status, 200)
  const again = await fetch(`${url}/api/v1/candidates/list`, { headers })
  t.equal(again.status, 429)
  const wait = Number(again.headers.get('retry-after'))
  t.ok(wait >= 14 && wait <= 15, `Retry-After ${wait}: 900 board seconds are 15 real ones`)
  t.ok((server.rateLimits.list()[0]?.secondsLeft ?? 0) > 800, 'the window itself is kept in board seconds')
})

t.test('a sped-up clock runs N board seconds per real second', async (t) => {
  const server = await fake(t, { clock: 'real', clockSpeed: 3600 })
  const from = Date.parse(`${server.clock.now().replace(' ', 'T')}Z`)
  await new Promise((resolve) => setTimeout(resolve, 1100))
  const to = Date.parse(`${server.clock.now().replace(' ', 'T')}Z`)
  t.ok(to - from >= 3600_000, `an hour passed on the board in a real second (${(to - from) / 1000} s)`)
})

t.test('close() ends the day: nothing is pending and no timer is left', async (t) => {
  const server = await createMockServer({ clock: 'real', clockSpeed: 10, activity: 'quiet-day', scenario: 'empty' })
  t.ok((server.activity.status()?.pending ?? 0) > 0)
  await server.close()
  t.equal(server.activity.status()?.pending, 0)
})

t.test('a restored board stops the day: nothing of it is played onto the restored board', async (t) => {
  const server = await fake(t, { activityData: { events: [{ at: '+00:00', event: 'new-candidate', record: { name: 'At The Start' } }, { at: '+01:00', event: 'new-candidate' }] } })
  t.equal(newest(server)?.name, 'At The Start', 'an event at +00:00 plays as the board starts')
  const saved = server.exportState()
  const count = server.store.candidates().total
  server.importState(saved)
  t.equal(server.store.candidates().total, count, 'the restore did not play the +00:00 event again')
  server.clock.advance(2 * 3600)
  t.equal(server.store.candidates().total, count, 'nor the +01:00 one later')
  t.equal(server.activity.status(), undefined)
  t.equal((await server.inject('/__mock/activity')).statusCode, 404)
})
