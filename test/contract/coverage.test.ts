// Coverage in the open: the summary names, per group, what was checked, what was skipped
// as not applying (or not due), and what was left unmade and why (429, ledger, outage),
// so a thin green run reads differently from a full one; --require-complete turns any
// unmade check into exit 3 even where --min-coverage would let the run pass.
import { join } from 'node:path'
import t from 'tap'
import { board, contract, on, steppingClock } from './helpers.js'

t.test('a full run names per group what it checked and what did not apply', async (t) => {
  const { url } = await board(t)
  const run = await contract({ baseUrl: url, writes: true })
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.match(run.output, /\nCoverage \(per group: checked; skipped as not applying or not due; left unmade, and why\):\n/)
  t.match(run.output, /\n {2}candidates +\d+ checked(; \d+ do not apply)?\n/, 'candidates: checked, nothing unmade')
  t.match(run.output, /\n {2}jobs +\d+ checked; \d+ not due\n/, 'the write turns of other runs are not due')
  const groups = run.report.coverage.map((c) => c.group)
  // and last the checks of every answer's bytes, which follow every group (src/contract/groups/wire-checks.ts)
  t.same(groups, ['fields', 'candidates', 'applications', 'timesheets', 'marketing', 'metrics', 'auth', 'jobs', 'every answer'], 'one entry per group run, in the JSON report too')
  t.ok(run.report.coverage.every((c) => Object.keys(c.unmade).length === 0), 'nothing left unmade')
})

t.test('a thin run says what it left unmade and why; --require-complete makes it exit 3', async (t) => {
  const dir = t.testdir()
  const ledger = join(dir, 'ledger.json')
  const clock = steppingClock()
  const { url } = await board(t, { answer: (x) => (on(x, /^\/timesheets\/list$/) ? { status: 502, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>Bad gateway</h1>') } : undefined) })
  await contract({ baseUrl: url, only: 'candidates', ledger }, { clock })
  clock.advance(60)
  const flags = { baseUrl: url, only: 'candidates,timesheets,auth', ledger, minCoverage: 0 }
  const thin = await contract(flags, { clock })
  t.equal(thin.exitCode, 0, '--min-coverage 0 lets it pass')
  t.match(thin.output, /\n {2}candidates +\d+ checked(; \d+ do not apply)?; \d+ left unmade \(ledger: \d+\)\n/, 'candidates: left unmade by the ledger')
  t.match(thin.output, /\n {2}timesheets +0 checked(; \d+ do not apply)?; \d+ left unmade \(outage: \d+\)\n/, 'timesheets: left unmade by an outage')
  t.match(thin.report.coverage.find((c) => c.group === 'auth'), { unmade: {} }, 'auth: refusals come whatever the windows')
  clock.advance(60)
  const strict = await contract({ ...flags, requireComplete: true }, { clock })
  t.equal(strict.exitCode, 3, '--require-complete: incomplete')
  t.match(strict.reason, /^incomplete \(--require-complete\): checked \d+ of \d+ planned \(\d+%\); (\d+ errored .*; )?\d+ not made/)
})
