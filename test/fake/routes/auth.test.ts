// Basic auth guards every /api/v1 route: a route added later cannot skip it.
import t from 'tap'
import { API_PREFIX } from '../../../src/fake/store/record-links.js'
import { AUTH, basic, board } from '../../helpers/board.js'

const filled = (url: string) => url.replace(/:[a-z]+/g, '1').replace('*', 'x')

t.test('answers 401 without credentials on every registered /api/v1 route', async (t) => {
  const app = await board(t)
  const api = app.endpoints.filter((e) => e.url.startsWith(API_PREFIX))
  t.ok(api.length >= 17, `found ${api.length} API routes`)
  for (const { method, url } of api) {
    const answer = await app.inject({ method: method as 'GET', url: filled(url), ...(method === 'POST' ? { payload: {} } : {}) })
    t.equal(answer.statusCode, 401, `${method} ${url}`)
    t.match(answer.headers['www-authenticate'], /^Basic realm="jobboard-kit"/, `${method} ${url} challenges with the realm`)
    if (method !== 'HEAD') t.match(answer.json(), { status: 401, message: /credentials/ }, `${method} ${url} says why in JSON`)
  }
})

t.test('answers 401 to wrong, malformed or foreign credentials', async (t) => {
  const app = await board(t)
  for (const [why, authorization] of <Array<[string, string]>>[
    ['a wrong password', basic('jobboard', 'nope')],
    ['a wrong user', basic('someone', 'jobboard')],
    ['no colon', `Basic ${Buffer.from('jobboard').toString('base64')}`],
    ['not base64', 'Basic !!!'],
    ['a bearer token', 'Bearer jobboard'],
    ['an empty header', ''],
  ]) {
    const answer = await app.inject({ url: '/api/v1/metrics/list', headers: { authorization } })
    t.equal(answer.statusCode, 401, why)
    t.equal(answer.json().status, 401, `${why}: the body says 401`)
    t.ok(answer.headers['www-authenticate'], `${why}: challenges`)
  }
})

t.test('guards paths no endpoint answers too, then answers 404', async (t) => {
  const app = await board(t)
  const anonymous = await app.inject({ url: '/api/v1/no/such/endpoint' })
  t.equal(anonymous.statusCode, 401)
  const known = await app.inject({ url: '/api/v1/no/such/endpoint', headers: AUTH })
  t.equal(known.statusCode, 404)
  t.match(known.json(), { status: 404, message: /No endpoint answers GET \/api\/v1\/no\/such\/endpoint/ })
})

t.test('accepts every credential of the scenario and takes flags over them', async (t) => {
  const app = await board(t, {
    scenarioData: { name: 'two-users', counts: { candidates: 2, applications: 0, jobs: 1 }, credentials: [{ username: 'a', password: 'x' }, { username: 'b', password: 'y' }] },
  })
  for (const [user, password] of [['a', 'x'], ['b', 'y']] as const) {
    t.equal((await app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic(user, password) } })).statusCode, 200, user)
  }
  t.equal((await app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic('a', 'y') } })).statusCode, 401, 'not a mix of the two')

  const flagged = await board(t, { username: 'flag', password: 'given' })
  t.equal((await flagged.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic('flag', 'given') } })).statusCode, 200)
  t.equal((await flagged.inject({ url: '/api/v1/metrics/list', headers: AUTH })).statusCode, 401, "the scenario's credentials no longer work")
})

t.test('leaves the public job pages open', async (t) => {
  const app = await board(t)
  const answer = await app.inject({ url: '/jobs/999999' })
  t.equal(answer.statusCode, 404, 'a page, not a challenge')
  t.notOk(answer.headers['www-authenticate'])
})
