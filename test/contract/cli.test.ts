// `jobboard-kit contract` as CI runs it: the real CLI, over a real socket, against
// `jobboard-kit serve`; its JUnit file and its report; its exit codes (0 complete and
// conforming, 1 failed, 2 usage or connection, 3 incomplete) and one-line reasons; every
// write check in one run against a serve without a rate limit; and SIGTERM in the middle
// of a run that writes.
import { REQUEST_CASES } from '../../src/contract/cases.js'
import { AUTH_FORMS } from '../../src/contract/request-credentials.js'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import t from 'tap'
import type { ContractReport } from '../../src/contract/report.js'
import { resolveSettings, type ContractFlags } from '../../src/contract/settings.js'
import { runCli, runToEnd, serve } from '../helpers/cli.js'
import { board, on } from './helpers.js'

const ENV = { JOBBOARD_USERNAME: 'jobboard', JOBBOARD_PASSWORD: 'jobboard' }
const TALLY = /\n(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) errored; checked (\d+) of (\d+) planned\n$/

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? ''

t.test('a read-only run against jobboard-kit serve exits 0, with its settings from the environment', async (t) => {
  const { url } = await serve(t, ['--clock', 'virtual'])
  const dir = t.testdir()
  const [junit, report] = [join(dir, 'contract.xml'), join(dir, 'report.json')]
  const run = await runToEnd(['contract', '--junit', junit, '--report', report], { ...ENV, JOBBOARD_BASE_URL: url })
  t.equal(run.code, 0, run.stderr)
  t.equal(run.stderr, '', 'nothing to say on stderr')
  const tally = TALLY.exec(run.stdout)
  t.ok(tally, `the summary ends with the tally: ${lastLine(run.stdout)}`)
  t.equal(tally?.[2], '0', 'no check failed')
  t.equal(tally?.[4], '0', 'none errored')
  t.equal(tally?.[5], tally?.[6], `checked ${tally?.[5]} of ${tally?.[6]} planned`)
  t.match(run.stdout, /Requests: \d+ made/, 'it counts its requests')
  t.match(run.stdout, new RegExp(`GET  200 ${url}/api/v1/job/fields\\n`), 'and lists their URLs')

  t.test('the JUnit file is valid XML listing every check', async (t) => {
    const xml = readFileSync(junit, 'utf8')
    t.equal(XMLValidator.validate(xml), true, 'well-formed')
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml) as {
      testsuites: {
        '@_tests': string
        '@_failures': string
        '@_errors': string
        testsuite: Array<{ '@_name': string; '@_time'?: string; testcase?: Array<{ '@_name': string; '@_time'?: string; skipped?: { '@_message'?: string } }> }>
      }
    }
    const { checks, matrix } = JSON.parse(readFileSync(report, 'utf8')) as ContractReport
    // the request matrix has a suite of its own, a case per cell (src/contract/matrix.ts)
    const suites = parsed.testsuites.testsuite.filter((suite) => suite['@_name'] !== 'request matrix')
    const cases = suites.flatMap((suite) => (suite.testcase ?? []).map((c) => `${suite['@_name']}: ${c['@_name']}`))
    t.same(cases, checks.map((c) => `${c.endpoint}: ${c.name}`), 'one test case per check, under its endpoint')
    const cells = parsed.testsuites.testsuite.find((suite) => suite['@_name'] === 'request matrix')?.testcase ?? []
    t.same(cells.map((c) => c['@_name']), matrix.map((c) => c.id), 'and one per cell of the request matrix')
    t.equal(Number(parsed.testsuites['@_tests']), checks.length + matrix.length, 'and counts them')
    t.equal(parsed.testsuites['@_failures'], '0')
    t.equal(parsed.testsuites['@_errors'], '0')
    const all = suites.flatMap((suite) => suite.testcase ?? [])
    t.ok(parsed.testsuites.testsuite.every((suite) => suite['@_time'] !== undefined), 'every suite has a time')
    t.ok(all.every((c) => c['@_time'] !== undefined && Number.isFinite(Number(c['@_time']))), 'every test case has a time')
    const skipped = all.filter((c) => c.skipped !== undefined)
    t.ok(skipped.length > 0 && skipped.every((c) => /^(does not apply|not due this run): ./.test(c.skipped?.['@_message'] ?? '')), 'every skip says why')
  })

  t.test('the report holds the checks, the requests and the observations', async (t) => {
    const written = JSON.parse(readFileSync(report, 'utf8')) as ContractReport
    t.equal(written.exitCode, 0)
    t.equal(written.summary.failed, 0)
    t.equal(written.summary.passed, Number(tally?.[1]))
    t.ok(written.requests.length > 20, `${written.requests.length} requests`)
    t.equal(new Set(written.requests.map((r) => `${r.method} ${r.url} ${r.credentials}`)).size, written.requests.length, 'each full request once')
    const topics = new Set(written.observations.map((o) => o.topic))
    for (const topic of ['page-size', 'last-page', 'error-body', 'unknown-id', 'job-fields', 'download', 'since-field']) {
      t.ok(topics.has(topic as never), `it observes ${topic}`)
    }
    t.match(run.stdout, /Observations \(\d+; they warn, they do not fail\):/, 'and summarizes them on screen')
  })
})

t.test('a run with writes against jobboard-kit serve exits 0 and deletes the job it made', async (t) => {
  const { url } = await serve(t, ['--clock', 'virtual'])
  const report = join(t.testdir(), 'report.json')
  const run = await runToEnd(['contract', '--base-url', url, '--username', 'jobboard', '--password', 'jobboard', '--writes', '--report', report])
  t.equal(run.code, 0, run.stderr)
  t.match(lastLine(run.stdout), /^\d+ passed, 0 failed, \d+ skipped, 0 errored; checked (\d+) of \1 planned$/)
  const written = JSON.parse(readFileSync(report, 'utf8')) as ContractReport
  t.ok(written.jobs.created.length >= 1, 'it made a job')
  t.match(written.jobs.created[0]?.reference, /^CONTRACT-[0-9]{14}$/)
  t.same(written.jobs.notDeleted, [], 'and deleted every job it made')
  t.ok(written.checks.some((c) => c.endpoint === 'job/delete' && c.status === 'pass'))
})

t.test('a usage error exits 2 with a one-line reason', async (t) => {
  const run = await runToEnd(['contract'], { JOBBOARD_BASE_URL: '', JOBBOARD_USERNAME: '', JOBBOARD_PASSWORD: '' })
  t.equal(run.code, 2)
  t.equal(run.stderr, 'jobboard-kit contract: no base URL: give --base-url URL or set JOBBOARD_BASE_URL.\n')
})

t.test('each kind of usage error is named', async (t) => {
  const base = { baseUrl: 'http://127.0.0.1:9' }
  const cases: Array<[string, ContractFlags, NodeJS.ProcessEnv, RegExp]> = [
    ['a base URL with /api/v1', { baseUrl: 'http://127.0.0.1:9/api/v1/' }, {}, /without \/api\/v1/],
    ['a base URL with credentials in it', { baseUrl: 'http://u:p@127.0.0.1:9' }, {}, /must not hold credentials/],
    ['an unknown group', { ...base, only: 'candidates,bogus' }, {}, /unknown group bogus/],
    ['jobs without --writes', { ...base, only: 'jobs' }, {}, /--only jobs makes writes: add --writes/],
    ['a wait that is not seconds', { ...base, maxWait: 'soon' as never }, {}, /\(--max-wait\) is invalid: it must be an integer, not "soon"/],
    ['a timeout of no time', { ...base, requestTimeout: 0 }, {}, /\(--request-timeout\) is invalid: it must be >= 1/],
    ['a user name without a password', { ...base }, { JOBBOARD_USERNAME: 'u' }, /a user name without a password/],
  ]
  for (const [what, flags, env, reason] of cases) t.throws(() => resolveSettings(flags, env), { name: 'UsageError', message: reason }, what)
  t.match(resolveSettings({ baseUrl: 'https://staging.example.com/board/' }, { JOBBOARD_USERNAME: 'u', JOBBOARD_PASSWORD: 'p' }), {
    baseUrl: 'https://staging.example.com/board',
    username: 'u',
    password: 'p',
    groups: ['fields', 'candidates', 'applications', 'timesheets', 'marketing', 'metrics', 'auth'],
  }, 'a good setting is taken, from the environment where the flags say nothing')
  t.equal(resolveSettings({ ...base, username: 'flag', password: 'p' }, { JOBBOARD_USERNAME: 'env', JOBBOARD_PASSWORD: 'q' }).username, 'flag', 'flags before the environment')
})

t.test('a host that cannot be reached exits 2 with a one-line reason', async (t) => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  const run = await runToEnd(['contract', '--base-url', `http://127.0.0.1:${port}`], ENV)
  t.equal(run.code, 2)
  t.match(run.stderr, new RegExp(`^jobboard-kit contract: cannot reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`))
  t.equal(run.stderr.trimEnd().split('\n').length, 1)
})

t.test('SIGTERM in the middle of a run with writes deletes the job made and exits 2', async (t) => {
  // the proxy holds job/close until the run has been told to stop
  let closing: () => void = () => {}
  const held = new Promise<void>((resolve) => (closing = resolve))
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  t.teardown(() => release())
  const { url } = await board(t, {
    request: async (x) => {
      if (x.method === 'POST' && on(x, /^\/job\/close$/) && !x.url.includes('?')) {
        closing()
        await released
      }
      return x
    },
  })
  const report = join(t.testdir(), 'report.json')
  const child = runCli(['contract', '--base-url', url, '--writes', '--only', 'fields,jobs', '--report', report], ENV)
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  await held
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  release()
  t.equal(code, 2)
  t.match(stderr, /SIGTERM: stopping, deleting what this run made/)
  t.match(stderr, /interrupted \(SIGTERM\)/)
  const written = JSON.parse(readFileSync(report, 'utf8')) as ContractReport
  t.equal(written.jobs.created.length, 1)
  t.same(written.jobs.notDeleted, [], 'the job it made is deleted')
})

t.test('a second run inside the rate-limit window checks nothing and exits 3, incomplete', async (t) => {
  const { url } = await serve(t, ['--clock', 'virtual'])
  const first = await runToEnd(['contract', '--base-url', url], ENV)
  t.equal(first.code, 0, first.stderr)
  const second = await runToEnd(['contract', '--base-url', url], ENV)
  t.equal(second.code, 3)
  // only the auth checks that need no listed record and expect a refusal are made (a refusal comes whatever the
  // limit): the 3 of no, wrong and half-wrong credentials and one per form of the credentials the spec refuses;
  // and the 6 checks of every answer's bytes, which read the 429s and the refusals' 401s (their challenge, each
  // header that is not a list on one line)
  const made = 3 + Object.values(AUTH_FORMS).filter((form) => !form.accepted).length + 6
  t.match(second.stderr, new RegExp(`^jobboard-kit contract: incomplete: checked ${made} of \\d+ planned \\(\\d+%, below --min-coverage 100%\\); \\d+ not made \\(rate limited`))
  t.match(lastLine(second.stdout), new RegExp(`^${made} passed, 0 failed, \\d+ skipped, 0 errored; checked ${made} of [1-9]\\d* planned$`))
})

t.test('against serve --rate-limit-window 0, contract --writes --rate-limit-window 0 makes every write check in one run', async (t) => {
  const { url } = await serve(t, ['--clock', 'virtual', '--rate-limit-window', '0'])
  const report = join(t.testdir(), 'report.json')
  const run = await runToEnd(['contract', '--base-url', url, '--writes', '--rate-limit-window', '0', '--report', report], ENV)
  t.equal(run.code, 0, run.stderr)
  t.match(lastLine(run.stdout), /^\d+ passed, 0 failed, \d+ skipped, 0 errored; checked (\d+) of \1 planned$/)
  const written = JSON.parse(readFileSync(report, 'utf8')) as ContractReport
  const writes = written.checks.filter((c) => /^job\/(?!fields$)/.test(c.endpoint))
  // every write check of the jobs group, the four operations' message checks included, the add with published 0, and every request case
  t.equal(writes.length, 20 + REQUEST_CASES.length)
  t.same(writes.filter((c) => c.status !== 'pass').map((c) => `${c.endpoint}: ${c.name} (${c.status} ${c.reason})`), [], 'every write check passed')
  t.same(written.jobs.notDeleted, [])
})

t.test('with its rate limit, serve gets the write checks due this run; the rest are not due and not planned', async (t) => {
  const { url } = await serve(t, ['--clock', 'virtual'])
  const junit = join(t.testdir(), 'contract.xml')
  const run = await runToEnd(['contract', '--base-url', url, '--writes', '--only', 'fields,jobs', '--junit', junit], ENV)
  t.equal(run.code, 0, run.stderr)
  t.match(lastLine(run.stdout), /checked (\d+) of \1 planned$/)
  t.match(readFileSync(junit, 'utf8'), /<skipped message="not due this run: POST \/job\/add is made in this run by a valid add/)
})
