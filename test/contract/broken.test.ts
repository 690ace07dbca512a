// Proof that the kit catches deviations: the fake behind a proxy that breaks one thing
// at a time, and for each the contract run fails on the check named for it, while the
// unbroken fake behind the same proxy passes.
import t from 'tap'
import type { BuildOptions } from '../../src/app.js'
import type { ContractFlags } from '../../src/contract/settings.js'
import { board, changeAnswer, changeJson, contract, dropHeader, json, on, type Breakage } from './helpers.js'

t.test('the unbroken fake behind the proxy passes every check, writes included', async (t) => {
  const { url } = await board(t)
  const run = await contract({ baseUrl: url, writes: true })
  t.same(run.failed(), [], 'no check failed')
  t.equal(run.exitCode, 0)
  t.ok(run.report.summary.passed > 100, `${run.report.summary.passed} checks passed`)
  t.match(run.output, /\n\d+ passed, 0 failed, \d+ skipped\n$/, 'the summary ends with the tally')
})

interface Variant {
  deviation: string
  breakage: Breakage
  flags?: Omit<ContractFlags, 'baseUrl'>
  /** Options of the fake: a request rewritten into one the kit also makes needs no rate limit. */
  fake?: BuildOptions
  endpoint: string
  check: string
}

const VARIANTS: Variant[] = [
  {
    deviation: 'a list answer without status',
    breakage: changeJson(/^\/candidates\/list$/, (b) => void delete b.status),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
  },
  {
    deviation: 'total as a string',
    breakage: changeJson(/^\/applications\/list$/, (b) => void (b.total = String(b.total))),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: 'the first page fits the application list schema',
  },
  {
    deviation: 'a timestamp in ISO 8601',
    breakage: changeJson(/^\/candidates\/list$/, (b) => b.data.slice(0, 1).forEach((c: { created_at: string }) => (c.created_at = `${c.created_at.replace(' ', 'T')}Z`))),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
  },
  {
    deviation: 'applications oldest first',
    breakage: changeJson(/^\/applications\/list$/, (b) => void b.data.reverse()),
    flags: { only: 'applications' },
    endpoint: 'applications/list',
    check: 'applications are newest first (highest id first) within and across pages',
  },
  {
    deviation: 'next_page without page',
    breakage: changeJson(/^\/timesheets\/list$/, (b) => void (typeof b.next_page === 'string' && (b.next_page = b.next_page.replace(/[?&]page=[0-9]+/, '')))),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'next_page of the first page is an absolute URL on the same origin carrying page',
  },
  {
    deviation: 'prev_page null on the first page',
    breakage: changeJson(/^\/timesheets\/list$/, (b) => void (b.prev_page === false && (b.prev_page = null))),
    flags: { only: 'timesheets' },
    endpoint: 'timesheets/list',
    check: 'prev_page is false on the first page',
  },
  {
    deviation: 'a download whose Content-Length is more than the bytes sent',
    breakage: changeAnswer(/^\/candidates\/resume\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-length': String(r.body.length + 7) }, keepLength: true, cut: true })),
    flags: { only: 'candidates' },
    endpoint: 'candidates/resume/{id}',
    check: 'Content-Length equals the bytes received',
  },
  {
    deviation: 'a download whose Content-Length is not the listed filesize',
    breakage: changeAnswer(/^\/candidates\/document\/[0-9]+$/, (r) => ({ ...r, body: r.body.subarray(0, r.body.length - 3) })),
    flags: { only: 'candidates' },
    endpoint: 'candidates/document/{id}',
    check: 'Content-Length equals the listed filesize',
  },
  {
    deviation: 'a download without Content-Disposition',
    breakage: dropHeader('content-disposition', /^\/applications\/attachment\/[0-9]+$/),
    flags: { only: 'applications' },
    endpoint: 'applications/attachment/{id}',
    check: 'Content-Disposition is attachment with the listed filename',
  },
  {
    deviation: 'a 429 without Retry-after',
    breakage: dropHeader('retry-after'),
    flags: { only: 'rate-limit' },
    endpoint: 'rate limit',
    check: 'a repeated request within the window answers 429 with Retry-after in seconds',
  },
  {
    deviation: '200 for a request without credentials',
    breakage: {
      request: (x) => (x.headers.authorization === undefined ? { ...x, headers: { ...x.headers, authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } } : x),
    },
    flags: { only: 'auth' },
    endpoint: 'auth',
    check: 'a request without credentials is refused with 401 or 403',
  },
  {
    deviation: '400 instead of 412 for an invalid job',
    breakage: {
      reply: (x, r) => (on(x, /^\/job\/add$/) && r.status === 412 ? json({ ...r, status: 400 }, (b) => void (b.status = 400)) : r),
    },
    flags: { only: 'fields,jobs', writes: true },
    endpoint: 'job/add',
    check: 'an invalid salary_unit answers 412 with a message naming salary_unit',
  },
  {
    deviation: 'a candidate whose sector_disciplines breaks the <Sector>::<Discipline> form',
    breakage: changeJson(/^\/candidates\/list$/, (b) =>
      b.data.slice(0, 1).forEach((c: { sector_disciplines: string[] }) => (c.sector_disciplines = ['Veterinary Surgeon/Small Animal Vet Surgeon'])),
    ),
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'the first page fits the candidate list schema',
  },
  {
    deviation: 'metrics oldest month first',
    breakage: changeJson(/^\/metrics\/list$/, (b) => b.metrics.forEach((m: { aggregations: unknown[] }) => m.aggregations.reverse())),
    flags: { only: 'metrics' },
    endpoint: 'metrics/list',
    check: 'months are newest first within each metric',
  },
  // more than the issue lists
  {
    deviation: 'a malformed since answered as if absent',
    breakage: { request: (x) => ({ ...x, url: x.url.replace(/[?&]since=not-a-time/, '') }) },
    flags: { only: 'marketing' },
    fake: { rateLimitWindow: 0 },
    endpoint: 'marketing/list',
    check: 'a malformed since is refused, not ignored',
  },
  {
    deviation: 'since ignored',
    breakage: { request: (x) => ({ ...x, url: on(x, /^\/marketing\/list$/) ? x.url.replace(/[?&]since=[^&]*/, '') : x.url }) },
    flags: { only: 'marketing' },
    fake: { rateLimitWindow: 0 },
    endpoint: 'marketing/list',
    check: 'the answer with since leaves out the records before since',
  },
  {
    deviation: '200 with a record for an unknown id',
    breakage: { reply: (x, r) => (on(x, /^\/applications\/details\/2147483647$/) ? { ...r, status: 200 } : r) },
    flags: { only: 'applications' },
    endpoint: 'applications/details/{id}',
    check: 'an unknown id answers a 4xx with a JSON body',
  },
  {
    deviation: 'next_page on another origin',
    breakage: changeJson(/^\/marketing\/list$/, (b) => void (typeof b.next_page === 'string' && (b.next_page = b.next_page.replace(/^http:\/\/[^/]+/, 'http://elsewhere.example')))),
    flags: { only: 'marketing' },
    endpoint: 'marketing/list',
    check: 'next_page of the first page is an absolute URL on the same origin carrying page',
  },
  {
    deviation: 'total that changes from page to page',
    breakage: { reply: (x, r) => (on(x, /^\/candidates\/list$/) && x.url.includes('page=2') ? json(r, (b) => void (b.total += 1)) : r) },
    flags: { only: 'candidates' },
    endpoint: 'candidates/list',
    check: 'total is the same on the first and the second page',
  },
  {
    deviation: 'the public page still shown after close',
    breakage: { reply: (x, r) => (/^\/jobs\/[0-9]+$/.test(x.url) ? { ...r, status: 200 } : r) },
    flags: { only: 'fields,jobs', writes: true },
    endpoint: 'job/close',
    check: 'the public page answers 404 after close',
  },
  {
    deviation: 'a deleted job that can still be closed',
    breakage: {
      reply: (x, r) => (on(x, /^\/job\/close$/) && x.url.includes('after-delete') ? json({ ...r, status: 200 }, () => ({ status: 200, message: 'closed' })) : r),
    },
    flags: { only: 'fields,jobs', writes: true },
    endpoint: 'job/delete',
    check: 'close of the deleted job is refused',
  },
]

for (const variant of VARIANTS) {
  t.test(`fails on "${variant.check}" for ${variant.deviation}`, async (t) => {
    const { url } = await board(t, variant.breakage, variant.fake)
    const run = await contract({ baseUrl: url, ...variant.flags })
    const named = run.check(variant.endpoint, variant.check)
    t.ok(named, 'the check ran')
    t.equal(named?.status, 'fail', `${variant.endpoint}: ${variant.check} failed`)
    t.ok(named?.failures.length, `it says why: ${named?.failures[0]}`)
    t.equal(run.exitCode, 1, 'the run exits 1')
    t.match(run.reason, /checks? failed/)
    t.same(run.report.jobs.notDeleted, [], 'every job the run made is deleted')
  })
}

t.test('a field the schemas do not know is an observation, not a failure', async (t) => {
  // in the lists and the details alike, as a service that added a field would
  const { url } = await board(t, changeJson(/^\/applications\/(list|details\/[0-9]+)$/, (b) => b.data.forEach((a: Record<string, unknown>) => (a.source = 'job board'))))
  const run = await contract({ baseUrl: url, only: 'applications' })
  t.equal(run.exitCode, 0, 'the run passes')
  t.equal(run.check('applications/list', 'the first page fits the application list schema')?.status, 'pass')
  const drift = run.report.observations.find((o) => o.topic === 'drift' && o.endpoint === 'applications/list')
  t.match(drift, { summary: /data\[\]\.source/, details: [{ field: 'data[].source', example: '"job board"' }] }, 'the field is named with a value seen')
  t.match(run.output, /\[drift\] applications\/list: fields the schemas do not know: data\[\]\.source/, 'and shown on screen')
})

t.test("a job/fields answer of a shape the kit cannot read is an observation, and the spec's values are used", async (t) => {
  const { url } = await board(t, changeJson(/^\/job\/fields$/, (b) => ({ status: 200, fields: Object.entries(b.data).map(([name, values]) => ({ name, values })) })))
  const run = await contract({ baseUrl: url, only: 'fields,candidates' })
  t.equal(run.check('job/fields', 'gives every constrained list, each a non-empty list of distinct strings')?.status, 'skip')
  t.ok(run.report.observations.some((o) => o.topic === 'job-fields' && /not understood/.test(o.summary)), 'the shape is observed')
  t.equal(run.check('candidates/list', 'the first page fits the candidate list schema')?.status, 'pass', "candidates are checked against the spec's values")
  t.equal(run.exitCode, 0)
})

t.test('values job/fields gives are bound into the schemas', async (t) => {
  // a board whose industries are not the spec's: candidates carry them, and pass
  const { url } = await board(t, {}, { scenarioData: { name: 'other-industries', fieldValues: { job_industry: ['Equine', 'Equine/Farrier', 'Zoo'] } } })
  const run = await contract({ baseUrl: url, only: 'fields,candidates' })
  t.equal(run.check('candidates/list', 'the first page fits the candidate list schema')?.status, 'pass')
  t.ok(run.report.observations.some((o) => o.topic === 'job-fields' && /job_industry differs from the spec's list: added Equine, Equine\/Farrier, Zoo/.test(o.summary)))
})
