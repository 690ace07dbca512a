// Accounts: one fake serving several boards, the request's user name picking the board,
// each account's store, clock, windows, journal and faults its own, built on first use.
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import { basic, checked } from '../helpers/board.js'

const two = [
  { name: 'worker-1', password: 'one' },
  { name: 'worker-2', password: 'two' },
]

async function fake(t: Test, options: Parameters<typeof createMockServer>[0] = {}): Promise<MockServer> {
  const mock = await createMockServer({ clock: 'virtual', ...checked(t), accounts: two, ...options })
  t.teardown(() => mock.close())
  return mock
}

const ask = (mock: MockServer, user: string, password: string, url: string, extra: { method?: 'GET' | 'POST'; payload?: object } = {}) =>
  mock.inject({ url, method: extra.method ?? 'GET', headers: { authorization: basic(user, password) }, ...(extra.payload ? { payload: extra.payload } : {}) })

t.test('a request is answered on the board of the account its user name names', async (t) => {
  const mock = await fake(t)
  const added = mock.account('worker-2').store.addCandidate({ name: 'Ada Lovelace' })
  const one = await ask(mock, 'worker-1', 'one', `/api/v1/candidates/details/${added.id}`)
  const other = await ask(mock, 'worker-2', 'two', `/api/v1/candidates/details/${added.id}`)
  t.equal(other.statusCode, 200)
  t.equal(other.json().data[0].name, 'Ada Lovelace', 'the account the record was added to has it')
  t.not(one.statusCode === 200 && one.json().data[0]?.name === 'Ada Lovelace', true, 'the other account does not')
  t.not(mock.account('worker-1').store.candidate(added.id)?.name, 'Ada Lovelace')
})

t.test('an unknown user or another account\'s password is refused as ever', async (t) => {
  const mock = await fake(t)
  t.equal((await ask(mock, 'worker-3', 'one', '/api/v1/metrics/list')).statusCode, 401, 'a user no account has')
  t.equal((await ask(mock, 'worker-1', 'two', '/api/v1/metrics/list')).statusCode, 401, "another account's password")
  t.equal((await ask(mock, 'jobboard', 'jobboard', '/api/v1/metrics/list')).statusCode, 401, "the scenario's own user is not an account")
  t.equal((await ask(mock, 'worker-1', 'one', '/api/v1/metrics/list')).statusCode, 200)
  t.equal((await ask(mock, 'worker-2', 'two', '/api/v1/metrics/list')).statusCode, 200)
})

t.test("each account's journal, rate-limit windows, faults and clock are its own", async (t) => {
  const mock = await fake(t, { rateLimitWindow: 900 })
  const [one, other] = [mock.account('worker-1'), mock.account('worker-2')]
  other.faults.add({ path: '/api/v1/metrics/list', status: 503 })
  t.equal((await ask(mock, 'worker-1', 'one', '/api/v1/metrics/list')).statusCode, 200, "the other account's fault is not met")
  t.equal((await ask(mock, 'worker-1', 'one', '/api/v1/metrics/list')).statusCode, 429, 'its own window refuses the second')
  t.equal((await ask(mock, 'worker-2', 'two', '/api/v1/metrics/list')).statusCode, 503, 'the fault is met by its own account')
  t.equal((await ask(mock, 'worker-2', 'two', '/api/v1/metrics/list')).statusCode, 200, "a window of another account's does not refuse it")
  t.same(one.journal.list().map((entry) => [entry.user, entry.status]), [['worker-1', 200], ['worker-1', 429]])
  t.same(other.journal.list().map((entry) => [entry.user, entry.status]), [['worker-2', 503], ['worker-2', 200]])
  t.same(one.rateLimits.list().map((w) => w.user), ['worker-1'])
  const before = other.clock.now()
  one.clock.advance(3600)
  t.equal(other.clock.now(), before, "moving one account's clock leaves the other's")
  t.not(one.clock.now(), before)
})

t.test('accounts after the first are built on their first request, each on the seed of the fake', async (t) => {
  const mock = await fake(t, { seed: 7 })
  const listed = await mock.inject('/__mock/accounts')
  t.same(listed.json(), { status: 200, total: 2, data: [{ name: 'worker-1', built: true }, { name: 'worker-2', built: false }] })
  t.equal((await ask(mock, 'worker-2', 'two', '/api/v1/metrics/list')).statusCode, 200)
  t.same((await mock.inject('/__mock/accounts')).json().data, [{ name: 'worker-1', built: true }, { name: 'worker-2', built: true }])
  t.equal(mock.account('worker-1').board.scenario.seed, 7)
  t.equal(mock.account('worker-2').board.scenario.seed, 7)
  const given = await fake(t, { accounts: [{ name: 'a' }, { name: 'b', seed: 7 }], seed: 7 })
  t.same(given.account('a').store.candidates().items, given.account('b').store.candidates().items, 'an account given its own seed keeps it')
})

t.test('an account names its own scenario and password', async (t) => {
  const mock = await fake(t, { accounts: [{ name: 'small', password: 's' }, { name: 'big', scenario: 'large', password: 'b' }] })
  t.ok(mock.account('big').store.candidates().total > mock.account('small').store.candidates().total)
  t.equal(mock.accounts().join(), 'small,big')
})

t.test('the server itself acts on the first account, and a fake given none has one, default', async (t) => {
  const mock = await fake(t)
  mock.store.addCandidate({ name: 'First' })
  t.equal(mock.account('worker-1').journal.list().length, 0)
  t.equal(mock.account('worker-1').store.candidates().total, mock.store.candidates().total)
  t.equal(mock.account('worker-1').board, mock.board)
  const single = await createMockServer({ clock: 'virtual', ...checked(t) })
  t.teardown(() => single.close())
  t.same(single.accounts(), ['default'])
  t.equal(single.account('default').board, single.board)
  t.equal((await single.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic() } })).statusCode, 200, "the scenario's users, as ever")
})

t.test('a bad declaration is refused with a 412 naming the account, and an unknown account with a 404', async (t) => {
  const refusal = (accounts: unknown) => createMockServer({ clock: 'virtual', accounts: accounts as never })
  await t.rejects(refusal([{ name: 'a' }, { name: 'a' }]), { status: 412, message: /Account "a" is declared twice/ })
  await t.rejects(refusal([{ name: 'not a token' }]), { status: 412, message: /Account "not a token" is not a plain token/ })
  await t.rejects(refusal([{ name: '../x' }]), { status: 412, message: /"\.\.\/x"/ })
  await t.rejects(refusal([{ name: 'a', scenario: 'no-such-scenario' }]), { status: 412, message: /^Account "a": .*no-such-scenario/ })
  await t.rejects(refusal([{ name: 'a', password: '' }]), { status: 412, message: /Account "a": its password/ })
  const mock = await fake(t)
  t.throws(() => mock.account('worker-9'), { status: 404, message: 'Account "worker-9" was not found.' })
})

t.test('every account given no seed answers the same first pages, byte for byte', async (t) => {
  const mock = await fake(t, { seed: 21, rateLimitWindow: 0 })
  for (const url of ['/api/v1/candidates/list', '/api/v1/applications/list', '/api/v1/timesheets/list', '/api/v1/metrics/list', '/api/v1/candidates/details/3']) {
    const one = await ask(mock, 'worker-1', 'one', url)
    const other = await ask(mock, 'worker-2', 'two', url)
    t.equal(one.statusCode, 200, url)
    t.equal(other.body, one.body, `${url}: the same bytes for both workers`)
  }
})

t.test('an account seed step puts account K on the seed plus (K - 1) steps', async (t) => {
  const three = [...two, { name: 'worker-3', password: 'three' }]
  const stepped = await fake(t, { seed: 7, accounts: three, accountSeedStep: 5 })
  t.same(three.map(({ name }) => stepped.account(name).board.scenario.seed), [7, 12, 17])
  const old = await fake(t, { seed: 7, accounts: three, accountSeedStep: 1 })
  t.same(three.map(({ name }) => old.account(name).board.scenario.seed), [7, 8, 9], 'a step of 1 is the behaviour of earlier versions')
  t.not(
    JSON.stringify(old.account('worker-2').store.candidates().items),
    JSON.stringify(old.account('worker-1').store.candidates().items),
    'accounts on other seeds have other boards',
  )
  const given = await fake(t, { seed: 7, accountSeedStep: 3, accounts: [{ name: 'a' }, { name: 'b', seed: 100 }] })
  t.equal(given.account('b').board.scenario.seed, 100, 'an account given its own seed keeps it')
})

t.test('a seed step that takes an account past the largest seed is refused, naming the account', async (t) => {
  const three = [...two, { name: 'worker-3', password: 'three' }]
  const refused = await createMockServer({ seed: 4_294_967_290, accountSeedStep: 3, accounts: three }).then(
    () => undefined,
    (error: Error & { field?: string; statusCode?: number }) => error,
  )
  t.match(refused?.message, /Account "worker-3": its seed 4294967296 \(the seed 4294967290 plus 2 × the account seed step 3\) is not an integer from 0 to 4294967295/)
  t.equal(refused?.field, 'accounts')
})

t.test("a download is answered from the board of the request's account, not the first account's", async (t) => {
  const mock = await fake(t)
  const added = mock.account('worker-2').store.addCandidate({ name: 'Grace Hopper', resumes: [{ filename: 'grace-hopper-cv.pdf', filesize: 3210 }] })
  const file = added.resumes[0]
  if (file === undefined) throw new Error('the added candidate has no resume')
  const path = new URL(file.href).pathname
  const own = await ask(mock, 'worker-2', 'two', path)
  t.equal(own.statusCode, 200, 'its own account downloads it')
  t.equal(own.headers['content-disposition'], 'attachment; filename="grace-hopper-cv.pdf"', "with the name its account's record gives")
  t.equal(own.rawPayload.length, 3210, 'and its size')
  const other = await ask(mock, 'worker-1', 'one', path)
  t.not(other.headers['content-disposition'], own.headers['content-disposition'], "the first account does not serve the other account's file")
})
