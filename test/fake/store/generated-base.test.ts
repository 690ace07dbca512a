// A collection over a generated base: records made on demand, listed from typed arrays,
// with written records laid over them and deletes kept as tombstones.
import t from 'tap'
import type { BaseRecords } from '../../../src/fake/store/collection.js'
import { formatTimestamp, parseTime } from '../../../src/core/time.js'
import { type Row, rowCollection } from '../../helpers/rows.js'

const hour = (h: number) => parseTime(`2026-01-01 ${String(h).padStart(2, '0')}:00:00`)

/** Rows 1..6 made at 01:00..06:00; row 2 changed at 09:00, so it is listed by that time. */
function collection(made: number[] = []) {
  const rows = rowCollection()
  const late = { ids: Uint32Array.of(2), ms: Float64Array.of(hour(9)) }
  const base: BaseRecords<Row> = {
    count: 6,
    orderMs: Float64Array.from([1, 2, 3, 4, 5, 6], hour),
    late,
    make: (id) => {
      made.push(id)
      return { id, at: formatTimestamp(id === 2 ? hour(9) : hour(id)), n: 0 }
    },
  }
  rows.setBase(base)
  return rows
}

t.test('makes a base record when it is asked for, once, and hands it out frozen', async (t) => {
  const made: number[] = []
  const rows = collection(made)
  t.same(made, [], 'nothing is made at build')
  t.equal(rows.size, 6)
  t.same(rows.get(3), { id: 3, at: '2026-01-01 03:00:00', n: 0 })
  rows.get(3)
  t.same(made, [3], 'made once')
  t.ok(Object.isFrozen(rows.get(3)))
  t.equal(rows.get(7), undefined)
  t.equal(rows.get(0), undefined)
})

t.test('answers since from the times, a record changed later among them, newest id first', async (t) => {
  const rows = collection()
  t.same(rows.since('2026-01-01 05:00:00').slice(0, 10), [6, 5, 2], 'row 2 was changed at 09:00')
  t.same(rows.since('2026-01-01 10:00:00').slice(0, 10), [])
  t.same(rows.all().slice(0, 10), [6, 5, 4, 3, 2, 1])
  t.same(rows.all().slice(2, 4), [4, 3], 'pages are slices')
})

t.test('lays written records over the base: a replaced row moves in time, an added one joins, a deleted one goes', async (t) => {
  const rows = collection()
  rows.replace(4, { id: 4, at: '2026-01-01 12:00:00', n: 1 })
  t.same(rows.get(4), { id: 4, at: '2026-01-01 12:00:00', n: 1 })
  t.same(rows.since('2026-01-01 05:00:00').slice(0, 10), [6, 5, 4, 2])
  rows.insert(9, { id: 9, at: '2026-01-01 00:30:00', n: 2 })
  t.same(rows.all().slice(0, 10), [9, 6, 5, 4, 3, 2, 1])
  t.equal(rows.lastId, 9)
  t.ok(rows.delete(5))
  t.notOk(rows.has(5))
  t.same(rows.since('2026-01-01 00:00:00').slice(0, 10), [9, 6, 4, 3, 2, 1])
  t.equal(rows.size, 6)
  t.same([...rows.values()].map((r) => r.id), [1, 2, 3, 4, 6, 9], 'values in id order, written ones included')
  t.throws(() => rows.insert(3, { id: 3, at: '2026-01-01 00:00:00', n: 0 }), /taken/)
  t.throws(() => rows.replace(4, { id: 4, at: 'not a time', n: 1 }), /refused to store an invalid record/)
  t.equal(rows.get(4)?.n, 1, 'a refused write leaves the record as it was')
})

t.test('a base whose times are made on demand answers since through its own hooks, its late records read one at a time', async (t) => {
  const rows = rowCollection()
  const asked: string[] = []
  // rows 1..6 at 01:00..06:00 as a function; row 2 changed at 09:00, known to the hooks alone
  const base: BaseRecords<Row> = {
    count: 6,
    orderMs: { at: (i) => hour(i + 1) },
    monotone: true,
    lateMs: (id) => (id === 2 ? hour(9) : undefined),
    lateSince: (fromMs, upTo) => {
      asked.push(`${formatTimestamp(fromMs)} up to ${upTo}`)
      return Uint32Array.from([2].filter((id) => id <= upTo && hour(9) >= fromMs))
    },
    make: (id) => ({ id, at: formatTimestamp(id === 2 ? hour(9) : hour(id)), n: 0 }),
  }
  rows.setBase(base)
  t.same(rows.since('2026-01-01 05:00:00').slice(0, 10), [6, 5, 2], 'row 2 was changed at 09:00')
  t.same(asked, ['2026-01-01 05:00:00 up to 4'], 'the hook is asked about the rows made before since')
  t.same(rows.since('2026-01-01 10:00:00').slice(0, 10), [])
  t.equal(rows.sinceMsOf(2), hour(9), "one row's since time from lateMs")
  rows.replace(4, { id: 4, at: '2026-01-01 12:00:00', n: 1 })
  t.same(rows.since('2026-01-01 05:00:00').slice(0, 10), [6, 5, 4, 2], 'written rows laid over it')
})
