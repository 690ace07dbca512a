// copy-in-step behind the proxy: a client's copy handed to the proxy's POST
// /__mock/verdict/copy (the fake's route and oracle) is judged against the newest version
// of each record that passed through the proxy to that credential: an older one held is
// stale, one shown and not held is missing, one that never passed through is not judged;
// with nothing to judge the rule is not exercised, never passed. A bad copy is refused as
// the fake refuses it.
import t, { type Test } from 'tap'
import { MAX_PASSED_RECORDS, PassedRecords } from '../../src/proxy/passed-records.js'
import { createProxy, type RunningProxy } from '../../src/proxy/proxy-server.js'
import type { Json } from '../helpers/board.js'
import { startOtherBoard } from '../helpers/other-board.js'

const basic = (user: string) => ({ authorization: `Basic ${Buffer.from(`${user}:p`).toString('base64')}` })

async function proxied(t: Test): Promise<RunningProxy> {
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const proxy = createProxy({ to: board.url, port: 0 })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return proxy
}

/** Walks a list through the proxy to its last page; answers every record. */
async function walk(proxy: RunningProxy, path: string, user = 'u'): Promise<Json[]> {
  const records: Json[] = []
  let url: string | undefined = `${proxy.url}${path}`
  while (url !== undefined) {
    const page = (await (await fetch(url, { headers: basic(user) })).json()) as Json
    records.push(...page.data)
    url = typeof page.next_page === 'string' ? page.next_page : undefined
  }
  return records
}

const handCopy = async (proxy: RunningProxy, body: unknown, query = '') =>
  fetch(`${proxy.url}/__mock/verdict/copy${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const copyRule = async (proxy: RunningProxy) => {
  const verdict = (await (await fetch(`${proxy.url}/__mock/verdict`)).json()) as Json
  return { rule: verdict.rules.find((r: Json) => r.id === 'copy-in-step'), notExercised: verdict.notExercised }
}

t.test('a copy of records that never passed through is not judged: copy-in-step is not exercised, never passed', async (t) => {
  const proxy = await proxied(t)
  const answer = await handCopy(proxy, { candidates: [{ id: 1, updated_at: '2026-01-01 00:00:00' }] })
  t.equal(answer.status, 200)
  t.same(await answer.json(), { status: 200, outcome: 'not-exercised', lists: { candidates: { missing: [], extra: [], stale: [], walkStarted: null } } })
  const { rule, notExercised } = await copyRule(proxy)
  t.equal(rule.outcome, 'not-exercised')
  t.match(notExercised['copy-in-step'], /passed through/, 'the verdict says why')
})

t.test('a copy in step with what passed through passes; a record held older is stale and one shown and not held missing, none extra', async (t) => {
  const proxy = await proxied(t)
  const candidates = await walk(proxy, '/api/v1/candidates/list')
  t.ok(candidates.length > 7, 'a walk of several pages passed through')
  t.equal(((await (await handCopy(proxy, { candidates })).json()) as Json).outcome, 'pass')
  t.equal((await copyRule(proxy)).rule.outcome, 'pass')
  const [first, second, ...rest] = candidates as [Json, Json, ...Json[]]
  const answer = (await (await handCopy(proxy, { candidates: [{ ...second, updated_at: '2000-01-01 00:00:00' }, ...rest, { id: 7 }] })).json()) as Json
  t.equal(answer.outcome, 'fail')
  t.same(answer.lists.candidates.missing, [first.id])
  t.same(answer.lists.candidates.stale, [second.id])
  t.same(answer.lists.candidates.extra, [], 'a proxy knows no whole list: a record it never passed is not extra')
  const { rule } = await copyRule(proxy)
  t.equal(rule.outcome, 'fail')
  t.match(rule.findings.map((f: Json) => f.message).join('\n'), /candidates: 1 stale against what passed through the proxy as it stood at/)
})

t.test("a credential's copy is judged against what passed to that credential", async (t) => {
  const proxy = await proxied(t)
  const candidates = await walk(proxy, '/api/v1/candidates/list')
  const other = (await (await handCopy(proxy, { candidates: [] }, '?user=someone-else')).json()) as Json
  t.equal(other.outcome, 'not-exercised', 'nothing passed to someone-else')
  const own = (await (await handCopy(proxy, { candidates: candidates.slice(1) }, '?user=u')).json()) as Json
  t.same(own.lists.candidates.missing, [candidates[0]?.id])
})

t.test('emptying the journal forgets what passed through', async (t) => {
  const proxy = await proxied(t)
  const candidates = await walk(proxy, '/api/v1/candidates/list')
  t.equal((await fetch(`${proxy.url}/__mock/requests`, { method: 'DELETE' })).status, 200)
  t.equal(((await (await handCopy(proxy, { candidates: candidates.slice(1) })).json()) as Json).outcome, 'not-exercised')
})

t.test('a bad copy gets the 412 naming the field that the fake answers it', async (t) => {
  const proxy = await proxied(t)
  const answer = await handCopy(proxy, { jobs: [] })
  t.equal(answer.status, 412)
  t.same(await answer.json(), { status: 412, message: 'The field jobs is not a known field.' })
  const badUser = await handCopy(proxy, { candidates: [] }, `?user=${'x'.repeat(300)}`)
  t.equal(badUser.status, 412)
  t.match(((await badUser.json()) as Json).message, /user/)
  const notJson = await fetch(`${proxy.url}/__mock/verdict/copy`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"candidates": [' })
  t.equal(notJson.status, 400, 'a body that is no JSON: a 4xx, never a 5xx')
  t.equal(((await notJson.json()) as Json).status, 400)
})

t.test('records forgotten past the bound are said in what the oracle judges against, and a clear starts again', async (t) => {
  const passed = new PassedRecords(() => 0)
  t.equal(passed.name, 'what passed through the proxy', 'nothing forgotten: nothing said')
  const page = (from: number, count: number) => ({ data: Array.from({ length: count }, (_, i) => ({ id: from + i, created_at: '2026-01-01 00:00:00' })) })
  passed.seen('candidates', 'u', page(1, MAX_PASSED_RECORDS))
  t.equal(passed.name, 'what passed through the proxy', 'at the bound: nothing forgotten')
  passed.seen('candidates', 'u', page(MAX_PASSED_RECORDS + 1, 1))
  const forgotten = MAX_PASSED_RECORDS / 10
  t.match(passed.name, new RegExp(`\\(${forgotten} of the oldest forgotten past its bound of ${MAX_PASSED_RECORDS} records a list: not judged\\)`))
  const kept = [...passed.records('candidates', 'u')].map(([key]) => key)
  t.equal(kept.length, MAX_PASSED_RECORDS + 1 - forgotten, 'the oldest tenth went')
  t.notOk(kept.includes(1), 'the first record passed is among them')
  passed.clear()
  t.equal(passed.name, 'what passed through the proxy', 'a clear forgets the count too')
})

t.test('a record passing again keeps its newest version: the same strings, a newer time, an older one, a time that does not read', async (t) => {
  const passed = new PassedRecords(() => 0)
  const held = () => Object.fromEntries([...passed.records('candidates', 'u')].map(([key, version]) => [key, { created_at: version.created_at, updated_at: version.updated_at }]))
  const seen = (...data: unknown[]) => passed.seen('candidates', 'u', { data })
  seen({ id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-02 00:00:00' }, { id: 2, created_at: '2026-01-01 00:00:00' }, { id: 3, created_at: '2026-01-01 00:00:00', updated_at: null })
  const first = held()
  t.same(first, {
    1: { created_at: '2026-01-01 00:00:00', updated_at: '2026-01-02 00:00:00' },
    2: { created_at: '2026-01-01 00:00:00', updated_at: undefined },
    3: { created_at: '2026-01-01 00:00:00', updated_at: undefined },
  })
  seen({ id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-02 00:00:00' }, { id: 2, created_at: '2026-01-01 00:00:00' }, { id: 3, created_at: '2026-01-01 00:00:00', updated_at: null })
  t.same(held(), first, 'the same strings again: kept as they were')
  seen({ id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 12:00:00' }, { id: 2, created_at: '2026-01-01 00:00:00', updated_at: 'x' })
  t.same(held(), first, 'an older updated_at, or one that does not read as a time: the newer version stays')
  seen({ id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-03 00:00:00' }, { id: 2, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-05 00:00:00' })
  t.same(held(), { ...first, 1: { created_at: '2026-01-01 00:00:00', updated_at: '2026-01-03 00:00:00' }, 2: { created_at: '2026-01-01 00:00:00', updated_at: '2026-01-05 00:00:00' } }, 'a newer one replaces it')
  seen({ id: 4, created_at: 'x' }, { id: 'five', created_at: '2026-01-01 00:00:00' }, { created_at: '2026-01-01 00:00:00' }, null, 7)
  t.same(Object.keys(held()), ['1', '2', '3'], 'what cannot be keyed or dated is left out')
  passed.seen('candidates', 'v', { data: [{ id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-02 00:00:00' }] })
  t.same([...passed.records('candidates', 'v')].map(([key, version]) => [key, version.updated_at]), [[1, '2026-01-02 00:00:00']], "another credential's record is its own")
})
