// The statement index against the spec: every statement splitSpec finds in
// ../shared/spec/job-board-api.md has an entry, every entry's words are a statement the spec
// still holds (a changed spec fails here until its index is reviewed), and every name an
// entry gives exists: verdict rules, profile points, the parts rules.ts names; every quote of
// rules.ts hangs off some statement, so the kit's rules hang off the index. The statements of
// the RFCs the spec's words bring in (src/core/statements/rfc-statements.ts) are entries too: each is brought
// in by words the spec holds, and each RFC citation of rules.ts names some of them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { PROFILE_POINTS } from '../../../schemas/profile.js'
import { RFC_CITATION, RULES } from '../../../src/contract/rules.js'
import { checksOfStatement, renderIndex, serverStatus, statementsOfQuote } from '../../../src/contract/statements.js'
import { splitSpec } from '../../../src/core/statements/split-statements.js'
import { RFC_STATEMENTS, rfcStatements } from '../../../src/core/statements/rfc-statements.js'
import { SPEC_INDEX, STATEMENT_INDEX, statementKey } from '../../../src/core/statements/statement-index.js'
import { RULE_IDS } from '../../../src/watch/verdict/client-rules.js'
import { ROOT } from '../../helpers/cli.js'
import { noSpec, SPEC_PATH } from '../../helpers/tools.js'

const skip = noSpec()
const statements = () => splitSpec(readFileSync(SPEC_PATH, 'utf8'))

t.test('every statement of the spec has an entry in the index', { skip }, async (t) => {
  const keys = new Set(STATEMENT_INDEX.map(statementKey))
  const missing = statements().filter((s) => !keys.has(statementKey(s)))
  t.same(missing.map((s) => `line ${s.line} (${s.section}): ${s.words}`), [], 'a statement without an entry: add one to src/core/statements/statement-index.ts, saying what it is')
  t.ok(statements().length > 150, `the spec has ${statements().length} statements`)
})

t.test('every entry quotes words the spec still holds, under the same section', { skip }, async (t) => {
  const keys = new Set(statements().map(statementKey))
  const stale = SPEC_INDEX.filter((e) => !keys.has(statementKey(e)))
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
    if (e.twinFails !== undefined) t.ok(e.kind === 'silence' || e.kind === 'latitude', `${name}: only a silence or a latitude has a twin`)
    if (e.kind === 'latitude') t.ok(e.rfc !== undefined, `${name}: a latitude is an RFC's`)
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
    for (const id of e.verdict ?? []) t.ok(verdict.has(id), `${id} is a verdict rule (src/watch/verdict/client-rules.ts)`)
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
    for (const quote of rule.spec ?? []) {
      const hung = statementsOfQuote(rule, quote)
      t.ok(hung.length > 0, `"${rule.rule}" quotes ${JSON.stringify(quote.slice(0, 80))}, which stands in a statement${RFC_CITATION.test(quote) ? ' of the RFC' : ''}`)
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

t.test("the RFCs' statements: each under its citation, brought in by words the spec holds, and named by the rules that rest on it", async (t) => {
  const spec = new Set(SPEC_INDEX.map((e) => e.words))
  t.ok(RFC_STATEMENTS.length >= 20, `${RFC_STATEMENTS.length} statements of the RFCs`)
  for (const r of RFC_STATEMENTS) {
    const name = `${r.rfc}: ${r.words.slice(0, 60)}`
    t.ok(RFC_CITATION.test(r.rfc) && /§/.test(r.rfc), `${name}: its section is a citation`)
    t.ok(r.invokedBy.length > 0 && r.invokedBy.every((w) => spec.has(w)), `${name}: brought in by statements of the spec`)
    t.same(rfcStatements(r.rfc, STATEMENT_INDEX).filter((e) => e.words === r.words).length, 1, `${name}: its citation names it`)
  }
  for (const e of STATEMENT_INDEX.filter((x) => x.rfc !== undefined && x.kind === 'server')) {
    t.ok(serverStatus(e) !== 'no check yet', `${e.rfc}: "${e.words.slice(0, 60)}" has a check, or says why none can tell`)
  }
  const named = new Set(RULES.flatMap((rule) => (rule.spec ?? []).filter((q) => RFC_CITATION.test(q))))
  for (const quote of named) t.ok(rfcStatements(quote, STATEMENT_INDEX).every((e) => e.kind !== 'latitude'), `${quote} names no latitude: a check fails for what an RFC requires, not for what it allows`)
})

t.test('an RFC citation names the statements of its section, narrowed by its fragment', async (t) => {
  const words = (quote: string) => rfcStatements(quote, STATEMENT_INDEX).map((e) => e.words)
  t.same(words('RFC 8259 §8.1').length, 2, 'both statements of RFC 8259 §8.1')
  t.same(words('RFC 8259 §2 "serialized value"'), ['A JSON text is a serialized value.'], 'a fragment picks one')
  t.same(words('RFC 8259 §2 "no such words"'), [], 'a fragment the words do not hold names none')
  t.ok(words('RFC 6266 §4').length >= 3, 'a section names its subsections too')
  t.same(words('RFC 9110 §1.1'), [], 'a section with no statement names none')
  t.same(rfcStatements('All bodies are JSON.', STATEMENT_INDEX), [], 'a quote of the spec is no citation')
})
