// The request matrix: every request shape the spec allows, as one table (issue 27 item 1).
// Each list × {no filter, since, vacancy for applications} × {first page, second page,
// last page, an empty answer, a page past the last}; each details endpoint for the first
// and the last listed id; each download kind, through both timesheet paths; each job
// operation from each state the spec names, with the public page after it; each form of
// each constrained field the spec lists. A cell names the plan's request that asks it
// (`asks`) or says why the plan never does (`why`), and the checks that read its answer
// (patterns of `endpoint: name`, `*` for any text, as in rules.ts). Each list and filter is
// also a walk (src/contract/walk.ts): every page from the first to the last, by next_page,
// a cell checked when the run walked it in full. After a run, a cell
// is checked when one of those checks was made, skipped when they were skipped (and
// why), or not reached when none of them reported. docs/contract.md shows the table as
// renderMatrix() renders it; test/contract/matrix.test.ts keeps both in step with the plan.
import { caseTurn, REQUEST_CASES } from './cases.js'
import { combinationsOf, LISTS, type ListDef } from './lists.js'
import { matches } from './rules.js'
import type { WalkEntry } from './walk.js'

/** What the matrix reads of a check's result (suite.ts's CheckResult; not imported, which would close a circle through the groups). */
export interface CheckResult {
  endpoint: string
  name: string
  status: 'pass' | 'fail' | 'skip' | 'error'
  skip?: string | undefined
  reason?: string | undefined
}

export type Family = 'list' | 'details' | 'download' | 'job' | 'field-form' | 'request-case'

export const FILTERS = ['none', 'since', 'vacancy'] as const
export type Filter = (typeof FILTERS)[number]
export const POSITIONS = ['first', 'second', 'last', 'empty', 'past-last', 'walk'] as const
export type Position = (typeof POSITIONS)[number]

export interface Cell {
  /** Unique and stable: the ledger and the report name a cell by it. */
  id: string
  family: Family
  /** The endpoint as checks are grouped under. */
  endpoint: string
  /** The request shape, in words. */
  shape: string
  /** The plan's request that asks it (a method of Plan, or a write turn); absent when the plan never asks it. */
  asks?: string
  /** Why the plan never asks it, when it does not. */
  why?: string
  /** The checks that read its answer: patterns of `endpoint: name`. */
  checks: readonly string[]
  /** Made only with --writes. */
  writes?: boolean
}

export const LIST_NAMES = ['candidates', 'applications', 'timesheets', 'marketing'] as const

const FILTER_WORDS: Record<Filter, string> = { none: 'no filter', since: '`since`', vacancy: '`vacancy`' }
const POSITION_WORDS: Record<Position, string> = {
  first: 'the first page',
  second: 'the second page (the first page’s next_page)',
  last: 'the last page',
  empty: 'an answer with no records',
  'past-last': 'a page past the last',
  walk: 'every page from the first to the last, by next_page (the walk)',
}

/** The checks that read every walk of a list (src/contract/groups/walk-checks.ts). */
const walkChecks = (e: string) => [`${e}: each *walk*`]

/** The plan's request and the checks of a list cell, or why the plan does not ask it. */
function listCell(list: (typeof LIST_NAMES)[number], filter: Filter, position: Position): Omit<Cell, 'id' | 'family' | 'endpoint' | 'shape'> {
  const e = `${list}/list`
  if (position === 'walk') return { asks: 'walk', checks: walkChecks(e) }
  switch (`${filter} ${position}`) {
    case 'none first':
      return { asks: 'first', checks: [`${e}: the first page fits the * list schema`] }
    case 'none second':
      return { asks: 'next', checks: [`${e}: the second page's records are not the first page's*`, `${e}: total is the same on the first and the second page*`] }
    case 'none last':
      return { asks: 'lastPage', checks: [`${e}: the last page fits the schema *`] }
    case 'none empty':
      return { why: 'without a filter an answer has no records only when the board holds none: the kit cannot make it so (the empty answer is asked with since)', checks: [] }
    case 'none past-last':
      return { asks: 'pastLast', checks: [`${e}: a page past the last *`] }
    case 'since first':
      return { asks: 'since', checks: [`${e}: the answer with since *`, `${e}: every record of the answer with since *`] }
    case 'since second':
      return { asks: 'sinceNext', checks: [`${e}: the second page of the answer with since *`] }
    case 'since last':
      return { asks: 'sinceLast', checks: [`${e}: the last page of the answer with since *`] }
    case 'since empty':
      return { asks: 'empty', checks: [`${e}: the answer with no records *`] }
    case 'since past-last':
    case 'vacancy past-last':
      return { why: 'asked once per list, without a filter: the spec says nothing of a page past the last, with a filter or without, so one observation per list is all there is to see', checks: [] }
    case 'vacancy first':
      return { asks: 'vacancy', checks: [`${e}: the vacancy filter *`] }
    case 'vacancy second':
      return { asks: 'vacancyNext', checks: [`${e}: the second page of the vacancy answer *`] }
    case 'vacancy last':
      return { asks: 'vacancyLast', checks: [`${e}: the last page of the vacancy answer *`] }
    case 'vacancy empty':
      return { why: 'every vacancy the kit knows of has applications (it learns vacancy ids from them), and an id no vacancy has may be refused rather than answered empty: the spec does not say', checks: [] }
    default:
      throw new Error(`no list cell ${filter} ${position}`)
  }
}

/** The combinations of two or more filters of each list (lists.ts combinationsOf, from its query schema), by list, as the cells name them (`since+vacancy`). */
export const COMBINATIONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  LIST_NAMES.map((name) => [name, combinationsOf(LISTS.find((l) => l.endpoint === `${name}/list`) as ListDef).map((set) => set.join('+'))]),
)

/** A combination's two cells: its first page, and the page its next_page names (page with every filter). */
function combinationCells(list: (typeof LIST_NAMES)[number]): Cell[] {
  const e = `${list}/list`
  return (COMBINATIONS[list] ?? []).flatMap((combination) => {
    const words = combination.split('+').join(' and ')
    const shape = combination.split('+').map((f) => `\`${f}\``).join(' with ')
    return [
      { id: `${e} ${combination} first`, family: 'list', endpoint: e, shape: `${POSITION_WORDS.first}, ${shape}`, asks: 'combined', checks: [`${e}: the answer with ${words} holds only records matching each`] },
      { id: `${e} ${combination} second`, family: 'list', endpoint: e, shape: `${POSITION_WORDS.second}, ${shape}`, asks: 'combinedNext', checks: [`${e}: the second page of the answer with ${words} holds only records matching each`] },
      { id: `${e} ${combination} walk`, family: 'list', endpoint: e, shape: `${POSITION_WORDS.walk}, ${shape}`, asks: 'walk', checks: walkChecks(e) },
    ] satisfies Cell[]
  })
}

function listCells(): Cell[] {
  const cells: Cell[] = []
  for (const list of LIST_NAMES) {
    for (const filter of FILTERS) {
      if (filter === 'vacancy' && list !== 'applications') continue
      for (const position of POSITIONS) {
        cells.push({
          id: `${list}/list ${filter} ${position}`,
          family: 'list',
          endpoint: `${list}/list`,
          shape: `${POSITION_WORDS[position]}, ${FILTER_WORDS[filter]}`,
          ...listCell(list, filter, position),
        })
      }
    }
    cells.push(...combinationCells(list))
  }
  return cells
}

function detailCells(): Cell[] {
  return (['candidates', 'applications'] as const).flatMap((group) => {
    const noun = group === 'candidates' ? 'candidate' : 'application'
    const e = `${group}/details/{id}`
    return [
      { id: `${e} first`, family: 'details', endpoint: e, shape: `the first listed ${noun}'s id (or one another record links to)`, asks: `${group === 'candidates' ? 'candidate' : 'application'}Detail`, checks: [`${e}: the detail of a listed ${noun} *`, `${e}: the detail holds exactly the listed ${noun}`] },
      { id: `${e} last`, family: 'details', endpoint: e, shape: `the last listed ${noun}'s id (the last record of the last page fetched)`, asks: 'lastDetail', checks: [`${e}: the detail of the last listed ${noun} *`] },
    ] satisfies Cell[]
  })
}

const DOWNLOADS = [
  { id: 'candidates/resume/{id}', shape: 'a resume a candidate lists', asks: 'candidateFile' },
  { id: 'candidates/document/{id}', shape: 'a document a candidate lists', asks: 'candidateFile' },
  { id: 'candidates/timesheet/{id}', shape: 'a timesheet, by the path list entries link to', asks: 'candidateFile' },
  { id: 'candidates/timesheets/download/{id}', shape: 'a timesheet, by the second download path', asks: 'timesheetDownload' },
  { id: 'applications/attachment/{id}', shape: "an application's attachment", asks: 'attachment' },
] as const

function downloadCells(): Cell[] {
  return DOWNLOADS.map((d) => ({ id: d.id, family: 'download', endpoint: d.id, shape: d.shape, asks: d.asks, checks: [`${d.id}: the listed link answers 200*`] }))
}

function jobCells(): Cell[] {
  const job = (id: string, endpoint: string, shape: string, asks: string | undefined, checks: string[], why?: string): Cell => ({
    id,
    family: 'job',
    endpoint,
    shape,
    ...(asks === undefined ? { why: why as string } : { asks }),
    checks,
    writes: true,
  })
  return [
    job('job/add published 1', 'job/add', 'add a valid job with published 1, then its public page', 'lifecycle', ['job/add: a valid job answers 200*', 'job/add: the public page of the new published job answers 200']),
    job('job/add published 0', 'job/add', 'add a valid job with published 0, then its public page', 'unpublished', ['job/add: the public page of a job added with published 0 *']),
    job('job/add invalid field', 'job/add', 'add with an unlisted salary_unit', 'invalid-salary-unit', ['job/add: an invalid salary_unit answers 412*']),
    job('job/add missing field', 'job/add', 'add without a required field', 'missing-field', ['job/add: a job without a required field answers 412']),
    job('job/close published', 'job/close', 'close a published job, then its public page', 'lifecycle', ['job/close: closing the job answers status 200*', 'job/close: the public page answers 404 after close']),
    job('job/expire closed', 'job/expire', 'expire the closed job', 'lifecycle', ['job/expire: expiring the job answers status 200*']),
    job('job/repost expired', 'job/repost', 'repost the expired job with a closing_date', 'lifecycle', ['job/repost: reposting the job with a closing_date answers status 200*']),
    job('job/delete reposted', 'job/delete', 'delete the reposted job, then its public page', 'lifecycle', ['job/delete: deleting the job answers status 200*', 'job/delete: the public page answers 404 after delete']),
    job('job/expire public page', 'job/expire', 'the public page after expire', undefined, [], 'the spec says what expire does ("no longer accepting applications"), not what the public page then answers; the lifecycle expires a job it closed, whose page answers 404 by close: a request would tell nothing the spec states'),
    job('job/repost public page', 'job/repost', 'the public page after repost', undefined, [], 'the spec gives repost new closing and expiry dates, and never says whether a reposted job is published again: what its page answers is not the spec’s to say (the page after delete, asked next, answers 404)'),
    ...(['close', 'expire', 'repost', 'delete'] as const).map((op) => job(`job/${op} deleted`, `job/${op}`, `${op} a deleted job`, 'after-delete', [`job/delete: ${op} of the deleted job is refused`])),
  ]
}

/**
 * The forms of the constrained fields the spec lists. job_industry by form (a sector
 * alone, `<Sector>/<Sub_sector>`, and both with a sector name that itself holds a slash
 * and spaces); the other fields by value. Each form is tried by the valid add of the
 * lifecycle turn, one form a night, the one tried longest ago (the ledger) first; with
 * --rate-limit-window 0 (no window to spend) the lifecycle's check adds a valid job for
 * each form in the one run.
 */
export const FIELD_FORMS = [
  { field: 'job_industry', form: 'sector', value: 'Veterinary Surgeon' },
  { field: 'job_industry', form: 'sector/sub-sector', value: 'Veterinary Surgeon/Small Animal Vet Surgeon' },
  { field: 'job_industry', form: 'sector with a slash', value: 'Veterinary Admin / Other' },
  { field: 'job_industry', form: 'sector with a slash/sub-sector', value: 'Veterinary Admin / Other/Vet Care Assistant' },
  ...['Full time', 'Part time', 'Night time'].map((value) => ({ field: 'job_type' as const, form: value, value })),
  ...['Permanent', 'Locum', 'Contract', 'Maternity cover', 'Temporary'].map((value) => ({ field: 'contract_type' as const, form: value, value })),
  ...['Per hour', 'Per year', 'Per week', 'Per month'].map((value) => ({ field: 'salary_unit' as const, form: value, value })),
  { field: 'salary_currency', form: 'GBP', value: 'GBP' },
  ...['yes', 'no'].map((value) => ({ field: 'job_telecommute' as const, form: value, value })),
] as const

/** A constrained-field form's cell id; the ledger keeps when it was last tried as `form <id>`. */
export const formCellId = (f: { field: string; form: string }) => `job/add ${f.field} ${f.form}`
export const formLedgerName = (id: string) => `form ${id}`

function formCells(): Cell[] {
  return FIELD_FORMS.map((f) => ({
    id: formCellId(f),
    family: 'field-form',
    endpoint: 'job/add',
    shape: `a valid add with ${f.field} \`${f.value}\``,
    asks: 'lifecycle',
    checks: ['job/add: a valid job answers 200*'],
    writes: true,
  }))
}

/** Each request case the schemas yield (src/contract/cases.ts): what the spec allows and what it forbids, one write turn each. */
function caseCells(): Cell[] {
  return REQUEST_CASES.map((c) => ({
    id: c.id,
    family: 'request-case',
    endpoint: c.endpoint,
    shape: `${c.shape} (${c.allowed ? 'allowed: status 200' : c.open !== undefined ? "the spec's words leave it open: accepted, or 412 naming the field" : 'forbidden: 412 naming the field'})`,
    asks: caseTurn(c),
    checks: [`${c.endpoint}: ${c.name}`],
    writes: true,
  }))
}

export const MATRIX: readonly Cell[] = [...listCells(), ...detailCells(), ...downloadCells(), ...jobCells(), ...formCells(), ...caseCells()]

export type CellStatus =
  | { status: 'checked' }
  | { status: 'skipped'; why: 'not applicable' | 'not asked' | 'budget' | '429' | 'outage' | 'read-only' | 'not selected'; reason: string }
  | { status: 'not reached'; reason?: string }

/**
 * What became of a cell in a run, from the results of its checks: checked when one was
 * made (passed or failed) — a walk's cell only when the run walked it in full, else skipped
 * for budget (the ledger walks it in full on a later run); else skipped as the first of them was (not applicable, not due
 * this run: budget, rate limited: 429 or left out by the ledger: budget, the service erred:
 * outage); not reached when none reported, or when its answer came and could not be read
 * for what it holds (a live board's arrivals the check cannot tell from a fault). A cell the plan never asks is skipped as not
 * asked, a write cell of a read-only run as read-only.
 */
export function cellStatus(cell: Cell, results: readonly CheckResult[], writes: boolean, formsTried: readonly string[] = [], groups?: readonly string[], walks: readonly WalkEntry[] = []): CellStatus {
  if (cell.asks === undefined) return { status: 'skipped', why: 'not asked', reason: cell.why ?? '' }
  if (cell.writes && !writes) return { status: 'skipped', why: 'read-only', reason: 'a read-only run (no --writes)' }
  if (groups !== undefined && !groups.includes(groupOfCell(cell))) return { status: 'skipped', why: 'not selected', reason: `the ${groupOfCell(cell)} group is not selected` }
  const mine = results.filter((r) => cell.checks.some((pattern) => matches(pattern, `${r.endpoint}: ${r.name}`)))
  if (cell.family === 'field-form') {
    const made = mine.some((r) => r.status === 'pass' || r.status === 'fail')
    if (made && formsTried.includes(cell.id)) return { status: 'checked' }
    if (made || mine.some((r) => r.status === 'skip' && r.skip === 'not-due')) return { status: 'skipped', why: 'budget', reason: 'another form took this run’s one valid add; the ledger brings this one round on a later run' }
  }
  if (cell.asks === 'walk') {
    const walk = walks.find((w) => w.id === cell.id.replace(/ walk$/, ''))
    if (walk && !walk.full && mine.some((r) => r.status === 'pass' || r.status === 'fail')) return { status: 'skipped', why: 'budget', reason: `walked in part: pages ${walk.read}${walk.pages === undefined ? '' : ` of ${walk.pages}`} (${walk.why})` }
  }
  if (mine.some((r) => r.status === 'pass' || r.status === 'fail')) return { status: 'checked' }
  const first = mine[0]
  if (first === undefined) return { status: 'not reached' }
  const reason = first.reason ?? ''
  if (first.status === 'error') return { status: 'skipped', why: 'outage', reason }
  if (first.skip === 'not-due') return { status: 'skipped', why: 'budget', reason }
  if (first.skip === 'unavailable') {
    if (/\b429\b/.test(reason)) return { status: 'skipped', why: '429', reason }
    if (/ledger|window/i.test(reason)) return { status: 'skipped', why: 'budget', reason }
    // asked, and its answer could not be read for what it holds (a live board's arrivals, an answer it needed missing)
    return { status: 'not reached', reason }
  }
  return { status: 'skipped', why: 'not applicable', reason }
}

/** The group (--only, --skip) whose checks read a cell. */
export function groupOfCell(cell: Pick<Cell, 'family' | 'endpoint'>): string {
  if (cell.family === 'job' || cell.family === 'field-form' || cell.family === 'request-case') return 'jobs'
  if (cell.endpoint === 'candidates/timesheets/download/{id}') return 'timesheets'
  return cell.endpoint.split('/')[0] as string
}

/** Whether a cell's status leaves a run incomplete under --require-complete: not reached, or left out by a 429 or an outage. */
export const incomplete = (s: { status: CellStatus['status']; why?: string }) => s.status === 'not reached' || (s.status === 'skipped' && (s.why === '429' || s.why === 'outage'))

const cellText = (text: string) => text.replace(/\|/g, '\\|')

/** The matrix as a Markdown table, for docs/contract.md. */
export function renderMatrix(cells: readonly Cell[] = MATRIX): string {
  const rows = cells.map((c) => `| ${cellText(c.id)} | ${cellText(c.shape)} | ${c.asks === undefined ? `not asked: ${cellText(c.why ?? '')}` : `\`${c.asks}\`${c.writes ? ' (--writes)' : ''}`} | ${c.checks.map((p) => `\`${cellText(p)}\``).join('<br>') || '—'} |`)
  return `${['| Cell | Request shape | Asked by | Read by checks |', '|---|---|---|---|', ...rows].join('\n')}\n`
}

/** One cell as the report carries it: what it is and what became of it in the run. */
export interface MatrixEntry {
  id: string
  family: Family
  endpoint: string
  shape: string
  status: CellStatus['status']
  /** Why it was skipped. */
  why?: string
  /** The skipped check's reason, or the cell's own. */
  reason?: string
}

/** Every cell of the matrix and what became of it in a run. */
export function matrixOf(results: readonly CheckResult[], writes: boolean, formsTried: readonly string[] = [], groups?: readonly string[], walks: readonly WalkEntry[] = [], cells: readonly Cell[] = MATRIX): MatrixEntry[] {
  return cells.map((cell) => {
    const s = cellStatus(cell, results, writes, formsTried, groups, walks)
    return { id: cell.id, family: cell.family, endpoint: cell.endpoint, shape: cell.shape, status: s.status, ...(s.status === 'skipped' ? { why: s.why, reason: s.reason } : s.status === 'not reached' && s.reason ? { reason: s.reason } : {}) }
  })
}

/** A cell's mark in the summary: ✓ checked, – skipped (why), · not reached. */
export const markOf = (entry: Pick<MatrixEntry, 'status' | 'why'>) => (entry.status === 'checked' ? '✓' : entry.status === 'skipped' ? `– ${entry.why === 'not applicable' ? 'n/a' : entry.why}` : '·')

/** The count line of the matrix: how many cells were checked, skipped (by why) and not reached. */
export function matrixCountLine(entries: readonly MatrixEntry[]): string {
  const count = (status: MatrixEntry['status']) => entries.filter((e) => e.status === status).length
  const whys = new Map<string, number>()
  for (const e of entries) if (e.status === 'skipped') whys.set(e.why ?? '', (whys.get(e.why ?? '') ?? 0) + 1)
  const skipped = [...whys].map(([why, n]) => `${n} ${why}`).join(', ')
  return `Request matrix: ${entries.length} cells, ${count('checked')} checked, ${count('skipped')} skipped${skipped ? ` (${skipped})` : ''}, ${count('not reached')} not reached`
}

/**
 * The matrix as the summary prints it: one compact table, the lists as a grid of
 * filter × position, the other families a line each; then the count line.
 */
export function matrixLines(entries: readonly MatrixEntry[]): string[] {
  const by = new Map(entries.map((e) => [e.id, e]))
  const mark = (id: string) => {
    const entry = by.get(id)
    return entry === undefined ? '' : markOf(entry)
  }
  const width = 14
  // the longest row label: a list with a combination of filters (`applications/list since+vacancy`)
  const LABEL = Math.max(26, ...LIST_NAMES.flatMap((list) => (COMBINATIONS[list] ?? []).map((c) => `${list}/list ${c}`.length + 2)))
  const lines = ['Request matrix (✓ checked, – skipped (why), · not reached):', `  ${''.padEnd(LABEL)}${POSITIONS.map((p) => p.padEnd(width)).join('')}`.trimEnd()]
  for (const list of LIST_NAMES) {
    for (const filter of [...FILTERS, ...(COMBINATIONS[list] ?? [])]) {
      if (!by.has(`${list}/list ${filter} first`)) continue
      lines.push(`  ${`${list}/list${filter === 'none' ? '' : ` ${filter}`}`.padEnd(LABEL)}${POSITIONS.map((p) => mark(`${list}/list ${filter} ${p}`).padEnd(width)).join('')}`.trimEnd())
    }
  }
  const others: Array<[string, Family]> = [
    ['details', 'details'],
    ['downloads', 'download'],
    ['jobs', 'job'],
    ['field forms', 'field-form'],
    ['request cases', 'request-case'],
  ]
  for (const [label, family] of others) {
    const cells = entries.filter((e) => e.family === family)
    if (cells.length === 0) continue
    const marks = new Set(cells.map(markOf))
    // a family whose cells all went one way is one mark (a read-only run's write cells)
    const counted = [...marks].map((mark) => `${cells.filter((e) => markOf(e) === mark).length} ${mark}`).join(', ')
    // a family of many cells (the request cases) is counted by mark, and names those not checked
    const unchecked = cells.filter((e) => e.status !== 'checked')
    const many = cells.length > 30 ? `${cells.length}: ${counted}${unchecked.length > 0 && unchecked.length <= 5 ? ` (${unchecked.map((e) => e.id).join('; ')})` : ''}` : undefined
    const shown = marks.size === 1 ? `all ${cells.length} ${markOf(cells[0] as MatrixEntry)}` : many ?? cells.map((e) => `${e.id.replace(/^job\/add /, '').replace('/{id}', '')} ${markOf(e)}`).join('; ')
    lines.push(`  ${label.padEnd(14)}${shown}`)
  }
  lines.push(matrixCountLine(entries))
  return lines
}
