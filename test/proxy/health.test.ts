// GET and HEAD /__mock/health on the proxy: answered by the proxy itself whatever --control
// says and without the control token, never sent upstream (the container's health check
// every 10 s would otherwise spend the upstream's rate limit on requests no client sent).
import t, { type Test } from 'tap'
import { createProxy, type ProxyOptions } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { tapUpstream } from '../helpers/upstream-tap.js'

const TOKEN = 'a-control-token-of-the-proxy'
const basic = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

// one upstream for the file, behind a tap that counts what reaches it
const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
t.teardown(() => board.close())
const upstream = await tapUpstream(board.url)
t.teardown(() => upstream.close())

/** A proxy in front of the tapped upstream, closed with the test; its origin. */
async function proxied(t: Test, options: Partial<ProxyOptions>): Promise<string> {
  const proxy = createProxy({ to: upstream.url, port: 0, ...options })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return proxy.url
}

t.test('the proxy answers its health check itself, with --control on, off, or behind a token, and the upstream receives none of them', async (t) => {
  const before = upstream.requests.length
  for (const [how, options] of [
    ['--control on', {}],
    ['--control off', { control: false }],
    ['--control-token, none sent', { controlToken: TOKEN }],
  ] as const) {
    const url = await proxied(t, options)
    const got = await fetch(`${url}/__mock/health`)
    t.equal(got.status, 200, `${how}: GET`)
    t.same(await got.json(), { status: 200, message: 'ok' }, `${how}: the body`)
    t.equal((await fetch(`${url}/__mock/health`, { method: 'HEAD' })).status, 200, `${how}: HEAD`)
    t.equal((await fetch(`${url}/__mock/health?probe=1`, { method: 'HEAD', headers: basic })).status, 200, `${how}: with a query and credentials`)
  }
  t.same(upstream.requests.slice(before), [], 'the upstream received no request')
})

t.test("beside a client's requests, the upstream counts only the client's", async (t) => {
  const before = upstream.requests.length
  const url = await proxied(t, { control: false })
  for (const path of ['/__mock/health', '/api/v1/metrics/list', '/__mock/health', '/api/v1/candidates/list', '/__mock/health']) {
    const answer = await fetch(`${url}${path}`, { method: path.startsWith('/__mock') ? 'HEAD' : 'GET', headers: basic })
    await answer.arrayBuffer()
    t.equal(answer.status, 200, path)
  }
  t.same(upstream.requests.slice(before).map((r) => r.line), ['GET /api/v1/metrics/list', 'GET /api/v1/candidates/list'])
})
