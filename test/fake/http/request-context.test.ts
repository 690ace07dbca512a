// A request to a fake is resolved once (src/fake/http/request-context.ts): its account's board is
// looked up and its day caught up once, whichever of the fast path and Fastify's hooks
// reads them first; an inject goes through no app of the fake's own but the one that
// answers; a URL of an area built on first use is answered whatever escapes spell it.
import t from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { basic } from '../../helpers/board.js'

const ACCOUNTS = [{ name: 'north' }, { name: 'south' }]

t.test("a request the fast path does not answer looks its account's board up once", async (t) => {
  const mock = await createMockServer({ clock: 'virtual', scenario: 'empty', accounts: ACCOUNTS, rateLimitWindow: 0 })
  t.teardown(() => mock.close())
  const accounts = mock.app.accounts
  const lookup = accounts.boardOf.bind(accounts)
  let lookups = 0
  accounts.boardOf = (request) => {
    lookups += 1
    return lookup(request)
  }
  const url = await mock.listen(0)
  const first = await fetch(`${url}/api/v1/metrics/list`, { headers: { authorization: basic('south', 'jobboard') } })
  t.equal(first.status, 200, 'answered through Fastify (nothing is kept yet)')
  t.equal(lookups, 1, 'the fast path looked it up, the hooks read what it found')
  const again = await fetch(`${url}/api/v1/metrics/list`, { headers: { authorization: basic('south', 'jobboard') } })
  t.equal(again.status, 200, 'answered by the fast path')
  t.equal(lookups, 2, 'one lookup a request')
  await mock.inject({ url: '/api/v1/job/fields', headers: { authorization: basic('north', 'jobboard') } })
  t.equal(lookups, 3, 'an inject: one lookup, by the first hook')
})

t.test("a request the fast path does not answer catches its board's day up once", async (t) => {
  const mock = await createMockServer({ clock: 'virtual', scenario: 'empty', activity: 'quiet-day', rateLimitWindow: 0 })
  t.teardown(() => mock.close())
  const activity = mock.app.board.activity
  if (activity === undefined) throw new Error('the fake plays no activity')
  const catchUp = activity.catchUp.bind(activity)
  let caughtUp = 0
  activity.catchUp = () => {
    caughtUp += 1
    catchUp()
  }
  const url = await mock.listen(0)
  const answer = await fetch(`${url}/api/v1/metrics/list`, { headers: { authorization: basic() } })
  t.equal(answer.status, 200)
  t.equal(caughtUp, 1, 'caught up by the fast path, not again by the hooks')
  await fetch(`${url}/__mock/activity`)
  t.equal(caughtUp, 2, 'a control request: once')
})

t.test("hooks a caller adds to the fake's app see only the routes it adds, an inject of the fake's own routes included", async (t) => {
  const mock = await createMockServer({ clock: 'virtual', scenario: 'empty' })
  t.teardown(() => mock.close())
  const seen: string[] = []
  mock.app.addHook('onRequest', async (request) => {
    seen.push(request.url)
  })
  mock.app.get('/own', async () => ({ status: 200, message: 'own' }))
  for (const url of ['/api/v1/metrics/list', '/__mock/clock', '/openapi.json', '/nowhere']) await mock.inject({ url, headers: { authorization: basic() } })
  t.same(seen, [], "the fake's own routes are answered without a request of this app")
  const own = await mock.inject({ url: '/own' })
  t.equal(own.statusCode, 200)
  t.same(seen, ['/own'], "the caller's route is this app's")
})

t.test('a URL of an area built on first use spelled with escapes is answered by it, never a 500', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', scenario: 'empty' })
  t.teardown(() => mock.close())
  const plain = await mock.inject({ url: '/__mock/clock' })
  for (const url of ['/__m%6Fck/clock', '/%5F_mock/clock', '/__mock/cl%6Fck']) {
    const escaped = await mock.inject({ url })
    t.equal(escaped.statusCode, 200, `${url} is answered`)
    t.equal(escaped.body, plain.body, `${url} as /__mock/clock`)
  }
  const document = await mock.inject({ url: '/openapi.js%6Fn' })
  t.equal(document.statusCode, 200, 'the document too')
  t.match(document.json(), { openapi: String })
  const health = await mock.inject({ url: '/__mock/h%65alth' })
  t.same(health.json(), { status: 200, message: 'ok' }, "/__mock/health, the shared app's own, stays its own")
})
