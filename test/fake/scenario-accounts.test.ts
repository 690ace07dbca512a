// A scenario file declares accounts (`accounts: [{ name, password, scenario, seed }]`): a
// fake started on it serves each as a board of its own, built on its first request, each
// account's scenario path taken from the declaring file's folder; the accounts option
// (`serve --account`, `createMockServer({ accounts })`) replaces the scenario's list.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import { basic, checked, type Json } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'

const team = {
  name: 'team',
  seed: 11,
  accounts: [
    { name: 'alice', password: 'secret-a' },
    { name: 'bob', password: 'secret-b', scenario: 'boards/bob.json' },
  ],
}
const bob = { name: 'bob-board', counts: { candidates: 5, jobs: 2 } }

/** A folder holding team.json and, under boards/, the scenario one of its accounts names. */
function files(t: Test, declaring: object = team): string {
  return t.testdir({ 'team.json': JSON.stringify(declaring), boards: { 'bob.json': JSON.stringify(bob) } })
}

async function fake(t: Test, options: Parameters<typeof createMockServer>[0] = {}): Promise<MockServer> {
  const mock = await createMockServer({ clock: 'virtual', ...checked(t), ...options, scenario: options.scenario ?? join(files(t), 'team.json') })
  t.teardown(() => mock.close())
  return mock
}

const ask = (mock: MockServer, user: string, password: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
  mock.inject({ url, method, headers: { authorization: basic(user, password) }, ...(payload ? { payload } : {}) })

t.test('a fake started on a scenario declaring two accounts serves both, each with its own password', async (t) => {
  const mock = await fake(t)
  t.same(mock.accounts(), ['alice', 'bob'])
  t.equal((await ask(mock, 'alice', 'secret-a', '/api/v1/metrics/list')).statusCode, 200)
  t.equal((await ask(mock, 'bob', 'secret-b', '/api/v1/metrics/list')).statusCode, 200)
  t.equal((await ask(mock, 'alice', 'secret-b', '/api/v1/metrics/list')).statusCode, 401, "another account's password is refused")
  t.equal((await ask(mock, 'jobboard', 'jobboard', '/api/v1/metrics/list')).statusCode, 401, "the scenario's own credentials are not an account")
})

t.test("an account's scenario path is taken from the declaring file's folder, and one naming none is on the declaring scenario", async (t) => {
  const mock = await fake(t)
  t.equal((await ask(mock, 'bob', 'secret-b', '/api/v1/candidates/list')).json().total, bob.counts.candidates, "bob's board is boards/bob.json's")
  t.equal(mock.account('bob').board.scenario.name, 'bob-board')
  t.equal(mock.account('alice').board.scenario.name, 'team')
  t.equal(mock.account('alice').board.scenario.seed, team.seed, 'the first account is on the scenario seed')
})

t.test('a write on one account is not seen on the other', async (t) => {
  // no rate limit: each list is asked again after the write
  const mock = await fake(t, { rateLimitWindow: 0, scenario: join(files(t, { ...team, accounts: [team.accounts[0], { name: 'carol', password: 'secret-c' }] }), 'team.json') })
  const total = async (user: string, password: string) => (await ask(mock, user, password, '/api/v1/candidates/list')).json().total
  const before = await total('carol', 'secret-c')
  t.equal(await total('alice', 'secret-a'), before, 'both accounts start on one scenario, so with as many candidates')
  const added = await mock.inject({ method: 'POST', url: '/__mock/accounts/alice/candidates', payload: { name: 'Ada Lovelace' } })
  t.equal(added.statusCode, 201, added.body)
  t.equal(await total('alice', 'secret-a'), before + 1, "alice's list has the new candidate")
  t.equal(await total('carol', 'secret-c'), before, "carol's list is as it was")
  t.notOk(mock.account('carol').store.candidate(added.json().id), "carol's board has no such candidate")
})

t.test("each account's verdict is its own: GET /__mock/verdict?user= judges the account it names", async (t) => {
  const mock = await fake(t)
  // bob's client asks the same list twice within the window; alice's asks it once
  await ask(mock, 'alice', 'secret-a', '/api/v1/metrics/list')
  await ask(mock, 'bob', 'secret-b', '/api/v1/metrics/list')
  t.equal((await ask(mock, 'bob', 'secret-b', '/api/v1/metrics/list')).statusCode, 429)
  const rule = (body: Json, id: string) => body.rules.find((r: Json) => r.id === id)?.outcome
  const alice = (await mock.inject('/__mock/verdict?user=alice')).json()
  const bobs = (await mock.inject('/__mock/verdict?user=bob')).json()
  t.equal(rule(alice, 'one-request-per-window'), 'pass', "alice's verdict does not hold bob's second request against her")
  t.equal(rule(bobs, 'one-request-per-window'), 'fail', "bob's verdict holds it")
  t.same(bobs, (await mock.inject('/__mock/accounts/bob/verdict')).json(), '?user= and the account path agree')
})

t.test('an account after the first is built on its first request', async (t) => {
  const mock = await fake(t)
  const built = async () => (await mock.inject('/__mock/accounts')).json().data.map((a: Json) => [a.name, a.built])
  t.same(await built(), [['alice', true], ['bob', false]])
  await ask(mock, 'bob', 'secret-b', '/api/v1/metrics/list')
  t.same(await built(), [['alice', true], ['bob', true]])
})

t.test("the accounts option replaces the scenario's list", async (t) => {
  const mock = await fake(t, { accounts: [{ name: 'worker-1', password: 'w' }] })
  t.same(mock.accounts(), ['worker-1'])
  t.equal((await ask(mock, 'alice', 'secret-a', '/api/v1/metrics/list')).statusCode, 401, "the scenario's account is not served")
  t.equal((await ask(mock, 'worker-1', 'w', '/api/v1/metrics/list')).statusCode, 200)
  t.equal(mock.board.scenario.name, 'team', 'on the scenario all the same')
})

t.test('a board never holds the accounts, so a saved board carries no password but its own', async (t) => {
  const mock = await fake(t, { controlToken: 'a-long-enough-control-token' })
  const state = async (name: string) => mock.inject({ url: `/__mock/accounts/${name}/state?credentials=true`, headers: { authorization: 'Bearer a-long-enough-control-token' } })
  const alice = await state('alice')
  const bobs = await state('bob')
  t.equal(alice.statusCode, 200)
  t.notOk('accounts' in alice.json().scenario, "alice's saved scenario has no accounts")
  t.match(alice.body, /secret-a/, 'asked for, her own credentials are there')
  t.notMatch(alice.body, /secret-b/, "bob's password is not")
  t.notMatch(bobs.body, /secret-a/, "nor alice's in bob's")
  const reset = await mock.inject({ url: '/__mock/reset', method: 'POST', payload: {}, headers: { authorization: 'Bearer a-long-enough-control-token' } })
  t.equal(reset.statusCode, 200, 'a reset reads the declaring file again, accounts and all')
  t.notOk('accounts' in mock.board.scenario)
  t.same(mock.accounts(), ['alice', 'bob'], 'and changes no account')
})

t.test("docs/api.md's example of a scenario declaring accounts is one a fake serves", async (t) => {
  const page = readFileSync(join(ROOT, 'docs/api.md'), 'utf8')
  const example = /\*\*Accounts in a scenario file\.\*\*[\s\S]*?```json\n([\s\S]*?)```/.exec(page)?.[1]
  if (example === undefined) return t.fail('docs/api.md has no example of a scenario declaring accounts')
  const declaring = JSON.parse(example) as { accounts: Array<{ name: string; password: string; scenario?: string }> }
  const named = declaring.accounts.flatMap((account) => (account.scenario ? [account.scenario] : []))
  t.same(named, ['boards/globex.json'], 'the example names a scenario by a path from its folder')
  const dir = t.testdir({ 'two-customers.json': example, boards: { 'globex.json': JSON.stringify({ name: 'globex' }) } })
  const mock = await fake(t, { scenario: join(dir, 'two-customers.json') })
  t.same(mock.accounts(), declaring.accounts.map((account) => account.name))
  for (const account of declaring.accounts) t.equal((await ask(mock, account.name, account.password, '/api/v1/metrics/list')).statusCode, 200, `${account.name} is served`)
  t.equal(mock.account('globex').board.scenario.name, 'globex')
})

t.test("a scenario's accountSeedStep separates the seeds of its accounts given none, and the option wins over it", async (t) => {
  const three = [{ name: 'a', password: 'p' }, { name: 'b', password: 'p' }, { name: 'c', password: 'p' }]
  const scenario = join(files(t, { name: 'team', seed: 11, accountSeedStep: 4, accounts: three }), 'team.json')
  const stepped = await fake(t, { scenario })
  t.same(['a', 'b', 'c'].map((name) => stepped.account(name).board.scenario.seed), [11, 15, 19])
  const same = await fake(t, { scenario, accountSeedStep: 0 })
  t.same(['a', 'b', 'c'].map((name) => same.account(name).board.scenario.seed), [11, 11, 11], 'the option replaces the scenario\'s step')
  const plain = await fake(t, { scenario: join(files(t, { name: 'team', seed: 11, accounts: three }), 'team.json') })
  t.same(['a', 'b', 'c'].map((name) => plain.account(name).board.scenario.seed), [11, 11, 11], 'without a step every account is on the seed')
})
