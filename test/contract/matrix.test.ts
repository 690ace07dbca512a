// The request matrix (src/contract/matrix.ts) against the docs and the plan: docs/contract.md
// shows the table as renderMatrix() renders it; every cell is asked by a request of the plan
// (a method of Plan, or a write turn) or says why not; every method of the plan that asks a
// request shape is some cell's; the constrained fields' forms the spec lists are all cells.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ROOT } from '../helpers/cli.js'
import { TURNS } from '../../src/contract/write-turns.js'
import { COMBINATIONS, FIELD_FORMS, MATRIX, renderMatrix } from '../../src/contract/matrix.js'
import { filtersOf, LISTS } from '../../src/contract/lists.js'
import { Plan } from '../../src/contract/plan.js'

/** Methods of the plan that ask no cell of the matrix, and why: each new method must be one or the other. */
const NOT_SHAPES: Record<string, string> = {
  constructor: 'not a request',
  fields: 'job/fields: no shape of a list, details, download or job operation',
  metrics: 'metrics/list: one shape only',
  firstPage: 'reads first()',
  records: 'reads first() and next()',
  sinceValue: 'works out since',
  emptySince: 'works out since',
  malformedSince: 'a refusal, observed (not a shape the spec allows)',
  vacancyId: 'works out the vacancy',
  unknown: 'an id no board has: a refusal, observed',
  spare: 'a URL only',
  withoutCredentials: 'the auth checks',
  wrongCredentials: 'the auth checks',
  wrongPassword: 'the auth checks',
  detailWithoutCredentials: 'the auth checks',
  authForm: 'the auth checks: the credentials sent in another form (a spare page)',
  withContentType: 'a header on the first page (window 0) or a spare page, not a shape of the query: the Content-Type check of GETs',
  combinedQuery: 'works out the query of a combination of filters',
  downloadWithoutCredentials: 'the auth checks',
  freshUrls: 'the rate-limit check',
  resolve: 'follows links already asked',
  inTurn: 'downloads and details a list links, a share a run in turn (in-turn.ts): more of the download and details cells, each path its own request',
  linked: "follows a link of the first pages' records (resolve): a detail or download another cell asks, or one more of its endpoint",
  outOfRange: 'the profile point: one of pastLast()',
  peekOutOfRange: 'reads outOfRange()',
  prefetch: 'asks them all',
  // what the families share (src/contract/plan-basis.ts), seen from outside as methods though TypeScript keeps them to the plan
  once: 'not a request: each request made once',
  asked: 'not a request: whether one was made',
  selected: 'not a request: the groups the run selected',
  notMade: 'not a request: why a check found no record to use',
  fetched: 'reads records()',
  walks: 'reads walk(), one per form of a list',
  walkEntries: 'reads walk(): which went in full, for the report',
}

t.test('docs/contract.md shows the matrix as matrix.ts renders it', async (t) => {
  const docs = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8')
  const table = /<!-- matrix: generated[^>]*-->\n\n([\s\S]*?)<!-- matrix: end -->/.exec(docs)?.[1]
  t.equal(table, renderMatrix(), 'regenerate with npx tsx scripts/render-contract-matrix.ts when a cell changes')
})

/** Every method of the plan, of each of its families (Plan extends them one on another: src/contract/plan.ts). */
function planMethods(): string[] {
  const methods = new Set<string>()
  for (let proto = Plan.prototype; proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) for (const name of Object.getOwnPropertyNames(proto)) methods.add(name)
  return [...methods]
}

t.test('every cell is asked by the plan or says why not, and every cell id is its own', async (t) => {
  const methods = planMethods()
  const turns: readonly string[] = TURNS.map((turn) => turn.name)
  for (const cell of MATRIX) {
    if (cell.asks === undefined) t.ok(cell.why && cell.why.length > 20, `${cell.id}: says why the plan does not ask it`)
    else t.ok(cell.writes ? turns.includes(cell.asks) : methods.includes(cell.asks), `${cell.id}: asked by ${cell.writes ? 'the write turn' : 'Plan.'}${cell.asks}`)
    if (cell.asks !== undefined) t.ok(cell.checks.length > 0, `${cell.id}: names the checks that read it`)
  }
  t.equal(new Set(MATRIX.map((c) => c.id)).size, MATRIX.length, 'no two cells share an id')
})

t.test('every request shape the plan can ask is a row of the matrix', async (t) => {
  const asked = new Set(MATRIX.map((c) => c.asks))
  for (const method of planMethods()) {
    t.ok(asked.has(method) || method in NOT_SHAPES, `Plan.${method} is a cell's request, or says why it is none`)
  }
  for (const turn of TURNS) t.ok(asked.has(turn.name), `the write turn ${turn.name} asks a cell`)
})

t.test("every combination of each list's query parameters, as its route's schema declares them, is a cell", async (t) => {
  for (const list of LISTS) {
    const params = Object.keys(list.query.properties)
    const filters = params.filter((p) => p !== 'page')
    t.same(filters, filtersOf(list), `${list.endpoint}: its filters are its query schema's, but page`)
    for (let mask = 0; mask < 1 << params.length; mask++) {
      const set = params.filter((_, i) => mask & (1 << i))
      const narrowing = set.filter((p) => p !== 'page')
      const filter = narrowing.length === 0 ? 'none' : narrowing.join('+')
      const position = set.includes('page') ? 'second' : 'first'
      t.ok(MATRIX.some((c) => c.id === `${list.endpoint} ${filter} ${position}`), `${list.endpoint} {${set.join(', ')}}: the cell ${filter} ${position}`)
    }
  }
  t.same(COMBINATIONS.applications, ['since+vacancy'], 'applications/list: since with vacancy (the spec\'s since, vacancy and page)')
})

t.test('the matrix has every list × filter × position the spec allows, and the forms of every constrained field', async (t) => {
  for (const list of ['candidates', 'applications', 'timesheets', 'marketing']) {
    for (const filter of list === 'applications' ? ['none', 'since', 'vacancy'] : ['none', 'since']) {
      for (const position of ['first', 'second', 'last', 'empty', 'past-last']) t.ok(MATRIX.some((c) => c.id === `${list}/list ${filter} ${position}`), `${list}/list ${filter} ${position}`)
    }
  }
  t.notOk(MATRIX.some((c) => c.id.startsWith('candidates/list vacancy')), 'vacancy only for applications')
  const industries = FIELD_FORMS.filter((f) => f.field === 'job_industry').map((f) => f.value)
  t.same(industries, ['Veterinary Surgeon', 'Veterinary Surgeon/Small Animal Vet Surgeon', 'Veterinary Admin / Other', 'Veterinary Admin / Other/Vet Care Assistant'], 'a sector, a sector/sub-sector, and both with a sector holding a slash and spaces')
  const spec = readFileSync(join(ROOT, '../shared/spec/job-board-api.md'), 'utf8')
  for (const form of FIELD_FORMS) t.ok(spec.includes(`\`${form.value}\``), `${form.field} ${form.value} is a value the spec lists`)
})
