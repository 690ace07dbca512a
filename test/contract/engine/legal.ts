// The deviations the engine holds legal (issue 43 item 3): a table keyed by operator (and
// by site where the words are about some sites only), each entry quoting the words — the
// spec's, or an RFC's the spec invokes — that make the deviated answer legal, and saying
// why in a few words. The test checks every quote: a spec quote stands in the spec, an RFC
// is cited as `RFC <n> §<section>`. A deviation an entry covers must pass: a kit that fails
// it cries wolf, and the engine counts the pair unexplained.
import { findFieldLists } from '../../../src/contract/field-lists.js'
import { at, otherType, resourceOf, type Path } from './json-sites.js'
import { jsonOf } from './transcript.js'
import type { Operator, Place, Site, View } from './operators.js'
import type { Recorded } from './transcript.js'
import { type Legal, recordWords, statement, STATEMENTS as S } from './words.js'

/** What a record's member is, by the words of the row (or entry sentence) that types it. */
export type FieldKind = 'free' | 'e-mail' | 'timestamp' | 'url' | 'number' | 'date' | 'label' | 'filename' | 'list' | 'object'

/** The words that type one field: a table row's type cell, or the part of an entry's sentence that names it. */
function typeText(words: readonly string[], field: string): string {
  for (const w of words) {
    const row = /^\| ([^|]+) \| ([^|]+) \|/.exec(w)
    if (row && (row[1] as string).split(', ').some((f) => f.trim() === field)) return row[2] as string
    // `a`, `b`, `c` (strings): a name without a type of its own takes the type of the names after it
    const parts = w.split(/;|, (?=`)|,? and (?=`)/)
    const i = parts.findIndex((p) => p.includes(`\`${field}\``))
    const typed = i < 0 ? undefined : parts.slice(i).find((p) => p.replace(/`[a-z_]+`/g, '').trim() !== '')
    if (typed !== undefined) return typed
  }
  return words.join(' ')
}

/** The kind of a record's member, from its row's words and its value. */
export function fieldKind(x: Recorded, site: Site, place: Place): FieldKind | undefined {
  const resource = resourceOf(x)
  if (resource === undefined || !site.group.startsWith('record ')) return undefined
  const within = (place.path as Path).slice(2)
  const field = String(within.filter((k) => typeof k === 'string').at(-1))
  if (Array.isArray(place.value)) return 'list'
  if (typeof place.value === 'object' && place.value !== null) return 'object'
  if (resource.name === 'Metric' && field === 'label') return 'label'
  // a file's name is the name its download gives (Content-Disposition); a year is a year, however the row types it
  if (field === 'filename') return 'filename'
  if (/(^|_)year$/.test(field)) return 'date'
  const text = typeText(recordWords(resource.name, within), field)
  if (/e-mail/.test(text)) return 'e-mail'
  if (/timestamp/.test(text)) return 'timestamp'
  if (/URL/.test(text)) return 'url'
  if (/integer|numeric|of bytes/.test(text)) return 'number'
  if (/YYYY-MM-DD|year, day number, month name|month name|human readable date/.test(text)) return 'date'
  return 'free'
}

const kinds = (...wanted: FieldKind[]) => (x: Recorded, site: Site, place: Place) => wanted.includes(fieldKind(x, site, place) as FieldKind)
const bodyOf = (...kinds: Recorded['kind'][]) => (x: Recorded) => kinds.includes(x.kind)
const header = (...names: string[]) => (_x: Recorded, _s: Site, p: Place) => names.includes(p.header as string)
const both =
  (...tests: Array<(x: Recorded, s: Site, p: Place) => boolean>) =>
  (x: Recorded, s: Site, p: Place) =>
    tests.every((test) => test(x, s, p))
const not = (test: (x: Recorded, s: Site, p: Place) => boolean) => (x: Recorded, s: Site, p: Place) => !test(x, s, p)
const key = (...keys: string[]) => (_x: Recorded, s: Site) => keys.includes(s.key)
const JSON_KINDS: Recorded['kind'][] = ['list', 'detail', 'metrics', 'fields', 'write', 'refusal', 'limited']
/** A GET the kit sent with a Content-Type: its answer is to be the answer without it, whatever the spec allows an answer. */
const withContentType = (x: Recorded) => x.method === 'GET' && x.request.headers['content-type'] !== undefined
/** A deviation after which the answer cannot be read as HTTP at all (a Content-Length that is no number or sent twice, or more than comes). */
const unreadable = (_x: Recorded, _s: Site, p: Place) => p.header === 'content-length'
/** A record's member no row of its resource's table names. */
const unnamed = (x: Recorded, p: Place) => {
  const resource = resourceOf(x)
  return resource !== undefined && recordWords(resource.name, (p.path as Path).slice(2)).length === 0
}
/** An answer refusing: a read's error, a 429, a write without credentials. */
const refused = (x: Recorded) => x.kind === 'refusal' || x.kind === 'limited' || (x.kind === 'write' && x.reply.status === 401)
/** A page past a list's last (the pages the auth and 429 checks spend, too): a page asked by number that holds no record. */
const pastTheLast = (x: Recorded) => x.kind === 'list' && /[?&]page=/.test(x.url) && Array.isArray(at(jsonOf(x.reply), ['data'])) && (at(jsonOf(x.reply), ['data']) as unknown[]).length === 0
/** A job/add of a job with published 0. */
const addedUnpublished = (x: Recorded) => {
  try {
    return (JSON.parse(x.request.body.toString('utf8')) as { published?: unknown }).published === 0
  } catch {
    return false
  }
}
/**
 * A candidate's application entry whose link, moved to the next application, names one of
 * the same job: the entry's job (id, title, reference, location) is that application's
 * vacancy as it is the right one's, and the Application table names an applicant and a
 * vacancy, no candidate — every field the spec gives agrees either way.
 */
const sameJobApplication = (x: Recorded, s: Site, p: Place, view?: View) => {
  const moved = typeof p.value === 'string' ? /\/applications\/details\/([0-9]+)$/.exec(p.value) : null
  if (s.key !== 'applications[].href' || moved === null || view === undefined) return false
  const job = at(at(jsonOf(x.reply), (p.path as Path).slice(0, -1)), ['job']) as Record<string, unknown> | undefined
  const vacancy = view.record('/applications/list', Number(moved[1]) + 1)?.vacancy as Record<string, unknown> | undefined
  return job !== undefined && vacancy !== undefined && ['id', 'title', 'reference', 'location'].every((k) => job[k] === vacancy[k])
}
/** A download the spec gives no Content-Type for: resumes and documents. */
const untypedDownload = (x: Recorded) => x.kind === 'download' && /^\/candidates\/(resume|document)\//.test(x.path)

export const LEGAL: readonly Legal[] = [
  // ---- a public job page: the spec says what status it answers, nothing of its headers or body
  { operator: /^(body (prefixed|truncated|re-encoded)|member)|^header (dropped|value in another case|parameters changed|number with a leading zero)$/, where: bodyOf('page'), words: [S.closeRow, S.closed404], why: 'a public job page is held to its status alone (200 while published, 404 once closed): the spec says nothing of its headers or content' },
  { operator: /^header (another valid-looking value|duplicated|number as a decimal)$/, where: both(bodyOf('page'), not(unreadable)), words: [S.closeRow, S.closed404], why: 'a public job page is held to its status alone: another Content-Type, a header sent twice are its own' },
  { operator: /^status: /, where: (x) => x.kind === 'page' && x.reply.status === 404 && /CONTRACT-T-U\}/.test(x.id), words: [statement('| job/add |'), S.closed404], why: 'a job added with published 0 is not published ("published or not according to `published`": its page does not answer as a shown one); the 404 the errors row names is a closed job\'s: what else an unpublished page answers is not said' },
  { operator: 'status: the registered code above', where: (x) => x.reply.status === 200, words: [S.success, 'RFC 9110 §15.3'], why: 'the spec names the status a success\'s JSON body carries (200), not its HTTP status; 201 is a success too ("The 2xx (Successful) class of status code indicates that the client\'s request was successfully received, understood, and accepted", RFC 9110 §15.3), to a GET sent with a Content-Type as to one without' },
  // ---- bodies as bytes
  { operator: /^body (prefixed with (whitespace|text)|truncated)$/, where: (x) => x.kind === 'download' && /^\/applications\/attachment\//.test(x.path), words: [statement('| applicant.attachment |'), S.rawFile], why: 'an application\'s attachment is given a link and a name, no size and no content ("object: `href` (URL of applications/attachment/{id}), `filename` (string)"): whatever bytes come under its headers, as many as its Content-Length says, are from outside "the raw file"; nothing the spec gives tells them from other bytes' },
  { operator: 'body prefixed with whitespace', where: bodyOf(...JSON_KINDS), words: [S.json, 'RFC 8259 §2'], why: 'RFC 8259 §2: JSON-text = ws value ws; whitespace before the value is JSON' },
  { operator: 'body re-encoded pretty-printed', words: [S.json, 'RFC 8259 §2'], why: 'RFC 8259 §2: "Insignificant whitespace is allowed before or after any of the six structural characters."' },
  { operator: 'body re-encoded with JSON escapes', words: [S.json, 'RFC 8259 §7'], why: 'RFC 8259 §7: "Any character may be escaped." (\\u00e9 for é, \\/ for /): the same strings' },
  // ---- headers
  { operator: 'header value in another case', where: header('content-type'), words: [S.json, 'RFC 9110 §8.3.1', 'RFC 9110 §5.6.6'], why: 'RFC 9110 §8.3.1: "The type and subtype tokens are case-insensitive"; §5.6.6: "Parameter names are case-insensitive", and a charset names its encoding case-insensitively (§8.3.2)' },
  { operator: 'header value in another case', where: header('content-transfer-encoding'), words: [S.downloadHeaders, 'RFC 2045 §6.1'], why: 'RFC 2045 §6.1 (where Content-Transfer-Encoding comes from): its values "are not case sensitive"' },
  { operator: 'header value in another case', where: header('www-authenticate'), words: [S.basic, 'RFC 9110 §11.1'], why: 'RFC 9110 §11.1: the scheme is "a case-insensitive token"; the realm is any string (§11.5): BASIC REALM="…" still challenges for Basic' },
  { operator: 'header parameters changed', where: both(header('content-type'), bodyOf(...JSON_KINDS)), words: [S.json, 'RFC 8259 §11'], why: 'RFC 8259 §11: application/json defines no charset parameter; "adding one really has no effect on compliant recipients" (and UTF-8 is its encoding without one)' },
  { operator: 'header parameters changed', where: both(header('content-type'), bodyOf('download')), words: [S.downloadHeaders, 'RFC 9110 §8.3.1'], why: 'RFC 9110 §8.3.1: a media type is type/subtype followed by parameters; application/octet-stream with a parameter is still that type' },
  { operator: 'header parameters changed', where: header('content-disposition'), words: [S.downloadHeaders, 'RFC 6266 §4.1'], why: 'RFC 6266 §4.1: a disposition carries parameters of its own beside filename (disp-ext-parm); attachment and its filename are unchanged' },
  { operator: 'header number with a leading zero', where: header('content-length'), words: ['RFC 9110 §8.6'], why: 'RFC 9110 §8.6: Content-Length = 1*DIGIT; 0917 is 917' },
  { operator: 'header number with a leading zero', where: header('retry-after'), words: [S.limit429, 'RFC 9110 §10.2.3'], why: 'RFC 9110 §10.2.3: delay-seconds = 1*DIGIT; 0900 is 900 seconds' },
  { operator: 'header dropped', where: both(header('content-length'), not(bodyOf('download'))), words: ['RFC 9112 §6.3'], why: 'the spec names Content-Length for downloads only; without it an answer is delimited by its chunked coding (RFC 9112 §6.3), as the second server style b sends JSON' },
  { operator: 'header duplicated', where: header('www-authenticate'), words: [S.basic, 'RFC 9110 §11.6.1'], why: 'RFC 9110 §11.6.1: WWW-Authenticate is a list of challenges (#challenge); two Basic challenges are a list of two' },
  { operator: /^header (dropped|value in another case|parameters changed|another valid-looking value)$/, where: both(header('content-type'), untypedDownload), words: [S.downloadHeaders], why: 'the spec gives a Content-Type for application attachments and timesheets only: a resume or a document may be of any type' },
  // ---- a 429 holds the seconds to wait: any number of them
  { operator: 'Retry-after halved', words: [S.limited, S.limit429, 'RFC 9110 §10.2.3'], why: 'Retry-after holds "the seconds to wait before retrying": fewer seconds, within the spec\'s 15 minutes, are what the deployment asks (a window of its own)' },
  // ---- refusals: their bodies are "not shown" (error bodies in words are a legal twin); a JSON one is JSON, and a 412's says so (the kit's reading: wire.ts)
  { operator: /^member/, where: refused, words: [S.errorBodies, S.errorCodes], why: 'the bodies of refusals (a read\'s, a missing id\'s, a 429\'s, a write without credentials\') are not shown: their members and values are the deployment\'s' },
  { operator: /^header (dropped|value in another case|parameters changed|another valid-looking value)$/, where: (x, _s, p) => refused(x) && x.reply.status !== 412 && p.header === 'content-type', words: [S.errorBodies, S.errorCodes], why: 'a refusal\'s body is not shown, nor its type: the kit holds a body to JSON where it says it is JSON, and the 200s and 412s the spec gives JSON bodies' },
  { operator: /^status: /, where: (x) => x.kind === 'refusal' && x.reply.status !== 401, words: [S.errorBodies, S.errorCodes], why: 'a read of a missing id or a malformed since: its error is not shown ("Error codes other than 412, 429 and 404: not shown"); the kit observes what it is' },
  // ---- writes: the spec names the status in their JSON bodies, and leaves the errors of an operation on a deleted job open
  { operator: /^status: /, where: (x) => x.kind === 'write' && x.reply.status !== 401, words: [S.success, S.invalidField], why: 'the spec names the status of a write\'s JSON body (`status` 200 on success, `status` 412 on failure), not its HTTP status: the second server style b answers a refused add HTTP 200 with status 412 in its body' },
  { operator: /^member/, where: (x) => x.kind === 'write' && /"status":\s*404/.test(x.reply.body.toString('utf8')), words: [S.notShownStates], why: '"the error when an operation does not fit the current state: not shown": the body of a refusal to close, expire, repost or delete a deleted job is the deployment\'s' },
  { operator: 'link to another page or record', where: (x, s) => x.kind === 'write' && x.path === '/job/add' && s.key === 'message' && addedUnpublished(x), words: [statement('| job/add |'), S.closed404], why: 'the page of a job added with published 0 is not shown ("published or not according to `published`"), and the spec gives nothing else of it: a message naming the page of a job that is not there either names a page that answers as the job\'s own would (no success, which the kit holds it to); from outside the two are one answer' },
  { operator: 'link to another page or record', where: sameJobApplication, words: [statement('Candidate application entry:'), statement('| vacancy |'), statement('| applicant |')], why: "a candidate's application entry linking another application of the same job: the entry gives the application's job and link, the Application table an applicant and a vacancy and no candidate, so every field the spec gives agrees with the application linked as with the right one; from outside the two are one answer" },
  { operator: 'member in another case', where: (x, s) => x.kind === 'write' && s.key === 'message' && x.path !== '/job/add' && /"status":\s*200/.test(x.reply.body.toString('utf8')), words: [statement('| POST | /job/close |'), statement('| POST | /job/delete |')], why: 'a message "saying the job has been closed" (deleted, expired, reposted) says it in capitals too' },
  // ---- a page past the last, and the last page's next_page: what they hold is not shown (their bytes, when JSON, are JSON)
  { operator: /^(status|member|total|link)/, where: pastTheLast, words: [S.paging, S.pageSize], why: 'the spec says next_page names the next page and "The page size: not shown."; what a page past the last answers (an empty page, a 404, anything, its links too) is not said: the kit observes it' },
  { operator: 'member dropped', where: (x, s) => x.kind === 'list' && s.key === 'next_page' && typeof at(jsonOf(x.reply), ['next_page']) !== 'string', words: [S.paging], why: '"Where a response carries `next_page`": the last page need not carry one (the second server style a leaves it out)' },
  { operator: 'member set to null', where: (x, s) => x.kind === 'list' && s.key === 'next_page' && typeof at(jsonOf(x.reply), ['next_page']) !== 'string', words: [S.paging], why: '"Where a response carries `next_page`, it is a full URL of the next page": a last page has no next page, and what its next_page holds instead (false, null, nothing) is not said (the fake\'s lastPageNextPage)' },
  // ---- job/fields: "response shape: not shown" (a body with no text in it holds no value in any shape: the kit fails it)
  { operator: 'member of another type', where: (x, _s, p) => x.kind === 'fields' && findFieldLists(p.value)?.path === '(top level)' && typeof otherType(p.value) === 'string', words: [S.fieldsRow], why: 'job/fields\' "response shape: not shown": an answer holding its values as text the kit cannot read as lists (its lists\' object become one string) is a shape the spec leaves open; the kit observes it and uses the spec\'s values' },
  // ---- a member no row of the spec names (the second server's `channel`): the deployment's own
  { operator: /^member/, where: (x, s, p) => s.group.startsWith('record ') && unnamed(x, p), words: [S.envelope], why: 'a member the spec\'s table does not name is the deployment\'s own: its presence, type and value are not the spec\'s' },
  // ---- members of records: what the row's type leaves open
  { operator: 'member added', words: [S.envelope, 'RFC 8259 §4'], why: 'the tables list the members a record and an answer have, not that they have no others ("also carry"); an object is a set of name/value pairs (RFC 8259 §4): a member more is still the record' },
  { operator: 'member in another case', where: kinds('free', 'e-mail', 'date'), words: [S.json], why: 'a free-text string in capitals is a string of the row\'s type; an e-mail address in capitals is still an address (its domain case-insensitive); a month name in capitals is still the name' },
  { operator: 'member emptied', where: kinds('free', 'list'), words: [S.json], why: 'the row types it a string or an array (of strings, of entries) and gives it no length: "" and [] are of that type' },
  // ---- the order of records: the spec states one for applications and for a metric's months only
  { operator: /^(records reordered|record swapped with the next page)$/, where: (x, s) => !(x.path === '/applications/list' && s.key === 'data') && s.key !== 'aggregations' && !withContentType(x), words: [S.order, S.aggregationsOrder], why: 'the spec orders applications ("newest first") and a metric\'s months ("newest month first"), nothing else: candidates, timesheets, marketing records, metrics and a candidate\'s entries come in any order' },
  // the same request answered twice, with a Content-Type and without: "ignored" makes it the same request, not its order one the spec does not give
  { operator: 'records reordered', where: (x, s) => withContentType(x) && !(x.path === '/applications/list' && s.key === 'data') && s.key !== 'aggregations', words: [S.getContentType, S.order], why: 'the Content-Type ignored, it is the same request as without it; the spec gives no order to candidates, timesheets or marketing records, so two answers of one request may list a page\'s records in two orders: the header did not make the difference' },
  { operator: /^record (dropped|duplicated)$/, where: (_x, s) => s.group === 'record Candidate', words: [statement('| timesheets, resumes, documents |')], why: "a candidate's files, applications and consent entries are arrays of entries of no stated number: one fewer or one listed twice is still an array of entries" },
  { operator: 'record dropped', where: key('aggregations'), words: [S.emptyMonths, statement('The number of months per metric differs.')], why: 'the last month dropped is the oldest: "The number of months per metric differs."' },
]

/** The words that make a deviation legal, if an entry of LEGAL has them. */
export function legalOf(op: Operator, x: Recorded, site: Site, place: Place, view?: View): { words: string[]; why: string } | undefined {
  const entry = LEGAL.find((l) => (typeof l.operator === 'string' ? l.operator === op.name : l.operator.test(op.name)) && (l.where === undefined || l.where(x, site, place, view)))
  return entry === undefined ? undefined : { words: entry.words, why: entry.why }
}
