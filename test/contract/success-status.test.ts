// The spec names the status a success's JSON body carries ("On success the JSON body carries
// `status` 200."), never the HTTP status of a success; HTTP makes every 2xx one (RFC 9110
// §15.3). A deployment answering its successes HTTP 201 passes the kit, reads and writes,
// with an observation of the status it chose; its jobs are deleted as any others (a delete
// so answered leaves nothing pending), and a success answered with no 2xx still fails.
import t from 'tap'
import { board, changeAnswer, contract } from './helpers.js'

const as201 = changeAnswer(/./, (r) => (r.status === 200 ? { ...r, status: 201 } : r))

t.test('a deployment answering every success HTTP 201 passes the read-only run, observed', async (t) => {
  const { url } = await board(t, as201, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'fields,candidates,applications,timesheets,marketing,metrics' })
  t.equal(run.exitCode, 0, `${run.reason ?? 'exit 0'}; failed: ${run.failed().join('; ') || 'none'}`)
  t.ok(run.report.checks.filter((c) => c.status === 'pass').length > 50, 'the checks read the answers: they pass, not skip')
  t.match(run.report.observations.find((o) => o.topic === 'status')?.summary ?? '', /successes answered HTTP 201, not 200/, 'the status it chose is an observation')
})

t.test('a deployment answering every success HTTP 201 passes the --writes run and leaves no job pending', async (t) => {
  const { url } = await board(t, as201, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'fields,jobs', writes: true })
  t.equal(run.exitCode, 0, `${run.reason ?? 'exit 0'}; failed: ${run.failed().join('; ') || 'none'}`)
  t.equal(run.check('job/delete', 'deleting the job answers status 200 with a message')?.status, 'pass', 'the lifecycle deletes its job')
  t.same(run.report.jobs.pending, [], 'no job is left pending: each delete answered 201 with status 200 in its body is a delete')
})

t.test('a success answered with no 2xx still fails', async (t) => {
  const { url } = await board(t, changeAnswer(/^\/metrics\/list$/, (r) => ({ ...r, status: 409 })), { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'metrics' })
  t.equal(run.exitCode, 1)
  t.match(run.check('metrics/list', 'the answer fits the metrics schema')?.failures ?? [], [/answered HTTP 409, not a success \(2xx\)/])
})
