// The rate limit as the kit lives with it: a 429 is waited out within --max-wait or
// its checks are left unmade with the reason, and the run is incomplete (exit 3); a run
// of nothing but 429s does not pass; the ledger carries windows across runs; an
// interrupted run still deletes its job.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { LedgerFile } from '../../src/contract/ledger.js'
import { board, contract, on, steppingClock, type Reply } from './helpers.js'

/** A 429 as the spec describes it, in place of whatever the fake answered. */
const tooMany = (seconds: number): Reply => ({
  status: 429,
  headers: { 'content-type': 'application/json', 'retry-after': String(seconds) },
  body: Buffer.from(JSON.stringify({ status: 429, message: 'Too many requests.' })),
})

/** The ledger entry of a full request, whoever made it. */
const entryOf = (file: LedgerFile, method: string, url: string) => Object.entries(file.requests).find(([key]) => key.endsWith(` ${method} ${url}`))?.[1]

t.test('a 429 beyond --max-wait skips the checks that needed the answer, with the reason', async (t) => {
  const { url } = await board(t, { reply: (x, r) => (on(x, /^\/metrics\/list$/) ? tooMany(900) : r) })
  const run = await contract({ baseUrl: url, only: 'metrics' })
  const metrics = run.report.checks.filter((c) => c.endpoint === 'metrics/list')
  t.ok(metrics.length > 0)
  for (const check of metrics) {
    t.match(check, { status: 'skip', skip: 'unavailable' }, `${check.name}: not made, neither passed nor failed`)
    t.match(check.reason, /429; Retry-after 900 s is beyond what is left of --max-wait 0 s/)
  }
  t.equal(run.exitCode, 3, 'nothing failed, but checks planned were not made: incomplete')
  t.match(run.reason, /^incomplete: checked \d+ of \d+ planned/)
})

t.test('a 429 within --max-wait is waited out and asked again', async (t) => {
  let refused = 0
  const { url } = await board(t, {
    reply: (x, r) => (on(x, /^\/metrics\/list$/) && refused++ === 0 ? tooMany(2) : r),
    // the proxy refuses in the fake's stead: the fake itself must not count the first request
  }, { rateLimitWindow: 0 })
  const clock = steppingClock()
  const started = clock.now()
  const run = await contract({ baseUrl: url, only: 'metrics', maxWait: 5 }, { clock })
  t.same(run.failed(), [])
  t.ok(run.report.checks.filter((c) => c.endpoint === 'metrics/list').every((c) => c.status === 'pass'), 'every metrics check passed')
  const request = run.report.requests.find((r) => r.url.endsWith('/api/v1/metrics/list'))
  t.match(request, { attempts: 2, waited: 2, status: 200 }, 'made twice, two seconds apart')
  t.ok(clock.now() - started >= 2000, 'the clock moved on by the wait')
})

t.test('a run in which every answer is a 429 does not exit 0', async (t) => {
  const { url } = await board(t, { reply: () => tooMany(900) })
  const run = await contract({ baseUrl: url })
  // the 429s themselves are answers: only their bytes and Retry-after are checked (the "every answer" checks)
  const made = run.report.checks.filter((c) => c.status === 'pass' || c.status === 'fail')
  t.same(made.filter((c) => c.endpoint !== 'every answer').map((c) => `${c.endpoint}: ${c.name}`), [], 'nothing was checked but the 429s as bytes')
  t.same(run.failed(), [])
  t.equal(run.exitCode, 3)
  t.match(run.reason, new RegExp(`^incomplete: checked ${made.length} of \\d+ planned \\([0-9]%`))
  t.match(run.output, new RegExp(`checked ${made.length} of [1-9]\\d* planned\\n$`))
})

t.test('a host that cannot be reached ends the run with exit 2', async (t) => {
  const run = await contract({ baseUrl: 'http://127.0.0.1:9' })
  t.equal(run.exitCode, 2)
  t.match(run.reason, /^cannot reach http:\/\/127\.0\.0\.1:9: /)
})

t.test('the ledger', async (t) => {
  const dir = t.testdir()
  const ledger = join(dir, 'ledger.json')
  const read = () => JSON.parse(readFileSync(ledger, 'utf8')) as LedgerFile

  t.test('records every full request of a run with the end of its window', async (t) => {
    const { url } = await board(t)
    const clock = steppingClock()
    const run = await contract({ baseUrl: url, ledger }, { clock })
    t.equal(run.exitCode, 0)
    const made = run.report.requests.filter((r) => r.attempts > 0)
    t.equal(Object.keys(read().requests).length, made.length, 'one entry per full request')
    for (const request of made) {
      const entry = entryOf(read(), request.method, request.url)
      t.ok(entry, `${request.method} ${request.url} is in the ledger`)
      if (entry) t.equal(Date.parse(entry.until) - Date.parse(entry.at), 900_000, 'its window ends 15 minutes later')
    }
  })

  t.test('makes the next run inside the window leave every request out, and not pass', async (t) => {
    const { url } = await board(t)
    const clock = steppingClock()
    const first = await contract({ baseUrl: url, ledger: join(dir, 'again.json') }, { clock })
    t.equal(first.exitCode, 0)
    clock.advance(60)
    const second = await contract({ baseUrl: url, ledger: join(dir, 'again.json') }, { clock })
    t.ok(second.report.requests.length > 0)
    t.ok(second.report.requests.every((r) => r.attempts === 0 && r.outcome === 'ledger'), 'no request went out')
    t.ok(second.report.checks.every((c) => c.status === 'skip'), 'every check is skipped')
    t.match(second.report.checks[0]?.reason, /left out: the ledger says its window is open until/)
    t.equal(second.exitCode, 3, 'incomplete')
    t.match(second.reason, /checked 0 of \d+ planned/)
  })

  /** Two metrics-only runs on one ledger, `later` seconds apart, against a fake without its own limit. */
  const twoRuns = async (t: Test, file: string, later: number, maxWait = 0) => {
    const { url } = await board(t, {}, { rateLimitWindow: 0 })
    const clock = steppingClock()
    const path = join(dir, file)
    await contract({ baseUrl: url, ledger: path, only: 'metrics' }, { clock })
    clock.advance(later)
    return contract({ baseUrl: url, ledger: path, only: 'metrics', maxWait }, { clock })
  }

  t.test('lets a run after the window make its requests again', async (t) => {
    const later = await twoRuns(t, 'later.json', 901)
    t.equal(later.exitCode, 0)
    t.ok(later.report.requests.every((r) => r.attempts === 1), 'every request went out')
  })

  t.test('is waited for when the window ends within --max-wait', async (t) => {
    const waiting = await twoRuns(t, 'wait.json', 600, 300)
    t.equal(waiting.exitCode, 0)
    t.ok(waiting.report.requests.every((r) => r.attempts === 1 && r.outcome === 'answered'), 'no request was left out')
    // the test's clock moves by each wait, so the requests after the first have less left to wait
    t.ok(waiting.report.requests.some((r) => r.waited === 300), 'the first waited out the rest of its window')
  })

  t.test("keeps a 429's Retry-after as the end of the window", async (t) => {
    const { url } = await board(t, { reply: (x, r) => (on(x, /^\/metrics\/list$/) ? tooMany(120) : r) })
    const clock = steppingClock()
    const path = join(dir, 'retry.json')
    await contract({ baseUrl: url, ledger: path, only: 'metrics' }, { clock })
    const entry = entryOf(JSON.parse(readFileSync(path, 'utf8')) as LedgerFile, 'GET', `${url}/api/v1/metrics/list`)
    t.ok(entry)
    if (entry) t.equal(Date.parse(entry.until) - Date.parse(entry.at), 120_000)
  })

  t.test('that is not a ledger is a usage error', async (t) => {
    const path = join(dir, 'not-a-ledger.json')
    writeFileSync(path, '{"hello": "world"}')
    const run = await contract({ baseUrl: 'http://127.0.0.1:9', ledger: path })
    t.equal(run.exitCode, 2)
    t.match(run.reason, /is not a jobboard-kit ledger/)
    t.ok(existsSync(path), 'the file is left as it was')
  })
})

t.test('an interrupted run with writes still deletes the job it made', async (t) => {
  const controller = new AbortController()
  const { url } = await board(t, {
    request: async (x) => {
      if (x.method === 'POST' && on(x, /^\/job\/close$/) && !x.url.includes('?')) controller.abort('SIGINT')
      return x
    },
  })
  const run = await contract({ baseUrl: url, writes: true, only: 'fields,jobs' }, { signal: controller.signal })
  t.equal(run.exitCode, 2)
  t.match(run.reason, /interrupted \(SIGINT\)/)
  t.equal(run.report.jobs.created.length, 1, 'the run made one job')
  t.same(run.report.jobs.deleted.map((d) => d.id), run.report.jobs.created.map((c) => c.id), 'and deleted it')
  t.equal(run.report.jobs.deleted[0]?.by, 'POST /job/delete', 'by the delete the run had not made yet, without a query string')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'job/delete').every((c) => c.status !== 'pass'), 'the checks after the interrupt did not pass')
})
