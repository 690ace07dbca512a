// The spec says "month (month name)": a deployment that writes `Nov` for `November`
// (the fake with monthNames "short") conforms. The metrics checks read either style;
// the style is an observation, and a profile point, never a failure without a profile.
import t from 'tap'
import { board, contract } from './helpers.js'

t.test('a deployment writing short month names passes, the style observed', async (t) => {
  const { url } = await board(t, {}, { monthNames: 'short', rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, only: 'candidates,metrics', rateLimitWindow: 0 })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  for (const name of ['months are newest first within each metric', 'no month is missing between the first and the last of a metric', 'the answer fits the metrics schema']) {
    t.equal(run.check('metrics/list', name)?.status, 'pass', name)
  }
  const styles = run.report.observations.filter((o) => o.topic === 'month-style').map((o) => o.summary)
  t.ok(styles.some((s) => /^metrics\[\]\.aggregations\[\]\.month is written "[A-Z][a-z]{2}" \(the fake writes [A-Z][a-z]+\)$/.test(s)), 'the metrics month style is observed')
  t.ok(styles.some((s) => /^data\[\]\.available_from_month is written "[A-Z][a-z]{2}"/.test(s)), "the candidates' month style is observed")
})

t.test('a deployment writing long month names gives no month-style observation', async (t) => {
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, only: 'candidates,metrics', rateLimitWindow: 0 })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.notOk(run.report.observations.some((o) => o.topic === 'month-style'))
})

t.test('the month style is found at any depth an answer nests a month, named by its path, once per field', async (t) => {
  const { monthStyles } = await import('../../src/contract/validate.js')
  const summaries = (data: unknown) => monthStyles(data).map((choice) => choice.summary)
  t.same(summaries({ month: 'Nov' }), ['month is written "Nov" (the fake writes November)'])
  t.same(
    summaries({ data: [{ month: 'nov.' }, { month: 'Sept' }, { candidate: { available_from_month: 'Feb' } }, { month: 'November' }] }),
    ['data[].month is written "nov." (the fake writes November)', 'data[].candidate.available_from_month is written "Feb" (the fake writes February)'],
    'one choice per field, the first value met; a long name is none',
  )
  t.same(summaries({ metrics: [[{ aggregations: [{ month: 'Jan' }] }]] }), ['metrics[][].aggregations[].month is written "Jan" (the fake writes January)'], 'arrays in arrays')
  t.same(summaries({ a: { b: { c: { d: { e: { month: 'Mar' } } } } } }), ['a.b.c.d.e.month is written "Mar" (the fake writes March)'], 'six objects deep')
  t.same(summaries({ a: { b: { c: { d: { e: { f: { g: { month: 'Mar' } } } } } } } }), [], 'not past that')
  t.same(summaries({ month: 'Smarch', available_from_month: 3, other: 'Nov', list: ['Nov'] }), [], 'no month name, no string, another key, a bare list: nothing')
  t.same(summaries(null), [])
})
