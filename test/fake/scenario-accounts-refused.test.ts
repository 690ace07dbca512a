// A scenario's bad account declaration is refused through every door, naming the account
// and the field: at start (createMockServer: a ScenarioError), through the control API
// (POST /__mock/reset, PUT /__mock/state: 412 {status, message}), never a 5xx; the
// option's accounts go through the same rules (a 412 BoardInputError on `accounts`).
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import { ScenarioError } from '../../src/fake/scenario.js'
import { checked } from '../helpers/board.js'

/** A folder holding bad.json (declaring these accounts), nested.json (declaring one of its own) and ok.json. */
function files(t: Test, accounts: unknown, text?: string): string {
  return t.testdir({
    'bad.json': text ?? JSON.stringify({ name: 'bad', accounts }),
    'nested.json': JSON.stringify({ name: 'nested', accounts: [{ name: 'inner' }] }),
    'ok.json': JSON.stringify({ name: 'ok' }),
  })
}

const start = (t: Test, accounts: unknown, text?: string) => createMockServer({ clock: 'virtual', scenario: join(files(t, accounts, text), 'bad.json') })

/** Each bad declaration, the field named, and what the refusal says of the account. */
const BAD: Array<[string, unknown, string, RegExp]> = [
  ['an account declared twice', [{ name: 'a' }, { name: 'b' }, { name: 'a' }], 'accounts[2].name', /Account "a" is declared twice/],
  ['a name that is not a plain token', [{ name: 'a b' }], 'accounts[0].name', /Account "a b" is not a plain token/],
  ['a name that climbs out of a path', [{ name: 'ok' }, { name: '../x' }], 'accounts[1].name', /Account "\.\.\/x" is not a plain token/],
  ['an account with no name', [{ password: 'p' }], 'accounts[0].name', /Account null is not a plain token/],
  ['a scenario that does not load', [{ name: 'a', scenario: 'no-such.json' }], 'accounts[0].scenario', /Account "a": .*no-such\.json.*not found/],
  ['a scenario that declares accounts of its own', [{ name: 'a', scenario: 'nested.json' }], 'accounts[0].scenario', /Account "a": its scenario "nested" declares accounts of its own/],
  ['an empty password', [{ name: 'a', password: '' }], 'accounts[0].password', /Account "a": its password must be a non-empty string/],
  ['a seed out of range', [{ name: 'a', seed: -1 }], 'accounts[0].seed', /Account "a": its seed must be an integer from 0 to 4294967295/],
  ['a field no account has', [{ name: 'a', pasword: 'p' }], 'accounts[0].pasword', /Account "a" has a field no account has \("pasword"\)/],
]

t.test('a fake refuses to start on a scenario declaring a bad account, with a ScenarioError naming the account and the field', async (t) => {
  for (const [what, accounts, field, said] of BAD) {
    const refused = await start(t, accounts).then(
      async (mock) => {
        await mock.close()
        return undefined
      },
      (error: unknown) => error,
    )
    t.type(refused, ScenarioError, what)
    t.equal((refused as ScenarioError).field, field, `${what}: the field`)
    t.match((refused as Error).message, said, `${what}: the message`)
    t.match((refused as Error).message, /bad\.json/, `${what}: the file`)
  }
})

t.test('a __proto__ key in an account of a scenario file is refused, naming it', async (t) => {
  const text = '{"name":"bad","accounts":[{"name":"a","__proto__":{"password":"x"}}]}'
  await t.rejects(start(t, undefined, text), { name: 'ScenarioError', field: 'accounts[0].__proto__', message: /Account "a" holds the key __proto__, which is refused/ })
})

t.test('the accounts option goes through the same rules: a 412 on accounts naming the account', async (t) => {
  const dir = files(t, [])
  const refused = (accounts: unknown) => createMockServer({ clock: 'virtual', accounts: accounts as never })
  await t.rejects(refused(JSON.parse('[{"name":"a","__proto__":{}}]')), { status: 412, field: 'accounts', message: /Account "a" holds the key __proto__/ })
  await t.rejects(refused([{ name: 'a', pasword: 'p' }]), { status: 412, field: 'accounts', message: /Account "a" has a field no account has \("pasword"\)/ })
  await t.rejects(refused([{ name: 'a', scenario: join(dir, 'nested.json') }]), { status: 412, field: 'accounts', message: /Account "a": its scenario "nested" declares accounts of its own/ })
  await t.rejects(refused([{ name: 'a', seed: 1.5 }]), { status: 412, field: 'accounts', message: /Account "a": its seed/ })
})

async function fake(t: Test): Promise<MockServer> {
  const mock = await createMockServer({ clock: 'virtual', ...checked(t) })
  t.teardown(() => mock.close())
  return mock
}

t.test('POST /__mock/reset to a scenario file declaring a bad account answers 412 naming its place, and changes nothing', async (t) => {
  const mock = await fake(t)
  const dir = files(t, [{ name: 'secret-name' }, { name: 'secret-name' }])
  const before = mock.board.scenario.name
  const answer = await mock.inject({ method: 'POST', url: '/__mock/reset', payload: { scenario: join(dir, 'bad.json') } })
  t.equal(answer.statusCode, 412)
  t.same(Object.keys(answer.json()).sort(), ['message', 'status'])
  t.match(answer.json().message, /Account accounts\[1\] has the name of an account before it/)
  // a path through the control API may be any .json file: its values are not repeated
  t.notMatch(answer.body, /secret-name/)
  t.equal(mock.board.scenario.name, before, 'the board is as it was')
})

t.test('PUT /__mock/state with a scenario declaring a bad account answers 412 naming the field; good accounts are left out of the board', async (t) => {
  const mock = await fake(t)
  const state = (await mock.inject('/__mock/state?form=compact')).json()
  const put = (accounts: unknown) => mock.inject({ method: 'PUT', url: '/__mock/state', payload: { ...state, scenario: { ...state.scenario, accounts } } })
  const twice = await put([{ name: 'a' }, { name: 'a' }])
  t.equal(twice.statusCode, 412)
  t.match(twice.json(), { status: 412, message: /Account "a" is declared twice/ })
  const token = await put([{ name: 'not a token' }])
  t.match(token.json(), { status: 412, message: /Account "not a token" is not a plain token/ })
  const proto = await mock.inject({
    method: 'PUT',
    url: '/__mock/state',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ ...state, scenario: { ...state.scenario, accounts: [{ name: 'a' }] } }).replace('{"name":"a"}', '{"name":"a","__proto__":{}}'),
  })
  t.equal(proto.statusCode, 412, 'a __proto__ key in an account')
  t.match(proto.json().message, /__proto__/)
  const good = await put([{ name: 'a', password: 'p' }])
  t.equal(good.statusCode, 200, 'a well-formed list is taken')
  t.notOk('accounts' in mock.board.scenario, 'and left out: a restore never changes the accounts served')
  t.same(mock.accounts(), ['default'])
})

t.test('reset() in process with a scenario object declaring a bad account throws the 412 naming it', async (t) => {
  const mock = await fake(t)
  t.throws(() => mock.reset({ scenario: { name: 'x', accounts: [{ name: 'a' }, { name: 'a' }] } }), { status: 412, field: 'accounts[1].name', message: /Account "a" is declared twice/ })
})
