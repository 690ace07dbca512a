// The proxy makes what it makes of an answer once per distinct answer (src/proxy/answer-memo.ts):
// the same answer asked again is sent as the same bytes and breaks the same rules, each
// time named with its own request; an answer whose bytes changed is checked afresh.
import t, { type Test } from 'tap'
import { createProxy, type RunningProxy, type Violation } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { type TapOptions, tapUpstream } from '../helpers/upstream-tap.js'

const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

async function behind(t: Test, tap: TapOptions): Promise<RunningProxy> {
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url, tap)
  t.teardown(() => upstream.close())
  const proxy = createProxy({ to: upstream.url, port: 0 }, { warn: () => {} })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return proxy
}

const violations = async (proxy: RunningProxy) => ((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: Violation[] }).violations

t.test('the same broken answer asked again is a violation each time, named with each request', async (t) => {
  let broken = true
  const proxy = await behind(t, {
    mutate: (path, body) => (broken && path === '/api/v1/candidates/list' ? { ...(body as object), total: String((body as { total: number }).total) } : body),
  })
  const bodies: string[] = []
  for (let i = 0; i < 3; i++) bodies.push(await (await fetch(`${proxy.url}/api/v1/candidates/list`, { headers })).text())
  t.equal(new Set(bodies).size, 1, 'the same bytes each time')
  t.ok(bodies[0]?.includes(proxy.url), 'its links rewritten to the proxy')
  const found = await violations(proxy)
  t.same(
    found.map((v) => [v.request, v.rule]),
    [1, 2, 3].map((id) => [id, 'candidates/list: the first page fits the candidate list schema']),
    'one violation per answer, each with its request',
  )
  broken = false
  await (await fetch(`${proxy.url}/api/v1/candidates/list`, { headers })).arrayBuffer()
  t.equal((await violations(proxy)).length, 3, 'the mended answer, other bytes at the same URL, is checked afresh: no violation')
  broken = true
  await (await fetch(`${proxy.url}/api/v1/candidates/list`, { headers })).arrayBuffer()
  t.same((await violations(proxy)).at(-1)?.request, 5, 'broken again: a violation again')
})

t.test('a repeated first page is still held against the second across answers', async (t) => {
  let first: unknown
  const proxy = await behind(t, {
    mutate: (path, body, url) => {
      if (path !== '/api/v1/applications/list') return body
      if (!url.includes('page=')) first = (body as { data: unknown }).data
      return url.includes('page=2') ? { ...(body as object), data: first } : body
    },
  })
  for (let walk = 0; walk < 2; walk++) {
    const page = (await (await fetch(`${proxy.url}/api/v1/applications/list`, { headers })).json()) as { next_page: string }
    await (await fetch(page.next_page, { headers })).arrayBuffer()
  }
  t.same(
    (await violations(proxy)).map((v) => v.request),
    [2, 4],
    'each walk\'s second page, the second walk\'s answers the same bytes as the first\'s',
  )
})
