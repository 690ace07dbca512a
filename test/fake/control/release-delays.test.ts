// A request held by a delay fault is released when the faults are cleared, the board is
// reset or restored: it then answers at once, as it would have without the fault.
import t from 'tap'
import { AUTH, board } from '../../helpers/board.js'

const TEN_MINUTES = 600_000

for (const [how, release] of [
  ['faults.clear()', (app: Awaited<ReturnType<typeof board>>) => app.controller.clearFaults()],
  ['DELETE /__mock/faults', (app: Awaited<ReturnType<typeof board>>) => app.inject({ method: 'DELETE', url: '/__mock/faults' })],
  ['a reset', (app: Awaited<ReturnType<typeof board>>) => app.controller.reset()],
  ['a restore', (app: Awaited<ReturnType<typeof board>>) => app.controller.importState(app.controller.exportState({ credentials: true }))],
] as const) {
  t.test(`${how} releases a request held by a delay fault`, async (t) => {
    const app = await board(t)
    app.controller.addFault({ path: '/api/v1/metrics/list', delayMs: TEN_MINUTES })
    let settled = false
    const held = app.inject({ url: '/api/v1/metrics/list', headers: AUTH }).finally(() => {
      settled = true
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    t.notOk(settled, 'the request is held')
    await release(app)
    const answer = await held
    t.equal(answer.statusCode, 200, 'it answers normally')
  })
}
