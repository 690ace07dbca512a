// The control API, its page and the document's routes, built on first use (src/fake/lazy.ts):
// listed before any is asked for, and answering the first request (in process or over HTTP,
// a body included, an account's path included) as every later one.
import t from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { checked } from '../helpers/board.js'

const UNROUTED = /^No endpoint answers /

t.test('every control, page and document route is listed before any of them is asked for, and each answers', async (t) => {
  const mock = await createMockServer({ scenario: 'empty', clock: 'virtual', ...checked(t) })
  t.teardown(() => mock.close())
  const listed = mock.app.endpoints.map((e) => `${e.method} ${e.url}`)
  for (const route of ['GET /__mock', 'POST /__mock/reset', 'PUT /__mock/state', 'DELETE /__mock/faults', 'GET /__mock/ui', 'GET /__mock/ui/board', 'GET /openapi.json', 'GET /docs/*']) {
    t.ok(listed.includes(route), `${route} is listed`)
  }
  t.notOk(listed.some((route) => route.endsWith('/__mock/*')), 'the catch-all routes are not')
  const gets = mock.app.endpoints.filter((e) => e.method === 'GET' && !/[:*]/.test(e.url))
  for (const { url } of gets) {
    const answer = await mock.inject({ url })
    const message = answer.statusCode === 404 ? String((answer.json() as { message?: string }).message) : ''
    t.notMatch(message, UNROUTED, `GET ${url} is answered by a route`)
  }
})

t.test('the first request of the area over HTTP is answered as a later one, its body read', async (t) => {
  const mock = await createMockServer({ scenario: 'empty', clock: 'virtual', ...checked(t) })
  t.teardown(() => mock.close())
  const url = await mock.listen(0)
  const before = mock.clock.now()
  const first = await fetch(`${url}/__mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 60 }) })
  t.equal(first.status, 200)
  t.equal(Date.parse(`${((await first.json()) as { now: string }).now.replace(' ', 'T')}Z`) - Date.parse(`${before.replace(' ', 'T')}Z`), 60_000, 'the body was read: the clock moved a minute')
  const overHttp = await fetch(`${url}/__mock/clock`)
  const inProcess = await mock.inject({ url: '/__mock/clock' })
  t.equal(await overHttp.text(), inProcess.body, 'over HTTP and in process, the same bytes')
  t.equal(overHttp.headers.get('content-type'), inProcess.headers['content-type'])
})

t.test("an account's control path is the first request of the area", async (t) => {
  const mock = await createMockServer({ scenario: 'empty', clock: 'virtual', accounts: [{ name: 'worker-1' }, { name: 'worker-2' }], ...checked(t) })
  t.teardown(() => mock.close())
  const advanced = await mock.inject({ method: 'POST', url: '/__mock/accounts/worker-2/clock/advance', payload: { seconds: 3600 } })
  t.equal(advanced.statusCode, 200)
  t.not(mock.account('worker-2').clock.now(), mock.account('worker-1').clock.now(), "worker-2's clock moved, worker-1's did not")
  const unknown = await mock.inject({ url: '/__mock/accounts/nobody/clock' })
  t.equal(unknown.statusCode, 404)
  t.match(unknown.json(), { status: 404, message: /nobody/ })
})

t.test('a path or a method no route of the area answers is the same 404 as any other path', async (t) => {
  const mock = await createMockServer({ scenario: 'empty', clock: 'virtual', ...checked(t) })
  t.teardown(() => mock.close())
  const elsewhere = await mock.inject({ method: 'PATCH', url: '/nowhere' })
  for (const [method, url] of [
    ['PATCH', '/__mock/clock'],
    ['GET', '/__mock/nowhere'],
    ['POST', '/openapi.json'],
    ['GET', '/docs/nowhere'],
  ] as const) {
    const answer = await mock.inject({ method, url })
    t.equal(answer.statusCode, 404, `${method} ${url}`)
    t.same(answer.json(), { status: 404, message: `No endpoint answers ${method} ${url}.` })
    t.equal(answer.headers['content-type'], elsewhere.headers['content-type'])
  }
})

t.test('a fake closes whether its control routes were built or not', async (t) => {
  const never = await createMockServer({ scenario: 'empty', clock: 'virtual' })
  await never.inject({ url: '/__mock/health' })
  await never.close()
  const built = await createMockServer({ scenario: 'empty', clock: 'virtual' })
  t.equal((await built.inject({ url: '/__mock/clock' })).statusCode, 200)
  await built.close()
  t.pass('both closed')
})
