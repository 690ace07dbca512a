// A scenario's metricValues (what a recording read from metrics/list): each pinned label
// lists exactly its months, 0 where a month between them is not given, in place of what
// the board would generate (or, for Jobs created, count from jobs the API cannot list);
// the other labels are what they were. A label counted from the records the lists show,
// or one the board does not list, is refused naming the field.
import t from 'tap'
import { ScenarioError } from '../../../src/fake/scenario.js'
import { board, call, type Json } from '../../helpers/board.js'

const scenario = (metricValues: Json) => ({ scenarioData: { name: 'pinned-metrics', now: '2026-11-22 09:30:00', metricValues } }) as never


t.test('pinned labels list exactly their months and totals; the others are as on a board without pins', async (t) => {
  const pins = { 'Job searches': { '2026-11': 5, '2026-09': 7 }, 'Jobs created': { '2026-10': 2, '2026-08': 0 } }
  const app = await board(t, scenario(pins))
  const metrics = (await call(app, '/api/v1/metrics/list')).body.metrics as Json[]
  const of = (label: string) => metrics.find((m) => m.label === label)
  t.same(of('Job searches'), {
    label: 'Job searches',
    total: 12,
    aggregations: [
      { year: '2026', month: 'November', total: 5 },
      { year: '2026', month: 'October', total: 0 },
      { year: '2026', month: 'September', total: 7 },
    ],
  })
  t.same(of('Jobs created').aggregations.map((a: Json) => [a.month, a.total]), [['November', 0], ['October', 2], ['September', 0], ['August', 0]], 'Jobs created as pinned, from its oldest month to now')
  const plain = await board(t, scenario({}))
  const before = (await call(plain, '/api/v1/metrics/list')).body.metrics as Json[]
  for (const label of ['Client enquiries', 'Candidate interest', 'Registrations', 'Applications', 'Consent opt-ins']) {
    t.same(of(label), before.find((m) => m.label === label), `${label} is as on the board without pins`)
  }
  t.not(JSON.stringify(of('Job searches')), JSON.stringify(before.find((m) => m.label === 'Job searches')), 'the pinned label differs from what was generated')
})

for (const [label, why] of [
  ['Applications', /counted from the records the lists show/],
  ['Page views', /not a metric the board lists/],
] as const) {
  t.test(`a pinned ${label} is refused, naming metricValues.${label}`, async (t) => {
    const error = await board(t, scenario({ [label]: { '2026-11': 1 } })).then(
      () => undefined,
      (e: unknown) => e,
    )
    t.ok(error instanceof ScenarioError, 'a ScenarioError')
    t.equal((error as { field?: string }).field, `metricValues.${label}`)
    t.match((error as Error).message, why)
  })
}

t.test('a month that is not YYYY-MM is refused by the scenario format', async (t) => {
  const error = await board(t, scenario({ 'Job searches': { 'November 2026': 1 } })).then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof ScenarioError, 'a ScenarioError')
  t.match((error as { field?: string }).field, /^metricValues/)
})
