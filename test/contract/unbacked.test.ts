// A check may fail a run only for a sentence of the spec (or of an RFC it relies on): the
// checks the rule catalogue marks as observations (src/contract/rules.ts) report what they
// found and never fail. Each deployment below breaks only what such a check holds it to,
// and is legal: the run exits 0, the check is not applicable to failing, and an
// `unbacked` observation says what it found.
import t from 'tap'
import { board, changeJson, contract, json, on, type Breakage } from './helpers.js'

type Json = { data: Array<Record<string, unknown>> }

const CASES: Array<{ choice: string; breakage: Breakage; only: string; endpoint: string; check: string; found: RegExp }> = [
  {
    choice: 'candidates whose sector_disciplines name a sector their sectors leave out (the spec never ties the two)',
    breakage: { reply: (x, r) => (on(x, /^\/candidates\/(list|details\/[0-9]+)$/) ? json(r, (b) => {
              for (const c of (b as Json).data) c.sectors = []
            }) : r) },
    only: 'candidates',
    endpoint: 'candidates/list',
    check: 'every sector sector_disciplines names is among the sectors',
    found: /sector_disciplines names/,
  },
  {
    choice: 'job/fields writing a value the spec lists in another casing (values may change over time)',
    breakage: changeJson(/^\/job\/fields$/, (b) => {
      b.data.job_type = b.data.job_type.map((v: string) => (v === 'Full time' ? 'Full Time' : v))
    }),
    only: 'fields',
    endpoint: 'job/fields',
    check: "values the spec lists keep the spec's exact casing",
    found: /Full Time/,
  },
  {
    choice: "a metric whose total is not the sum of the months listed (the number of months differs; the spec never says the total is their sum)",
    breakage: changeJson(/^\/metrics\/list$/, (b) => {
      const metric = (b.metrics as Array<{ total: number }>)[0] as { total: number }
      metric.total += 1000
    }),
    only: 'metrics',
    endpoint: 'metrics/list',
    check: 'each total is the sum of its months',
    found: /total/,
  },
]

for (const c of CASES) {
  t.test(`${c.choice}: an observation, never a failure`, async (t) => {
    const { url } = await board(t, c.breakage)
    const run = await contract({ baseUrl: url, only: c.only })
    t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
    const result = run.check(c.endpoint, c.check)
    t.equal(result?.status, 'skip', 'the check does not fail')
    t.match(result?.reason, /an observation, never a failure/, 'and says why')
    const observation = run.report.observations.find((o) => o.topic === 'unbacked' && o.endpoint === c.endpoint)
    t.ok(observation, 'what it found is an observation')
    t.match(JSON.stringify(observation?.details), c.found, 'naming what it found')
    t.match(run.output, /\[unbacked\]/, 'which the summary shows')
  })
}

t.test('on a deployment that holds to them, the same checks pass', async (t) => {
  const { url } = await board(t)
  const run = await contract({ baseUrl: url, only: 'candidates,fields,metrics' })
  t.equal(run.exitCode, 0)
  for (const c of CASES) t.equal(run.check(c.endpoint, c.check)?.status, 'pass', `${c.endpoint}: ${c.check} passes`)
  t.notOk(run.report.observations.some((o) => o.topic === 'unbacked'), 'and no unbacked observation is made')
})
