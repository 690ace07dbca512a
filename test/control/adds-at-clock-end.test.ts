// Adds at the clock's last second (9999-12-31 23:59:59): every kind of record is made,
// and a candidate's availability stops at the clock's end instead of a year-10000 date.
// Found by hostile-compact-state.property.test.ts ("clock.now = 9999-12-31 23:59:59",
// then POST /__mock/candidates answered 500).
import t from 'tap'
import { board } from '../helpers/board.js'
import { control, savedText } from '../helpers/state.js'
import { jobInputSample } from '../fixtures/samples.js'

for (const scenario of ['default', 'edge-cases']) {
  t.test(`on the ${scenario} board, adds of every kind at 9999-12-31 23:59:59 succeed`, async (t) => {
    const app = await board(t, { scenario })
    t.equal((await control(app, '/__mock/clock/set', { now: '9999-12-31 23:59:59' })).statusCode, 200)
    // several candidates: each draws its own availability
    for (let i = 0; i < 6; i++) {
      const answer = await control(app, '/__mock/candidates', { resumes: [{}], documents: [{}] })
      t.equal(answer.statusCode, 201, answer.body.slice(0, 200))
      const made = answer.json().data
      t.ok(made.available_from <= '9999-12-31', `available from ${made.available_from}`)
    }
    for (const [url, body] of [['/__mock/applications', {}], ['/__mock/timesheets', {}], ['/__mock/marketing', {}], ['/__mock/jobs', jobInputSample()]] as const) {
      const answer = await control(app, url, body)
      t.ok(answer.statusCode < 300, `${url}: ${answer.statusCode} ${answer.body.slice(0, 200)}`)
    }
    t.ok((await savedText(app, 'compact')).length > 0, 'the board still saves')
  })
}
