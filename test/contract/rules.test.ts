// The rule table keeps the kit honest from the spec's side: every section of the spec has
// rows, every row carries the spec's own words (a quote the spec holds, or an RFC citation
// naming statements of the index) or is marked an observation, every row names checks that
// exist (or says why no check
// can), every check a full run makes appears in some row, and docs/contract.md shows the
// table as src/contract/rules.ts renders it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { citationOf, matches, renderRules, RFC_CITATION, RFCS, RULES, SECTIONS } from '../../src/contract/rules.js'
import { rfcStatements } from '../../src/core/statements/rfc-statements.js'
import { STATEMENT_INDEX } from '../../src/core/statements/statement-index.js'
import { RULE_IDS } from '../../src/watch/verdict/client-rules.js'
import { ROOT } from '../helpers/cli.js'
import { noSpec, SPEC_PATH } from '../helpers/tools.js'
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
  // a check is an observation or cites words, never both: a row naming it as an observation and another as a rule would contradict
  const both = checks.filter((c) => {
    const named = RULES.filter((rule) => rule.checks.some((pattern) => matches(pattern, c)))
    return named.some((rule) => rule.kind === 'observation') && named.some((rule) => rule.kind !== 'observation')
  })
  t.same(both, [], 'no check is named both by an observation and by a rule')
  const uncited = checks.filter((c) => citationOf(c).kind === 'none')
  t.same(uncited, [], 'every check of a full run cites the spec, or is an observation or a profile point')
})

// the spec as CI has it: a copy of shared/ beside the clone (test/helpers/tools.ts)
const SPEC = SPEC_PATH
const skipSpec = noSpec()
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim()

t.test("every rule carries the spec's own words: each a quote the spec holds, or an RFC section in the fixed form", { skip: skipSpec }, async (t) => {
  const spec = squeeze(readFileSync(SPEC, 'utf8'))
  for (const rule of RULES.filter((r) => r.kind !== 'observation')) {
    t.ok((rule.spec ?? []).length > 0, `"${rule.rule}" carries the spec's words`)
    for (const words of rule.spec ?? []) {
      const rfc = RFC_CITATION.exec(words)
      if (rfc) t.ok(RFCS[rfc[1] as string] && rfcStatements(words, STATEMENT_INDEX).length > 0, `"${rule.rule}" cites ${words}, statements of an RFC the kit names`)
      else t.ok(spec.includes(squeeze(words)), `"${rule.rule}" quotes the spec: ${JSON.stringify(words)}`)
    }
  }
})

t.test('a quote the spec does not hold, or an RFC in another form, is told apart from one it does', { skip: skipSpec }, async (t) => {
  const spec = squeeze(readFileSync(SPEC, 'utf8'))
  t.ok(spec.includes(squeeze('Aggregations are   ordered\nnewest month first.')), 'whitespace aside, a quote is found')
  t.notOk(spec.includes(squeeze('Aggregations are ordered oldest month first.')), 'a word changed, it is not')
  for (const form of ['RFC 9110 §10.2.3', 'RFC 7617', 'RFC 6266 §4', 'RFC 8259 §2 "serialized value"']) t.ok(RFC_CITATION.test(form), `${form} is the fixed form`)
  for (const form of ['RFC9110 §10.2.3', 'rfc 9110', 'RFC 9110 section 10.2.3', 'RFC 9110 §', 'RFC 8259 §2 serialized value', 'RFC 8259 §2 ""']) t.notOk(RFC_CITATION.test(form), `${form} is not`)
})

t.test('an observation carries no words and says why no sentence backs it', async (t) => {
  const observations = RULES.filter((rule) => rule.kind === 'observation')
  t.ok(observations.length > 0, `${observations.length} checks are marked observations`)
  for (const rule of observations) {
    t.same(rule.spec ?? [], [], `"${rule.rule}" quotes nothing`)
    t.ok(rule.why, `"${rule.rule}" says why`)
    t.ok(rule.checks.length > 0, `"${rule.rule}" names the checks it makes observations`)
  }
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
