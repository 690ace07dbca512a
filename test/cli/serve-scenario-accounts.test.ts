// `serve --scenario FILE` where the file declares accounts: each served as a board of its
// own; a bad declaration stops serve with one line naming the field and the account, exit
// 2, no password printed; `--account` replaces the file's list. In process (main with a
// test's io).
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { Json } from '../helpers/board.js'
import { runToEnd, serve } from '../helpers/cli.js'

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` })

/** A folder holding team.json declaring these accounts, and boards/big.json one of them may name. */
function team(t: Test, accounts: unknown): string {
  const dir = t.testdir({
    'team.json': JSON.stringify({ name: 'team', accounts }),
    boards: { 'big.json': JSON.stringify({ name: 'big', counts: { candidates: 90 } }) },
  })
  return join(dir, 'team.json')
}

t.test('serve --scenario FILE serves the accounts the file declares, each on its own board', async (t) => {
  const file = team(t, [
    { name: 'alice', password: 'secret-a' },
    { name: 'bob', password: 'secret-b', scenario: 'boards/big.json' },
  ])
  const served = await serve(t, ['--clock', 'virtual', '--scenario', file])
  const total = async (user: string, password: string) => {
    const answer = await fetch(`${served.url}/api/v1/candidates/list`, { headers: basic(user, password) })
    t.equal(answer.status, 200, `${user} is served`)
    return ((await answer.json()) as Json).total
  }
  t.equal(await total('bob', 'secret-b'), 90, "bob's board is boards/big.json's, taken from the file's folder")
  t.not(await total('alice', 'secret-a'), 90, "alice's is the declaring scenario's")
  const listed = (await (await fetch(`${served.url}/__mock/accounts`)).json()) as Json
  t.same(listed.data.map((a: Json) => a.name), ['alice', 'bob'])
  t.notMatch(served.output() + served.stderr(), /secret-/, 'no password is printed')
})

t.test("--account replaces the accounts the scenario file declares", async (t) => {
  const served = await serve(t, ['--clock', 'virtual', '--scenario', team(t, [{ name: 'alice', password: 'secret-a' }]), '--account', 'carol:secret-c'])
  const status = async (user: string, password: string) => (await fetch(`${served.url}/api/v1/metrics/list`, { headers: basic(user, password) })).status
  t.equal(await status('carol', 'secret-c'), 200)
  t.equal(await status('alice', 'secret-a'), 401, "the file's account is not served")
})

t.test('a bad declaration in the scenario file stops serve with one line naming the field and the account, exit 2', async (t) => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['declared twice', [{ name: 'a', password: 'secret-x' }, { name: 'a', password: 'secret-y' }], /at accounts\[1\]\.name: Account "a" is declared twice/],
    ['not a plain token', [{ name: 'a b', password: 'secret-x' }], /at accounts\[0\]\.name: Account "a b" is not a plain token/],
    ['a scenario that does not load', [{ name: 'a', password: 'secret-x', scenario: 'boards/none.json' }], /at accounts\[0\]\.scenario: Account "a":.*none\.json.*not found/],
    ['a __proto__ key', JSON.parse('[{"name":"a","password":"secret-x","__proto__":{}}]'), /at accounts\[0\]\.__proto__: Account "a" holds the key __proto__/],
  ]
  for (const [what, accounts, said] of cases) {
    const run = await runToEnd(['serve', '--port', '0', '--scenario', team(t, accounts)])
    t.equal(run.code, 2, what)
    t.match(run.stderr, said, what)
    t.match(run.stderr, /team\.json/, `${what}: names the file`)
    t.equal(run.stderr.trim().split('\n').length, 1, `${what}: one line`)
    t.notMatch(run.stderr, /secret-/, `${what}: no password is printed`)
  }
})
