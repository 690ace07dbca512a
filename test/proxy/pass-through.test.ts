// The proxy passes each request on as sent and each answer back as it came, and sends
// nothing the client did not send: the upstream's own count of what it was sent is the
// measure. The one change it makes, the upstream's base in answer links, is tested on the
// second server (test/helpers/other-board/), which writes its links from the Host it is
// sent and escapes `/` as `\/` in style a.
import t, { type Test } from 'tap'
import { sampleJob } from '../../examples/sync-client.js'
import { createProxy, type RunningProxy } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { tapUpstream } from '../helpers/upstream-tap.js'

const auth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

async function proxyTo(t: Test, to: string, options: { keepLinks?: boolean } = {}): Promise<RunningProxy> {
  const proxy = createProxy({ to, port: 0, ...options })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return proxy
}

t.test('a request goes upstream as sent: method, path, query, headers in their case, body and credentials', async (t) => {
  const upstream: Awaited<ReturnType<typeof tapUpstream>> = await tapUpstream('http://127.0.0.1:1/base', {
    answer: (_request, response) => {
      response.writeHead(201, 'Made Up', ['X-Upstream-Case', 'Kept', 'Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Location', `${upstream.url}/api/v1/job/7`])
      response.end('made')
      return true
    },
  })
  t.teardown(() => upstream.close())
  const proxy = await proxyTo(t, upstream.url)
  const body = JSON.stringify({ id: 7, note: 'ünïcode' })
  const answer = await fetch(`${proxy.url}/api/v1/job/close?x=1&x=2&sp=a+b%20c`, {
    method: 'POST',
    headers: { authorization: auth('u', 'p'), 'content-type': 'application/json', 'X-Trace-Id': 'abc' },
    body,
  })
  t.equal(answer.status, 201, 'the status as it came')
  t.equal(answer.statusText, 'Made Up', 'the reason phrase as it came')
  t.equal(answer.headers.get('x-upstream-case'), 'Kept')
  t.equal(answer.headers.get('location'), `${proxy.url}/api/v1/job/7`, "Location names the proxy, not the upstream")
  t.same(answer.headers.getSetCookie(), ['a=1', 'b=2'], 'repeated headers stay apart')
  t.equal(await answer.text(), 'made')
  t.equal(upstream.requests.length, 1, 'one request reached the upstream')
  const sent = upstream.requests[0] as (typeof upstream.requests)[number]
  t.equal(sent.line, 'POST /base/api/v1/job/close?x=1&x=2&sp=a+b%20c', 'the path (under the base path) and the query as sent')
  t.equal(sent.headers.authorization, auth('u', 'p'), 'the credentials as sent')
  t.equal(sent.headers['x-trace-id'], 'abc')
  t.ok(sent.rawHeaders.includes('X-Trace-Id') || sent.rawHeaders.includes('x-trace-id'), 'a header name arrives')
  t.equal(sent.body.toString('utf8'), body, 'the body byte for byte')
  t.equal(sent.headers.host, new URL(upstream.url).host, 'Host names the upstream')
})

t.test('the upstream receives exactly the requests the client sent, and no /__mock request', async (t) => {
  const board = await startOtherBoard({ style: 'b', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url)
  t.teardown(() => upstream.close())
  const proxy = await proxyTo(t, upstream.url)
  const asked = ['/api/v1/candidates/list', '/api/v1/candidates/list', '/api/v1/metrics/list', '/api/v1/timesheets/list?page=2', '/api/v1/no/such/path']
  for (const path of asked) await (await fetch(`${proxy.url}${path}`, { headers: { authorization: auth('u', 'p') } })).arrayBuffer()
  for (const path of ['/__mock/violations', '/__mock/verdict', '/__mock/requests', '/__mock/ui', '/__mock/nothing']) await (await fetch(`${proxy.url}${path}`)).arrayBuffer()
  t.same(upstream.requests.map((r) => r.line), asked.map((path) => `GET ${path}`), 'the same requests, in order, no more')
  t.equal(proxy.upstreamRequests, asked.length)
  const listed = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { total: number; data: Array<{ url: string }> }
  t.same(listed.data.map((e) => e.url), asked, 'the journal holds the client\'s requests')
})

for (const style of ['a', 'b'] as const) {
  t.test(`style ${style}: the upstream's base in next_page, hrefs and the job page URL becomes the proxy's; --keep-links leaves them`, async (t) => {
    const board = await startOtherBoard({ style, username: 'u', password: 'p', basePath: '/staging', rateLimitWindow: 0 })
    t.teardown(() => board.close())
    const proxy = await proxyTo(t, board.url)
    const kept = await proxyTo(t, board.url, { keepLinks: true })
    const headers = { authorization: auth('u', 'p') }
    const page = (await (await fetch(`${proxy.url}/api/v1/applications/list`, { headers })).json()) as { next_page: string; data: Array<{ href: string; applicant: { attachment: { href: string } } }> }
    t.equal(new URL(page.next_page).origin, proxy.url, 'next_page')
    t.equal(new URL(page.next_page).pathname, '/api/v1/applications/list', 'the base path goes with the origin')
    t.ok(page.data.every((a) => a.href.startsWith(`${proxy.url}/api/v1/`) && a.applicant.attachment.href.startsWith(`${proxy.url}/api/v1/`)), 'every href')
    const timesheets = (await (await fetch(`${proxy.url}/api/v1/timesheets/list?page=2`, { headers })).json()) as { prev_page: string }
    t.equal(new URL(timesheets.prev_page).origin, proxy.url, 'prev_page')
    const job = { ...sampleJob('REF-PROXY'), job_industry: 'Veterinary Surgeon', job_type: 'Full time', contract_type: 'Permanent', salary_unit: 'Per year', salary_currency: 'GBP', job_telecommute: 'no' }
    const added = (await (await fetch(`${proxy.url}/api/v1/job/add`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(job) })).json()) as { message: string }
    t.match(added.message, `${proxy.url}/`, "job/add's message holds the job page URL on the proxy")
    t.notMatch(added.message, board.url, 'and not on the upstream')
    const raw = await (await fetch(`${kept.url}/api/v1/applications/list`, { headers })).json() as { next_page: string }
    t.equal(raw.next_page.startsWith(board.url), true, '--keep-links: next_page names the upstream')
  })
}

t.test('a download streams through byte for byte', async (t) => {
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const proxy = await proxyTo(t, board.url)
  const headers = { authorization: auth('u', 'p') }
  const page = (await (await fetch(`${board.url}/api/v1/applications/list`, { headers })).json()) as { data: Array<{ applicant: { attachment: { href: string } } }> }
  const path = new URL((page.data[0] as (typeof page.data)[number]).applicant.attachment.href).pathname
  const direct = Buffer.from(await (await fetch(`${board.url}${path}`, { headers })).arrayBuffer())
  const through = await fetch(`${proxy.url}${path}`, { headers })
  t.equal(through.headers.get('content-disposition'), (await fetch(`${board.url}${path}`, { headers })).headers.get('content-disposition'))
  t.same(Buffer.from(await through.arrayBuffer()), direct, 'the same bytes')
})
