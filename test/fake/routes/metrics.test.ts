// metrics/list: counted from the board, newest month first, months without activity at
// 0, total the sum of the aggregations.
import t from 'tap'
import { METRIC_LABELS, MONTH_NAMES } from '../../../schemas/values.js'
import type { Application, Candidate, MarketingRecord, Timesheet } from '../../../src/core/types.js'
import { allPages, board, call } from '../../helpers/board.js'

type Metric = { label: string; total: number; aggregations: Array<{ year: string; month: string; total: number }> }
const monthKey = (a: { year: string; month: string }) => `${a.year}-${String(MONTH_NAMES.indexOf(a.month as never) + 1).padStart(2, '0')}`

function perMonth(times: string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const time of times) counts.set(time.slice(0, 7), (counts.get(time.slice(0, 7)) ?? 0) + 1)
  return counts
}

t.test('answers every label, newest month first, each total the sum of its months', async (t) => {
  const app = await board(t)
  const answer = await call<{ status: number; metrics: Metric[] }>(app, '/api/v1/metrics/list')
  t.equal(answer.body.status, 200)
  t.same(answer.body.metrics.map((m) => m.label), [...METRIC_LABELS])
  for (const metric of answer.body.metrics) {
    t.equal(metric.total, metric.aggregations.reduce((n, a) => n + a.total, 0), `${metric.label}: total is the sum`)
    const keys = metric.aggregations.map(monthKey)
    t.equal(keys[0], '2026-11', `${metric.label}: starts at the current month`)
    for (let i = 1; i < keys.length; i++) {
      const [y, m] = (keys[i - 1] as string).split('-').map(Number) as [number, number]
      const previous = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
      t.equal(keys[i], previous, `${metric.label}: ${keys[i]} follows ${keys[i - 1]} with no gap`)
    }
  }
  const lengths = new Set(answer.body.metrics.map((m) => m.aggregations.length))
  t.ok(lengths.size > 1, `the metrics cover different numbers of months (${[...lengths].join(', ')})`)
  t.ok(answer.body.metrics.some((m) => m.aggregations.some((a) => a.total === 0)), 'months without activity are there with 0')
})

t.test('counts registrations, applications, timesheets and consent from the records', async (t) => {
  const app = await board(t)
  const metrics = (await call<{ metrics: Metric[] }>(app, '/api/v1/metrics/list')).body.metrics
  const list = async <T>(name: string) => (await allPages<T>(app, `/api/v1/${name}`)).flatMap((p) => p.body.data)
  const expected: Record<string, Map<string, number>> = {
    Registrations: perMonth((await list<Candidate>('candidates/list')).map((c) => c.created_at)),
    Applications: perMonth((await list<Application>('applications/list')).map((a) => a.created_at)),
    Timesheets: perMonth((await list<Timesheet>('timesheets/list')).map((s) => s.created_at)),
    'Consent opt-ins': perMonth((await list<MarketingRecord>('marketing/list')).filter((m) => m.action === 'Approved').map((m) => m.created_at)),
    'Consent opt-outs': perMonth((await list<MarketingRecord>('marketing/list')).filter((m) => m.action === 'Revoked').map((m) => m.created_at)),
  }
  for (const [label, counts] of Object.entries(expected)) {
    const metric = metrics.find((m) => m.label === label) as Metric
    for (const aggregation of metric.aggregations) {
      t.equal(aggregation.total, counts.get(monthKey(aggregation)) ?? 0, `${label} in ${monthKey(aggregation)}`)
    }
    t.equal(metric.total, [...counts.values()].reduce((a, b) => a + b, 0), `${label} in all`)
  }
})

t.test('an empty board answers every metric at zero', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  for (const metric of (await call<{ metrics: Metric[] }>(app, '/api/v1/metrics/list')).body.metrics) {
    t.equal(metric.total, 0, metric.label)
    t.ok(metric.aggregations.length >= 1, `${metric.label} still lists the current month`)
  }
})

t.test('a new month appears with 0 when the clock moves into it', async (t) => {
  const app = await board(t)
  app.board.clock.advance(40 * 86_400)
  const metric = (await call<{ metrics: Metric[] }>(app, '/api/v1/metrics/list')).body.metrics.find((m) => m.label === 'Applications') as Metric
  t.same(metric.aggregations[0], { year: '2027', month: 'January', total: 0 })
  t.equal(monthKey(metric.aggregations[1] as Metric['aggregations'][number]), '2026-12')
})

t.test('the current month follows the clock across month ends, forward and back, once metrics have been asked', async (t) => {
  const app = await board(t)
  const first = async () => {
    const { metrics } = (await call<{ metrics: Metric[] }>(app, '/api/v1/metrics/list')).body
    return monthKey((metrics.find((m) => m.label === 'Applications') as Metric).aggregations[0] as Metric['aggregations'][number])
  }
  const start = app.board.clock.now()
  t.equal(await first(), '2026-11', 'the board starts in November')
  app.board.clock.set(Date.UTC(2026, 10, 30, 23, 59, 59))
  t.equal(await first(), '2026-11', 'the last second of November is November')
  app.board.clock.advance(1)
  t.equal(await first(), '2026-12', 'a second later it is December')
  app.board.clock.advance(-1)
  t.equal(await first(), '2026-11', 'a second back it is November again')
  app.board.clock.set(Date.UTC(2027, 2, 15, 12, 0, 0))
  t.equal(await first(), '2027-03', 'set months ahead, it is that month')
  app.board.clock.set(start)
  t.equal(await first(), '2026-11', 'and back where it started')
})
