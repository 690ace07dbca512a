// The statement index against the spec: every statement splitSpec finds in
// ../shared/spec/job-board-api.md has an entry, every entry's words are a statement the spec
// still holds (a changed spec fails here until its index is reviewed), and every name an
// entry gives exists: verdict rules, profile points, the parts rules.ts names; every quote of
// rules.ts hangs off some statement, so the kit's rules hang off the index.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { PROFILE_POINTS } from '../../../schemas/profile.js'
import { RFC_CITATION, RULES } from '../../../src/contract/rules.js'
import { checksOfStatement, renderIndex, serverStatus, statementsOfQuote } from '../../../src/contract/statements.js'
import { splitSpec } from '../../../src/core/spec/split.js'
import { STATEMENT_INDEX, statementKey } from '../../../src/core/spec/statements.js'
import { RULE_IDS } from '../../../src/watch/verdict/rules.js'
import { ROOT } from '../../helpers/cli.js'
import { noSpec, SPEC_PATH } from '../../helpers/tools.js'

const skip = noSpec()
const statements = () => splitSpec(readFileSync(SPEC_PATH, 'utf8'))

t.test('every statement of the spec has an entry in the index', { skip }, async (t) => {
  const keys = new Set(STATEMENT_INDEX.map(statementKey))
  const missing = statements().filter((s) => !keys.has(statementKey(s)))
  t.same(missing.map((s) => `line ${s.line} (${s.section}): ${s.words}`), [], 'a statement without an entry: add one to src/core/spec/statements.ts, saying what it is')
  t.ok(statements().length > 150, `the spec has ${statements().length} statements`)
})

t.test('every entry quotes words the spec still holds, under the same section', { skip }, async (t) => {
  const keys = new Set(statements().map(statementKey))
  const stale = STATEMENT_INDEX.filter((e) => !keys.has(statementKey(e)))
  t.same(stale.map((e) => `${e.section}: ${e.words}`), [], 'an entry whose words the spec no longer has: review it against the spec')
})

t.test('an entry is one per statement', async (t) => {
  const keys = STATEMENT_INDEX.map(statementKey)
  t.same(keys.filter((k, i) => keys.indexOf(k) !== i), [], 'no two entries for the same words under the same section')
})

t.test('each entry says what it is, and carries only what its kind can', async (t) => {
  for (const e of STATEMENT_INDEX) {
    const name = `${e.section}: ${e.words.slice(0, 80)}`
    t.ok(e.why.trim().length > 0, `${name} says why`)
    if (e.kind === 'client') t.ok((e.verdict?.length ?? 0) > 0 || e.kit, `${name}: a rule for clients names the verdict rules or the kit's behaviour`)
    if (e.kind === 'silence') t.ok(e.points !== undefined, `${name}: a silence names its profile points (or [] and why none)`)
    if (e.untestable !== undefined || e.notCaught !== undefined) t.equal(e.kind, 'server', `${name}: only a server rule is untestable or not caught`)
    if (e.twinFails !== undefined) t.equal(e.kind, 'silence', `${name}: only a silence has a twin`)
    if (e.notCaught !== undefined) t.equal(serverStatus(e), 'checked', `${name}: a deviation not caught is one of a checked rule`)
  }
})

t.test('what the spec says it does not show is a silence, or names the profile points of its silent part', async (t) => {
  for (const e of STATEMENT_INDEX.filter((x) => /not shown/.test(x.words))) {
    t.ok(e.kind === 'silence' || (e.points?.length ?? 0) > 0, `${e.words.slice(0, 80)}: ${e.kind}`)
  }
  for (const e of STATEMENT_INDEX.filter((x) => x.kind === 'silence')) t.match(e.words, /not shown/, `${e.words.slice(0, 80)} is a silence: the spec says so`)
})

t.test('the verdict rules and profile points the index names exist', async (t) => {
  const verdict = new Set<string>(RULE_IDS)
  const points = new Set<string>(PROFILE_POINTS)
  for (const e of STATEMENT_INDEX) {
    for (const id of e.verdict ?? []) t.ok(verdict.has(id), `${id} is a verdict rule (src/watch/verdict/rules.ts)`)
    for (const point of e.points ?? []) t.ok(points.has(point), `${point} is a profile point (schemas/profile.ts)`)
  }
  const named = new Set(STATEMENT_INDEX.flatMap((e) => e.verdict ?? []))
  t.same(RULE_IDS.filter((id) => !named.has(id)), [], 'every verdict rule rests on a statement of the index')
  const recorded = new Set(STATEMENT_INDEX.flatMap((e) => e.points ?? []))
  t.same(PROFILE_POINTS.filter((point) => !recorded.has(point)), [], 'every profile point rests on a statement of the index (where the spec is silent)')
})

t.test('every quote of rules.ts hangs off a statement of the index, and a part names a subsection', async (t) => {
  const sections = new Set(STATEMENT_INDEX.map((e) => e.section))
  for (const rule of RULES) {
    if (rule.part !== undefined) t.ok([...sections].some((s) => s.endsWith(` › ${rule.part}`)), `"${rule.rule}" names part ${rule.part}, a subsection`)
    for (const quote of (rule.spec ?? []).filter((q) => !RFC_CITATION.test(q))) {
      const hung = statementsOfQuote(rule, quote)
      t.ok(hung.length > 0, `"${rule.rule}" quotes ${JSON.stringify(quote.slice(0, 80))}, which stands in a statement`)
    }
  }
})

t.test('a server rule has checks from rules.ts, or says why none can tell', async (t) => {
  const server = STATEMENT_INDEX.filter((e) => e.kind === 'server')
  for (const e of server) if (serverStatus(e) === 'untestable') t.ok(e.untestable, `${e.words.slice(0, 80)}: why no check can tell`)
  const unchecked = server.filter((e) => serverStatus(e) === 'no check yet')
  // counted and shown in docs/contract.md: a number to bring down
  t.comment(`${server.length} server rules: ${server.filter((e) => checksOfStatement(e).length > 0).length} with checks, ${server.filter((e) => serverStatus(e) === 'untestable').length} untestable, ${unchecked.length} with no check yet`)
  t.ok(server.length > 0)
})

t.test('docs/contract.md shows the index and its counts as renderIndex renders them', async (t) => {
  const docs = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8')
  const shown = /<!-- index: generated[^>]*-->\n\n([\s\S]*?)\n<!-- index: end -->/.exec(docs)?.[1]
  t.equal(shown, renderIndex(), 'regenerate with npx tsx scripts/render-contract-index.ts when the index or a rule changes')
})
