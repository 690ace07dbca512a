// The large and xl scenarios (100,000 and 1,000,000 candidates; 1,000,000 and 10,000,000
// applications) in one process. The board draws its relations at start and makes records
// on demand, so a first page, the last page, a detail and the filters answer without
// building every record. Runs in CI (`npm run test:slow`), not in `npm test`.
import t from 'tap'
import { loadScenario } from '../../src/fake/scenario.js'
import { board, call } from '../helpers/board.js'

for (const name of ['large', 'xl']) {
  const { counts, pageSize } = loadScenario(name)

  t.test(`builds the ${name} board and pages it to the end, by since and by vacancy`, async (t) => {
    const app = await board(t, { scenario: name })
    const first = await call(app, '/api/v1/applications/list')
    t.equal(first.status, 200)
    t.equal(first.body.total, counts.applications)
    t.equal(first.body.data.length, pageSize)
    t.equal(first.body.data[0].id, counts.applications, 'newest first')

    const lastPage = Math.ceil(counts.applications / pageSize)
    const last = await call(app, `/api/v1/applications/list?page=${lastPage}`)
    t.equal(last.status, 200)
    t.equal(last.body.next_page, false, 'the last page has no next')
    t.equal(last.body.data.at(-1).id, 1, 'and ends at the first application')
    t.same((await call(app, `/api/v1/applications/list?page=${lastPage + 1}`)).body.data, [], 'past it, nothing')

    const candidates = await call(app, '/api/v1/candidates/list')
    t.equal(candidates.body.total, counts.candidates)
    const detail = await call(app, `/api/v1/candidates/details/${candidates.body.data[0].id}`)
    t.equal(detail.status, 200)
    t.same(detail.body.data, [candidates.body.data[0]], 'the detail is the record the list shows')
    const recent = await call(app, '/api/v1/candidates/list?since=2026-11-01+00:00')
    t.ok(recent.body.total > 0 && recent.body.total < counts.candidates, `since narrows ${counts.candidates} candidates to ${recent.body.total}`)

    const vacancy = first.body.data[0].vacancy.id
    const forJob = await call(app, `/api/v1/applications/list?vacancy=${vacancy}&since=2025-06-01+00:00`)
    t.equal(forJob.status, 200)
    t.ok(forJob.body.data.length > 0, 'the newest application’s job has applications since then')
    t.ok(forJob.body.data.every((a: { vacancy: { id: number }; updated_at: string }) => a.vacancy.id === vacancy && a.updated_at >= '2025-06-01 00:00:00'))
  })
}
