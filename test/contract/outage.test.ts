// Outage is not drift: a gateway's HTML 502, a reset connection or a timeout errors the
// checks that needed the answer (JUnit <error> with the status and the body's start),
// leaves the other checks alone, and makes the run incomplete (exit 3), not failed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import t from 'tap'
import { AUTH_FORMS } from '../../src/contract/request-credentials.js'
import { board, contract, on, steppingClock, type Reply } from './helpers.js'

const GATEWAY_PAGE = `<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center>${'<!-- padding -->'.repeat(40)}</body></html>`
const badGateway: Reply = { status: 502, headers: { 'content-type': 'text/html' }, body: Buffer.from(GATEWAY_PAGE) }

interface Case {
  junit: { testsuites: { '@_failures': string; '@_errors': string; testsuite: Array<{ '@_name': string; '@_time': string; testcase: Array<{ '@_name': string; '@_time': string; error?: { '@_message': string; '#text'?: string } }> }> } }
}

const parse = (path: string) =>
  new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property' }).parse(readFileSync(path, 'utf8')) as Case['junit']

t.test('a gateway answering HTML 502 on one list errors its checks and exits 3, with the 502 body in JUnit', async (t) => {
  let asked = 0
  const { url } = await board(t, {
    answer: (x) => {
      if (!on(x, /^\/timesheets\/list$/)) return undefined
      asked++
      return badGateway
    },
  })
  const junit = join(t.testdir(), 'contract.xml')
  const clock = steppingClock()
  const run = await contract({ baseUrl: url, junit }, { clock })
  t.equal(run.exitCode, 3, 'incomplete, not failed')
  t.match(run.reason, /^incomplete: checked \d+ of \d+ planned .*errored \(the service erred\)/)
  t.same(run.failed(), [], 'no check failed')
  const timesheets = run.report.checks.filter((c) => c.endpoint === 'timesheets/list')
  t.ok(timesheets.length > 0 && timesheets.every((c) => c.status === 'error' || (c.status === 'skip' && c.skip === 'not-applicable')), 'the checks of the list are errored')
  t.match(timesheets[0]?.reason, /answered HTTP 502 \(text\/html\): <html><head><title>502 Bad Gateway/)
  t.ok(asked >= 2, 'the first page was asked again after a pause')
  const auth = run.report.checks.filter((c) => c.endpoint === 'auth')
  // the five refusals of authGroup's list, and one check per other form of the credentials (http.ts AUTH_FORMS)
  t.ok(auth.length === 5 + Object.keys(AUTH_FORMS).length && auth.every((c) => c.status === 'pass'), 'the auth checks are not dragged down')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'candidates/list').every((c) => c.status !== 'error' && c.status !== 'fail'), 'other lists are checked')
  t.match(run.output, /\n\d+ passed, 0 failed, \d+ skipped, [1-9]\d* errored; checked \d+ of \d+ planned\n$/)

  const xml = parse(junit)
  t.equal(xml.testsuites['@_failures'], '0', 'JUnit counts no failure')
  t.ok(Number(xml.testsuites['@_errors']) > 0, `JUnit counts ${xml.testsuites['@_errors']} errors`)
  const suite = xml.testsuites.testsuite.find((s) => s['@_name'] === 'timesheets/list')
  const errored = suite?.testcase.find((c) => c.error !== undefined)
  t.match(errored?.error?.['@_message'], /answered HTTP 502/, 'the <error> names the status')
  t.match(errored?.error?.['#text'], /502 Bad Gateway/, 'and holds the body')
  const excerpt = /\(text\/html\): (.*?)(?: \(asked twice\))?$/.exec(errored?.error?.['@_message'] ?? '')?.[1] ?? ''
  t.equal(excerpt, GATEWAY_PAGE.slice(0, 300), 'its first 300 characters')
  t.match(errored?.error?.['@_message'], /\(asked twice\)$/, 'and says the GET was asked again')
  for (const s of xml.testsuites.testsuite) {
    t.ok(s['@_time'] !== undefined, `suite ${s['@_name']} has a time`)
    for (const c of s.testcase ?? []) if (c['@_time'] === undefined) t.fail(`${c['@_name']} has no time`)
  }
})

t.test('a reset connection errors the checks that needed it and exits 3', async (t) => {
  const { url } = await board(t, { answer: (x) => (on(x, /^\/metrics\/list$/) ? 'reset' : undefined) })
  const run = await contract({ baseUrl: url, only: 'metrics' }, { clock: steppingClock() })
  t.equal(run.exitCode, 3)
  const metrics = run.report.checks.filter((c) => c.endpoint === 'metrics/list')
  t.ok(metrics.length > 0 && metrics.every((c) => c.status === 'error'), 'every metrics check is errored')
  t.match(metrics[0]?.reason, /no answer/)
  t.equal(run.report.summary.failed, 0)
})

t.test('a reset on job/fields, the first request, is an outage too, not an unreachable host', async (t) => {
  const { url } = await board(t, { answer: (x) => (on(x, /^\/job\/fields$/) ? 'reset' : undefined) })
  const run = await contract({ baseUrl: url, only: 'fields,metrics' }, { clock: steppingClock() })
  t.equal(run.exitCode, 3)
  t.ok(run.report.checks.filter((c) => c.endpoint === 'job/fields').every((c) => c.status === 'error'), 'the job/fields checks are errored')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'metrics/list').every((c) => c.status === 'pass'), 'the others are made')
})

t.test('an answer to job/fields that cannot be read (a Content-Length that is no number) is an outage of its checks and a failure of the Content-Length rule, not an unreachable host', async (t) => {
  const { url } = await board(t, { reply: (x, r) => (on(x, /^\/job\/fields$/) ? { ...r, headers: { ...r.headers, 'content-length': `${r.body.length}.0` }, keepLength: true } : r) })
  const run = await contract({ baseUrl: url, only: 'fields,metrics' }, { clock: steppingClock() })
  // RFC 9110 §8.6: Content-Length = 1*DIGIT; the answer broke it, so the run fails (exit 1) rather than only being incomplete
  t.equal(run.exitCode, 1, run.reason ?? 'exit 1')
  t.same(run.failed(), ['every answer: each Content-Length is the number of bytes that came'], 'the Content-Length check fails, and only it')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'job/fields').every((c) => c.status === 'error'), 'the job/fields checks are errored')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'metrics/list').every((c) => c.status === 'pass'), 'the others are made')
})

t.test('a timeout errors the checks that needed it and exits 3, not 2', async (t) => {
  const { url } = await board(t, { answer: (x) => (on(x, /^\/metrics\/list$/) ? 'hang' : undefined) })
  const junit = join(t.testdir(), 'contract.xml')
  const run = await contract({ baseUrl: url, only: 'metrics', requestTimeout: 1, junit }, { clock: steppingClock() })
  t.equal(run.exitCode, 3)
  t.match(run.report.checks.find((c) => c.endpoint === 'metrics/list')?.reason, /no answer within --request-timeout 1 s/)
  const xml = parse(junit)
  t.equal(xml.testsuites['@_failures'], '0')
  t.ok(Number(xml.testsuites['@_errors']) > 0, 'JUnit reports the timeouts as errors')
})

t.test('--min-coverage lets an incomplete run exit 0 when enough was checked', async (t) => {
  const { url } = await board(t, { answer: (x) => (on(x, /^\/candidates\/(resume|document)\/[0-9]+$/) ? badGateway : undefined) })
  const strict = await contract({ baseUrl: url, only: 'fields,candidates' }, { clock: steppingClock() })
  t.equal(strict.exitCode, 3, 'incomplete at the default 100')
  const { checked, planned } = strict.report.summary
  t.ok(checked < planned, `checked ${checked} of ${planned}`)
  const { url: again } = await board(t, { answer: (x) => (on(x, /^\/candidates\/(resume|document)\/[0-9]+$/) ? badGateway : undefined) })
  const lenient = await contract({ baseUrl: again, only: 'fields,candidates', minCoverage: Math.floor((checked * 100) / planned) }, { clock: steppingClock() })
  t.equal(lenient.exitCode, 0, 'enough for --min-coverage')
})
