// Journal.window: the entries after an id, read from the ring by arithmetic, right across
// the ring's wrap and after entries dropped for their URLs' size or a clear.
import t from 'tap'
import { Journal } from '../../src/watch/journal.js'

const fill = (journal: Journal, n: number, url = '/api/v1/metrics/list') => {
  for (let i = 0; i < n; i++) journal.record({ method: 'GET', url, status: 200, time: 1_000 * i, user: 'u' })
}

t.test('a window after an id holds the next entries, oldest first, across the wrap of the ring', async (t) => {
  const journal = new Journal(5)
  fill(journal, 12)
  const all = journal.window(0, 100)
  t.same(
    all.entries.map((e) => e.id),
    [8, 9, 10, 11, 12],
    'the five newest, from before the oldest held',
  )
  t.same([all.first, all.newest], [8, 12], 'with the first and newest ids held')
  t.same(
    journal.window(9, 2).entries.map((e) => e.id),
    [10, 11],
    'a window starts after its id and holds at most its limit',
  )
  t.same(journal.window(12, 5).entries, [], 'nothing after the newest')
  t.same(
    journal.window(8, 100).entries.map((e) => e.time),
    [8_000, 9_000, 10_000, 11_000],
    'entries as held, their times in epoch ms',
  )
})

t.test('after a clear the window is empty and the ids start again', async (t) => {
  const journal = new Journal(5)
  fill(journal, 3)
  journal.clear()
  t.same(journal.window(0, 10), { first: 0, newest: 0, entries: [] }, 'empty')
  fill(journal, 2)
  t.same(
    journal.window(0, 10).entries.map((e) => e.id),
    [1, 2],
    'ids from 1 again',
  )
})

t.test('entries dropped for the size of their URLs leave the window to the ones kept', async (t) => {
  const journal = new Journal(100)
  fill(journal, 3, `/api/v1/${'x'.repeat(4 * 1024 * 1024)}`)
  const kept = journal.window(0, 10)
  t.ok(kept.entries.length < 3, `fewer than three kept (${kept.entries.length})`)
  t.same(
    kept.entries.map((e) => e.id),
    Array.from({ length: kept.entries.length }, (_, i) => 4 - kept.entries.length + i),
    'the newest, in order',
  )
})
