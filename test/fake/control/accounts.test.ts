// The control API per account: /__mock/accounts/{name}/… acts on that account's board,
// /__mock/… on the first; the verdict and the copy oracle by ?user=; an account the fake
// does not serve is a 404 naming it, never a 5xx.
import t from 'tap'
import { basic, board, type Json } from '../../helpers/board.js'

const accounts = [
  { name: 'worker-1', password: 'one' },
  { name: 'worker-2', password: 'two' },
]

t.test("the account's control routes act on its board alone; today's routes on the first", async (t) => {
  const app = await board(t, { accounts })
  const advanced = await app.inject({ method: 'POST', url: '/__mock/accounts/worker-2/clock/advance', payload: { seconds: 3600 } })
  t.equal(advanced.statusCode, 200)
  const second = (await app.inject('/__mock/accounts/worker-2/clock')).json().now
  const first = (await app.inject('/__mock/clock')).json().now
  t.equal((await app.inject('/__mock/accounts/worker-1/clock')).json().now, first, '/__mock/clock is the first account')
  t.not(second, first, "the second account's clock moved, the first's did not")

  const added = await app.inject({ method: 'POST', url: '/__mock/accounts/worker-2/candidates', payload: { name: 'Grace Hopper' } })
  t.equal(added.statusCode, 201)
  const id = added.json().id
  const seen = (user: string, password: string) => app.inject({ url: `/api/v1/candidates/details/${id}`, headers: { authorization: basic(user, password) } })
  t.equal(((await seen('worker-2', 'two')).json() as Json).data[0].name, 'Grace Hopper')
  t.not(((await seen('worker-1', 'one')).json() as Json).data?.[0]?.name, 'Grace Hopper')

  const armed = await app.inject({ method: 'POST', url: '/__mock/accounts/worker-1/faults', payload: { path: '/api/v1/metrics/list', status: 502 } })
  t.equal(armed.statusCode, 201)
  t.equal((await app.inject('/__mock/accounts/worker-2/faults')).json().total, 0)
  t.equal((await app.inject('/__mock/faults')).json().total, 1, "the first account's faults")
  const metrics = (user: string, password: string) => app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic(user, password) } })
  t.equal((await metrics('worker-2', 'two')).statusCode, 200)
  t.equal((await metrics('worker-1', 'one')).statusCode, 502)

  const journal = async (name: string) => ((await app.inject(`/__mock/accounts/${name}/requests`)).json() as Json).data.map((e: Json) => `${e.user} ${e.status}`)
  t.same(await journal('worker-1'), ['worker-1 404', 'worker-1 502'], 'the first account journals its own requests only')
  t.same(await journal('worker-2'), ['worker-2 200', 'worker-2 200'])
  t.equal((await app.inject({ method: 'DELETE', url: '/__mock/accounts/worker-2/requests' })).statusCode, 200)
  t.same(await journal('worker-2'), [])
  t.same(await journal('worker-1'), ['worker-1 404', 'worker-1 502'], "emptying one account's journal leaves the other's")

  t.equal((await app.inject({ method: 'POST', url: '/__mock/faults', payload: { path: '/api/v1/metrics/list', status: 503 } })).statusCode, 201)
  const reset = await app.inject({ method: 'POST', url: '/__mock/accounts/worker-2/reset', payload: {} })
  t.equal(reset.statusCode, 200)
  t.equal(reset.json().seed, app.board.scenario.seed, "the second account keeps its own seed: the first one's, as given no seed")
  t.equal((await app.inject('/__mock/faults')).json().total, 1, "resetting the second account leaves the first's faults")
})

t.test('the verdict and the copy oracle are per account, by ?user= or by path', async (t) => {
  const app = await board(t, { accounts })
  // a request without credentials is the first account's: worker-1's verdict fails it, worker-2's does not
  await app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic('worker-2', 'two') } })
  await app.inject({ url: '/api/v1/metrics/list' })
  const rule = (body: Json, id: string) => body.rules.find((r: Json) => r.id === id)?.outcome
  const byUser = (await app.inject('/__mock/verdict?user=worker-2')).json()
  const byPath = (await app.inject('/__mock/accounts/worker-2/verdict')).json()
  t.same(byUser, byPath, '?user= names the account on /__mock/verdict')
  t.equal(rule(byPath, 'credentials'), 'pass')
  t.equal(rule((await app.inject('/__mock/accounts/worker-1/verdict')).json(), 'credentials'), 'fail')
  t.equal(rule((await app.inject('/__mock/verdict')).json(), 'credentials'), 'fail', '/__mock/verdict is the first account')
  const copy = await app.inject({ method: 'POST', url: '/__mock/verdict/copy?user=worker-2', payload: { lists: {} } })
  const copyByPath = await app.inject({ method: 'POST', url: '/__mock/accounts/worker-2/verdict/copy', payload: { lists: {} } })
  t.equal(copy.statusCode, copyByPath.statusCode)
  t.same(copy.json(), copyByPath.json())
})

t.test('an account the fake does not serve is a 404 naming it, on every control route', async (t) => {
  const app = await board(t, { accounts })
  for (const [method, url, payload] of [
    ['GET', '/__mock/accounts/nobody/clock'],
    ['POST', '/__mock/accounts/nobody/reset', {}],
    ['POST', '/__mock/accounts/nobody/candidates', { name: 'x' }],
    ['GET', '/__mock/accounts/nobody/state'],
    ['PUT', '/__mock/accounts/nobody/state', {}],
    ['DELETE', '/__mock/accounts/nobody/faults'],
    ['GET', '/__mock/accounts/no%20body/verdict'],
  ] as Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, object?]>) {
    const answer = await app.inject({ method, url, ...(payload ? { payload } : {}) })
    t.equal(answer.statusCode, 404, `${method} ${url}`)
    t.match(answer.json(), { status: 404, message: /^Account "no(body|%20body)" was not found\.$/ }, `${method} ${url}`)
  }
})

t.test('a fake given no accounts has one, default, with the same routes', async (t) => {
  const app = await board(t)
  t.same((await app.inject('/__mock/accounts')).json(), { status: 200, total: 1, data: [{ name: 'default', built: true }] })
  t.same((await app.inject('/__mock/accounts/default/clock')).json(), (await app.inject('/__mock/clock')).json())
  t.equal((await app.inject('/__mock/accounts/worker-1/clock')).statusCode, 404)
})

t.test('with a control token, an account route asks for the token before it says whether the account exists', async (t) => {
  const app = await board(t, { accounts, controlToken: 'a-control-token-long-enough' })
  const answer = await app.inject('/__mock/accounts/nobody/clock')
  t.equal(answer.statusCode, 401)
  const known = await app.inject({ url: '/__mock/accounts/worker-2/clock', headers: { authorization: 'Bearer a-control-token-long-enough' } })
  t.equal(known.statusCode, 200)
})
