// Every answer through the proxy is held to the contract kit's rules of one answer: a
// deployment that breaks one (a small server of the suite changing the second server's
// answers) shows a violation naming the rule (the kit's check), the spec's words and the
// request's journal id, logged as one line as it happens; what the spec leaves open (a
// field it does not list, a refusal sent as HTTP 200) is an observation, never a violation.
import t, { type Test } from 'tap'
import { citationOf } from '../../src/contract/rules.js'
import { createProxy, type RunningProxy, type Violation } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { type TapOptions, tapUpstream } from '../helpers/upstream-tap.js'

const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

async function behind(t: Test, style: 'a' | 'b', tap: TapOptions = {}, live?: number): Promise<{ proxy: RunningProxy; lines: string[] }> {
  const board = await startOtherBoard({ style, username: 'u', password: 'p', rateLimitWindow: 0, ...(live === undefined ? {} : { live }) })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url, tap)
  t.teardown(() => upstream.close())
  const lines: string[] = []
  const proxy = createProxy({ to: upstream.url, port: 0 }, { warn: (line) => void lines.push(line) })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return { proxy, lines }
}

const violations = async (proxy: RunningProxy) => (await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { total: number; violations: Violation[]; observations: Array<{ topic: string; endpoint: string; summary: string }> }

t.test('a total of the wrong type is a violation of the list schema, with the spec\'s words and the journal id, logged in one line', async (t) => {
  const { proxy, lines } = await behind(t, 'a', {
    mutate: (path, body) => (path === '/api/v1/candidates/list' ? { ...(body as object), total: String((body as { total: number }).total) } : body),
  })
  await (await fetch(`${proxy.url}/api/v1/metrics/list`, { headers })).arrayBuffer()
  await (await fetch(`${proxy.url}/api/v1/candidates/list`, { headers })).arrayBuffer()
  const found = await violations(proxy)
  t.equal(found.total, 1, 'one answer broke one rule')
  const [violation] = found.violations
  t.equal(violation?.rule, 'candidates/list: the first page fits the candidate list schema')
  t.match(violation?.message, /total/)
  t.equal(violation?.request, 2, 'the journal id of the request')
  t.ok((violation?.spec.length ?? 0) > 0, 'it carries the spec\'s words')
  // the words the finding contradicts first (the envelope's total), then every word the contract kit cites for that check
  t.equal(violation?.spec[0], 'Every JSON response carries `status` (integer). List and detail responses also carry `total` (integer) and `data` (array).', 'the envelope sentence first')
  t.same(violation?.spec.slice(1), (citationOf(violation?.rule ?? '') as { words?: readonly string[] }).words, 'then the words the contract kit cites for that check')
  t.equal(lines.length, 1, 'one line logged')
  t.match(lines[0], /^jobboard-kit proxy: violation #2 GET \/api\/v1\/candidates\/list 200: candidates\/list: the first page fits the candidate list schema: .*total.* \(spec: "Every JSON response carries `status` \(integer\)\..*"(; and [0-9]+ more)?\)\n$/, 'the log line names the envelope sentence first')
})

t.test('a next_page on another origin breaks the paging rule', async (t) => {
  const { proxy } = await behind(t, 'b', {
    mutate: (path, body) => (path === '/api/v1/applications/list' ? { ...(body as object), next_page: 'https://elsewhere.example/api/v1/applications/list?page=2' } : body),
  })
  await (await fetch(`${proxy.url}/api/v1/applications/list`, { headers })).arrayBuffer()
  const [violation] = (await violations(proxy)).violations
  t.equal(violation?.rule, 'applications/list: next_page of the first page is an absolute URL on the same origin carrying page')
  t.match(violation?.message, /next_page is on https:\/\/elsewhere\.example/)
  t.ok(violation?.spec.some((words) => words.startsWith('Where a response carries `next_page`, it is a full URL of the next page')))
})

t.test('a second page that repeats the first, total unchanged, breaks the paging rule across answers', async (t) => {
  let first: unknown
  const { proxy } = await behind(t, 'a', {
    mutate: (path, body, url) => {
      if (path !== '/api/v1/applications/list') return body
      if (!url.includes('page=')) first = (body as { data: unknown }).data
      return url.includes('page=2') ? { ...(body as object), data: first } : body
    },
  })
  const page = (await (await fetch(`${proxy.url}/api/v1/applications/list`, { headers })).json()) as { next_page: string }
  await (await fetch(page.next_page, { headers })).arrayBuffer()
  const [violation] = (await violations(proxy)).violations
  t.equal(violation?.rule, "applications/list: the second page's records are not the first page's, but for those pushed on by arrivals")
  t.match(violation?.message, /^the second page repeats 7 records of the first: id /)
  t.equal(violation?.request, 2)
  t.ok(violation?.spec.some((words) => words.startsWith('Where a response carries `next_page`')), 'the paging rule\'s words')
})

t.test('a 429 without Retry-after breaks the wire rule of 429s', async (t) => {
  const { proxy } = await behind(t, 'a', {
    answer: (request, response) => {
      if (!request.url?.startsWith('/api/v1/metrics/list')) return false
      response.writeHead(429, { 'content-type': 'application/json' }).end('{"status":429,"message":"Slow down"}')
      return true
    },
  })
  await (await fetch(`${proxy.url}/api/v1/metrics/list`, { headers })).arrayBuffer()
  const [violation] = (await violations(proxy)).violations
  t.equal(violation?.rule, 'every answer: each 429 carries Retry-after as a number of seconds')
  t.ok(violation?.spec.includes('RFC 9110 §10.2.3 "delay-seconds value"'), "the RFC statement it breaks, whose words the page and the outputs print")
})

for (const style of ['a', 'b'] as const) {
  t.test(`style ${style}, a live board: the second server's legal choices are no violation; fields the spec does not list are observations`, async (t) => {
    // a record arrives before every request: totals grow between the pages, records are pushed on to the next
    const { proxy } = await behind(t, style, {}, 1)
    for (const path of ['/api/v1/job/fields', '/api/v1/candidates/list', '/api/v1/applications/list', '/api/v1/applications/list?page=2', '/api/v1/timesheets/list', '/api/v1/timesheets/list?page=2', '/api/v1/candidates/list?page=2', '/api/v1/marketing/list', '/api/v1/metrics/list']) {
      await (await fetch(`${proxy.url}${path}`, { headers })).arrayBuffer()
    }
    // a refusal: HTTP 412 (a) or HTTP 200 saying 412 (b)
    await (await fetch(`${proxy.url}/api/v1/job/add`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"salary_unit":"Per fortnight"}' })).arrayBuffer()
    const found = await violations(proxy)
    t.same(found.violations, [], 'no violation')
    t.ok(found.observations.some((o) => o.topic === 'drift'), 'a field beyond the spec\'s is drift, an observation')
  })
}
