// The request cases of the job API, derived from the request schemas (schemas/job.ts), not
// listed by hand (issue 34): for each operation whose body the spec shows, a walk of its
// schema yields each required field missing, each constraint broken (a wrong type, a value
// off the listed ones, a wrong form, a number out of range: the keywords type, items, enum,
// format, pattern, minimum and maximum), and each optional field present in its documented
// form and absent. A case the schema allows must be answered as success (status 200); one it
// forbids refused (412 with a message naming the field). Each case is a write turn of its own
// (src/contract/write-turns.ts: one full request per window), a cell of the request matrix
// (matrix.ts) and a check naming the spec's words of its field (rules.ts, CASE_RULES).
// A case whose value the spec's words leave open (the kit's own reading of a form, a rule
// stricter than stated: OPEN_CASES, issue 43 item 4) demands no refusal: a deployment that
// accepts it gets an observation and the profile point openJobValues, never a failure; one
// that refuses it answers as every refusal must (412 naming the field).
import { FORMATS } from '../../schemas/formats.js'
import { jobIdBody, jobInput, jobRepostBody } from '../../schemas/job.js'
import { formatMinute } from '../core/time.js'
import { createAjv } from '../core/validation.js'

export type CaseKind = 'missing' | 'type' | 'item-type' | 'enum' | 'form' | 'minimum' | 'maximum' | 'optional-present' | 'optional-absent' | 'free-text'

/** The operations whose body the spec shows ("body of close: not shown", "body of expire: not shown": none for those). */
export const CASE_OPERATIONS = ['add', 'repost', 'delete'] as const
export type CaseOperation = (typeof CASE_OPERATIONS)[number]

export interface RequestCase {
  /** Stable: the ledger, the matrix and the report name a case by it (`job/add job_latitude maximum`). */
  id: string
  operation: CaseOperation
  /** The endpoint as checks are grouped under (`job/add`). */
  endpoint: string
  field: string
  kind: CaseKind
  /** Whether the spec allows the request (success) or forbids it (a 412 naming the field), as the kit's schemas read it. */
  allowed: boolean
  /** A forbidden case whose value the spec's words leave open: why (OPEN_CASES). Accepted or refused alike, never a failure for either. */
  open?: string
  /** The check's name. */
  name: string
  /** The request in words. */
  shape: string
  /** Whether the body names a live job the kit added for the case (repost of a job with one field broken). */
  needsJob: boolean
  /** The body, from the valid base (the kit's valid job, or `{id, closing_date}` of a live job) and the clock. */
  body(base: Record<string, unknown>, now: number): Record<string, unknown>
}

interface FieldSchema {
  type?: string
  enum?: readonly unknown[]
  format?: string
  pattern?: string
  minimum?: number
  maximum?: number
  items?: FieldSchema
  examples?: readonly unknown[]
}

interface BodySchema {
  required: readonly string[]
  properties: Readonly<Record<string, FieldSchema>>
  else?: { required?: readonly string[] }
}

const DAY_MS = 86_400_000

/**
 * Values no reading of a form takes, by format name: an address without @, a date in
 * another order, words for a URL. Each is checked against the format by the test.
 */
const BROKEN_FORMS: Readonly<Record<string, string>> = {
  email: 'contract-check.example.com',
  'job-date': '22/11/2026 09:30',
  uri: 'apply on our site (contract check)',
}

/** Candidates for a value off a pattern: the first the pattern refuses is sent. */
const OFF_PATTERN = ['forty thousand (contract check)', 'vet,,nurse', ' ']

/**
 * Text any field of free text must take: letters beyond ASCII, punctuation, a comma, an
 * apostrophe, a slash and digits. Legal in every reading of "free text": not empty, no markup,
 * nothing a deployment storing text may refuse.
 */
export const FREE_TEXT = "Zoë O'Brien, Ärztin/vet nurse — 24/7 cover in Malmö (2 posts; 3.5 days)"

/** Whether a field is free text: a string (or a list of strings) with no listed values, form or pattern. */
const isFreeText = (schema: FieldSchema): boolean =>
  schema.type === 'array' ? schema.items !== undefined && isFreeText(schema.items) : schema.type === 'string' && schema.enum === undefined && schema.format === undefined && schema.pattern === undefined

/** The free-text fields of job/add, from its schema (schemas/job.ts). */
export const FREE_TEXT_FIELDS: readonly string[] = Object.entries((jobInput as unknown as BodySchema).properties)
  .filter(([, schema]) => isFreeText(schema))
  .map(([field]) => field)

/** The spec's words the free-text case rests on (rules.ts quotes them). */
export const FREE_TEXT_WORDS = 'The names of the fields other than those listed as required are those of the add payload; any field not in a constrained list is free text.'

/** The case of every free-text field of job/add holding FREE_TEXT (a list of it where the field is a list): allowed. */
function freeTextCase(): RequestCase {
  const endpoint = 'job/add'
  const shape = `a job with each free-text field (${FREE_TEXT_FIELDS.join(', ')}) holding ${JSON.stringify(FREE_TEXT)}`
  const props = (jobInput as unknown as BodySchema).properties
  return {
    id: `${endpoint} free-text fields free-text`,
    operation: 'add',
    endpoint,
    field: 'free-text fields',
    kind: 'free-text',
    allowed: true,
    name: `a job with each free-text field holding ${JSON.stringify(FREE_TEXT)} is accepted with status 200`,
    shape,
    needsJob: false,
    body: (base) => ({ ...base, ...Object.fromEntries(FREE_TEXT_FIELDS.map((f) => [f, props[f]?.type === 'array' ? [FREE_TEXT] : FREE_TEXT])) }),
  }
}

/** A value of a field's documented form: its example, or its format's (a job date a month on), or plain text. */
export function validValue(schema: FieldSchema, now: number): unknown {
  if (schema.enum !== undefined) return schema.enum.at(-1)
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0]
  if (schema.format === 'job-date') return formatMinute(now + 30 * DAY_MS)
  if (schema.format === 'email') return 'contract-check@example.com'
  if (schema.format === 'uri') return 'https://example.com/jobboard-kit/apply'
  if (schema.format !== undefined && schema.format in FORMATS) return FORMATS[schema.format as keyof typeof FORMATS].example
  if (schema.type === 'array') return ['jobboard-kit contract check', 'please ignore']
  if (schema.type === 'integer') return schema.minimum ?? 1
  if (schema.type === 'number') return ((schema.minimum ?? 0) + (schema.maximum ?? 0)) / 2
  return 'jobboard-kit contract check'
}

/**
 * A value of another JSON type than the schema's: a number's digits as text (an id's own
 * digits, so that a deployment that reads it anyway acts on the case's job, never another),
 * a number for text, text for a list.
 */
function wrongType(schema: FieldSchema, given?: unknown): unknown {
  switch (schema.type) {
    case 'integer':
      return String(given ?? schema.enum?.at(-1) ?? 1)
    case 'number':
      return '53.8'
    case 'array':
      return 'jobboard-kit contract check'
    default:
      return 42
  }
}

/** A value off a pattern, from OFF_PATTERN. */
function offPattern(pattern: string): string | undefined {
  const re = new RegExp(pattern, 'u')
  return OFF_PATTERN.find((value) => !re.test(value))
}

const DATE_SHAPE =
  '"Format of closing_date and expiry_date: not shown beyond the shape of the sample, which matches available_from.": the sample\'s shape is shown, not that a date in another form is refused'
const MERIDIAN =
  '"must denote a real point" ("same rule as job_latitude"): a longitude is an angle round the axis, and one past ±180 names a real meridian written past the antimeridian (180.5 is 179.5 west); a latitude has no such wrap, so past ±90 stays no point and is refused'
const LOCATION_LIST =
  '"not required when job_location is taken from the predefined location list": the list is not shown, so whether the kit\'s job_location (free text of its own) is on it the kit cannot tell'

/**
 * The cases whose value the spec's words leave open, by case id, each with why (issue 43
 * item 4; docs/contract.md, "No alarm the words do not back"). Every other forbidden case
 * rests on words that make its value invalid: a type the table's Type column does not give,
 * 2 for "1 or 0", a value off a list, no @ for "e-mail address", words for "numeric text" or
 * for a URL, `22/11/2026 09:30` for "format `YYYY-MM-DD H:i`", a latitude off the globe, a
 * required field left out.
 */
export const OPEN_CASES: Readonly<Record<string, string>> = {
  'job/add closing_date form': DATE_SHAPE,
  'job/add expiry_date form': DATE_SHAPE,
  'job/repost closing_date form': `"in the form of the date fields" names a form the spec leaves open for closing_date: ${DATE_SHAPE}`,
  'job/add keywords form': '"comma-separated list" does not say whether an item may be empty: "vet,,nurse" is a comma-separated list with an empty item',
  'job/add job_longitude minimum': MERIDIAN,
  'job/add job_longitude maximum': MERIDIAN,
  'job/add job_latitude missing': LOCATION_LIST,
  'job/add job_longitude missing': LOCATION_LIST,
}

/** What the spec's rule of a body (the request schema) is: the base it starts from, and which fields it leaves out of the cases and why. */
interface Operation {
  operation: CaseOperation
  schema: BodySchema
  /** What a body of the operation is, in words. */
  noun: string
  /** Keywords of a field the spec does not state (the schema's own bounds), with why no case is made of them. */
  unstated?: Readonly<Record<string, readonly string[]>>
  /** Whether the case's body names a live job (a field other than the id is what is broken or left out). */
  live: (field: string) => boolean
  /** The optional fields the base already carries: their presence is the base itself, not a case. */
  inBase: readonly string[]
}

/**
 * Why some keywords of the schemas make no case: an id's bounds are the schemas' (the spec
 * gives `{id: integer}`), and an id outside them is one no job has, which a deployment may
 * answer with a 404 (not shown).
 */
export const UNSTATED = { id: ['minimum', 'maximum'] } as const

const OPERATIONS: readonly Operation[] = [
  { operation: 'add', schema: jobInput as unknown as BodySchema, noun: 'a job', live: () => false, inBase: [] },
  { operation: 'repost', schema: jobRepostBody as unknown as BodySchema, noun: 'a repost', unstated: UNSTATED, live: (field) => field !== 'id', inBase: ['closing_date'] },
  { operation: 'delete', schema: jobIdBody as unknown as BodySchema, noun: 'a delete', unstated: UNSTATED, live: () => false, inBase: [] },
]

const shown = (value: unknown) => JSON.stringify(value)

/** The cases of one operation, walking its schema. */
function casesOf(op: Operation): RequestCase[] {
  const endpoint = `job/${op.operation}`
  const required = [...op.schema.required, ...(op.schema.else?.required ?? [])]
  const conditional = new Set(op.schema.else?.required ?? [])
  const cases: RequestCase[] = []
  const add = (field: string, kind: CaseKind, allowed: boolean, what: string, body: RequestCase['body']) => {
    const id = `${endpoint} ${field} ${kind}`
    const open = OPEN_CASES[id]
    const outcome = allowed ? 'is accepted with status 200' : open !== undefined ? `is accepted, or refused with 412 naming ${field} (the spec's words leave it open)` : `is refused with 412 naming ${field}`
    cases.push({
      id,
      operation: op.operation,
      endpoint,
      field,
      kind,
      allowed,
      ...(open === undefined ? {} : { open }),
      name: `${op.noun} ${what} ${outcome}`,
      shape: `${op.noun} ${what}`,
      needsJob: op.live(field),
      body,
    })
  }
  const without = (base: Record<string, unknown>, field: string) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field))
  const withValue = (field: string, value: unknown) => (base: Record<string, unknown>) => ({ ...base, [field]: value })
  for (const [field, schema] of Object.entries(op.schema.properties)) {
    const skip = new Set<string>(op.unstated?.[field] ?? [])
    if (required.includes(field)) {
      const unless = conditional.has(field) ? ' (job_location not from the predefined list)' : ''
      add(field, 'missing', false, `without ${field}${unless}`, (base) => without(base, field))
    } else if (!op.inBase.includes(field)) {
      add(field, 'optional-present', true, `with the optional ${field} in its documented form`, (base, now) => ({ ...base, [field]: validValue(schema, now) }))
    } else {
      add(field, 'optional-absent', true, `without the optional ${field}`, (base) => without(base, field))
    }
    const wrong = schema.type === 'integer' ? 'its number written as text' : shown(wrongType(schema))
    add(field, 'type', false, `with ${field} of another type (${wrong})`, (base) => ({ ...base, [field]: wrongType(schema, base[field]) }))
    if (schema.type === 'array' && schema.items?.type !== undefined) {
      const item = wrongType(schema.items)
      add(field, 'item-type', false, `with ${field} holding an item of another type (${shown([item])})`, withValue(field, [item]))
    }
    if (schema.enum !== undefined) {
      // a flag's 2; a constrained field's value the board does not list (job/fields' values are bound at run time)
      const unlisted = schema.type === 'integer' ? Math.max(...(schema.enum as number[])) + 1 : 'jobboard-kit contract check (not a listed value)'
      add(field, 'enum', false, `with ${field} not one of its listed values (${shown(unlisted)})`, withValue(field, unlisted))
    }
    const broken = schema.format !== undefined ? BROKEN_FORMS[schema.format] : schema.pattern !== undefined ? offPattern(schema.pattern) : undefined
    if (broken !== undefined) add(field, 'form', false, `with ${field} not in its form (${shown(broken)})`, withValue(field, broken))
    if (schema.minimum !== undefined && !skip.has('minimum')) {
      const below = schema.minimum - 0.5
      add(field, 'minimum', false, `with ${field} below its range (${below})`, withValue(field, below))
    }
    if (schema.maximum !== undefined && !skip.has('maximum')) {
      const above = schema.maximum + 0.5
      add(field, 'maximum', false, `with ${field} above its range (${above})`, withValue(field, above))
    }
  }
  return cases
}

/** Every request case of the job API, operation by operation, field by field, in the schemas' order. */
export const REQUEST_CASES: readonly RequestCase[] = [...OPERATIONS.flatMap(casesOf), freeTextCase()]

/** The write turn of a request case (src/contract/write-turns.ts), as the ledger keeps it. */
export const caseTurn = (c: Pick<RequestCase, 'id'>) => `case ${c.id}`

/** A message names a field when it holds its name, or its words with spaces (`salary unit`). */
export function namesField(message: string | undefined, field: string): boolean {
  if (message === undefined) return false
  const words = field.split('_').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`(^|[^a-z0-9])${words.join('[ _-]?')}([^a-z0-9]|$)`, 'i').test(message)
}

/** The schema of a case's operation, for checking that a case's body is what it says (the test). */
export const schemaOf = (operation: CaseOperation): object => (OPERATIONS.find((o) => o.operation === operation) as Operation).schema

/** Whether a body fits its operation's schema (with the spec's constrained values). */
export function fitsSchema(operation: CaseOperation, body: unknown): boolean {
  return createAjv().validate(schemaOf(operation), body) as boolean
}

/**
 * The spec's words each case rests on, by operation and field: the field's row of the Job
 * table (its type and rule), the request of repost and delete as the Jobs table gives it;
 * then what a refusal is and when a field may be left out. rules.ts makes a row of each
 * field from these (CASE_RULES); the rules test finds every quote in the spec.
 */
export const FIELD_WORDS: Readonly<Record<CaseOperation, Readonly<Record<string, string>>>> = {
  add: {
    published: 'published | integer | 1 or 0',
    featured: 'featured | integer | 1 or 0',
    job_title: 'job_title | string | free text',
    job_reference: 'job_reference | string | free text',
    job_industry: 'job_industry | string | one of the job_industry values below',
    job_telecommute: 'job_telecommute | string | `yes` or `no`',
    job_location: 'job_location | string | free text; the location shown to candidates in results and filters; may be a value from a predefined location list',
    job_latitude: 'job_latitude | number (double) | must denote a real point; not required when job_location is taken from the predefined location list',
    job_longitude: 'job_longitude | number (double) | same rule as job_latitude',
    job_type: 'job_type | string | one of the job_type values',
    contract_type: 'contract_type | string | one of the contract_type values',
    job_description: 'job_description | string | free text',
    contact_name: 'contact_name | string | free text',
    contact_email: 'contact_email | string | e-mail address',
    salary_visible: 'salary_visible | string | free text shown to candidates',
    salary_precise: 'salary_precise | string | numeric text',
    salary_unit: 'salary_unit | string | one of the salary_unit values',
    salary_currency: 'salary_currency | string | one of the salary_currencies values',
    require_cv: 'require_cv | integer | 1 or 0',
    available_from: 'available_from | string | format `YYYY-MM-DD H:i`',
    closing_date: 'closing_date | string | same shape as available_from',
    close_automatically: 'close_automatically | integer | 1 or 0',
    expiry_date: 'expiry_date | string | same shape as available_from',
    hot: 'hot | integer | 1 or 0',
    internal: 'internal | integer | 1 or 0',
    keywords: 'keywords | string | comma-separated list',
    job_hours: 'job_hours | string | free text',
    job_duration: 'job_duration | string | free text',
    job_skills: 'job_skills | string | free text',
    job_benefits: 'job_benefits | array of string | free text items',
    job_requirements: 'job_requirements | array of string | free text items',
    job_responsibilities: 'job_responsibilities | array of string | free text items',
    salary_benefits: 'salary_benefits | string | free text',
    application_url: 'application_url | string | URL of an external application page',
  },
  repost: {
    id: '`{id: integer, closing_date: string}` in the form of the date fields',
    closing_date: 'The request may carry `closing_date`.',
  },
  delete: { id: '`{id: integer}`' },
}

/** The spec's words of a refusal of job/add and of success, quoted by rules.ts too. */
export const ADD_FAILS = 'On failure `status` 412 and `message` naming the invalid field, e.g. a phrase saying the salary unit is invalid.'
const INVALID = 'A posted field is invalid (for example an unlisted salary_unit) | JSON body with `status` 412 and `message` naming the problem'
const REQUIRED = 'Required fields, all of which must be present:'
const OTHERS = 'Other fields that the add operation accepts:'
const SHAPE = '`{id: integer, closing_date: string}` in the form of the date fields'
export const SUCCESS = 'On success the JSON body carries `status` 200.'

/** A row of the rules (rules.ts) for each field a request case tries: the spec's words and the checks of its cases. */
export interface CaseRule {
  operation: CaseOperation
  field: string
  rule: string
  spec: readonly string[]
  checks: readonly string[]
  /** Its cases whose value the spec's words leave open, and why (accepted or refused, never a failure for either). */
  open?: string
}

export const CASE_RULES: readonly CaseRule[] = CASE_OPERATIONS.flatMap((operation) => {
  const fields = [...new Set(REQUEST_CASES.filter((c) => c.operation === operation && c.kind !== 'free-text').map((c) => c.field))]
  return fields.map((field) => {
    const cases = REQUEST_CASES.filter((c) => c.operation === operation && c.field === field)
    const words = [
      FIELD_WORDS[operation][field] as string,
      ...(cases.some((c) => c.kind === 'missing') && operation === 'add' ? [REQUIRED] : []),
      ...(cases.some((c) => c.kind === 'optional-present') ? [OTHERS] : []),
      ...(operation === 'repost' && field === 'closing_date' ? [SHAPE] : []),
      ...(cases.some((c) => c.allowed) ? [SUCCESS] : []),
      ...(cases.some((c) => !c.allowed) ? (operation === 'add' ? [ADD_FAILS, INVALID] : [INVALID]) : []),
    ]
    const tried = [...new Set(cases.map((c) => c.kind))].join(', ')
    const open = cases.filter((c) => c.open !== undefined).map((c) => `${c.kind}, ${c.open}`)
    const rule = { operation, field, rule: `job/${operation}'s ${field} as the spec states it, tried both ways (${tried})`, spec: [...new Set(words)], checks: cases.map((c) => `${c.endpoint}: ${c.name}`) }
    return open.length === 0 ? rule : { ...rule, open: `the spec's words leave open the case of ${open.join('; ')}: accepted (an observation, the profile point openJobValues) or refused with 412 naming the field` }
  })
})
