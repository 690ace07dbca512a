// The spec says what a refused job/add's body holds ("status 412 and message naming the
// invalid field"), not the HTTP status line that carries it: a deployment answering its
// 412 bodies with HTTP 400 or 422 (as many frameworks do) is legal and passes the write
// checks (the line is a profile point, preconditionHttpStatus); one whose body no longer
// says 412 fails.
import t from 'tap'
import { board, changeJson, contract } from './helpers.js'

const WRITES = { only: 'fields,jobs', writes: true, rateLimitWindow: 0 } as const

for (const status of [400, 422] as const) {
  t.test(`a 412 body carried by HTTP ${status} passes the job/add refusal checks`, async (t) => {
    const { url } = await board(t, {}, { rateLimitWindow: 0, preconditionHttpStatus: status })
    const run = await contract({ baseUrl: url, ...WRITES })
    t.equal(run.exitCode, 0, `${run.reason ?? 'exit 0'}; failed: ${run.failed().join('; ') || 'none'}`)
    t.equal(run.check('job/add', 'an invalid salary_unit answers 412 with a message naming salary_unit')?.status, 'pass')
    t.equal(run.check('job/add', 'a job without a required field answers 412')?.status, 'pass')
  })
}

t.test('a refusal whose body says another status fails, whatever its status line', async (t) => {
  const { url } = await board(t, changeJson(/^\/job\/add$/, (b) => (b.status === 412 ? { ...b, status: 400 } : b)), { rateLimitWindow: 0, preconditionHttpStatus: 200 })
  const run = await contract({ baseUrl: url, ...WRITES })
  t.equal(run.exitCode, 1)
  t.match(run.failed(), ['job/add: an invalid salary_unit answers 412 with a message naming salary_unit', 'job/add: a job without a required field answers 412'])
})
