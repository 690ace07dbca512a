// An application's updated_at, as a scenario or the control API gives it: served as given
// (a client's `since` may read it), listed by it when the board's since reads updated_at,
// and never before created_at (a ScenarioError naming the field; 412 from the control API).
import t from 'tap'
import { ScenarioError } from '../../../src/fake/scenario.js'
import { board, call, type Json } from '../../helpers/board.js'
import { control } from '../../helpers/state.js'

const scenario = (applications: Json[], behaviour: Json = {}) =>
  ({
    scenarioData: { name: 'updated', counts: { jobs: 3, candidates: 4, applications: 6, timesheets: 0, resumes: 0, documents: 0, marketing: 0 }, records: { applications }, behaviour },
  }) as never

t.test('an application pinned with updated_at after created_at is served with both, and found by a since between them', async (t) => {
  const pinned = { id: 3, candidate_id: 2, job_id: 1, created_at: '2025-03-01 10:00:00', updated_at: '2026-10-05 08:30:00' }
  const app = await board(t, scenario([pinned, { id: 4, candidate_id: 2, job_id: 1, created_at: '2025-03-02 10:00:00' }], { sinceField: 'updated_at' }))
  const detail = (await call(app, '/api/v1/applications/details/3')).body.data[0]
  t.same([detail.created_at, detail.updated_at], [pinned.created_at, pinned.updated_at], 'details: created_at and updated_at as pinned')
  const other = (await call(app, '/api/v1/applications/details/4')).body.data[0]
  t.equal(other.updated_at, other.created_at, 'one pinned without updated_at never changed')
  const since = (await call(app, '/api/v1/applications/list?since=2026-10-01+00:00')).body.data.map((a: Json) => a.id)
  t.ok(since.includes(3), 'a since after its creation and before its change lists it')
  t.notOk(since.includes(4), 'and not the one that never changed')
})

t.test('a pinned updated_at before created_at is refused, naming the field', async (t) => {
  const bad = { id: 2, candidate_id: 1, job_id: 1, created_at: '2025-03-01 10:00:00', updated_at: '2025-02-01 10:00:00' }
  const error = await board(t, scenario([{ id: 1, candidate_id: 1, job_id: 1 }, bad])).then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof ScenarioError, 'a ScenarioError')
  t.equal((error as { field?: string }).field, 'records.applications[1].updated_at', 'naming records.applications[1].updated_at')
  t.match((error as Error).message, /updated \(2025-02-01 10:00:00\) before it was created/, 'saying why')
})

t.test('with no created_at, a pinned updated_at is the latest the application was created', async (t) => {
  const app = await board(t, scenario([{ id: 9, candidate_id: 1, job_id: 1, updated_at: '2024-12-01 00:00:00' }]))
  const detail = (await call(app, '/api/v1/applications/details/9')).body.data[0]
  t.equal(detail.updated_at, '2024-12-01 00:00:00', 'updated_at as pinned')
  t.ok(detail.created_at <= detail.updated_at, `created ${detail.created_at}, not after`)
})

t.test('the control API adds an application with its updated_at, and refuses one before created_at', async (t) => {
  const app = await board(t, scenario([]))
  const added = await control(app, '/__mock/applications', { candidate_id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2026-02-01 00:00:00' })
  t.equal(added.statusCode, 201)
  t.equal(added.json().data.updated_at, '2026-02-01 00:00:00', 'kept')
  const refused = await control(app, '/__mock/applications', { candidate_id: 1, created_at: '2026-01-01 00:00:00', updated_at: '2025-12-01 00:00:00' })
  t.equal(refused.statusCode, 412)
  t.match(refused.json().message, /updated_at/, 'naming updated_at')
})
