// The proxy's /__mock routes follow serve's rules: off loopback they need a control token
// (refused at start without one), the token is asked for as the control API asks for it,
// --control off turns them off; and whatever they answer, none of them reaches the upstream.
import t from 'tap'
import { createProxy, ProxyError } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { tapUpstream } from '../helpers/upstream-tap.js'

const TOKEN = 'a-control-token-of-the-proxy'

t.test('off loopback without a control token, the proxy refuses to start, naming the flag', async (t) => {
  t.throws(() => createProxy({ to: 'http://127.0.0.1:1', host: '0.0.0.0', port: 0 }), ProxyError)
  t.throws(() => createProxy({ to: 'http://127.0.0.1:1', host: '0.0.0.0', port: 0 }), { message: /--control-token/ })
})

t.test('with a token the /__mock routes need it, and with --control off they are gone; none reaches the upstream', async (t) => {
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url)
  t.teardown(() => upstream.close())
  const guarded = createProxy({ to: upstream.url, port: 0, controlToken: TOKEN })
  await guarded.listen()
  t.teardown(() => guarded.close())
  const refused = await fetch(`${guarded.url}/__mock/violations`)
  t.equal(refused.status, 401)
  t.match(((await refused.json()) as { message: string }).message, /control token/)
  t.equal((await fetch(`${guarded.url}/__mock/violations`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200, 'the token opens them')
  t.equal((await fetch(`${guarded.url}/__mock/ui/journal`)).status, 401, "the page's data needs it too")
  const off = createProxy({ to: upstream.url, port: 0, control: false })
  await off.listen()
  t.teardown(() => off.close())
  const gone = await fetch(`${off.url}/__mock/verdict`)
  t.equal(gone.status, 404)
  t.match(((await gone.json()) as { message: string }).message, /--control off/)
  t.same(upstream.requests, [], 'no /__mock request reached the upstream')
})
