// The request matrix in whole kit runs (src/contract/matrix.ts): the fake passes every cell
// it is asked; a deployment broken on one new shape only fails that cell's check and no
// other; a 429 on one shape leaves its cell skipped for 429 and --require-complete exits 3;
// the summary, the report and the JUnit file show the matrix; and runs sharing a ledger
// take every form of job_industry (all in one run when there is no window to spend).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { FIELD_FORMS, formCellId, MATRIX } from '../../src/contract/matrix.js'
import { board, contract, json, jsonReply, on, type Breakage, type Exchange } from './helpers.js'

// whole kit runs with --writes, each making every request case (about 200 requests): past tap's 120 s a file
t.setTimeout(360_000)

const query = (x: Exchange) => new URL(x.url, 'http://board').searchParams
const pageOf = (x: Exchange) => Number(query(x).get('page') ?? 1)

t.test('the fake passes every cell: each checked, or skipped for a reason that is no fault (not asked, not applicable, budget)', async (t) => {
  const dir = t.testdir()
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, writes: true, rateLimitWindow: 0, junit: join(dir, 'junit.xml') })
  t.same(run.failed(), [], 'no check failed')
  t.equal(run.exitCode, 0)
  t.equal(run.report.matrix.length, MATRIX.length, 'the report carries every cell')
  for (const cell of run.report.matrix) {
    t.ok(cell.status === 'checked' || ['not asked', 'not applicable', 'budget'].includes(cell.why ?? ''), `${cell.id}: ${cell.status}${cell.why ? ` (${cell.why}: ${cell.reason})` : ''}`)
  }
  for (const id of ['applications/list since last', 'timesheets/list since second', 'candidates/list none past-last', 'applications/details/{id} last', 'job/add published 0']) {
    t.equal(run.report.matrix.find((c) => c.id === id)?.status, 'checked', `${id} is checked`)
  }
  t.match(run.output, /\nRequest matrix \(✓ checked, – skipped \(why\), · not reached\):\n/, 'the summary shows the matrix')
  t.match(run.output, /\n {2}applications\/list since +✓ +✓ +✓ +✓ +– not asked +✓\n/, 'a row of the lists grid, the walk last')
  t.match(run.output, new RegExp(`\\nRequest matrix: ${MATRIX.length} cells, \\d+ checked, \\d+ skipped \\([^)]*\\), 0 not reached\\n`), 'and its count line')
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8')
  t.match(xml, /<testsuite name="request matrix"/, 'the JUnit file has the matrix suite')
  t.match(xml, /<testcase classname="contract\.matrix\.list" name="applications\/list since last"/, 'a case per cell')
})

/** The ids the proxy saw on a page past the second of applications/list without a filter: the last page the kit asked. */
function lastListed(): { breakage: Breakage } {
  const seen = new Set<number>()
  return {
    breakage: {
      reply: (x, reply) => {
        if (on(x, /^\/applications\/list$/) && !query(x).has('since') && !query(x).has('vacancy') && pageOf(x) >= 3) {
          return json(reply, (body) => {
            for (const r of body.data as Array<{ id: number }>) seen.add(r.id)
          })
        }
        const detail = /^\/api\/v1\/applications\/details\/(\d+)$/.exec(x.url)
        // the detail of a record the last page listed answers another record
        if (detail && seen.has(Number(detail[1]))) return json(reply, (body) => void ((body.data as Array<{ id: number }>)[0] as { id: number }).id++)
        return reply
      },
    },
  }
}

t.test('a deployment broken only on one new shape fails exactly that cell’s check', async (t) => {
  t.test('the last page of applications with since holds a record before since', async (t) => {
    let broken = 0
    const breakage: Breakage = {
      reply: (x, reply) =>
        on(x, /^\/applications\/list$/) && query(x).has('since') && pageOf(x) >= 3
          ? json(reply, (body) => {
              broken++
              const record = (body.data as Array<Record<string, string>>).at(-1) as Record<string, string>
              record.created_at = '2001-01-01 00:00:00'
              record.updated_at = '2001-01-01 00:00:00'
            })
          : reply,
    }
    // pages of 10 on seed 2: the answer with since (the kit takes it from the records it read) runs past its second page,
    // so its last page is a request of its own; how many pages it runs to is the generated data's, so the test says so first
    const { url } = await board(t, breakage, { pageSize: 10, seed: 2 })
    const run = await contract({ baseUrl: url, only: 'applications' })
    t.ok(broken > 0, 'the answer with since runs past its second page on this board (else pick a seed where it does)')
    // the walk with since reads that page too (src/contract/walk.ts): its filter check fails with the cell's
    t.same(run.failed().sort(), ['applications/list: each filtered walk holds only records matching its filters on every page', 'applications/list: the last page of the answer with since holds only records at or after since'], "that check and the walk's, and no other, fail")
    t.match(run.check('applications/list', 'the last page of the answer with since holds only records at or after since')?.failures.join('\n'), /before since/)
    t.equal(run.exitCode, 1)
    t.equal(run.report.matrix.find((c) => c.id === 'applications/list since last')?.status, 'checked')
  })

  t.test('the details of the last listed application answer another application', async (t) => {
    const { url } = await board(t, lastListed().breakage)
    const run = await contract({ baseUrl: url, only: 'applications' })
    t.same(run.failed(), ['applications/details/{id}: the detail of the last listed application holds that application'], 'that check, and no other, fails')
    t.equal(run.exitCode, 1)
  })
})

t.test('a 429 on one shape leaves its cell skipped for 429, and --require-complete exits 3', async (t) => {
  const breakage: Breakage = {
    answer: (x) => (on(x, /^\/timesheets\/list$/) && query(x).has('since') && pageOf(x) === 2 ? jsonReply(429, { status: 429, message: 'Too many requests' }, { 'retry-after': '900' }) : undefined),
  }
  const { url } = await board(t, breakage)
  const run = await contract({ baseUrl: url, only: 'timesheets', requireComplete: true, minCoverage: 0 })
  const cell = run.report.matrix.find((c) => c.id === 'timesheets/list since second')
  t.equal(cell?.status, 'skipped')
  t.equal(cell?.why, '429', `skipped for 429: ${cell?.reason}`)
  t.same(run.failed(), [], 'nothing failed')
  t.equal(run.exitCode, 3, `exit 3: ${run.reason}`)
  t.match(run.reason, /--require-complete/)
  const without = await contract({ baseUrl: (await board(t, breakage)).url, only: 'timesheets', minCoverage: 0 })
  t.equal(without.exitCode, 0, 'without --require-complete (and --min-coverage 0) the same run exits 0')
})

t.test('with no window to spend, one run takes every form of job_industry, and the ledger knows each was tried', async (t) => {
  // with a window, the forms rotate with the write turns across runs: test/contract/strict.test.ts holds a full pass to its announced runs
  const ledger = join(t.testdir(), 'ledger.json')
  const industries = FIELD_FORMS.filter((f) => f.field === 'job_industry')
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, writes: true, rateLimitWindow: 0, ledger })
  t.equal(run.exitCode, 0, `the run exits 0${run.reason ? `: ${run.reason}` : ''}`)
  const checked = run.report.matrix.filter((c) => c.family === 'field-form' && c.status === 'checked' && c.id.startsWith('job/add job_industry')).map((c) => c.id)
  t.same([...checked].sort(), industries.map(formCellId).sort(), 'every form, a sector alone and a sector holding a slash and spaces included, is tried in the one run')
  const saved = JSON.parse(readFileSync(ledger, 'utf8')) as { writes: Record<string, Record<string, string>> }
  const names = Object.values(saved.writes).flatMap((w) => Object.keys(w))
  for (const form of industries) t.ok(names.includes(`form ${formCellId(form)}`), `the ledger knows ${form.value} was tried`)
})
