// The evaluator keeps what it read of a list URL for the next request of the same URL,
// and the requests findings name in a ring sorted by journal id: a URL asked again, or
// asked again after many others, is judged as the first time, and a finding shows the
// method, URL and time of each request it names that the ring still holds.
import t from 'tap'
import { formatTimestamp } from '../../../src/core/time.js'
import { VerdictEvaluator } from '../../../src/watch/verdict/evaluator.js'
import { MAX_SHOWN } from '../../../src/watch/verdict/shown-requests.js'
import type { Observed } from '../../../src/watch/verdict/verdict-types.js'

const START = Date.UTC(2026, 10, 22, 9, 30)
const base = { method: 'GET', status: 200, user: 'jobboard', credentials: true }

const fresh = (windowSeconds = 0) => new VerdictEvaluator({ windowSeconds: () => windowSeconds, now: () => START })
const rule = (evaluator: VerdictEvaluator, id: string) => evaluator.verdict().rules.find((r) => r.id === id)

t.test('a malformed since asked again and again is a finding each time, also after a thousand other list URLs', async (t) => {
  const evaluator = fresh()
  let id = 0
  const observe = (entry: Partial<Observed> & { url: string }) => evaluator.observe({ ...base, id: ++id, time: START + id * 1000, ...entry })
  for (let i = 0; i < 3; i++) observe({ url: '/api/v1/timesheets/list?since=yesterday', nextPage: false })
  t.equal(rule(evaluator, 'since-no-gap')?.findings.length, 3, 'three requests, three findings')
  // more distinct list URLs than the evaluator keeps the reading of
  for (let i = 0; i < 2_500; i++) observe({ url: `/api/v1/candidates/list?since=2026-11-22+00:00&n=${i}`, nextPage: false })
  t.equal(rule(evaluator, 'since-no-gap')?.findings.length, 3, 'well-formed since values that leave no gap are no findings')
  observe({ url: '/api/v1/timesheets/list?since=yesterday', nextPage: false })
  const found = rule(evaluator, 'since-no-gap')
  t.equal(found?.findings.length, 4, 'the same malformed since is judged again')
  t.same(found?.findings[3]?.requests, [id])
})

t.test('a since later than the previous walk is a gap however often its URL was asked before', async (t) => {
  const evaluator = fresh()
  const url = '/api/v1/timesheets/list?since=2026-11-22+09:45'
  // asked first with no complete walk before it: no gap to judge
  evaluator.observe({ ...base, id: 1, url, time: START, nextPage: false })
  evaluator.observe({ ...base, id: 2, url: '/api/v1/timesheets/list?since=2026-11-22+00:00', time: START + 60_000, nextPage: false })
  t.equal(rule(evaluator, 'since-no-gap')?.outcome, 'pass')
  // the previous complete walk began at 09:31: since 09:45 skips 14 minutes
  evaluator.observe({ ...base, id: 3, url, time: START + 3_600_000, nextPage: false })
  const found = rule(evaluator, 'since-no-gap')
  t.equal(found?.outcome, 'fail')
  t.match(found?.findings[0]?.message, /since 2026-11-22 09:45, later than 2026-11-22 09:31/)
  t.same(found?.findings[0]?.requests, [2, 3])
})

t.test('a page URL asked again reads as the same page: a walk begun again at page 1 is left at the page it reached', async (t) => {
  const evaluator = fresh()
  const page = (id: number, n: string, nextPage: boolean) => evaluator.observe({ ...base, id, url: `/api/v1/applications/list?page=${n}`, time: START + id, nextPage })
  page(1, '1', true)
  page(2, '2', true)
  page(3, '1', true)
  page(4, '002', true)
  page(5, '3', false)
  const found = rule(evaluator, 'walk-to-last-page')
  t.equal(found?.findings.length, 1)
  t.match(found?.findings[0]?.message, /walked to page 2 and left there/)
  t.same(found?.findings[0]?.requests, [1, 2, 3])
})

t.test('a finding shows the requests it names that the account still holds, after more requests than it keeps', async (t) => {
  const evaluator = fresh()
  let id = 0
  const observe = (url: string, nextPage?: boolean) => evaluator.observe({ ...base, id: ++id, url, time: START + id * 1000, nextPage })
  observe('/api/v1/candidates/resume/1')
  const first = id
  // every page of a walk is held to be shown: more of them than the account keeps
  for (let i = 0; i < MAX_SHOWN / 2; i++) observe('/api/v1/applications/list?page=1', true)
  observe('/api/v1/candidates/resume/2')
  const middle = id
  for (let i = 0; i < MAX_SHOWN / 2 + 100; i++) observe('/api/v1/applications/list?page=1', true)
  observe('/api/v1/candidates/resume/1')
  observe('/api/v1/candidates/resume/2')
  const verdict = evaluator.verdict()
  const findings = verdict.rules.find((r) => r.id === 'download-once')?.findings ?? []
  t.same(
    findings.map((f) => f.requests),
    [
      [first, id - 1],
      [middle, id],
    ],
  )
  t.equal(verdict.requests[first], undefined, 'the first download is past what the account keeps')
  t.same(verdict.requests[middle], { id: middle, method: 'GET', url: '/api/v1/candidates/resume/2', time: formatTimestamp(START + middle * 1000) })
  t.same(verdict.requests[id], { id, method: 'GET', url: '/api/v1/candidates/resume/2', time: formatTimestamp(START + id * 1000) })
  t.same(verdict.requests[id - 1]?.url, '/api/v1/candidates/resume/1')
})

t.test('requests given to the evaluator out of id order are shown too', async (t) => {
  const evaluator = fresh()
  evaluator.observe({ ...base, id: 10, url: '/api/v1/candidates/resume/7', time: START })
  evaluator.observe({ ...base, id: 5, url: '/api/v1/candidates/resume/7?again', time: START + 1000 })
  evaluator.observe({ ...base, id: 3, url: '/api/v1/candidates/resume/8', time: START + 2000 })
  evaluator.observe({ ...base, id: 12, url: '/api/v1/candidates/resume/8', time: START + 3000 })
  const verdict = evaluator.verdict()
  const findings = verdict.rules.find((r) => r.id === 'download-once')?.findings ?? []
  t.same(
    findings.map((f) => f.requests),
    [
      [10, 5],
      [3, 12],
    ],
  )
  t.same(
    [10, 5, 3, 12].map((n) => verdict.requests[n]?.time),
    [START, START + 1000, START + 2000, START + 3000].map(formatTimestamp),
  )
  t.equal(verdict.requests[5]?.url, '/api/v1/candidates/resume/7?again')
})
