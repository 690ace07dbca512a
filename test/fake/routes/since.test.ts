// `since`: a subset of the list by the documented field, inclusive, with a space sent
// as + or %20, carried into next_page; a malformed since answers 412 naming it.
import t from 'tap'
import { allPages, board, call } from '../../helpers/board.js'

type Row = { id?: number; created_at: string; updated_at?: string; candidate?: { email: string } }

const everything = async (app: Parameters<typeof allPages>[0], url: string) =>
  (await allPages<Row>(app, url)).flatMap((p) => p.body.data)

const FIELD = { 'candidates/list': 'updated_at', 'applications/list': 'updated_at', 'timesheets/list': 'created_at', 'marketing/list': 'created_at' } as const

for (const [list, field] of Object.entries(FIELD)) {
  t.test(`${list} with since answers the records whose ${field} is at or after it`, async (t) => {
    const app = await board(t)
    const all = await everything(app, `/api/v1/${list}`)
    const times = all.map((r) => r[field as keyof Row] as string).sort()
    const pivot = (times[Math.floor(times.length / 2)] as string).slice(0, 16)
    const since = await everything(app, `/api/v1/${list}?since=${pivot.replace(' ', '+')}`)
    const expected = all.filter((r) => (r[field as keyof Row] as string) >= `${pivot}:00`)
    t.ok(since.length > 0 && since.length < all.length, `a proper subset (${since.length} of ${all.length})`)
    t.same(since, expected, 'exactly those, in the same order')
    t.ok(since.some((r) => (r[field as keyof Row] as string).startsWith(pivot)), 'the minute of since itself is included')
  })
}

t.test('takes a space as + or %20 alike', async (t) => {
  const app = await board(t)
  const plus = await call(app, '/api/v1/applications/list?since=2026-01-01+12:30')
  const encoded = await call(app, '/api/v1/applications/list?since=2026-01-01%2012%3A30')
  t.equal(plus.status, 200)
  t.same(plus.body.data, encoded.body.data)
  t.equal(plus.body.total, encoded.body.total)
})

t.test('answers everything for a since before the board and nothing for one after it', async (t) => {
  const app = await board(t)
  const total = (await call(app, '/api/v1/candidates/list')).body.total
  t.equal((await call(app, '/api/v1/candidates/list?since=2000-01-01+00:00')).body.total, total)
  const later = await call(app, '/api/v1/candidates/list?since=2030-01-01+00:00')
  t.equal(later.body.total, 0)
  t.same(later.body.data, [])
  t.equal(later.body.next_page, false)
})

t.test('combines since with vacancy', async (t) => {
  const app = await board(t)
  const all = await everything(app, '/api/v1/applications/list')
  const vacancy = (all[0] as unknown as { vacancy: { id: number } }).vacancy.id
  const pivot = '2026-01-01 00:00'
  const both = await everything(app, `/api/v1/applications/list?vacancy=${vacancy}&since=${pivot}`)
  const expected = all.filter((a) => (a as unknown as { vacancy: { id: number } }).vacancy.id === vacancy && (a.updated_at as string) >= `${pivot}:00`)
  t.same(both, expected)
  t.same(await everything(app, '/api/v1/applications/list?vacancy=987654'), [], 'an unknown vacancy matches nothing')
})

t.test('compares created_at when told to', async (t) => {
  const app = await board(t, { sinceField: 'created_at' })
  const all = await everything(app, '/api/v1/applications/list')
  const moved = all.find((a) => a.updated_at !== a.created_at)
  t.ok(moved, 'the board has an application updated after it was made')
  if (!moved) return
  const since = (moved.updated_at as string).slice(0, 16)
  const answer = await everything(app, `/api/v1/applications/list?since=${since}`)
  t.same(answer, all.filter((a) => a.created_at >= `${since}:00`))
})

t.test('answers 412 naming since when it is malformed', async (t) => {
  const app = await board(t)
  for (const since of ['2026-11-22', '2026-11-22T09:30', '2026-11-22+09:30:00', '2026-02-30+09:30', '22/11/2026+09:30', 'yesterday', '2026-11-22+9:30']) {
    const answer = await call(app, `/api/v1/timesheets/list?since=${since}`)
    t.equal(answer.status, 412, since)
    t.match(answer.body.message, /query parameter since.*YYYY-MM-DD HH:MM/, `${since}: the message names since and its form`)
  }
  const twice = await call(app, '/api/v1/timesheets/list?since=2026-01-01+00:00&since=2026-02-01+00:00')
  t.equal(twice.status, 412, 'since given twice')
})
