// GET and HEAD /__mock/health: serve answers its health check whatever --control says and
// without the control token, and leaves it out of the request journal.
import t, { type Test } from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { checked } from '../helpers/board.js'

const TOKEN = 'a-control-token-of-the-fake'

async function served(t: Test, options: Parameters<typeof createMockServer>[0]): Promise<string> {
  const mock = await createMockServer({ scenario: 'empty', ...checked(t), ...options })
  const url = await mock.listen(0)
  t.teardown(() => mock.close())
  return url
}

t.test('answers 200 {status, message} to GET and HEAD with the control API off, as the container runs it', async (t) => {
  const url = await served(t, { control: false })
  const got = await fetch(`${url}/__mock/health`)
  t.equal(got.status, 200)
  t.match(got.headers.get('content-type'), /^application\/json/)
  t.same(await got.json(), { status: 200, message: 'ok' })
  const head = await fetch(`${url}/__mock/health`, { method: 'HEAD' })
  t.equal(head.status, 200, 'HEAD, as `jobboard-kit health` asks')
  t.equal((await fetch(`${url}/__mock/clock`)).status, 404, 'while the control routes stay off')
})

t.test('answers without the control token when one is set, while the control routes still need it', async (t) => {
  const url = await served(t, { controlToken: TOKEN })
  t.equal((await fetch(`${url}/__mock/health`, { method: 'HEAD' })).status, 200)
  t.same(await (await fetch(`${url}/__mock/health`)).json(), { status: 200, message: 'ok' })
  t.equal((await fetch(`${url}/__mock/clock`)).status, 401, 'the control routes ask for the token')
  const journal = (await (await fetch(`${url}/__mock/requests`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { total: number }
  t.equal(journal.total, 0, 'the health checks are not in the request journal')
})
