// A file listed twice is one file: a File entry's href is the "URL of the download endpoint
// for that file" and its filename the file's "original file name", so two listings of one
// href (a candidate on a page and in its detail, a timesheet on its list and among its
// candidate's timesheets, an attachment in its list and its detail) give one name and one
// size. A deployment whose second listing says another fails the check of the list that
// holds it; the fake, listing each file alike everywhere, passes it.
import t from 'tap'
import { board, changeJson, contract } from './helpers.js'

const CHECK = 'a file listed twice (one href) has one name and one size'

t.test('files listed alike everywhere pass, in each list that lists them', async (t) => {
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates,applications,timesheets' })
  for (const endpoint of ['candidates/details/{id}', 'timesheets/list', 'applications/details/{id}']) {
    const made = run.check(endpoint, CHECK)
    t.equal(made?.status, 'pass', `${endpoint}: ${made?.passes.join('; ') ?? 'not made'}`)
  }
})

t.test("a candidate's detail naming a file otherwise than the list fails", async (t) => {
  const { url } = await board(t, changeJson(/^\/candidates\/details\/[0-9]+$/, (b) => {
    for (const file of b.data[0].resumes) file.filename = String(file.filename).toUpperCase()
  }), { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates' })
  t.equal(run.exitCode, 1)
  t.match(run.check('candidates/details/{id}', CHECK)?.failures, [/\/candidates\/resume\/[0-9]+ is listed as .*: one file, one original name/])
})

t.test("a timesheet listed with another size than its candidate's entry fails", async (t) => {
  const { url } = await board(t, changeJson(/^\/timesheets\/list$/, (b) => {
    for (const entry of b.data) entry.attachment.filesize += 1
  }), { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates,timesheets' })
  t.equal(run.exitCode, 1)
  t.match(run.check('timesheets/list', CHECK)?.failures, [/\/candidates\/timesheet\/[0-9]+ is listed with sizes .*: one file, one size/])
})

t.test("an application's detail naming its attachment otherwise than the list fails", async (t) => {
  const { url } = await board(t, changeJson(/^\/applications\/details\/[0-9]+$/, (b) => {
    b.data[0].applicant.attachment.filename = `x-${String(b.data[0].applicant.attachment.filename)}`
  }), { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'applications' })
  t.equal(run.exitCode, 1)
  t.match(run.check('applications/details/{id}', CHECK)?.failures, [/\/applications\/attachment\/[0-9]+ is listed as .*: one file, one original name/])
})
