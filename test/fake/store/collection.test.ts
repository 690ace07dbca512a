// The store's collection: validates what it writes, keeps its indexes right through
// inserts, replacements and deletions, and answers `since` newest first.
import t from 'tap'
import { rowCollection as make, type Row } from '../../helpers/rows.js'

const row = (id: number, at: string, n = 0): Row => ({ id, at: `2026-01-01 ${at}:00`, n })

t.test('refuses to store a record its schema does not accept, and stays as it was', async (t) => {
  const rows = make()
  rows.insert(1, row(1, '10:00'))
  t.throws(() => rows.insert(2, { id: 2, at: '2026-01-01T10:00:00Z', n: 0 }), /refused to store an invalid record.*at/)
  t.throws(() => rows.replace(1, { ...row(1, '10:00'), extra: true }), /extra/)
  t.equal(rows.size, 1)
  t.same(rows.get(1), row(1, '10:00'))
  t.ok(Object.isFrozen(rows.get(1)), 'stored records are frozen')
})

t.test('answers since newest first, whether or not time order follows id order', async (t) => {
  const rows = make()
  rows.load([row(1, '10:00'), row(2, '11:00'), row(3, '12:00'), row(4, '13:00')].map((r) => [r.id, r] as const))
  t.same(rows.since('2026-01-01 11:00:00').slice(0, 10), [4, 3, 2])
  rows.replace(1, row(1, '14:00'))
  t.same(rows.since('2026-01-01 11:00:00').slice(0, 10), [4, 3, 2, 1], 'a record moved later is found, in id order')
  t.same(rows.since('2026-01-01 13:30:00').slice(0, 10), [1])
  rows.insert(5, row(5, '09:00'))
  t.same(rows.since('2026-01-01 00:00:00').slice(0, 10), [5, 4, 3, 2, 1])
  rows.delete(3)
  t.same(rows.since('2026-01-01 00:00:00').slice(0, 10), [5, 4, 2, 1])
  t.same(rows.all().slice(0, 10), [5, 4, 2, 1])
  t.same(rows.all().slice(1, 3), [4, 2], 'pages are slices')
  t.equal(rows.size, 4)
})

t.test('keeps ids unique', async (t) => {
  const rows = make()
  rows.insert(1, row(1, '10:00'))
  t.throws(() => rows.insert(1, row(1, '11:00')), /taken/)
  t.throws(() => rows.load([[2, row(2, '10:00')]]), /empty collection/)
})
