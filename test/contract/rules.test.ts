// The rule table keeps the kit honest from the spec's side: every section of the spec has
// rows, every row names checks that exist (or says why no check can), every check a full
// run makes appears in some row, and docs/contract.md shows the table as
// src/contract/rules.ts renders it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { matches, renderRules, RULES, SECTIONS } from '../../src/contract/rules.js'
import { RULE_IDS } from '../../src/fake/verdict/rules.js'
import { ROOT } from '../helpers/cli.js'
import { board, contract } from './helpers.js'

t.test('every row names existing checks and every check of a full run is in a row', async (t) => {
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  const file = join(t.testdir(), 'profile.json')
  // a profile first, so that the run with it makes the profile's checks too
  await contract({ baseUrl: url, only: 'fields', rateLimitWindow: 0, writeProfile: file })
  const run = await contract({ baseUrl: url, only: 'fields,candidates,applications,timesheets,marketing,metrics,auth,jobs,rate-limit', writes: true, rateLimitWindow: 0, profile: file })
  const checks = [...new Set(run.report.checks.map((c) => `${c.endpoint}: ${c.name}`))]
  t.ok(checks.length > 100, `a full run makes ${checks.length} checks`)
  for (const rule of RULES) {
    for (const pattern of rule.checks) t.ok(checks.some((c) => matches(pattern, c)), `"${rule.rule}" names ${pattern}, which a run makes`)
    if (rule.checks.length === 0 || rule.checks.every((c) => c.startsWith('profile:'))) t.ok(rule.why, `"${rule.rule}" says why no check tells`)
  }
  const orphans = checks.filter((c) => !RULES.some((rule) => rule.checks.some((pattern) => matches(pattern, c))))
  t.same(orphans, [], 'every check rests on a rule of the spec')
})

t.test("every section of the spec's, from Resources to Versioning, has rows", async (t) => {
  t.same(SECTIONS, ['Resources and their fields', 'States and transitions', 'Endpoints', 'Paging', 'Downloads', 'Authentication', 'Errors', 'Limits', 'Versioning'])
  for (const section of SECTIONS) t.ok(RULES.some((rule) => rule.section === section), `${section} has rows`)
})

t.test('docs/contract.md shows the table as rules.ts renders it', async (t) => {
  const docs = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8')
  const table = /<!-- rules: generated[^>]*-->\n\n([\s\S]*?)\n<!-- rules: end -->/.exec(docs)?.[1]
  t.equal(table, renderRules(), 'regenerate with renderRules() when a rule or a check changes')
})

t.test('rows where the spec states a rule for clients name the client-verdict rules that hold a client to it', async (t) => {
  const named = RULES.flatMap((rule) => rule.verdict ?? [])
  for (const id of named) t.ok((RULE_IDS as readonly string[]).includes(id), `${id} is a rule of the verdict's catalogue`)
  for (const id of RULE_IDS) t.ok(named.includes(id), `the verdict's ${id} rests on a row of the spec's rules`)
})

t.test('a pattern matches a check by its whole name, * for any text', async (t) => {
  t.ok(matches('*/list: the first page fits the * list schema', 'candidates/list: the first page fits the candidate list schema'))
  t.notOk(matches('auth: a request', 'auth: a request without credentials is refused with 401 or 403'), 'no prefix match')
  t.notOk(matches('job/*: (x)', 'job/add: x'), 'brackets are text')
})
