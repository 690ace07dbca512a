// Fakes of one shape share the app of their routes (src/fake/shared-app.ts), and each is
// still a fake of its own: the same bytes at the start, a write or a close of one left out
// of the other, and routes added to one fake's app answered by that fake alone.
import t from 'tap'
import { buildApp } from '../../src/fake/app.js'
import { AUTH, board, call } from '../helpers/board.js'
import { listening } from '../helpers/socket.js'

const LIST = '/api/v1/candidates/list'

t.test('fakes of one scenario and seed answer the same bytes, and a write to one leaves the other', async (t) => {
  const [one, other] = [await board(t), await board(t)]
  const first = await one.inject({ url: LIST, headers: AUTH })
  t.equal(first.statusCode, 200)
  t.equal((await other.inject({ url: LIST, headers: AUTH })).body, first.body, 'the same first page')
  const added = one.controller.addCandidate({ name: 'Ada Lovelace' })
  const details = `/api/v1/candidates/details/${added.id}`
  t.equal((await call(one, details)).body.data[0].name, 'Ada Lovelace', 'the one written to has the new candidate')
  t.equal((await call(other, details)).status, 404, 'the other has not')
  t.equal((await other.inject({ url: LIST, headers: AUTH })).body, first.body, "the other's first page is as it was")
  t.same(
    other.controller.requests().map((entry) => entry.url),
    [LIST, details, LIST],
    "the other's journal holds its own requests alone",
  )
})

t.test('closing a fake leaves another of its shape answering', async (t) => {
  const closed = await buildApp({ clock: 'virtual', rateLimitWindow: 0 })
  const open = await board(t)
  await closed.close()
  t.equal((await call(open, LIST)).status, 200)
  const later = await board(t)
  t.equal((await call(later, LIST)).status, 200, 'and a fake made after it answers')
})

t.test("a route added to a fake's app answers before the fake's own, for that fake alone", async (t) => {
  const own = await buildApp({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => own.close())
  own.get('/api/v1/metrics/list', async () => ({ status: 200, metrics: [] }))
  const plain = await board(t)
  t.same((await call(own, '/api/v1/metrics/list')).body, { status: 200, metrics: [] }, 'the added route answers')
  t.not((await call(plain, '/api/v1/metrics/list')).body.metrics.length, 0, "another fake of its shape answers with the board's metrics")
  t.equal((await call(own, LIST)).status, 200, "the fake's other routes answer as before")
  t.ok(
    own.endpoints.some((route) => route.method === 'GET' && route.url === '/api/v1/metrics/list'),
    'the fake lists its routes',
  )
  t.equal(own.controller.requests().length, 2, 'the added route is journalled as the fake\'s own')
})

t.test('a route added to a fake that listens answers over its socket too', async (t) => {
  const own = await buildApp({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => own.close())
  own.get('/added', async () => ({ status: 200, message: 'mine' }))
  const url = await own.listen({ port: 0, host: '127.0.0.1' })
  t.same(await (await fetch(`${url}/added`)).json(), { status: 200, message: 'mine' })
  t.equal((await fetch(`${url}${LIST}`, { headers: AUTH })).status, 200, "and the fake's own routes")
  const { port } = await listening(t)
  t.equal((await fetch(`http://127.0.0.1:${port}/added`)).status, 404, 'another fake has no such route')
})
