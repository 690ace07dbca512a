// The large scenario: 100,000 candidates and 1,000,000 applications in one process,
// paged to the last applications page from its time arrays. It builds in about a second
// now, but runs with the other large boards in CI (`npm run test:slow`), not in `npm test`.
import t from 'tap'
import { board, call } from '../helpers/board.js'

t.test('builds the large board and pages to its last applications page', async (t) => {
  const app = await board(t, { scenario: 'large' })
  const first = await call(app, '/api/v1/applications/list')
  t.equal(first.status, 200)
  t.equal(first.body.total, 1_000_000)
  t.equal(first.body.data.length, 100)
  t.equal(first.body.data[0].id, 1_000_000, 'newest first')
  const lastPage = first.body.total / 100
  const last = await call(app, `/api/v1/applications/list?page=${lastPage}`)
  t.equal(last.body.data.length, 100)
  t.equal(last.body.next_page, false, 'the last page has no next')
  t.equal(last.body.data.at(-1).id, 1, 'and ends at the first application')
  t.same((await call(app, `/api/v1/applications/list?page=${lastPage + 1}`)).body.data, [], 'past it, nothing')
  const candidates = await call(app, '/api/v1/candidates/list?since=2026-11-01+00:00')
  t.ok(candidates.body.total > 0 && candidates.body.total < 100_000, `since narrows 100,000 candidates to ${candidates.body.total}`)
  const vacancy = first.body.data[0].vacancy.id
  const forJob = await call(app, `/api/v1/applications/list?vacancy=${vacancy}&since=2025-06-01+00:00`)
  t.equal(forJob.status, 200)
  t.ok(forJob.body.data.every((a: { vacancy: { id: number }; updated_at: string }) => a.vacancy.id === vacancy && a.updated_at >= '2025-06-01 00:00:00'))
})
