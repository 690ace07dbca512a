// The broken words first (issue 43 item 6): of the words a failing check rests on (its
// citation, rules.ts), those the finding contradicts come first, derived from the finding by
// one mechanism, the same for every check: a finding names fields (a schema failure names
// ajv's path, `(field data[0].applications[0].job.id)`; another its snake_case names,
// `next_page`), literals (`YYYY-MM-DD HH:MM:SS`, a value off a list) and RFC sections
// (`RFC 7617 §2`); each quote is read through the statement of the index it stands in (its
// whole words: a row names its fields, a sentence its code spans) and the quotes whose
// statement names the deepest field of a path (then most of the path), or is the RFC
// section it names, or else holds a literal the finding quotes, come first: found among
// every row naming the check, not only those naming it most exactly, the other statements of
// the sections their words stand in, and the row of the check's endpoint. The rest of the
// citation follows, all of it: the summary counts it, the HTML report, the JUnit file and
// the proxy's violations list it after. Nothing derived: the citation in its own order.
import { RFC_CITATION, rfcStatements } from '../core/statements/rfc-statements.js'
import { STATEMENT_INDEX } from '../core/statements/statement-index.js'
import { type Citation, citationOf, matches, RULES, type Rule, wordsText } from './rules.js'
import { statementsOfQuote } from './statements.js'

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim()

/**
 * What the statement(s) a quote stands for name: fields (a row's, a code span's identifiers)
 * and literals (other code spans); an entry's sentence (`File entry: …`) names its fields
 * only under the fields a row gives as its list (`timesheets, resumes, documents | array of
 * File entry`): its scope.
 */
interface Named {
  fields: Set<string>
  literals: string[]
  scope?: Set<string>
}

/** A row's fields: the names of its first cell (`| created_at, updated_at | …`), each dotted one in its parts too. */
const rowFields = (words: string): string[] => (/^\|? ?([a-z_][a-z0-9_.]*(?:, [a-z_][a-z0-9_.]*)*) \|/.exec(words)?.[1]?.split(', ') ?? []).flatMap((f) => [f, ...f.split('.')])

/** Each quote's names, worked out once a process (the quotes are the catalogue's: a bounded set). */
const NAMED = new Map<string, Named>()

/** The statements of the index a quote stands for: an RFC citation's, or those of the spec the quote stands in (or holds whole). */
const statementsOf = (quote: string) =>
  RFC_CITATION.test(quote) ? rfcStatements(quote, STATEMENT_INDEX) : STATEMENT_INDEX.filter((e) => e.rfc === undefined && (squeeze(e.words).includes(squeeze(quote)) || squeeze(quote).includes(squeeze(e.words))))

function namedBy(quote: string): Named {
  const known = NAMED.get(quote)
  if (known !== undefined) return known
  const statements = statementsOf(quote).map((e) => e.words)
  const fields = new Set<string>()
  const literals: string[] = []
  let scope: Set<string> | undefined
  for (const words of statements.length > 0 ? statements : [quote]) {
    for (const field of rowFields(words)) fields.add(field)
    for (const [, span] of words.matchAll(/`([^`]+)`/g)) {
      if (/^[a-z_][a-z0-9_]*$/.test(span as string)) fields.add(span as string)
      else if ((span as string).length >= 4) literals.push(span as string)
    }
    const entry = /^([A-Z][A-Za-z ]*? entry): /.exec(words)?.[1]
    if (entry !== undefined) scope = new Set(STATEMENT_INDEX.filter((e) => e.words.includes(`array of ${entry}`)).flatMap((e) => rowFields(e.words)))
  }
  const named: Named = scope === undefined ? { fields, literals } : { fields, literals, scope }
  NAMED.set(quote, named)
  return named
}

/** The field paths a finding names, each as its names from the root down (`data[0].job.id` → data, job, id). */
function pathsOf(failure: string): string[][] {
  const explicit = [...failure.matchAll(/\b(?:field|parameter) ([a-z_][a-z0-9_]*(?:\[[0-9]+\])*(?:\.[a-z_][a-z0-9_]*(?:\[[0-9]+\])*)*)/gi)].map(([, path]) =>
    (path as string).replace(/\[[0-9]+\]/g, '').split('.'),
  )
  if (explicit.length > 0) return explicit
  // no path given: each snake_case name it holds (`next_page`, `prev_page`, `available_from_day`)
  return [...new Set([...failure.matchAll(/\b[a-z]+(?:_[a-z0-9]+)+\b/g)].map(([name]) => name))].map((name) => [name])
}

/**
 * How much of a path a quote's statement names: the deepest name's depth, then how many of
 * its names (an entry's scope above it counting as one); undefined for none, or for an
 * entry's sentence reached outside its scope.
 */
function reach(named: Named, path: readonly string[]): [number, number] | undefined {
  let deepest = -1
  let count = 0
  path.forEach((name, depth) => {
    if (named.fields.has(name)) {
      deepest = depth
      count++
    }
  })
  if (deepest < 0) return undefined
  if (named.scope === undefined) return [deepest, count]
  const scope = named.scope
  return path.slice(0, deepest).some((name) => scope.has(name)) ? [deepest, count + 1] : undefined
}

/** Whether one reach goes further down a path than another: deeper, or as deep naming more of it. */
const further = (a: readonly [number, number], b: readonly [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])

/** A citation's words split: those the findings contradict (first), then the rest, each in the citation's order. */
export interface Cited {
  first: string[]
  also: string[]
}

/** The words the findings contradict, of `pool`, in its order. */
function contradicted(pool: readonly string[], failures: readonly string[], fieldsOnly: readonly string[] = []): Set<string> {
  const hit = new Set<string>()
  for (const failure of failures) {
    const before = hit.size
    // the quotes reaching furthest down each path the finding names; a statement read for its fields only where it reaches further than them
    for (const path of pathsOf(failure)) {
      const furthest = (words: readonly string[]) => {
        const reached = words.map((w) => ({ w, r: reach(namedBy(w), path) })).filter((x): x is { w: string; r: [number, number] } => x.r !== undefined)
        const best = reached.reduce<[number, number] | undefined>((top, { r }) => (top === undefined || further(r, top) ? r : top), undefined)
        return { best, words: reached.filter(({ r }) => best !== undefined && r[0] === best[0] && r[1] === best[1]).map(({ w }) => w) }
      }
      const own = furthest(pool)
      const more = furthest(fieldsOnly)
      for (const w of more.best !== undefined && (own.best === undefined || further(more.best, own.best)) ? more.words : own.words) hit.add(w)
    }
    for (const w of pool) {
      // the RFC section it names
      const rfc = RFC_CITATION.exec(w)
      if (rfc && failure.includes(`RFC ${rfc[1]}${rfc[2] === undefined ? '' : ` §${rfc[2]}`}`)) hit.add(w)
    }
    if (hit.size > before) continue
    // no field nor section named: a literal of a statement the finding quotes (a form, a listed value), the longest ones
    const quoted = [...new Set(pool.flatMap((w) => namedBy(w).literals))].filter((literal) => failure.includes(literal))
    const longest = quoted.filter((literal) => !quoted.some((other) => other !== literal && other.includes(literal)))
    for (const w of pool) if (namedBy(w).literals.some((literal) => longest.includes(literal))) hit.add(w)
  }
  return hit
}

/**
 * The pool the contradicted words are found in: every row's words that name a check, not
 * only those naming it most exactly (rulesOf); and, for the fields a finding names only,
 * the other statements of the spec's sections those words stand in (a resource's table: the
 * row of the field a schema failure names, though the check's rows quote only some of them)
 * and the spec's row of the check's own endpoint (`| GET | /timesheets/list | …`: what its
 * answer carries).
 */
const WIDER = new Map<string, Wider>()

/** The pool: the rows' words (each way of finding the contradicted words reads them), and the statements read for the fields they name only (a sibling's literal or an endpoint row's is no finding's). */
interface Wider {
  named: string[]
  fieldsOnly: string[]
}

/** The spec's row of an endpoint (`timesheets/list`, `candidates/details/{id}`), if it has one. */
const endpointRows = (endpoint: string) => {
  const path = endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const row = new RegExp(`^\\| [A-Z]+ \\| /${path} \\|`)
  return STATEMENT_INDEX.filter((e) => e.rfc === undefined && row.test(e.words)).map((e) => e.words)
}

function widerWords(check: string, rules: readonly Rule[]): Wider {
  const key = rules === RULES ? check : undefined
  const known = key === undefined ? undefined : WIDER.get(key)
  if (known !== undefined) return known
  const naming = rules.filter((rule) => rule.kind !== 'observation' && rule.checks.some((pattern) => matches(pattern, check)))
  const named = [...new Set(naming.flatMap((rule) => rule.spec ?? []))]
  // the statements the rows' quotes stand in, of the spec (a row's part picks the table where the words stand in several: `id | integer`)
  const stood = naming.flatMap((rule) => (rule.spec ?? []).flatMap((quote) => statementsOfQuote(rule, quote))).filter((e) => e.rfc === undefined)
  const sections = new Set(stood.map((e) => e.section))
  // a statement a quote of the rows already stands for is not added again whole
  const quoted = new Set(stood.map((e) => e.words))
  const siblings = STATEMENT_INDEX.filter((e) => e.rfc === undefined && sections.has(e.section)).map((e) => e.words)
  const words = { named, fieldsOnly: [...new Set([...siblings, ...endpointRows(check.split(': ', 1)[0] as string)].filter((w) => !quoted.has(w) && !named.includes(w)))] }
  // the catalogue's checks are a closed set: at most one entry each
  if (key !== undefined) WIDER.set(key, words)
  return words
}

/**
 * A failing check's words, those its findings contradict first (see the file's head), then
 * the rest of its citation; all of them first when none is derived. The contradicted words
 * are found among every row naming the check (a list schema's `total` is the envelope's
 * sentence, which the rows naming the list's schema outright leave out of the citation).
 */
export function citedFirst(check: string, words: readonly string[], failures: readonly string[], rules: readonly Rule[] = RULES): Cited {
  const wider = widerWords(check, rules)
  const pool = [...words, ...wider.named.filter((w) => !words.includes(w))]
  const fieldsOnly = wider.fieldsOnly.filter((w) => !words.includes(w))
  const hit = contradicted(pool, failures, fieldsOnly)
  if (hit.size === 0) return { first: [...words], also: [] }
  return { first: [...pool, ...fieldsOnly].filter((w) => hit.has(w)), also: words.filter((w) => !hit.has(w)) }
}

/** A problem's citation with the words it contradicts first, the whole citation after them: what the proxy's violations carry. */
export function orderedCitation(check: string, citation: Citation, failures: readonly string[]): Citation {
  if (citation.kind !== 'spec') return citation
  const { first, also } = citedFirst(check, citation.words, failures)
  return { kind: 'spec', words: [...first, ...also] }
}

/**
 * The lines that say what a failing check rests on, as the summary, the HTML report and the
 * JUnit file show them: `spec: "…"` per quote or RFC statement the findings contradict, then
 * the rest of the citation, each as `also: "…"` (`also: 'count'`: one line counting them, for
 * the summary); for an observation, that no sentence backs it and why; for a profile point,
 * that the profile pins it.
 */
export function citationLines(check: string, rules: readonly Rule[] = RULES, failures: readonly string[] = [], also: 'lines' | 'count' = 'lines'): string[] {
  const citation = citationOf(check, rules)
  if (citation.kind === 'spec') {
    const cited = citedFirst(check, citation.words, failures, rules)
    const first = cited.first.map((words) => `spec: ${wordsText(words)}`)
    if (cited.also.length === 0) return first
    if (also === 'count') return [...first, `also behind the check: ${cited.also.length} more of the spec's words (the HTML report and the JUnit file list them)`]
    return [...first, ...cited.also.map((words) => `also: ${wordsText(words)}`)]
  }
  if (citation.kind === 'observation') return [`spec: no sentence backs this check, an observation: ${citation.why}`]
  if (citation.kind === 'profile') return ['spec: not shown; the profile (--profile) pins the deployment’s own earlier choice']
  return []
}
