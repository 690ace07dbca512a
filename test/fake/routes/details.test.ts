// Detail endpoints: one record in {status, total: 1, data: [..]}; unknown ids 404 and
// malformed ids 412, both JSON naming what was wrong.
import t from 'tap'
import { board, call } from '../../helpers/board.js'

t.test('candidates/details answers the candidate the list holds', async (t) => {
  const app = await board(t)
  const listed = (await call(app, '/api/v1/candidates/list')).body.data[3]
  const answer = await call(app, `/api/v1/candidates/details/${listed.id}`)
  t.equal(answer.status, 200)
  t.same(answer.body, { status: 200, total: 1, data: [listed] })
})

t.test('applications/details answers the application the list holds, at its href, without the href', async (t) => {
  const app = await board(t)
  const listed = (await call(app, '/api/v1/applications/list')).body.data[5]
  const answer = await call(app, new URL(listed.href).pathname)
  const { href: _, ...withoutHref } = listed
  t.same(answer.body, { status: 200, total: 1, data: [withoutHref] }, 'the spec gives href in list items only')
})

t.test('answers 404 JSON for an id that does not exist', async (t) => {
  const app = await board(t)
  for (const [url, what] of <Array<[string, string]>>[
    ['/api/v1/candidates/details/9999', 'Candidate 9999'],
    ['/api/v1/applications/details/9999', 'Application 9999'],
    ['/api/v1/candidates/resume/9999', 'Resume 9999'],
    ['/api/v1/candidates/document/9999', 'Document 9999'],
    ['/api/v1/candidates/timesheet/9999', 'Timesheet 9999'],
    ['/api/v1/candidates/timesheets/download/9999', 'Timesheet 9999'],
    ['/api/v1/applications/attachment/9999', 'Application attachment 9999'],
  ]) {
    const answer = await call(app, url as string)
    t.equal(answer.status, 404, url)
    t.match(answer.headers['content-type'], /application\/json/, `${url} answers JSON`)
    t.same(answer.body, { status: 404, message: `${what} was not found.` }, `${url} names the record`)
  }
})

t.test('answers 412 naming the id when it is not a positive integer', async (t) => {
  const app = await board(t)
  for (const id of ['abc', '0', '-3', '1.5', '1e3', '99999999999', '%20']) {
    const answer = await call(app, `/api/v1/candidates/details/${id}`)
    t.equal(answer.status, 412, `id ${id}`)
    t.match(answer.body, { status: 412, message: /path parameter id/ }, `id ${id} is named`)
  }
})

t.test('can answer 404 and 412 with HTTP 200 when told to', async (t) => {
  const app = await board(t, { errorHttpStatus: 'ok', preconditionHttpStatus: 200 })
  const missing = await call(app, '/api/v1/candidates/details/9999')
  t.equal(missing.status, 200)
  t.equal(missing.body.status, 404)
  const bad = await call(app, '/api/v1/candidates/details/abc')
  t.equal(bad.status, 200)
  t.equal(bad.body.status, 412)
  t.equal((await app.inject('/api/v1/candidates/details/1')).statusCode, 401, '401 stays 401')
})

t.test("a 412's status line is chosen apart from a 404's", async (t) => {
  const app = await board(t, { errorHttpStatus: 'ok', preconditionHttpStatus: 400 })
  t.equal((await call(app, '/api/v1/candidates/details/9999')).status, 200, 'the 404 comes with HTTP 200')
  const bad = await call(app, '/api/v1/candidates/details/abc')
  t.equal(bad.status, 400, 'the 412 comes with HTTP 400')
  t.equal(bad.body.status, 412, 'its body says 412')
})
