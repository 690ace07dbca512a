// What a deviation of the engine breaks, or the words that make it legal (issue 43 item 3).
// A site's broken words come from what the site is, never from the operator alone: a
// member of a record is held by the row of its resource's table that names the field (a
// File entry's member by the File entry's sentence), an envelope member by the envelope
// sentence and the endpoint's row, a link by the paging sentence or the row naming it, a
// header by the sentence or RFC that names it, the status by the row of its operation.
// A failing check catches a deviation when its citation (citationOf) quotes one of those
// words: a catch by a check citing something else is no catch.
//
// LEGAL is the other way out: a table keyed by operator (and by site where it must be),
// each entry quoting the spec's or an RFC's words that make the deviated answer legal and
// saying why in a few words. No entry without words; an entry here is a promise that the
// kit passes the deviation (a failure then is a false alarm, and the engine says so).
import { quotes } from '../../../src/contract/statements.js'
import { STATEMENT_INDEX } from '../../../src/core/statements/statement-index.js'
import { type Path, RESOURCES, resourceOf } from './json-sites.js'
import type { Operator, Place, Site, View } from './operators.js'
import { apiPath, type Recorded } from './transcript.js'

/** The exact words of the one statement of the index that starts with `start` (under `section`, where given). */
export function statement(start: string, section?: string): string {
  const found = STATEMENT_INDEX.filter((e) => e.words.startsWith(start) && (section === undefined || e.section.endsWith(section)))
  if (found.length !== 1) throw new Error(`${found.length} statements start with "${start}"${section ? ` under ${section}` : ''}`)
  return (found[0] as (typeof found)[number]).words
}

const S = {
  json: statement('All bodies are JSON.'),
  timestamps: statement('Timestamps are strings of the form'),
  status: statement('Every JSON response carries `status`'),
  envelope: statement('List and detail responses also carry'),
  success: statement('On success the JSON body carries'),
  paging: statement('Where a response carries `next_page`'),
  order: statement('List entries are ordered newest first'),
  rawFile: statement('A file download answers with the raw file.'),
  downloadHeaders: statement('Headers: `Content-Type`'),
  basic: statement('All endpoints use HTTP Basic authentication'),
  authRequired: statement('Every operation requires authentication'),
  limited: statement('| More than one request to the same endpoint'),
  limit429: statement('Exceeding the limit yields 429'),
  invalidField: statement('| A posted field is invalid'),
  closed404: statement("| A closed (unpublished) job's public page"),
  closeRow: statement('| job/close |'),
  errorBodies: statement('Error bodies of the read endpoints'),
  errorCodes: statement('Error codes other than 412, 429 and 404'),
  fieldsRow: statement('| GET | /job/fields |'),
  metricsRow: statement('| GET | /metrics/list |'),
  labels: statement('Labels returned:'),
  aggregationsOrder: statement('Aggregations are ordered newest month first.'),
  emptyMonths: statement('Months with no activity are included'),
  notShownStates: statement('The states that each operation may be applied from'),
  pageSize: statement('The page size: not shown.'),
  getContentType: statement('A content-type header on GET requests is ignored.'),
}
export const STATEMENTS = S

/** The endpoint row of an API path (`| GET | /candidates/list | …`), if the spec has one. */
function endpointRow(path: string, method = 'GET'): string | undefined {
  const template = path.replace(/\/[0-9]+$/, '/{id}')
  return STATEMENT_INDEX.find((e) => e.words.startsWith(`| ${method} | ${template} |`))?.words
}

/** The rows of a resource's table (and its entries' sentences) that name a field. */
function fieldRows(resource: string, field: string): string[] {
  const section = ` › ${resource}`
  return STATEMENT_INDEX.filter((e) => e.section.endsWith(section)).flatMap((e) => {
    const row = /^\| ([^|]+) \|/.exec(e.words)
    if (row) return (row[1] as string).split(', ').some((f) => f.trim() === field) ? [e.words] : []
    return []
  })
}

const ENTRIES: Record<string, string> = { timesheets: 'File entry:', resumes: 'File entry:', documents: 'File entry:', applications: 'Candidate application entry:', consent: 'Consent entry:' }

/** The words a member of a record breaks: the row naming it (the longest dotted prefix a row names), its entry's sentence inside a candidate's entries. */
export function recordWords(resource: string, within: Path): string[] {
  const keys = within.filter((k): k is string => typeof k === 'string')
  if (resource === 'Candidate' && keys.length > 1 && ENTRIES[keys[0] as string] !== undefined) return [statement(ENTRIES[keys[0] as string] as string), ...fieldRows(resource, keys[0] as string)]
  for (let n = keys.length; n > 0; n--) {
    const rows = fieldRows(resource, keys.slice(0, n).join('.'))
    if (rows.length > 0) return rows
  }
  return []
}

export interface Expectation {
  /** The words (a statement's, or an RFC citation) the deviation breaks: a failing check citing one of them catches it. */
  breaks: string[]
  /** The words that make it legal, and why. */
  legal?: { words: string[]; why: string }
  /** The answer cannot be read (cut short, a broken length): an errored check naming the request is a catch too (the Bad input clause). */
  outage?: boolean
}

/** The words a deviation at this site breaks, by what the site is; an answer to a GET with a Content-Type is also to be the answer without it. */
export function brokenWords(op: Operator, x: Recorded, site: Site, place: Place): string[] {
  const words = siteWords(op, x, site, place)
  return x.method === 'GET' && x.request.headers['content-type'] !== undefined ? [...words, S.getContentType] : words
}

function siteWords(op: Operator, x: Recorded, site: Site, place: Place): string[] {
  const row = endpointRow(x.path, x.method)
  const resource = resourceOf(x)
  switch (op.family) {
    case 'header':
      // a header sent twice breaks, besides its own words, RFC 9110's field order where it is no list
      return [...headerWords(x, place.header as string), ...(op.name === 'header duplicated' && place.header !== 'www-authenticate' ? ['RFC 9110 §5.3'] : [])]
    case 'status':
      return statusWords(x)
    case 'body':
    case 'total':
      if (x.kind === 'download') return [S.rawFile, S.downloadHeaders]
      // a detail's row says what its total counts ("data array of one Candidate")
      if (op.family === 'total') return [S.envelope, ...(row ? [row] : []), ...(x.kind === 'list' ? [S.paging] : [])]
      return [S.json, 'RFC 8259 §2', 'RFC 8259 §8.1', 'RFC 9110 §8.6']
    case 'limit':
      // a wait beyond the window, or none at all, is not the seconds to wait before a request "may be requested" again
      return [S.limited, S.limit429, statement('Each endpoint may be requested once per 15 minutes.'), 'RFC 9110 §10.2.3']
    default:
      break
  }
  const path = place.path as Path
  const key = path.at(-1)
  if (site.group.startsWith('record ') && resource !== undefined) {
    const words = recordWords(resource.name, path.slice(2))
    const stamp = op.name === 'member in another form' && /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}$/.test(String(place.value)) ? [S.timestamps] : []
    const label = resource.name === 'Metric' && key === 'label' ? [S.labels] : []
    const months = resource.name === 'Metric' && op.family === 'records' ? [S.aggregationsOrder, S.emptyMonths] : []
    // a file's name is the one its download gives; a link's target is the endpoint it names
    const file = key === 'filename' ? [S.downloadHeaders] : []
    const target = op.family === 'link' && typeof place.value === 'string' && URL.canParse(place.value) ? endpointRow(apiPath(new URL(place.value).pathname)) : undefined
    return [...words, ...stamp, ...label, ...months, ...file, ...(target ? [target] : []), ...(row ? [row] : [])]
  }
  // a page's records: the list's row, the paging sentence (the next page of the same list: every record once), and the order where the spec gives one
  if (x.kind === 'list' && op.family === 'records') return [...(row ? [row] : []), S.envelope, S.paging, ...(x.path === '/applications/list' ? [S.order] : [])]
  if (key === 'status') return [S.status, S.success, ...(row ? [row] : [])]
  if (key === 'total' || key === 'data') return [S.envelope, ...(row ? [row] : []), ...(x.kind === 'list' ? [S.paging] : [])]
  if (key === 'next_page') return [S.paging, ...(row ? [row] : [])]
  if (key === 'prev_page') return row ? [row] : []
  if (x.kind === 'metrics') return [S.metricsRow, S.labels]
  if (x.kind === 'fields') return [S.fieldsRow]
  if (x.kind === 'write') return [row ?? '', ...(x.reply.status === 412 || /"status":\s*412/.test(x.reply.body.toString()) ? [S.invalidField] : [])].filter(Boolean)
  return row ? [row] : []
}

function headerWords(x: Recorded, header: string): string[] {
  switch (header) {
    case 'content-type':
      return x.kind === 'download' ? [S.downloadHeaders] : [S.json, 'RFC 8259 §11', 'RFC 9110 §8.3']
    case 'content-length':
      return x.kind === 'download' ? [S.downloadHeaders, S.rawFile, 'RFC 9110 §8.6'] : ['RFC 9110 §8.6']
    case 'content-disposition':
      return [S.downloadHeaders, 'RFC 6266 §4']
    case 'content-transfer-encoding':
      return [S.downloadHeaders]
    case 'retry-after':
      return [S.limited, S.limit429, 'RFC 9110 §10.2.3']
    case 'www-authenticate':
      return [S.basic, 'RFC 7617 §2', 'RFC 9110 §11.6.1']
    default:
      return []
  }
}

function statusWords(x: Recorded): string[] {
  if (x.kind === 'limited') return [S.limited, S.limit429]
  // a job's page: shown while the job is published, 404 once closed or deleted
  if (x.kind === 'page') return [S.closed404, S.closeRow, statement('| job/add |'), statement('| job/delete |')]
  if (x.reply.status === 401 || x.reply.status === 403) return [S.authRequired, S.basic, 'RFC 7617 §2']
  const row = endpointRow(x.path, x.method)
  // a success answered 201 says it made something: a read makes nothing (RFC 9110 §15.3.2)
  return [...(row ? [row] : []), S.success, 'RFC 9110 §15.3.2']
}

// the operators' names, as a key of LEGAL
type OperatorName = string

export interface Legal {
  operator: OperatorName | RegExp
  /** Where it is legal, when not everywhere the operator fits. */
  where?: (x: Recorded, site: Site, place: Place, view?: View) => boolean
  words: string[]
  why: string
}

export const RESOURCE_NAMES = RESOURCES.map((r) => r.name)
export { quotes }
