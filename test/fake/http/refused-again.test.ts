// A body refused again: the fake keeps the refusal of a body text it refused last (src/fake/http/body.ts),
// so the same text sent again is answered as the first time, and judged anew once the values it is held to change.
import t from 'tap'
import { jobInputSample } from '../../fixtures/samples.js'
import { board, call } from '../../helpers/board.js'
import { control } from '../../helpers/state.js'

t.test('the same invalid body sent again is answered with the same bytes each time, between other refusals', async (t) => {
  const app = await board(t)
  const texts = [
    JSON.stringify({ ...jobInputSample(), job_type: 'Full time, mostly' }),
    JSON.stringify({ ...jobInputSample(), job_title: '', contact_email: 'nope' }),
  ]
  const answers: string[][] = [[], []]
  for (let round = 0; round < 3; round++) {
    for (const [i, text] of texts.entries()) {
      const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', headers: { 'content-type': 'application/json' }, payload: text })
      t.equal(answer.status, 412, answer.raw.body)
      answers[i]?.push(answer.raw.body)
    }
  }
  for (const sent of answers) t.same(new Set(sent).size, 1, 'every answer to one text is the first one')
  t.match(answers[0]?.[0], /job_type/)
  t.match(answers[1]?.[0], /job_title.*Also invalid: contact_email/)
  const journal = (await app.inject('/__mock/requests')).json()
  t.equal(journal.total, 6, 'each request is journalled')
})

t.test('a body refused for a value not listed is taken once the value is added, and refused again once it is retired', async (t) => {
  const app = await board(t)
  const payload = { ...jobInputSample(), job_type: 'Weekends' }
  t.equal((await call(app, { method: 'POST', url: '/api/v1/job/add', payload })).status, 412)
  t.equal((await call(app, { method: 'POST', url: '/api/v1/job/add', payload })).status, 412, 'refused again')
  t.equal((await control(app, '/__mock/job-fields', { add: { job_type: ['Weekends'] } })).statusCode, 200)
  const taken = await call(app, { method: 'POST', url: '/api/v1/job/add', payload })
  t.equal(taken.status, 200, taken.body.message)
  t.equal((await control(app, '/__mock/job-fields', { retire: { job_type: ['Weekends'] } })).statusCode, 200)
  const refused = await call(app, { method: 'POST', url: '/api/v1/job/add', payload })
  t.equal(refused.status, 412)
  t.match(refused.body.message, /job_type/)
})
