// The statement index (src/core/statements/statement-index.ts) joined to the kit's rules: a server
// statement's checks are those of the rows of rules.ts whose quotes stand in its words
// (or whose quote holds it whole: a quote of two sentences), so each check is written once,
// on its rule, and hangs off the statements it quotes. Where the same words stand in several
// statements (`id | integer`), a row's `part` picks the subsection. A row's RFC citation
// (`RFC 9110 §11.6.1`, with a fragment of the words where the section holds several) hangs
// it off those statements of the RFC (src/core/statements/rfc-statements.ts). docs/contract.md's index is
// rendered from here (renderIndex), with its counts.
import { RFC_CITATION, RFCS, rfcStatements } from '../core/statements/rfc-statements.js'
import { STATEMENT_INDEX, type IndexEntry } from '../core/statements/statement-index.js'
import { PROFILE, RULES, type Rule } from './rules.js'

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Whether a quote of the spec stands in a statement's words, or holds them whole. */
export function quotes(quote: string, words: string): boolean {
  if (RFC_CITATION.test(quote)) return false
  const q = squeeze(quote)
  const w = squeeze(words)
  return w.includes(q) || q.includes(w)
}

/** Whether a row's words (a quote of the spec, or an RFC citation) stand for a statement of the index. */
export const citesStatement = (quote: string, e: IndexEntry): boolean => (RFC_CITATION.test(quote) ? rfcStatements(quote, [e]).length > 0 : e.rfc === undefined && quotes(quote, e.words))

/** The statements of the index a row's quote stands in (narrowed to the row's part where the words stand in several); an RFC citation's statements. */
export function statementsOfQuote(rule: Pick<Rule, 'part'>, quote: string, index: readonly IndexEntry[] = STATEMENT_INDEX): IndexEntry[] {
  if (RFC_CITATION.test(quote)) return rfcStatements(quote, index)
  const all = index.filter((e) => e.rfc === undefined && quotes(quote, e.words))
  if (all.length <= 1 || rule.part === undefined) return all
  return all.filter((e) => e.section.endsWith(` › ${rule.part}`))
}

/** Each statement's rows, worked out once per rules table and index (a quote against every statement is a lot of work). */
const ROWS = new WeakMap<readonly Rule[], WeakMap<readonly IndexEntry[], Map<IndexEntry, Rule[]>>>()

function rowsByStatement(rules: readonly Rule[], index: readonly IndexEntry[]): Map<IndexEntry, Rule[]> {
  const byIndex = ROWS.get(rules) ?? new WeakMap()
  ROWS.set(rules, byIndex)
  let map = byIndex.get(index)
  if (map === undefined) {
    map = new Map(index.map((e) => [e, [] as Rule[]]))
    for (const rule of rules.filter((r) => r.kind !== 'observation')) {
      const hung = new Set((rule.spec ?? []).flatMap((quote) => statementsOfQuote(rule, quote, index)))
      for (const e of hung) map.get(e)?.push(rule)
    }
    byIndex.set(index, map)
  }
  return map
}

/** The rows of rules.ts a statement rests under: those with a quote that stands in it. */
export function rowsOfStatement(entry: IndexEntry, rules: readonly Rule[] = RULES, index: readonly IndexEntry[] = STATEMENT_INDEX): Rule[] {
  return rowsByStatement(rules, index).get(entry) ?? []
}

/** The checks (patterns of `endpoint: name`) of a statement: its rows' checks, the profile's aside. */
export function checksOfStatement(entry: IndexEntry, rules: readonly Rule[] = RULES, index: readonly IndexEntry[] = STATEMENT_INDEX): string[] {
  return [...new Set(rowsOfStatement(entry, rules, index).flatMap((rule) => rule.checks))].filter((check) => check !== PROFILE)
}

/** What became of a server statement: checked by some check, untestable from outside (and why), or not checked yet. */
export type ServerStatus = 'checked' | 'untestable' | 'no check yet'

export function serverStatus(entry: IndexEntry, rules: readonly Rule[] = RULES, index: readonly IndexEntry[] = STATEMENT_INDEX): ServerStatus {
  if (checksOfStatement(entry, rules, index).length > 0) return 'checked'
  return entry.untestable === undefined ? 'no check yet' : 'untestable'
}

/** The counts docs/contract.md shows beside the index. */
export interface IndexCounts {
  statements: number
  server: number
  /** Server rules with a check. */
  checked: number
  /** Server rules whose derived deviation the kit catches (test/contract/deviations.test.ts). */
  caught: number
  /** Server rules no check from outside can tell. */
  untestable: number
  /** Server rules a check could tell, none does yet. */
  unchecked: number
  silences: number
  /** Silences whose legal twin passes (test/contract/deviations.test.ts). */
  twins: number
  client: number
  description: number
  /** Statements of the RFCs the spec's words bring in (counted in the others too). */
  rfc: number
  /** Of them, rules for the server. */
  rfcServer: number
  /** What the RFCs allow a deployment. */
  latitudes: number
  /** Latitudes whose legal twin passes (test/contract/deviations.test.ts). */
  latitudeTwins: number
}

/**
 * The counts of the index. A checked server rule counts as caught unless its entry says
 * `notCaught` (the deviation harness, test/contract/deviations.test.ts, holds each entry to
 * what it says: caught, or still getting through); a silence's twin passes unless its entry
 * says `twinFails`.
 */
export function indexCounts(rules: readonly Rule[] = RULES, index: readonly IndexEntry[] = STATEMENT_INDEX): IndexCounts {
  const of = (kind: IndexEntry['kind']) => index.filter((e) => e.kind === kind)
  const server = of('server')
  const status = server.map((e) => serverStatus(e, rules, index))
  const checked = server.filter((_, i) => status[i] === 'checked')
  return {
    statements: index.length,
    server: server.length,
    checked: checked.length,
    caught: checked.filter((e) => e.notCaught === undefined).length,
    untestable: status.filter((s) => s === 'untestable').length,
    unchecked: status.filter((s) => s === 'no check yet').length,
    silences: of('silence').length,
    twins: of('silence').filter((e) => e.twinFails === undefined).length,
    client: of('client').length,
    description: of('description').length,
    rfc: index.filter((e) => e.rfc !== undefined).length,
    rfcServer: server.filter((e) => e.rfc !== undefined).length,
    latitudes: of('latitude').length,
    latitudeTwins: of('latitude').filter((e) => e.twinFails === undefined).length,
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** RFC sections in their numeric order (§5.1 before §11.1); a sort that keeps the order of equals. */
const bySection = (a: string, b: string) => {
  const parts = (c: string) => (/§([0-9.]+)/.exec(c)?.[1] ?? '').split('.').map(Number)
  const [x, y] = [parts(a), parts(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1)
  return 0
}

/** The words an RFC statement stands for in the table: its section and its words quoted. */
const statementCell = (e: IndexEntry) => (e.rfc === undefined ? cell(e.words) : `${e.rfc.replace(/^RFC [0-9]+ /, '')}: "${cell(e.words)}"`)

/** The index as docs/contract.md shows it: the counts, then a table per section of the spec, then one per RFC the spec's words bring in. */
export function renderIndex(rules: readonly Rule[] = RULES, index: readonly IndexEntry[] = STATEMENT_INDEX): string {
  const n = indexCounts(rules, index)
  const lines = [
    `- **${n.statements} statements**: ${n.statements - n.rfc} of the spec and ${n.rfc} of the RFCs its words bring in; ${n.server} rules for the server, ${n.client} for clients, ${n.silences} silences ("not shown"), ${n.latitudes} latitudes (what an RFC allows), ${n.description} descriptions.`,
    `- **${n.server} server rules** (${n.rfcServer} of them an RFC's): ${n.checked} with a check; **${n.caught} with a deviation caught** (a deployment breaking exactly that rule, in front of the fake and of the second server, fails the check citing it); ${n.untestable} untestable from outside (each says why); ${n.unchecked} with no check yet.`,
    `- **${n.twins} of ${n.silences} silences with a legal twin passed** (a deployment choosing otherwise where the spec is silent exits 0); **${n.latitudeTwins} of ${n.latitudes} latitudes with a legal twin passed** (a deployment taking what the RFC allows exits 0).`,
    '',
  ]
  // the spec's sections in its order, then one table per RFC (its statements in the order rfcs.ts lists them)
  const groups = new Map<string, IndexEntry[]>()
  for (const e of index) {
    const group = e.rfc === undefined ? e.section : (/^RFC [0-9]+/.exec(e.rfc)?.[0] as string)
    groups.set(group, [...(groups.get(group) ?? []), e])
  }
  for (const [group, entries] of groups) {
    const rfc = /^RFC ([0-9]+)$/.exec(group)?.[1]
    if (rfc === undefined) lines.push(`#### ${group}`, '')
    else {
      const by = [...new Set(entries.flatMap((e) => e.invokedBy ?? []))].map((w) => `"${cell(w)}"`).join('; ')
      lines.push(`#### ${group}: ${RFCS[rfc] ?? ''}`, '', `Brought in by the spec's words ${by}`, '')
      entries.sort((a, b) => bySection(a.rfc as string, b.rfc as string))
    }
    lines.push('| statement | kind | why | checks, verdict rules, profile points |', '|---|---|---|---|')
    for (const e of entries) {
      const notes: string[] = []
      if (e.kind === 'server') {
        const status = serverStatus(e, rules, index)
        const checks = checksOfStatement(e, rules, index)
        if (checks.length > 0) notes.push(checks.map((c) => `\`${cell(c)}\``).join('<br>'))
        if (e.untestable) notes.push(`untestable: ${cell(e.untestable)}`)
        if (status === 'no check yet') notes.push('**no check yet**')
        else if (status === 'checked' && e.notCaught !== undefined) notes.push(`**deviation not caught yet**: ${cell(e.notCaught)}`)
      }
      if (e.verdict?.length) notes.push(`verdict: ${e.verdict.map((id) => `\`${id}\``).join(', ')}`)
      if (e.kit) notes.push(`kit: ${cell(e.kit)}`)
      if (e.points !== undefined) notes.push(e.points.length > 0 ? `profile: ${e.points.map((p) => `\`${p}\``).join(', ')}` : 'no profile point')
      if (e.kind === 'latitude' && e.twinFails === undefined) notes.push('a legal twin passes')
      if (e.twinFails !== undefined) notes.push(`**twin not passed yet**: ${cell(e.twinFails)}`)
      lines.push(`| ${statementCell(e)} | ${e.kind} | ${cell(e.why)} | ${notes.join('<br>') || '—'} |`)
    }
    lines.push('')
  }
  return lines.join('\n')
}
