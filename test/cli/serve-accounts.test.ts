// `serve --account NAME:PASSWORD[:SCENARIO]` and `--accounts N`: one fake, a board per
// account, refusals one line naming the account, exit 2. In process (main with a test's io).
import t from 'tap'
import type { Json } from '../helpers/board.js'
import { runToEnd, serve } from '../helpers/cli.js'

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` })

t.test('--account declares accounts, each answered with its own password on its own board', async (t) => {
  const served = await serve(t, ['--clock', 'virtual', '--account', 'alice:secret-a', '--account', 'bob:secret-b:large'])
  const list = (user: string, password: string) => fetch(`${served.url}/api/v1/candidates/list`, { headers: basic(user, password) })
  const alice = await list('alice', 'secret-a')
  const bob = await list('bob', 'secret-b')
  t.equal(alice.status, 200)
  t.equal(bob.status, 200)
  t.ok(((await bob.json()) as Json).total > ((await alice.json()) as Json).total, "bob's account is on the large scenario")
  t.equal((await list('alice', 'secret-b')).status, 401, "another account's password is refused")
  const accounts = (await (await fetch(`${served.url}/__mock/accounts`)).json()) as Json
  t.same(accounts.data.map((a: { name: string }) => a.name), ['alice', 'bob'])
  t.notMatch(served.output() + served.stderr(), /secret-/, 'no password is printed')
})

t.test('--accounts N serves worker-1 … worker-N with --password, all on the seed', async (t) => {
  const served = await serve(t, ['--clock', 'virtual', '--accounts', '3', '--password', 'pw', '--seed', '40'])
  for (const user of ['worker-1', 'worker-2', 'worker-3']) {
    t.equal((await fetch(`${served.url}/api/v1/metrics/list`, { headers: basic(user, 'pw') })).status, 200, `${user} is served`)
  }
  t.equal((await fetch(`${served.url}/api/v1/metrics/list`, { headers: basic('worker-4', 'pw') })).status, 401)
  const state = async (name: string) => ((await (await fetch(`${served.url}/__mock/accounts/${name}/state?form=compact`)).json()) as Json).scenario.seed
  t.same([await state('worker-1'), await state('worker-2'), await state('worker-3')], [40, 40, 40])
  const first = async (name: string) => (await fetch(`${served.url}/api/v1/candidates/list`, { headers: basic(name, 'pw') })).text()
  t.equal(await first('worker-3'), await first('worker-1'), 'worker-3 answers the first page worker-1 does, byte for byte')
})

t.test('--account-seed-step S puts worker-K on the seed + (K - 1) × S', async (t) => {
  const served = await serve(t, ['--clock', 'virtual', '--accounts', '3', '--password', 'pw', '--seed', '40', '--account-seed-step', '2'])
  const state = async (name: string) => ((await (await fetch(`${served.url}/__mock/accounts/${name}/state?form=compact`)).json()) as Json).scenario.seed
  t.same([await state('worker-1'), await state('worker-2'), await state('worker-3')], [40, 42, 44])
})

t.test('a bad declaration stops serve with one line naming the account, exit 2', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [['--account', 'a:x', '--account', 'a:y'], /Account "a" is declared twice/],
    [['--account', 'a b:x'], /Account "a b" is not a plain token/],
    [['--account', 'a:x:no-such-scenario'], /Account "a":.*no-such-scenario/],
    [['--account', 'a'], /--account "a" needs a password/],
    [['--account', 'a:'], /--account "a" has an empty password/],
    [['--accounts', '0'], /--accounts "0" is not a whole number/],
    [['--accounts', 'many'], /--accounts "many" is not a whole number/],
    [['--accounts', '3', '--seed', '4294967294', '--account-seed-step', '1'], /Account "worker-3": its seed 4294967296 .*is not an integer from 0 to 4294967295/],
  ]
  for (const [args, said] of cases) {
    const run = await runToEnd(['serve', '--port', '0', ...args])
    t.equal(run.code, 2, args.join(' '))
    t.match(run.stderr, said, args.join(' '))
    t.equal(run.stderr.trim().split('\n').length, 1, `${args.join(' ')}: one line`)
    t.notMatch(run.stderr, /:x\b|:y\b/, 'no password is printed')
  }
})
