// Rules tried both ways, in whole kit runs (issue 34): against the fake a `--writes
// --rate-limit-window 0` run makes every request case, every combination of filters and every
// form of the credentials, and exits 0; a deployment broken in each of the five ways the issue
// found getting through (job/add correcting what the spec forbids, repost refusing a request
// without closing_date, since dropped when vacancy is given, a Bearer token let in, timesheets
// served as plain application/octet-stream) exits 1, its failing check quoting the spec; and
// a nested entry broken in the details fails on the last listed record's detail too.
import t, { type Test } from 'tap'
import { REQUEST_CASES } from '../../src/contract/cases.js'
import { citationLines } from '../../src/contract/citations.js'
import { AUTHORIZATION, board, changeAnswer, changeJson, contract, jsonReply, on, type Breakage, type Exchange, type KitRun } from './helpers.js'

const bodyOf = (x: Exchange) => JSON.parse(x.body.toString('utf8') || '{}') as Record<string, unknown>
const withBody = (x: Exchange, body: Record<string, unknown>): Exchange => ({ ...x, body: Buffer.from(JSON.stringify(body)) })

/** A job/add that quietly puts right what the spec forbids before the fake sees it. */
const correcting = (fix: (body: Record<string, unknown>) => Record<string, unknown>): Breakage => ({
  request: (x) => (x.method === 'POST' && on(x, /^\/job\/add$/) ? withBody(x, fix(bodyOf(x))) : x),
})

/**
 * Exit 1, the named checks failing and no other, the summary quoting the first of the spec's
 * words for them (the words the finding contradicts come first), and each of the words among
 * those the failing checks cite (the summary counts the rest; the JUnit file lists them).
 */
function caught(t: Test, run: KitRun, checks: readonly string[], words: readonly string[]): void {
  t.equal(run.exitCode, 1, `exit 1: ${run.reason}`)
  t.same(run.failed().sort(), [...checks].sort(), 'those checks, and no other, fail')
  t.ok(run.output.includes(`spec: "${words[0]}"`), `the summary quotes ${JSON.stringify(words[0])}`)
  const cited = run.report.checks.filter((c) => c.status === 'fail').flatMap((c) => citationLines(`${c.endpoint}: ${c.name}`, undefined, c.failures))
  for (const quote of words) t.ok(cited.some((line) => line.endsWith(`: "${quote}"`)), `the failing checks cite ${JSON.stringify(quote)}`)
}

t.test('against the fake, a --writes run with --rate-limit-window 0 makes every case and exits 0', async (t) => {
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, writes: true, rateLimitWindow: 0, requireComplete: true })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  const cases = run.report.matrix.filter((c) => c.family === 'request-case')
  t.equal(cases.length, REQUEST_CASES.length, 'every request case is a cell')
  t.same(cases.filter((c) => c.status !== 'checked').map((c) => c.id), [], 'every one checked')
  t.equal(run.report.matrix.find((c) => c.id === 'applications/list since+vacancy first')?.status, 'checked', 'since with vacancy is asked')
  for (const form of ['a Bearer token', 'Digest credentials', 'an Authorization of no scheme', 'Basic whose base64 does not decode', 'Basic of the user and password without the colon']) {
    t.equal(run.check('auth', `the credentials sent as ${form} are refused with 401 or 403`)?.status, 'pass', `${form}: refused`)
  }
  t.equal(run.check('auth', 'the credentials sent with the scheme name in lower case (basic) are accepted')?.status, 'pass', 'basic in lower case: accepted (RFC 9110 §11.1)')
  t.equal(run.report.rotation?.made.length, run.report.rotation?.turns, 'one run makes every write turn')
  t.match(run.output, /Write turns: \d+ \(\d+ of them request cases\); this run made \d+; with --rate-limit-window 0 one run makes them all/)
  t.ok(run.report.jobs.created.every((job) => job.deletedBy !== undefined), 'every job a case made was deleted')
  // printed, not asserted: the bench's figure (issue 34 asks a read run under 150 requests, a --writes run under 250)
  const read = await contract({ baseUrl: (await board(t)).url })
  t.comment(`requests: a read run ${read.report.requests.length}, a --writes run ${run.report.requests.length}`)
})

const LATITUDE = 'job_latitude | number (double) | must denote a real point; not required when job_location is taken from the predefined location list'
const ADD_FAILS = 'On failure `status` 412 and `message` naming the invalid field, e.g. a phrase saying the salary unit is invalid.'
const only = { only: 'fields,jobs', writes: true, rateLimitWindow: 0 } as const

t.test('job/add correcting a latitude off the globe is caught', async (t) => {
  const { url } = await board(t, correcting((b) => ({ ...b, ...(typeof b.job_latitude === 'number' ? { job_latitude: Math.max(-90, Math.min(90, b.job_latitude)) } : {}) })), { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, ...only })
  caught(t, run, ['job/add: a job with job_latitude below its range (-90.5) is refused with 412 naming job_latitude', 'job/add: a job with job_latitude above its range (90.5) is refused with 412 naming job_latitude'], [LATITUDE, ADD_FAILS])
  t.match(run.output, /job_latitude 90\.5: answered HTTP 200 .*accepted, though the spec forbids it/)
  t.ok(run.report.jobs.created.every((job) => job.deletedBy !== undefined), 'the jobs it wrongly made are deleted')
})

t.test('job/add correcting an e-mail address that is none is caught', async (t) => {
  const { url } = await board(t, correcting((b) => ({ ...b, ...(typeof b.contact_email === 'string' && !b.contact_email.includes('@') ? { contact_email: 'someone@example.com' } : {}) })), { rateLimitWindow: 0 })
  caught(t, await contract({ baseUrl: url, ...only }), ['job/add: a job with contact_email not in its form ("contract-check.example.com") is refused with 412 naming contact_email'], ['contact_email | string | e-mail address'])
})

t.test('job/add correcting a salary_precise that is not numeric text is caught', async (t) => {
  const { url } = await board(t, correcting((b) => ({ ...b, ...(typeof b.salary_precise === 'string' && !/^[0-9.]+$/.test(b.salary_precise) ? { salary_precise: '0' } : {}) })), { rateLimitWindow: 0 })
  caught(t, await contract({ baseUrl: url, ...only }), ['job/add: a job with salary_precise not in its form ("forty thousand (contract check)") is refused with 412 naming salary_precise'], ['salary_precise | string | numeric text'])
})

t.test('job/add taking a 0/1 field sent as 2 for 1 is caught', async (t) => {
  const flags = ['published', 'featured', 'require_cv', 'close_automatically', 'hot', 'internal']
  const { url } = await board(t, correcting((b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, flags.includes(k) && v === 2 ? 1 : v]))), { rateLimitWindow: 0 })
  caught(
    t,
    await contract({ baseUrl: url, ...only }),
    flags.map((flag) => `job/add: a job with ${flag} not one of its listed values (2) is refused with 412 naming ${flag}`),
    ['published | integer | 1 or 0', 'hot | integer | 1 or 0'],
  )
})

t.test('job/repost refusing a request without closing_date is caught', async (t) => {
  const breakage: Breakage = {
    answer: (x) => (x.method === 'POST' && on(x, /^\/job\/repost$/) && !('closing_date' in bodyOf(x)) ? jsonReply(412, { status: 412, message: 'The closing_date field is required.' }) : undefined),
  }
  const { url } = await board(t, breakage, { rateLimitWindow: 0 })
  // a repost without id is refused anyway (it names id too): only the request the spec allows fails
  const run = await contract({ baseUrl: url, ...only })
  t.equal(run.exitCode, 1, `exit 1: ${run.reason}`)
  t.ok(run.failed().includes('job/repost: a repost without the optional closing_date is accepted with status 200'), 'the repost without closing_date fails')
  t.ok(run.output.includes('spec: "The request may carry `closing_date`."'), 'quoting "The request may carry `closing_date`."')
})

t.test('applications/list dropping since when vacancy is given is caught', async (t) => {
  const breakage: Breakage = {
    request: (x) => {
      const url = new URL(x.url, 'http://board')
      if (!on(x, /^\/applications\/list$/) || !url.searchParams.has('vacancy')) return x
      url.searchParams.delete('since')
      return { ...x, url: `${url.pathname}${url.search}` }
    },
  }
  // the fake behind it limits nothing: the request it sees is the vacancy answer's own URL, which a deployment would not count twice
  const { url } = await board(t, breakage, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, only: 'applications' })
  // the walk with both filters reads that answer too (src/contract/walk.ts)
  caught(t, run, ['applications/list: the answer with since and vacancy holds only records matching each', 'applications/list: each filtered walk holds only records matching its filters on every page'], ['optional query `since` (same format as above), optional `vacancy` (vacancy id, integer), optional `page`'])
  t.match(run.output, /are before since .* since is not applied with vacancy/)
})

t.test('a Bearer token answered as the account is caught', async (t) => {
  const breakage: Breakage = { request: (x) => (/^Bearer /.test(String(x.headers.authorization)) ? { ...x, headers: { ...x.headers, authorization: AUTHORIZATION } } : x) }
  const { url } = await board(t, breakage)
  const run = await contract({ baseUrl: url, only: 'auth' })
  caught(t, run, ['auth: the credentials sent as a Bearer token are refused with 401 or 403'], ['All endpoints use HTTP Basic authentication with the form `<username>:<password>`.', 'No token exchange exists.'])
})

t.test('timesheets served as plain application/octet-stream are caught on both download paths', async (t) => {
  const plain = (reply: { headers: Record<string, string> }) => ({ ...reply, headers: { ...reply.headers, 'content-type': 'application/octet-stream' } }) as never
  const { url } = await board(t, changeAnswer(/^\/candidates\/(timesheet|timesheets\/download)\/\d+$/, plain))
  const run = await contract({ baseUrl: url, only: 'candidates,timesheets' })
  caught(
    t,
    run,
    ['candidates/timesheet/{id}: the listed link answers 200 with an octet-stream Content-Type', 'candidates/timesheets/download/{id}: the listed link answers 200 with an octet-stream Content-Type'],
    ['`Content-Type` (application/octet-stream for application attachments; a timesheet-specific octet-stream type for timesheets)'],
  )
  t.match(run.output, /plain application\/octet-stream is the attachments’ type/)
})

t.test('a nested entry broken in the details is caught on the last listed record too', async (t) => {
  const broken = changeJson(/^\/candidates\/details\/\d+$/, (body) => {
    for (const candidate of body.data as Array<Record<string, unknown>>) candidate.timesheets = [{ filename: 'timesheet.pdf', href: 'not a URL', filesize: 12, created_at: 'yesterday' }]
  })
  const { url } = await board(t, broken)
  const run = await contract({ baseUrl: url, only: 'candidates' })
  t.equal(run.exitCode, 1, `exit 1: ${run.reason}`)
  const last = run.check('candidates/details/{id}', 'the detail of the last listed candidate holds that candidate')
  t.equal(last?.status, 'fail', 'the last listed candidate’s detail fails')
  t.match(last?.failures.join('\n'), /timesheets.*href|href.*timesheets/, 'naming the entry’s field')
  t.equal(run.check('candidates/details/{id}', 'the detail of a listed candidate fits the schema')?.status, 'fail', 'as the first does')
})
