// Writes at the clock's last second (9999-12-31 23:59:59): every kind of record is made,
// a candidate's availability and a repost's dates stop at the clock's end instead of a
// year-10000 date. Found by hostile-compact-state.property.test.ts ("clock.now =
// 9999-12-31 23:59:59", then POST /__mock/candidates answered 500, and so did job/repost).
import t from 'tap'
import { board, call } from '../helpers/board.js'
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

t.test('a job reposted at 9999-12-31 23:59:59 closes and expires at 9999-12-31 23:59', async (t) => {
  const app = await board(t)
  await control(app, '/__mock/clock/set', { now: '9999-12-31 23:59:59' })
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/repost', payload: { id: 4 } })
  t.equal(answer.status, 200, answer.body.message)
  t.match(answer.body.message, /closes on 9999-12-31 23:59 and expires on 9999-12-31 23:59/)
  const saved = JSON.parse(await savedText(app)).store.jobs.find((j: { id: number }) => j.id === 4)
  t.equal(saved.closing_date, '9999-12-31 23:59')
  t.equal(saved.expiry_date, '9999-12-31 23:59')
})
