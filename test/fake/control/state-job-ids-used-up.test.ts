// A board whose job ids are used up (a job holds the largest id, 2147483647): it saves
// and restores in both forms, and job/add is refused with 412 naming `id`, not a 500.
// Found by hostile-compact-state.property.test.ts ("a generated job 2 written with id
// 2147483647": the compact export said nextJobId 2147483648, which no import took).
import t from 'tap'
import type { CompactBoardState } from '../../../src/core/types.js'
import { board, call } from '../../helpers/board.js'
import { control, putState, savedText } from '../../helpers/state.js'
import { jobInputSample } from '../../fixtures/samples.js'

const LAST_ID = 2147483647

/** A board whose next job gets the largest id. */
async function nearlyFull(t: Parameters<typeof board>[0]) {
  const app = await board(t)
  const state = JSON.parse(await savedText(app, 'compact')) as CompactBoardState
  state.store.nextJobId = LAST_ID
  t.equal((await putState(app, JSON.stringify(state))).status, 200, 'a next job id of 2147483647 is taken')
  return app
}

t.test('job/add takes the largest id once, then answers 412 naming id and changes nothing', async (t) => {
  const app = await nearlyFull(t)
  const first = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: jobInputSample() })
  t.equal(first.status, 200)
  t.equal(first.body.id, LAST_ID)
  const before = await savedText(app)
  for (const answer of [await call(app, { method: 'POST', url: '/api/v1/job/add', payload: jobInputSample() }), await control(app, '/__mock/jobs', jobInputSample())]) {
    const status = 'statusCode' in answer ? answer.statusCode : answer.status
    const body = 'statusCode' in answer ? answer.json() : answer.body
    t.equal(status, 412)
    t.same(Object.keys(body).sort(), ['message', 'status'])
    t.match(body.message, /No job id is left/)
  }
  t.equal(await savedText(app), before, 'the refused adds leave the board as it was')
})

for (const form of ['full', 'compact'] as const) {
  t.test(`a board whose job ids are used up restores from its ${form} state`, async (t) => {
    const app = await nearlyFull(t)
    t.equal((await call(app, { method: 'POST', url: '/api/v1/job/add', payload: jobInputSample() })).status, 200)
    const [full, saved] = [await savedText(app), await savedText(app, form)]
    t.match(saved, /"nextJobId":2147483648/, 'the saved next job id is one past the largest')
    const fresh = await board(t, { seed: 777 })
    const answer = await putState(fresh, saved)
    t.equal(answer.status, 200, `restored: ${answer.body.message ?? ''}`)
    t.equal(await savedText(fresh), full, 'the full state is byte-identical')
  })
}
