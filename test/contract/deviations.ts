// The deviations of issue 34 item 4, derived from the statement index: for each server
// statement with a check, a deployment that breaks exactly that statement, made by the
// proxy of helpers.ts from the statement's kind:
// - a row or entry of a resource table (Candidate, Application, Timesheet list entry,
//   Marketing record, Metric): its first field, in the first record that has it, given a
//   value of another JSON type than its response schema in schemas/ says;
// - a row or a value list of the Job table (a request the server must refuse): the server
//   quietly corrects the field before the fake sees it (a value its schema in schemas/job.ts
//   refuses, or its absence, made a valid one), so what the spec forbids is accepted; an
//   optional field's row also gets the other way round, its absence refused with a 412;
// - every other statement (an envelope, an order, a filter, a link, a header of a download,
//   a status, an operation's effect, the limiter): the one breakage its kind calls for,
//   named here by the statement's words.
// And for each silence, a legal twin: another choice the spec leaves open. The statements of
// the RFCs the spec brings in have theirs in rfc-deviations.ts: a deviation for each rule for
// the server, a legal twin for each latitude.
// deviations.test.ts runs each in front of the fake and of the second server.
import type { JSONSchema } from 'json-schema-to-ts'
import { application } from '../../schemas/application.js'
import { candidate } from '../../schemas/candidate.js'
import { jobFields, JOB_REQUIRED } from '../../schemas/job.js'
import { marketingRecord } from '../../schemas/marketing.js'
import { metric } from '../../schemas/metric.js'
import { timesheet } from '../../schemas/timesheet.js'
import { FREE_TEXT_FIELDS, FREE_TEXT_WORDS } from '../../src/contract/cases.js'
import type { ContractFlags } from '../../src/contract/settings.js'
import { createAjv } from '../../src/core/validation.js'
import { type IndexEntry, STATEMENT_INDEX } from '../../src/core/statements/statement-index.js'
import type { BuildOptions } from '../../src/fake/app.js'
import type { Json } from '../helpers/board.js'
import type { OtherBoardOptions } from '../helpers/other-board.js'
import { changeAnswer, changeJson, dropHeader, jsonReply, limiter, on, type Breakage, type Exchange } from './helpers.js'
import { rfcDeviations, rfcTwins } from './rfc-deviations.js'


export interface Deviation {
  /** The statements it breaks (one, or several independent ones judged each by its own citation: the job fields). */
  entries: readonly IndexEntry[]
  /** What the deployment does, in words. */
  what: string
  /** A fresh breakage per deployment (some keep state: the jobs they saw deleted). */
  breakage: () => Breakage
  flags: Omit<ContractFlags, 'baseUrl'>
  /** Options of the fake, and of the second server (a page size of their own: a twin). */
  fake?: BuildOptions
  other?: Partial<OtherBoardOptions>
}

const server = STATEMENT_INDEX.filter((e) => e.kind === 'server' && e.rfc === undefined)
const entry = (words: string, section?: string): IndexEntry => {
  const found = STATEMENT_INDEX.find((e) => e.rfc === undefined && e.words === words && (section === undefined || e.section.endsWith(section)))
  if (found === undefined) throw new Error(`no statement "${words}"`)
  return found
}

// ---- resource tables: a field of another type ------------------------------------------

const RESOURCES: Record<string, { schema: { properties: Record<string, JSONSchema> }; path: RegExp; group: string; records: (body: Json) => Json[] }> = {
  Candidate: { schema: candidate as never, path: /^\/candidates\/list$/, group: 'candidates', records: (b) => b.data },
  Application: { schema: application as never, path: /^\/applications\/list$/, group: 'applications', records: (b) => b.data },
  'Timesheet list entry': { schema: timesheet as never, path: /^\/timesheets\/list$/, group: 'timesheets', records: (b) => b.data },
  'Marketing record': { schema: marketingRecord as never, path: /^\/marketing\/list$/, group: 'marketing', records: (b) => b.data },
  Metric: { schema: metric as never, path: /^\/metrics\/list$/, group: 'metrics', records: (b) => b.metrics },
}

/** A value of another JSON type than the schema's. */
export function otherType(schema: JSONSchema): unknown {
  const type = typeof schema === 'object' ? (schema as { type?: string | string[] }).type : undefined
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type]
  if (types.includes('string')) return 12345
  if (types.includes('integer') || types.includes('number')) return 'twelve'
  if (types.includes('array') || types.includes('object')) return 'not a list'
  return { not: 'a value of this field' }
}

/** The schema at a path of properties (an array's items walked through). */
function schemaAt(schema: JSONSchema, path: readonly string[]): JSONSchema {
  let at = schema as { properties?: Record<string, JSONSchema>; items?: JSONSchema }
  for (const key of path) {
    if (at.items !== undefined && at.properties === undefined) at = at.items as typeof at
    const next = at.properties?.[key]
    if (next === undefined) throw new Error(`no schema at ${path.join('.')}`)
    at = next as typeof at
  }
  return at as JSONSchema
}

/** The field a row or an entry sentence of a resource table names first, as a path in its record. */
function fieldPath(words: string): string[] | undefined {
  const row = /^\| ([^|]+) \|/.exec(words)
  if (row) return (row[1] as string).split(', ')[0]?.split('.')
  const entries: Record<string, string> = { 'File entry': 'timesheets', 'Candidate application entry': 'applications', 'Consent entry': 'consent' }
  const sentence = /^(File entry|Candidate application entry|Consent entry): `([a-z_]+)`/.exec(words)
  if (sentence) return [entries[sentence[1] as string] as string, '0', sentence[2] as string]
  return undefined
}

function setAt(record: Json, path: readonly string[], value: unknown): boolean {
  let at = record
  for (const key of path.slice(0, -1)) {
    at = at?.[key]
    if (at === undefined || at === null) return false
  }
  const last = path.at(-1) as string
  if (!(last in (at ?? {}))) return false
  at[last] = value
  return true
}

function fieldDeviation(e: IndexEntry): Deviation | undefined {
  const part = e.section.split(' › ')[1] ?? ''
  const resource = RESOURCES[part]
  const path = fieldPath(e.words)
  if (resource === undefined || path === undefined) return undefined
  const schema = schemaAt(resource.schema as JSONSchema, path.filter((k) => k !== '0'))
  const value = otherType(schema)
  return {
    entries: [e],
    what: `${part}'s ${path.filter((k) => k !== '0').join('.')} as ${JSON.stringify(value)} (its schema: ${JSON.stringify((schema as { type?: unknown }).type)})`,
    breakage: () =>
      changeJson(resource.path, (b) => {
        // the first record that has the field gets the wrong type
        for (const record of resource.records(b) ?? []) if (setAt(record, path, value)) return
      }),
    flags: { only: resource.group },
  }
}

// ---- the job table: a request the server must refuse, accepted --------------------------

const ajv = createAjv()
const valid = new Map<string, (value: unknown) => boolean>()
const fits = (field: string, value: unknown) => {
  let check = valid.get(field)
  if (check === undefined) {
    check = ajv.compile(jobFields[field as keyof typeof jobFields] as object) as (value: unknown) => boolean
    valid.set(field, check)
  }
  return check(value)
}
/** A value a field's schema takes: the value the kit sent in an add that fitted, else one derived from the schema. */
function goodValue(field: string, seen: Map<string, unknown>): unknown {
  if (seen.has(field)) return seen.get(field)
  const schema = jobFields[field as keyof typeof jobFields] as { type?: string; enum?: readonly unknown[]; format?: string }
  if (schema.enum) return schema.enum[0]
  if (schema.format === 'email') return 'jobs@example.com'
  if (schema.format === 'job-date') return '2026-12-20 09:30'
  if (schema.format === 'uri') return 'https://example.com/apply'
  if (schema.type === 'number') return 0
  if (schema.type === 'array') return []
  return '1'
}

const addBody = (x: Exchange) => JSON.parse(x.body.toString('utf8') || '{}') as Record<string, unknown>
const withBody = (x: Exchange, body: object): Exchange => ({ ...x, body: Buffer.from(JSON.stringify(body)) })

/** A job/add that quietly corrects `fields` (a value their schema refuses, or their absence where required) before the fake sees it. */
const lenient = (fields: readonly string[]): Breakage => {
  const seen = new Map<string, unknown>()
  return {
    request: (x) => {
      if (x.method !== 'POST' || !on(x, /^\/job\/add$/)) return x
      const body = addBody(x)
      for (const field of Object.keys(jobFields)) if (field in body && fits(field, body[field]) && !seen.has(field)) seen.set(field, body[field])
      for (const field of fields) {
        const required = (JOB_REQUIRED as readonly string[]).includes(field)
        if ((field in body && !fits(field, body[field])) || (required && !(field in body))) body[field] = goodValue(field, seen)
      }
      return withBody(x, body)
    },
  }
}

/** A job/add that refuses a job without `fields` (optional ones) with a 412 naming the field. */
const strictAbsent = (fields: readonly string[]): Breakage => ({
  answer: (x) => {
    if (x.method !== 'POST' || !on(x, /^\/job\/add$/)) return undefined
    const body = addBody(x)
    const missing = fields.find((f) => !(f in body))
    return missing === undefined ? undefined : jsonReply(412, { status: 412, message: `${missing} is required` })
  },
})

const JOB = 'Resources and their fields › Job (input to job/add)'
const jobRows = server.filter((e) => e.section === JOB && e.words.startsWith('| '))
const fieldOfRow = (e: IndexEntry) => (/^\| ([a-z_]+) \|/.exec(e.words)?.[1] as string) ?? ''
const OPTIONAL = Object.keys(jobFields).filter((f) => !(JOB_REQUIRED as readonly string[]).includes(f) && f !== 'job_latitude' && f !== 'job_longitude')
/** The value lists of the constrained fields: `job_type: …`, `salary_currencies (values for salary_currency): …`. */
const valueLists = server.filter((e) => e.section === JOB && /^[a-z_]+(?: \(values for [a-z_]+\))?: `/.test(e.words))
const fieldOfList = (e: IndexEntry) => (/\(values for ([a-z_]+)\)/.exec(e.words)?.[1] ?? /^([a-z_]+):/.exec(e.words)?.[1]) as string
const WRITES = { only: 'fields,jobs', writes: true } as const

const jobDeviations: Deviation[] = [
  // each field corrected on its own would be a run each; the corrections are independent (a case breaks one field), so
  // one deployment corrects them all and each statement is judged by the failing checks citing its own row
  { entries: jobRows, what: 'job/add accepting each field broken or missing, corrected before the fake sees it', breakage: () => lenient(jobRows.map(fieldOfRow)), flags: WRITES },
  { entries: valueLists, what: 'job/add accepting a value off each constrained list, corrected to a listed one', breakage: () => lenient(valueLists.map(fieldOfList)), flags: WRITES },
  { entries: jobRows.filter((e) => OPTIONAL.includes(fieldOfRow(e))), what: 'job/add refusing a job without an optional field (412 naming it)', breakage: () => strictAbsent(OPTIONAL), flags: WRITES },
]

// ---- every other server statement: the breakage its kind calls for ----------------------

const first = (b: Json) => (b.data as Json[])[0]
const listPaths = /^\/(candidates|applications|timesheets|marketing)\/list$/
/** next_page of the lists rewritten. */
const nextPage = (pattern: RegExp, change: (url: string) => string) =>
  changeJson(pattern, (b) => {
    if (typeof b.next_page === 'string') b.next_page = change(b.next_page)
  })
const dropFirst = (key: string, pattern: RegExp) => changeJson(pattern, (b) => void delete b[key])
/** Public job pages (outside /api/v1) answered 200 whatever the job's state. */
const pagesAlways200: Breakage = { reply: (x, r) => (/^\/api\/v1\//.test(x.url) ? r : { ...r, status: 200 }) }
/** Operations on a job the proxy saw deleted answered as success. */
function undead(): Breakage {
  const deleted = new Set<number>()
  return {
    reply: (x, r) => {
      if (!on(x, /^\/job\/(close|expire|repost|delete)$/)) return r
      const id = (addBody(x) as { id?: number }).id
      if (id !== undefined && deleted.has(id)) return jsonReply(200, { status: 200, message: 'done' })
      if (on(x, /^\/job\/delete$/) && r.status === 200 && id !== undefined) deleted.add(id)
      return r
    },
  }
}
const message = (op: string): Breakage =>
  changeJson(new RegExp(`^/job/${op}$`), (b) => {
    b.message = 'OK'
  })
const notFound = (pattern: RegExp): Breakage => ({ answer: (x) => (on(x, pattern) ? jsonReply(404, { status: 404, message: 'not found' }) : undefined) })
/** A limiter that counts by path alone: a second request to a path, whatever its query, is refused. */
function pathLimiter(): Breakage {
  const seen = new Set<string>()
  return {
    answer: (x) => {
      const p = x.url.split('?')[0] as string
      if (!p.startsWith('/api/v1/') || !seen.has(p)) {
        seen.add(p)
        return undefined
      }
      return jsonReply(429, { status: 429, message: 'Too many requests' }, { 'retry-after': '900' })
    },
  }
}
/** Deviations by the statement's words (section where the words stand in several). */
const BY_WORDS: Array<[words: string, what: string, breakage: () => Breakage, flags: Deviation['flags'], more?: Partial<Deviation>]> = [
  ['All paths are relative to {base_url} and begin with /api/v1.', 'next_page under /api/v2', () => nextPage(listPaths, (u) => u.replace('/api/v1/', '/api/v2/')), { only: 'marketing' }],
  ['Access is rate limited (see Limits).', 'no rate limit at all', () => ({}), { only: 'rate-limit' }, { fake: { rateLimitWindow: 0 }, other: { rateLimitWindow: 0 } }],
  ['All bodies are JSON.', 'a JSON answer said to be text/html', () => changeAnswer(/^\/marketing\/list$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/html; charset=utf-8' } })), { only: 'marketing' }],
  ['Timestamps are strings of the form `YYYY-MM-DD HH:MM:SS` unless stated.', 'a timestamp in ISO 8601', () => changeJson(/^\/timesheets\/list$/, (b) => {
    first(b).created_at = `${String(first(b).created_at).replace(' ', 'T')}Z`
  }), { only: 'timesheets' }],
  [FREE_TEXT_WORDS, 'job/add refusing a free-text field holding a character outside [A-Za-z0-9 ] with a 412 (a strict hand-rolled validator)', () => ({ answer: (x) => {
    if (x.method !== 'POST' || !on(x, /^\/job\/add$/)) return undefined
    const body = addBody(x)
    const field = FREE_TEXT_FIELDS.find((f) => [body[f]].flat().some((v) => typeof v === 'string' && /[^A-Za-z0-9 ]/.test(v)))
    return field === undefined ? undefined : jsonReply(412, { status: 412, message: `${field} may hold only letters, digits and spaces` })
  } }), WRITES],
  ['Required fields, all of which must be present:', 'job/add accepting a job without a required field (filled in)', () => lenient(JOB_REQUIRED), WRITES],
  ['Other fields that the add operation accepts:', 'job/add refusing a job that carries hot', () => ({ answer: (x) => (x.method === 'POST' && on(x, /^\/job\/add$/) && 'hot' in addBody(x) ? jsonReply(412, { status: 412, message: 'hot is not accepted' }) : undefined) }), WRITES],
  ['Constrained values (values may change over time; the job/fields endpoint returns the current ones):', 'job/fields without the job_type list', () => changeJson(/^\/job\/fields$/, (b) => {
    delete b.job_type
    if (b.data) delete b.data.job_type
  }), { only: 'fields' }],
  ['Either the sector alone or `<Sector>/<Sub_sector>` is accepted, and the service splits it.', 'job/add refusing a job_industry without a sub-sector', () => ({ answer: (x) => (x.method === 'POST' && on(x, /^\/job\/add$/) && !String(addBody(x).job_industry ?? '/').includes('/') ? jsonReply(412, { status: 412, message: 'job_industry is invalid' }) : undefined) }), WRITES],
  ['A content-type header on GET requests is ignored.', 'a GET with a Content-Type refused with 415', () => ({ answer: (x) => (x.method === 'GET' && x.headers['content-type'] !== undefined ? jsonReply(415, { status: 415, message: 'a GET carries no body: Content-Type is not accepted' }) : undefined) }), { only: 'marketing' }],
  ['Returned by candidates/list and candidates/details/{id}.', 'candidates/details without email', () => changeJson(/^\/candidates\/details\/[0-9]+$/, (b) => void delete first(b).email), { only: 'candidates' }],
  ['Labels returned: `Jobs created`, `Job searches`, `Client enquiries`, `Registrations`, `Applications`, `Timesheets`, `Consent opt-ins`, `Consent opt-outs`, `Job submissions`, `Candidate interest`.', 'a label left out', () => changeJson(/^\/metrics\/list$/, (b) => void b.metrics.splice(b.metrics.findIndex((m: Json) => m.label === 'Registrations'), 1)), { only: 'metrics' }],
  ['Aggregations are ordered newest month first.', 'months oldest first', () => changeJson(/^\/metrics\/list$/, (b) => {
    for (const m of b.metrics) m.aggregations.reverse()
  }), { only: 'metrics' }],
  ['Months with no activity are included with total 0.', 'a month left out of a metric', () => changeJson(/^\/metrics\/list$/, (b) => void b.metrics.find((m: Json) => m.aggregations.length > 2).aggregations.splice(1, 1)), { only: 'metrics' }],
  ['| job/add | Job is created and gets an id; it is published or not according to `published`. |', 'job/add answering without the id', () => changeJson(/^\/job\/add$/, (b) => void delete b.id), WRITES],
  ['| job/close | Job is marked unpublished; its public page then answers 404. |', 'a public page shown after close', () => pagesAlways200, WRITES],
  ['| job/repost | Job is reposted with new closing and expiry dates one month later. The request may carry `closing_date`. |', 'job/repost refusing a request without closing_date', () => ({ answer: (x) => (x.method === 'POST' && on(x, /^\/job\/repost$/) && !('closing_date' in addBody(x)) ? jsonReply(412, { status: 412, message: 'closing_date is required' }) : undefined) }), WRITES],
  ['| job/delete | Job is removed from the system permanently. |', 'a deleted job that can still be closed', undead, WRITES],
  ['Every path below begins with {base_url}/api/v1.', 'next_page under /api/v2', () => nextPage(listPaths, (u) => u.replace('/api/v1/', '/api/v2/')), { only: 'timesheets' }],
  ['Every operation requires authentication (see Authentication).', 'a request without credentials let in', () => ({ request: (x) => (x.headers.authorization === undefined ? { ...x, headers: { ...x.headers, authorization: AUTH } } : x) }), { only: 'auth' }],
  ['Every JSON response carries `status` (integer).', 'a list answer without status', () => dropFirst('status', /^\/applications\/list$/), { only: 'applications' }],
  ['List and detail responses also carry `total` (integer) and `data` (array).', 'a list answer without total', () => dropFirst('total', /^\/marketing\/list$/), { only: 'marketing' }],
  ['| POST | /job/add | JSON job object (see Job) | On success `status` 200, `message` string holding the public job page URL, `id` integer. On failure `status` 412 and `message` naming the invalid field, e.g. a phrase saying the salary unit is invalid. |', 'a refusal with status 400 in the body', () => ({ reply: (x, r) => (on(x, /^\/job\/add$/) && (r.status === 412 || /"status":\s*412/.test(r.body.toString())) ? jsonReply(400, { status: 400, message: 'Bad request' }) : r) }), WRITES],
  ['| POST | /job/delete | `{id: integer}` | `status` 200, `message` text saying the job has been deleted |', 'delete answering "OK"', () => message('delete'), WRITES],
  ['| POST | /job/close | body of close: not shown | `status` 200, `message` text saying the job has been closed (unpublished) |', 'close answering "OK"', () => message('close'), WRITES],
  ['| POST | /job/expire | body of expire: not shown | `status` 200, `message` text saying the job has been expired |', 'expire answering "OK"', () => message('expire'), WRITES],
  ['| POST | /job/repost | `{id: integer, closing_date: string}` in the form of the date fields | `status` 200, `message` text saying the job has been reposted |', 'repost answering "OK"', () => message('repost'), WRITES],
  ['| GET | /job/fields | none | the current values of the constrained job fields; response shape: not shown |', 'job/fields without the salary_unit list', () => changeJson(/^\/job\/fields$/, (b) => {
    delete b.salary_unit
    if (b.data) delete b.data.salary_unit
  }), { only: 'fields' }],
  ['| GET | /candidates/list | optional query `since`, format `YYYY-MM-DD HH:MM` (a space is sent as +) | `status`, `total`, `data` array of Candidate |', 'since ignored', () => ({ request: (x) => ({ ...x, url: on(x, /^\/candidates\/list$/) ? x.url.replace(/[?&]since=[^&]*/, '') : x.url }) }), { only: 'candidates' }],
  ['| GET | /candidates/details/{id} | path `id`, integer candidate id | `status`, `total`, `data` array of one Candidate |', 'the details of another candidate', () => changeJson(/^\/candidates\/details\/[0-9]+$/, (b) => {
    first(b).id += 1
  }), { only: 'candidates' }],
  ["| GET | /candidates/timesheet/{id} | path `id` of a timesheet taken from a candidate's timesheets | file download (see Downloads) |", 'the timesheet download answering 404', () => notFound(/^\/candidates\/timesheet\/[0-9]+$/), { only: 'candidates' }],
  ["| GET | /candidates/resume/{id} | path `id` of a resume taken from a candidate's resumes | file download |", 'the resume download answering 404', () => notFound(/^\/candidates\/resume\/[0-9]+$/), { only: 'candidates' }],
  ["| GET | /candidates/document/{id} | path `id` of a document taken from a candidate's documents | file download |", 'the document download answering 404', () => notFound(/^\/candidates\/document\/[0-9]+$/), { only: 'candidates' }],
  ['| GET | /applications/list | optional query `since` (same format as above), optional `vacancy` (vacancy id, integer), optional `page` | `status`, `total`, `data` array of Application, `next_page` (URL string) |', 'the vacancy filter ignored', () => ({ request: (x) => ({ ...x, url: x.url.replace(/[?&]vacancy=[0-9]+/, '') }) }), { only: 'applications' }],
  ['| GET | /applications/details/{id} | path `id` integer | `status`, `total`, `data` array of one Application |', 'the details of another application', () => changeJson(/^\/applications\/details\/[0-9]+$/, (b) => {
    first(b).id += 1
  }), { only: 'applications' }],
  ['| GET | /applications/attachment/{id} | path `id` integer | file download |', 'the attachment download answering 404', () => notFound(/^\/applications\/attachment\/[0-9]+$/), { only: 'applications' }],
  ['List entries are ordered newest first (highest id first).', 'applications oldest first', () => changeJson(/^\/applications\/list$/, (b) => void b.data.reverse()), { only: 'applications' }],
  ['| GET | /timesheets/list | optional query `since`, optional `page` | `status`, `total`, `next_page` (URL string), `prev_page` (URL string, or false when there is none), `data` array of Timesheet list entry |', 'prev_page null on the first page', () => changeJson(/^\/timesheets\/list$/, (b) => {
    if (b.prev_page === false) b.prev_page = null
  }), { only: 'timesheets' }],
  ['| GET | /candidates/timesheets/download/{id} | path `id` integer | file download |', 'the second timesheet path answering 404', () => notFound(/^\/candidates\/timesheets\/download\/[0-9]+$/), { only: 'timesheets' }],
  ['The list entries point their download links at /candidates/timesheet/{id}; both download paths are listed as timesheet downloads.', 'timesheet links at the second path', () => changeJson(/^\/timesheets\/list$/, (b) => {
    for (const e of b.data) e.attachment.href = String(e.attachment.href).replace('/candidates/timesheet/', '/candidates/timesheets/download/')
  }), { only: 'timesheets' }],
  ['| GET | /marketing/list | optional query `since`, optional `page` | `status`, `total`, `data` array of Marketing record, `next_page` (URL string) |', 'since ignored', () => ({ request: (x) => ({ ...x, url: on(x, /^\/marketing\/list$/) ? x.url.replace(/[?&]since=[^&]*/, '') : x.url }) }), { only: 'marketing' }],
  ['| GET | /metrics/list | none | `status`, `metrics` array of Metric |', 'metrics under data', () => changeJson(/^\/metrics\/list$/, (b) => ({ status: b.status, data: b.metrics })), { only: 'metrics' }],
  ['Where a response carries `next_page`, it is a full URL of the next page of the same list, using the query parameter `page` (and `since` where given).', 'next_page without page', () => nextPage(/^\/timesheets\/list$/, (u) => u.replace(/([?&])page=[0-9]+&?/, '$1')), { only: 'timesheets' }],
  ['A file download answers with the raw file.', 'a download cut short of its Content-Length', () => changeAnswer(/^\/candidates\/resume\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-length': String(r.body.length + 7) }, keepLength: true, cut: true })), { only: 'candidates' }],
  ['Headers: `Content-Type` (application/octet-stream for application attachments; a timesheet-specific octet-stream type for timesheets), `Content-Length` (bytes), `Content-Disposition: attachment` with `filename` set to the original file name, and `Content-Transfer-Encoding: binary`.', 'an attachment without Content-Disposition', () => dropHeader('content-disposition', /^\/applications\/attachment\/[0-9]+$/), { only: 'applications' }],
  ['All endpoints use HTTP Basic authentication with the form `<username>:<password>`.', 'any Authorization let in as the account (a Bearer token, garbage)', () => ({ request: (x) => (x.headers.authorization !== undefined && !/^basic /i.test(String(x.headers.authorization)) ? { ...x, headers: { ...x.headers, authorization: AUTH } } : x) }), { only: 'auth' }],
  ['No token exchange exists.', 'a Bearer token let in as the account', () => ({ request: (x) => (/^bearer /i.test(String(x.headers.authorization ?? '')) ? { ...x, headers: { ...x.headers, authorization: AUTH } } : x) }), { only: 'auth' }],
  ['| A posted field is invalid (for example an unlisted salary_unit) | JSON body with `status` 412 and `message` naming the problem |', 'an invalid salary_unit accepted', () => lenient(['salary_unit']), WRITES],
  ['| More than one request to the same endpoint within 15 minutes | HTTP 429 with header `Retry-after` holding the seconds to wait before retrying |', 'a 429 without Retry-after', () => dropHeader('retry-after'), { only: 'rate-limit' }],
  ["| A closed (unpublished) job's public page is requested | 404 |", 'a public page shown after close', () => pagesAlways200, WRITES],
  ['On success the JSON body carries `status` 200.', 'job/fields with status "ok"', () => changeJson(/^\/job\/fields$/, (b) => {
    b.status = 'ok'
  }), { only: 'fields' }],
  ['An endpoint is counted by full request: different paths count separately (for example a document download and a resume download), and different query values count separately (for example page=1 and page=2).', 'a limiter counting by path alone', pathLimiter, { only: 'rate-limit' }, { fake: { rateLimitWindow: 0 }, other: { rateLimitWindow: 0 } }],
  ['Exceeding the limit yields 429 with `Retry-after` in seconds.', 'a 429 with Retry-after as an HTTP date', () => limiter({ 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }), { only: 'rate-limit' }, { fake: { rateLimitWindow: 0 }, other: { rateLimitWindow: 0 } }],
  ['The version is carried in the path prefix /api/v1.', 'next_page under /api/v2', () => nextPage(listPaths, (u) => u.replace('/api/v1/', '/api/v2/')), { only: 'applications' }],
]

const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

/** Every deviation: the job table's, those by words, and one per resource-table field. */
export function deviations(): Deviation[] {
  const byWords = BY_WORDS.map(([words, what, breakage, flags, more]) => ({ entries: [entry(words)], what, breakage, flags, ...more }))
  const fields = server.map(fieldDeviation).filter((d): d is Deviation => d !== undefined)
  return [...fields, ...jobDeviations, ...byWords, ...rfcDeviations()]
}

/** A delete of a job already deleted answered as success again. */
function idempotentDelete(): Breakage {
  const deleted = new Set<unknown>()
  return {
    reply: (x, r) => {
      if (!on(x, /^\/job\/delete$/)) return r
      const id = addBody(x).id
      if (deleted.has(id)) return jsonReply(200, { status: 200, message: 'The job has been deleted' })
      if (r.status === 200) deleted.add(id)
      return r
    },
  }
}

/** The legal twins of the silences: another choice the spec leaves open. */
export function twins(): Deviation[] {
  const twin = (words: string, what: string, breakage: () => Breakage, flags: Deviation['flags'], more: Partial<Deviation> = {}): Deviation => ({ entries: [entry(words)], what, breakage, flags, ...more })
  return [
    twin('Format of closing_date and expiry_date: not shown beyond the shape of the sample, which matches available_from.', 'job/add and repost also taking ISO dates (read as the sample shape)', () => ({ request: (x) => (x.method === 'POST' ? withBody(x, Object.fromEntries(Object.entries(addBody(x)).map(([k, v]) => [k, typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(v) ? v.replace('T', ' ') : v]))) : x) }), WRITES),
    twin('The fields of a job record as returned by any read operation: not shown.', 'job/add answering the job record beside its id', () => changeJson(/^\/job\/add$/, (b) => {
    b.job = { id: b.id, status: 'published' }
  }), WRITES),
    twin('Allowed values of seeking, notice_period and consent type and value: not shown beyond the values seen above.', 'seeking and notice_period in words of its own', () => changeJson(/^\/candidates\/(list|details\/[0-9]+)$/, (b) => {
      for (const c of b.data) Object.assign(c, { seeking: 'Open to offers', notice_period: 'Six weeks' })
    }), { only: 'candidates' }),
    twin('The meaning of 0 is not shown.', 'a marketing record of no candidate account, id 0', () => changeJson(/^\/marketing\/list$/, (b) => {
      if (b.data[0]) b.data[0].candidate.id = 0
    }), { only: 'marketing' }),
    twin('The action value for an approval: not shown.', 'approvals written Opted in', () => changeJson(/^\/marketing\/list$/, (b) => {
      for (const r of b.data) if (r.action !== 'Revoked') r.action = 'Opted in'
    }), { only: 'marketing' }),
    twin('The states that each operation may be applied from, and the error when an operation does not fit the current state: not shown.', 'a second delete answering success (an idempotent delete)', idempotentDelete, WRITES),
    twin('States and transitions of candidates, applications, timesheets and marketing records: not shown.', 'a candidate whose updated_at moved on (a state of its own)', () => changeJson(/^\/candidates\/list$/, () => undefined), { only: 'candidates' }),
    twin('Paging links of the candidates list: not shown.', 'candidates on pages of 4', () => ({}), { only: 'candidates' }, { fake: { pageSize: 4 }, other: { pageSizes: { candidates: 4 } } }),
    twin('The page size: not shown.', 'pages of 3 records', () => ({}), { only: 'applications,timesheets' }, { fake: { pageSize: 3 }, other: { pageSize: 3 } }),
    twin('Events, callbacks or webhooks: not shown.', 'a webhook header on answers (nothing the API has to call)', () => ({ reply: (_x, r) => ({ ...r, headers: { ...r.headers, 'x-webhooks': 'none' } }) }), { only: 'metrics' }),
    twin('Error codes other than 412, 429 and 404: not shown.', 'auth refusals answered 403', () => ({ reply: (_x, r) => (r.status === 401 ? { ...r, status: 403 } : r) }), { only: 'auth' }),
    twin('Error bodies of the read endpoints and of missing ids: not shown.', 'a 404 as text/plain', () => ({ reply: (_x, r) => (r.status === 404 ? { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Not found') } : r) }), { only: 'candidates,applications' }),
    twin('Maximum page size, payload size and field lengths: not shown.', 'pages of 50 records', () => ({}), { only: 'applications,marketing' }, { fake: { pageSize: 50 }, other: { pageSize: 50 } }),
    twin('Deprecation and compatibility policy for new versions: not shown.', 'a Deprecation header of its own', () => ({ reply: (_x, r) => ({ ...r, headers: { ...r.headers, sunset: 'Wed, 31 Dec 2036 23:59:59 GMT' } }) }), { only: 'metrics' }),
    ...rfcTwins(),
  ]
}
