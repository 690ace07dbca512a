// The large scenario (100,000 candidates, 1,000,000 applications) saved in the compact
// form after a few writes: the state is small, whatever the board's size, and restores
// into a fresh fake as the same board. Runs in CI (`npm run test:slow`), not in `npm test`.
import t from 'tap'
import { board, call } from '../helpers/board.js'
import { boardUrls, differences, putState, savedText } from '../helpers/state.js'
import { jobInputSample } from '../fixtures/samples.js'

t.test('a written-to large board saves compact under 1 MiB and restores as the same board', async (t) => {
  const original = await board(t, { scenario: 'large' })
  const control = (path: string, body: object) =>
    original.inject({ method: 'POST', url: `/__mock/${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) })
  await control('clock/advance', { seconds: 86_400 })
  await control('candidates', { name: 'Grace Hopper', resumes: [{}] })
  await control('applications', {})
  await control('timesheets', {})
  await control('marketing', {})
  const job = (await call(original, { method: 'POST', url: '/api/v1/job/add', payload: jobInputSample() })).body
  await call(original, { method: 'POST', url: '/api/v1/job/close', payload: { id: job.id } })
  await call(original, { method: 'POST', url: '/api/v1/job/delete', payload: { id: 7 } })

  const compact = await savedText(original, 'compact')
  t.ok(Buffer.byteLength(compact) < 1_048_576, `the compact state is ${Buffer.byteLength(compact)} bytes`)
  const fresh = await board(t, { scenario: 'empty' })
  t.equal((await putState(fresh, compact)).status, 200, 'a fresh fake takes it')
  t.equal((await call(fresh, '/api/v1/applications/list')).body.total, 1_000_001, 'the restored board is the large one, with the added application')
  const urls = [...(await boardUrls(original)), '/api/v1/applications/list?page=10001', `/jobs/${job.id}`]
  t.same(await differences(original, fresh, urls), [], `${urls.length} answers are byte-identical`)
  t.equal(await savedText(fresh, 'compact'), compact, 'and so is its compact state')
})
