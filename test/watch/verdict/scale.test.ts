// A verdict over 100,000 journal entries: the journal stays a ring of its documented
// size, the evaluator keeps its findings bounded, and the verdict is computed from its
// state (no timing is asserted: the machine is shared; the bench measures the cost).
import t from 'tap'
import { Journal, JOURNAL_SIZE } from '../../../src/watch/journal.js'
import { MAX_FINDINGS, VerdictEvaluator } from '../../../src/watch/verdict/evaluator.js'

const START = Date.UTC(2026, 10, 22, 9, 30)

t.test('answers a verdict over 100,000 journal entries, with the journal and the findings bounded', async (t) => {
  const evaluator = new VerdictEvaluator({ windowSeconds: () => 900, now: () => START })
  const journal = new Journal(JOURNAL_SIZE, evaluator)
  for (let i = 0; i < 100_000; i++) {
    const time = START + i * 1000
    const kind = i % 4
    if (kind === 0) journal.record({ method: 'GET', url: `/api/v1/applications/list?page=${(i % 40) + 1}`, status: 200, time, user: 'jobboard', nextPage: true }, { credentials: true, opened: true })
    else if (kind === 1) journal.record({ method: 'GET', url: `/api/v1/applications/attachment/${i % 500}`, status: 200, time, user: 'jobboard' }, { credentials: true, opened: true })
    else if (kind === 2) journal.record({ method: 'GET', url: '/api/v1/metrics/list', status: 429, time, user: 'jobboard', retryAfter: 5 }, { credentials: true })
    else journal.record({ method: 'GET', url: `/api/v1/candidates/details/${i}`, status: 200, time, user: '' }, { credentials: false, opened: true })
  }
  t.equal(journal.size, JOURNAL_SIZE, 'the journal keeps its last 10,000 entries')
  t.equal(journal.list().at(-1)?.id, 100_000, 'ids count every entry since the journal was emptied')
  const verdict = evaluator.verdict()
  t.equal(verdict.outcome, 'fail')
  const byId = Object.fromEntries(verdict.rules.map((rule) => [rule.id, rule]))
  for (const id of ['credentials', 'retry-after', 'download-once']) {
    t.equal(byId[id]?.outcome, 'fail', `${id} fails`)
    t.equal(byId[id]?.findings.length, MAX_FINDINGS + 1, `${id} keeps its first ${MAX_FINDINGS} findings and a note counting the rest`)
    t.match(byId[id]?.findings.at(-1)?.message, /more findings of this rule were not kept/)
  }
  t.ok(Object.keys(verdict.requests).length <= 11 * (MAX_FINDINGS + 1) * 2, 'the account names a bounded set of requests')
})

t.test('long URLs and many user names leave the findings short and the credentials judged bounded', async (t) => {
  const evaluator = new VerdictEvaluator({ windowSeconds: () => 900, now: () => START })
  const journal = new Journal(JOURNAL_SIZE, evaluator)
  const long = `/api/v1/metrics/list?pad=${'x'.repeat(16_000)}`
  for (let i = 0; i < 300; i++) journal.record({ method: 'GET', url: long, status: 401, time: START + i, user: `user-${i}` }, { credentials: false })
  const verdict = evaluator.verdict()
  const findings = verdict.rules.find((rule) => rule.id === 'credentials')?.findings ?? []
  t.ok(findings.length > 0)
  t.ok(findings.every((finding) => finding.message.length < 700), 'a finding cuts a long URL short')
  t.equal(evaluator.verdict('user-5').outcome, 'fail', 'an early user is judged apart')
  t.equal(evaluator.verdict('user-250').rules.find((rule) => rule.id === 'credentials')?.outcome, 'not-exercised', 'a user past the cap is judged with the others, as *')
  t.equal(evaluator.verdict('*').outcome, 'fail')
})
