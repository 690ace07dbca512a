// The xl scenario: 1,000,000 candidates and 10,000,000 applications in one process. The
// board draws its relations at start and makes records on demand, so a first page, the
// last page and a detail answer without building ten million records. Runs in CI
// (`npm run test:slow`), not in `npm test`.
import t from 'tap'
import { board, call } from '../helpers/board.js'

t.test('builds the xl board and reads a first page, the last page and a detail', async (t) => {
  const app = await board(t, { scenario: 'xl' })
  const first = await call(app, '/api/v1/applications/list')
  t.equal(first.status, 200)
  t.equal(first.body.total, 10_000_000)
  t.equal(first.body.data.length, 100)
  t.equal(first.body.data[0].id, 10_000_000, 'newest first')
  const lastPage = first.body.total / 100
  const last = await call(app, `/api/v1/applications/list?page=${lastPage}`)
  t.equal(last.status, 200)
  t.equal(last.body.data.at(-1).id, 1, 'the last page ends at the first application')
  const candidates = await call(app, '/api/v1/candidates/list')
  t.equal(candidates.body.total, 1_000_000)
  const id = candidates.body.data[0].id
  const detail = await call(app, `/api/v1/candidates/details/${id}`)
  t.equal(detail.status, 200)
  t.same(detail.body.data, [candidates.body.data[0]], 'the detail is the record the list shows')
  const recent = await call(app, '/api/v1/candidates/list?since=2026-11-01+00:00')
  t.ok(recent.body.total > 0 && recent.body.total < 1_000_000, `since narrows 1,000,000 candidates to ${recent.body.total}`)
})
