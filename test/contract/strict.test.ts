// No invented query parameters, nothing left behind: a strict server that refuses any
// query parameter the spec does not define (412) and allows each full request once per
// 15 minutes (by the kit's virtual clock) gets a clean read-only run, and with --writes a
// sequence of runs on one ledger covers every write check (each request case a job/add of
// its own) within the number of runs the first announced, each in its turn, and leaves no
// job behind, even when a delete fails and the job has to wait for the next run.
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { TURNS } from '../../src/contract/write-turns.js'
import type { CheckResult } from '../../src/contract/suite.js'
import { board, contract, jsonReply, json, on, steppingClock, type Exchange, type Reply } from './helpers.js'

// a full pass of the write turns is about a hundred runs (one job/add case a window): minutes on a busy machine
t.setTimeout(600_000)

const WINDOW_MS = 900_000
const DEFINED = new Set(['since', 'page', 'vacancy'])

/** The fake behind a server that keeps the spec to the letter; the ids of the jobs it made are kept. */
async function strictBoard(t: Test, clock: { now(): number }, extra: (x: Exchange) => Reply | undefined = () => undefined) {
  const made = new Set<number>()
  const windows = new Map<string, number>()
  const refusedParameters: string[] = []
  const { url, fake } = await board(
    t,
    {
      answer: (x) => {
        const unknown = [...new URL(x.url, 'http://board').searchParams.keys()].find((key) => !DEFINED.has(key))
        if (unknown !== undefined) {
          refusedParameters.push(x.url)
          return jsonReply(412, { status: 412, message: `Unknown parameter ${unknown}.` })
        }
        if (!x.url.startsWith('/api/v1/')) return undefined
        const key = `${x.headers.authorization ?? '-'} ${x.method} ${x.url}`
        const [now, last] = [clock.now(), windows.get(key)]
        if (last !== undefined && now - last < WINDOW_MS) {
          return jsonReply(429, { status: 429, message: 'Too many requests.' }, { 'retry-after': String(Math.ceil((last + WINDOW_MS - now) / 1000)) })
        }
        windows.set(key, now)
        return extra(x)
      },
      reply: (x, r) => {
        if (on(x, /^\/job\/add$/)) json(r, (b) => void (Number.isInteger(b.id) && made.add(b.id)))
        return r
      },
    },
    { rateLimitWindow: 0 },
  )
  return { url, fake, made, refusedParameters }
}

const WRITE_ENDPOINTS = /^job\/(?!fields$)/

t.test('a strict server gets a complete read-only run that exits 0', async (t) => {
  const clock = steppingClock()
  const strict = await strictBoard(t, clock)
  const run = await contract({ baseUrl: strict.url }, { clock })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.same(strict.refusedParameters, [], 'no query parameter the spec does not define was sent')
  t.same(run.failed(), [])
  t.equal(run.report.summary.checked, run.report.summary.planned)
  t.ok(run.report.requests.every((r) => [...new URL(r.url).searchParams.keys()].every((k) => DEFINED.has(k))), 'every request carries only since, page or vacancy')
})

t.test('with --writes, runs on one ledger make every write check within the number of runs the first announced, and leave no job', async (t) => {
  const clock = steppingClock()
  const strict = await strictBoard(t, clock)
  const ledger = join(t.testdir(), 'ledger.json')
  const made = new Map<string, CheckResult>()
  const first = await contract({ baseUrl: strict.url, writes: true, ledger, only: 'fields,jobs' }, { clock })
  const announced = first.report.rotation?.passRuns as number
  t.ok(announced > 1, `the first run announces a full pass at this window: ${announced} runs`)
  t.match(first.output, new RegExp(`at a window of 900 s a full pass takes ${announced} runs \\(each job/add a full request of its own\\)\n  due next: `), 'and says which are due')
  let run = first
  let runs = 1
  for (;;) {
    t.equal(run.exitCode, 0, `run ${runs} exits 0: ${run.reason ?? ''}`)
    const writes = run.report.checks.filter((c) => WRITE_ENDPOINTS.test(c.endpoint))
    for (const c of writes) if (c.status === 'pass') made.set(`${c.endpoint}: ${c.name}`, c)
    const odd = writes.filter((c) => !(c.status === 'pass' || (c.status === 'skip' && c.skip === 'not-due' && /^not due this run: /.test(c.reason ?? ''))))
    t.same(odd.map((c) => `${c.endpoint}: ${c.name} (${c.status}: ${c.reason})`), [], `run ${runs}: every write check passed or is not due this run`)
    if (made.size === writes.length || runs >= announced + 1) break
    clock.advance(901)
    run = await contract({ baseUrl: strict.url, writes: true, ledger, only: 'fields,jobs' }, { clock })
    runs++
  }
  t.equal(made.size, run.report.checks.filter((c) => WRITE_ENDPOINTS.test(c.endpoint)).length, `every write check was made, in ${runs} runs`)
  t.ok(runs <= announced, `within the ${announced} runs the first announced`)
  t.ok(runs <= TURNS.length, 'in no more runs than there are turns')
  clock.advance(901)
  const complete = await contract({ baseUrl: strict.url, writes: true, ledger, only: 'fields,jobs', requireComplete: true, within: runs + 1 }, { clock })
  t.equal(complete.exitCode, 0, `--require-complete --within ${runs + 1}: every case was made in the last ${runs + 1} runs (${complete.reason ?? 'exit 0'})`)
  clock.advance(901)
  const recent = await contract({ baseUrl: strict.url, writes: true, ledger, only: 'fields,jobs', requireComplete: true, within: 2 }, { clock })
  t.equal(recent.exitCode, 3, '--within 2: most cases were not made in the last 2 runs: exit 3')
  t.match(recent.reason, /^incomplete \(--require-complete --within 2\): \d+ write checks were not made in the ledger's last 2 runs, e\.g\. /)
  t.same(strict.refusedParameters, [], 'no query parameter the spec does not define was sent')
  t.ok(strict.made.size > 0)
  for (const id of strict.made) t.equal(strict.fake.store.job(id), undefined, `job ${id} is gone from the board`)
})

t.test('a job whose delete fails is left pending in the ledger, named, and deleted first by the next run', async (t) => {
  const clock = steppingClock()
  let failDelete = true
  const strict = await strictBoard(t, clock, (x) => {
    if (x.method === 'POST' && on(x, /^\/job\/delete$/) && failDelete) {
      failDelete = false
      return { status: 500, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>Internal Server Error</h1>') }
    }
    return undefined
  })
  const ledger = join(t.testdir(), 'ledger.json')
  const first = await contract({ baseUrl: strict.url, writes: true, ledger, only: 'fields,jobs' }, { clock })
  const [id] = [...strict.made]
  t.ok(id !== undefined, 'the run made a job')
  t.equal(first.exitCode, 1)
  t.match(first.reason, new RegExp(`jobs left on the service, pending deletion by the next run: job ${id} \\(CONTRACT-`))
  t.equal(first.check('job/delete', 'deleting the job answers status 200 with a message')?.status, 'error', 'the delete that met a 500 is errored')
  t.same(first.report.jobs.pending.map((j) => j.id), [id], 'the report lists it as pending')
  t.match(first.output, new RegExp(`Jobs pending deletion \\(in the ledger; the next run deletes them first\\): ${id} `))
  t.ok(strict.fake.store.job(id as number), 'it is still on the board')

  clock.advance(901)
  const second = await contract({ baseUrl: strict.url, writes: true, ledger, only: 'fields,jobs' }, { clock })
  t.equal(second.exitCode, 0, second.reason ?? 'exit 0')
  t.equal(strict.fake.store.job(id as number), undefined, 'the next run deleted it')
  t.same(second.report.jobs.pending, [], 'nothing is pending any more')
  t.ok(second.report.observations.some((o) => o.topic === 'jobs' && new RegExp(`job ${id} .*is deleted now`).test(o.summary)), 'and says so')
})
