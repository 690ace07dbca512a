// The request cases (src/contract/cases.ts) are the request schemas walked, not a list: every
// field of each body the spec shows has its cases, every keyword that states a rule (type,
// items, enum, format, pattern, minimum, maximum) breaks it once, every required field is left
// out once and every optional one sent in its documented form (or, where the valid request
// carries it, left out); each forbidden body fails its schema and each allowed one fits; each
// case is a write turn, a cell of the request matrix and a check with the spec's words.
import t from 'tap'
import { jobIdBody, jobInput, jobRepostBody } from '../../schemas/job.js'
import { CASE_RULES, FREE_TEXT, FREE_TEXT_FIELDS, fitsSchema, namesField, REQUEST_CASES, UNSTATED, type CaseOperation } from '../../src/contract/cases.js'
import { TURNS } from '../../src/contract/write-turns.js'
import { MATRIX } from '../../src/contract/matrix.js'
import { citationOf } from '../../src/contract/rules.js'

const NOW = Date.UTC(2026, 10, 22, 9, 30)
const VALID_JOB = {
  published: 1,
  featured: 0,
  job_title: 'Contract check',
  job_reference: 'CONTRACT-1',
  job_industry: 'Veterinary Surgeon',
  job_telecommute: 'no',
  job_location: 'Leeds (contract check)',
  job_latitude: 53.8008,
  job_longitude: -1.5491,
  job_type: 'Full time',
  contract_type: 'Permanent',
  job_description: 'A test job',
  contact_name: 'jobboard-kit',
  contact_email: 'contract-check@example.com',
  salary_visible: '40,000 per year',
  salary_precise: '40000',
  salary_unit: 'Per year',
  salary_currency: 'GBP',
  require_cv: 0,
}
const BASES: Record<CaseOperation, Record<string, unknown>> = {
  add: VALID_JOB,
  repost: { id: 12, closing_date: '2026-12-22 17:00' },
  delete: { id: 12 },
}
const SCHEMAS = { add: jobInput, repost: jobRepostBody, delete: jobIdBody } as const
const STATING = ['type', 'enum', 'format', 'pattern', 'minimum', 'maximum'] as const
const KIND_OF: Record<(typeof STATING)[number], string[]> = { type: ['type'], enum: ['enum'], format: ['form'], pattern: ['form'], minimum: ['minimum'], maximum: ['maximum'] }

t.test('each base is valid, each forbidden body fails its schema and each allowed one fits it', async (t) => {
  for (const operation of ['add', 'repost', 'delete'] as const) t.ok(fitsSchema(operation, BASES[operation]), `the ${operation} base fits`)
  for (const c of REQUEST_CASES) {
    const body = c.body(BASES[c.operation], NOW)
    t.equal(fitsSchema(c.operation, body), c.allowed, `${c.id}: ${c.allowed ? 'fits' : 'fails'} the schema (${JSON.stringify(body[c.field]) ?? 'absent'})`)
  }
})

t.test('every field of each body, and every keyword of it that states a rule, has its case', async (t) => {
  for (const [operation, schema] of Object.entries(SCHEMAS) as Array<[CaseOperation, (typeof SCHEMAS)[CaseOperation]]>) {
    const required: string[] = [...schema.required, ...('else' in schema ? schema.else.required : [])]
    for (const [field, rule] of Object.entries(schema.properties) as Array<[string, Record<string, unknown>]>) {
      const kinds = REQUEST_CASES.filter((c) => c.operation === operation && c.field === field).map((c) => c.kind)
      t.ok(kinds.includes(required.includes(field) ? 'missing' : field === 'closing_date' && operation === 'repost' ? 'optional-absent' : 'optional-present'), `${operation} ${field}: left out, or sent in its form`)
      const unstated: readonly string[] = (UNSTATED as Record<string, readonly string[]>)[field] ?? []
      for (const keyword of STATING) {
        if (rule[keyword] === undefined || unstated.includes(keyword)) continue
        t.ok(KIND_OF[keyword].some((kind) => kinds.includes(kind as never)), `${operation} ${field}: its ${keyword} is broken by a case`)
      }
      if ((rule.items as { type?: string } | undefined)?.type !== undefined) t.ok(kinds.includes('item-type'), `${operation} ${field}: an item of another type`)
    }
  }
  t.notOk(REQUEST_CASES.some((c) => c.operation !== 'add' && c.field === 'id' && (c.kind === 'minimum' || c.kind === 'maximum')), "an id's bounds are the schemas', not the spec's: no case")
  t.equal(new Set(REQUEST_CASES.map((c) => c.id)).size, REQUEST_CASES.length, 'no two cases share an id')
})

t.test('the five sentences the issue found unchecked are cases', async (t) => {
  const has = (id: string, allowed: boolean) => t.equal(REQUEST_CASES.find((c) => c.id === id)?.allowed, allowed, id)
  has('job/add job_latitude maximum', false)
  has('job/add job_latitude minimum', false)
  has('job/add contact_email form', false)
  has('job/add salary_precise form', false)
  for (const flag of ['published', 'featured', 'require_cv', 'hot', 'internal', 'close_automatically']) has(`job/add ${flag} enum`, false)
  has('job/repost closing_date optional-absent', true)
  t.equal(REQUEST_CASES.find((c) => c.id === 'job/add hot enum')?.body(VALID_JOB, NOW).hot, 2, 'a 0/1 field sent as 2')
})

t.test('the free-text case fills every field the job schema leaves free with text beyond plain ASCII, and is allowed', async (t) => {
  const props = (jobInput as unknown as { properties: Record<string, { type?: string; enum?: unknown; format?: string; pattern?: string; items?: { type?: string } }> }).properties
  const free = Object.entries(props).filter(([, s]) => (s.type === 'string' || s.items?.type === 'string') && s.enum === undefined && s.format === undefined && s.pattern === undefined)
  t.same([...FREE_TEXT_FIELDS], free.map(([f]) => f), 'the strings (and lists of strings) with no listed values, form or pattern')
  t.ok(FREE_TEXT_FIELDS.includes('job_title') && !FREE_TEXT_FIELDS.includes('keywords') && !FREE_TEXT_FIELDS.includes('job_industry'), 'job_title is free text; keywords (a pattern) and job_industry (a list) are not')
  for (const [what, re] of [['a letter beyond ASCII', /(?![A-Za-z])\p{L}/u], ['a comma', /,/], ['an apostrophe', /'/], ['a slash', /\//], ['a digit', /[0-9]/]] as const) t.match(FREE_TEXT, re, `the text holds ${what}`)
  const c = REQUEST_CASES.find((x) => x.kind === 'free-text')
  t.equal(c?.allowed, true, 'one case, allowed')
  const body = c?.body(VALID_JOB, NOW) ?? {}
  t.ok(fitsSchema('add', body), 'its body fits the job schema')
  for (const field of FREE_TEXT_FIELDS) t.same([body[field]].flat(), [FREE_TEXT], `${field} holds the text`)
})

t.test('each case is a write turn, a cell of the matrix and a check that cites the spec', async (t) => {
  for (const c of REQUEST_CASES) {
    const turn = TURNS.find((x) => x.name === `case ${c.id}`)
    t.ok(turn?.needs.includes(c.operation), `${c.id}: a turn needing POST /job/${c.operation}`)
    t.ok(MATRIX.some((cell) => cell.id === c.id && cell.family === 'request-case'), `${c.id}: a cell`)
    const citation = citationOf(`${c.endpoint}: ${c.name}`)
    t.equal(citation.kind, 'spec', `${c.id}: cites the spec`)
    const fields = c.kind === 'free-text' ? FREE_TEXT_FIELDS : [c.field]
    for (const field of fields) if (citation.kind === 'spec' && c.operation === 'add') t.ok(citation.words.some((w) => w.startsWith(`${field} | `)), `${c.id}: with ${field}'s row of the Job table`)
  }
  t.ok(citationOf('job/repost: a repost without the optional closing_date is accepted with status 200').kind === 'spec')
  const repost = CASE_RULES.find((r) => r.operation === 'repost' && r.field === 'closing_date')
  t.ok(repost?.spec.includes('The request may carry `closing_date`.'), 'the repost row quotes "The request may carry `closing_date`."')
})

t.test('a message names a field by its name or its words', async (t) => {
  t.ok(namesField('The salary unit (field salary_unit) is invalid', 'salary_unit'))
  t.ok(namesField('The job latitude is invalid.', 'job_latitude'))
  t.ok(namesField('The job_latitude field is required.', 'job_latitude'))
  t.notOk(namesField('The job longitude is invalid.', 'job_latitude'))
  t.notOk(namesField('hot water', 'hot_list'))
  t.notOk(namesField(undefined, 'hot'))
  t.notOk(namesField('The shot is invalid', 'hot'), 'a name inside another word is not it')
})
