// The journal is bounded twice: 10,000 entries, and 8 Mi characters of URLs; the
// oldest entries go first.
import t from 'tap'
import { Journal, MAX_JOURNAL_URL_CHARS } from '../../src/watch/journal.js'

const entry = (url: string) => ({ method: 'GET', url, status: 200, time: '2026-11-22 09:30:00', user: 'jobboard' })

t.test('the journal keeps the last 10,000 entries', async (t) => {
  const journal = new Journal()
  for (let i = 0; i < 10_050; i++) journal.record(entry(`/api/v1/candidates/details/${i}`))
  const list = journal.list()
  t.equal(list.length, 10_000)
  t.equal(list[0]?.url, '/api/v1/candidates/details/50', 'the oldest went first')
  t.equal(list.at(-1)?.url, '/api/v1/candidates/details/10049')
})

t.test('the journal drops the oldest entries once their URLs pass 8 Mi characters', async (t) => {
  const journal = new Journal()
  const long = (i: number) => `/api/v1/candidates/list?i=${String(i).padStart(5, '0')}&${'q'.repeat(16_000)}`
  for (let i = 0; i < 2_000; i++) journal.record(entry(long(i)))
  const list = journal.list()
  const chars = list.reduce((sum, e) => sum + e.url.length, 0)
  t.ok(chars <= MAX_JOURNAL_URL_CHARS, `${chars} characters held`)
  t.ok(list.length < 2_000, `${list.length} entries kept`)
  t.equal(list.at(-1)?.url, long(1_999), 'the newest is kept')
})
