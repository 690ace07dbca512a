// The word a marketing record approves with (behaviour.marketingApprovalAction): the spec
// shows only `Revoked` ("The action value for an approval: not shown"), so a board shows
// its own word for an approval — in marketing/list, in the candidates' consent, in what the
// control API adds — counts its opt-ins by it, and opts a candidate in by any consent
// that is not a revocation.
import t from 'tap'
import { allPages, board, call, type Json } from '../../helpers/board.js'
import { control } from '../../helpers/state.js'

const perMonth = (records: Json[]) => {
  const months: Record<string, number> = {}
  for (const r of records) months[r.created_at.slice(0, 7)] = (months[r.created_at.slice(0, 7)] ?? 0) + 1
  return months
}

const metricMonths = (metric: Json) => {
  const names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
  const months: Record<string, number> = {}
  for (const a of metric.aggregations) if (a.total > 0) months[`${a.year}-${String(names.indexOf(a.month) + 1).padStart(2, '0')}`] = a.total
  return months
}

t.test('a board told its approval word shows it in every marketing record and consent, and counts its opt-ins by it', async (t) => {
  const app = await board(t, { marketingApprovalAction: 'Granted' } as never)
  const marketing = (await allPages(app, '/api/v1/marketing/list')).flatMap((page) => page.body.data) as Json[]
  const actions = [...new Set(marketing.map((m) => m.action))].sort()
  t.same(actions, ['Granted', 'Revoked'], 'marketing/list acts with Granted and Revoked only')
  const candidates = (await allPages(app, '/api/v1/candidates/list')).flatMap((page) => page.body.data) as Json[]
  const values = [...new Set(candidates.flatMap((c) => c.consent.map((entry: Json) => entry.value)))].sort()
  t.same(values, ['Granted', 'Revoked'], "the candidates' consent values are the same two")
  const wrong = candidates.filter((c) => c.marketing_opted_in !== (c.consent[0]?.value === 'Granted' ? 1 : 0)).map((c) => c.id)
  t.same(wrong, [], 'a candidate is opted in when its latest consent is Granted')
  t.ok(candidates.some((c) => c.marketing_opted_in === 1), 'some candidates are opted in')
  const metrics = (await call(app, '/api/v1/metrics/list')).body.metrics as Json[]
  const of = (label: string) => metricMonths(metrics.find((m) => m.label === label))
  t.same(of('Consent opt-ins'), perMonth(marketing.filter((m) => m.action === 'Granted')), 'Consent opt-ins counts the Granted records by month')
  t.same(of('Consent opt-outs'), perMonth(marketing.filter((m) => m.action === 'Revoked')), 'Consent opt-outs counts the Revoked ones')

  const optIns = () => (metrics.find((m) => m.label === 'Consent opt-ins') as Json).total as number
  const before = optIns()
  const added = await control(app, '/__mock/marketing', { email: 'new.person@example.org', action: 'Approved' })
  t.equal(added.statusCode, 201)
  t.equal(added.json().data.action, 'Granted', 'an approval added through the control API shows the board\'s word')
  const after = (await call(app, '/api/v1/metrics/list')).body.metrics.find((m: Json) => m.label === 'Consent opt-ins').total
  t.equal(after, before + 1, 'and counts as an opt-in')
})

t.test('a board left alone approves with Approved', async (t) => {
  const app = await board(t)
  const marketing = (await call(app, '/api/v1/marketing/list')).body.data as Json[]
  t.ok(marketing.some((m) => m.action === 'Approved'), 'the first page holds Approved records')
  t.ok(marketing.every((m) => m.action === 'Approved' || m.action === 'Revoked'), 'and no other word')
})
