// The deviation engine's generic operators on answers (issue 43 item 3): each says where
// it fits an exchange (its sites: a header, a status, a JSON member, a page's records, a
// link, the body) and what it makes of the answer there. None is written for a rule: a
// site is whatever the answer holds. Where an operator does not fit an exchange (no
// header of that kind, a body that is not JSON, a page with one record to reorder) it has
// no site there: the engine counts it skipped. The legal variants of the kit's own
// requests are in requests.ts.
import type { Deviation, Recorded } from './transcript.js'
import { isJson, jsonOf } from './transcript.js'
import { at, emptied, isObject, isUrl, members, otherCase, otherForm, otherType, type Path, patternOf, placeOf, resourceOf, setAt } from './json-sites.js'
import type { Reply } from '../helpers.js'

export type Family = 'header' | 'status' | 'member' | 'records' | 'link' | 'total' | 'body' | 'limit'

export interface Site {
  /** The rotation group the site belongs to (engine.ts spreads a group's sites over its exchanges). */
  group: string
  /** The site's name in its group: a header's name, a member's pattern. */
  key: string
  /** Each place in this exchange the site stands (a member in every record that has it): the engine picks one. */
  places: readonly Place[]
}

export interface Place {
  header?: string
  path?: Path
  /** The member's value where it stands. */
  value?: unknown
}

export interface Operator {
  name: string
  family: Family
  sites(x: Recorded, view: View): Site[]
  /** The deviation at a place (without the exchange's id: the engine adds it). */
  apply(x: Recorded, place: Place, view: View): Omit<Deviation, 'id'>
}

/** What an operator may look up in the run's transcript besides its own exchange. */
export interface View {
  /** The recorded exchange a link names (the account's own request of that path and query), if the run made it. */
  byUrl(url: string): Recorded | undefined
  /** A record of a list (`/applications/list`) the run read, by its id: on a page of the list or in its detail. */
  record(list: string, id: number): Readonly<Record<string, unknown>> | undefined
}

const withJson = (reply: Reply, body: unknown): Reply => ({ ...reply, body: Buffer.from(JSON.stringify(body)) })
const jsonChange = (change: (body: unknown) => unknown) => ({ change: (reply: Reply) => (isJson(reply) ? withJson(reply, change(jsonOf(reply))) : reply) })

// ---- headers --------------------------------------------------------------------------

const headerSites = (x: Recorded, fits: (name: string, value: string) => boolean): Site[] =>
  Object.entries(x.reply.headers)
    .filter(([name, value]) => fits(name, value))
    .map(([name]) => ({ group: `${x.kind} header`, key: name, places: [{ header: name }] }))
const setHeader = (name: string, value: string | string[], extra: Partial<Reply> = {}) => ({
  change: (reply: Reply) => ({ ...reply, ...extra, headers: { ...reply.headers, [name]: value as string } }),
})
const NUMBER = /^[0-9]+$/
const PARAMETERS = new Set(['content-type', 'content-disposition'])

/** Another value a header could carry that looks valid: another type, another disposition, a date for seconds. */
function otherHeaderValue(name: string, value: string, x: Recorded): { value: string; extra?: Partial<Reply> } {
  switch (name) {
    case 'content-type':
      return { value: /json/i.test(value) ? 'text/html; charset=utf-8' : 'text/plain' }
    case 'content-length':
      // one byte more than comes, the connection closed after the body: a short answer
      return { value: String(x.reply.body.length + 1), extra: { keepLength: true, cut: true } }
    case 'content-disposition':
      return { value: value.replace(/^\s*attachment/i, 'inline') }
    case 'content-transfer-encoding':
      return { value: 'base64' }
    case 'retry-after':
      return { value: 'Wed, 21 Oct 2026 07:28:00 GMT' }
    case 'www-authenticate':
      return { value: 'Bearer realm="Job Board API"' }
    default:
      return { value: 'x' }
  }
}

/** The header's parameters changed: a charset added to a media type without one (or taken from one with it), a size added to a disposition. */
function otherParameters(name: string, value: string, x: Recorded): string {
  if (name === 'content-disposition') return `${value}; size=${x.reply.body.length}`
  if (/;\s*charset=/i.test(value)) return value.replace(/;\s*charset=[^;]*/i, '')
  return /json/i.test(value) ? `${value}; charset=utf-8` : `${value}; charset=binary`
}

const HEADERS: Operator[] = [
  // without Content-Length the proxy sends the body chunked (its own length is not put back)
  { name: 'header dropped', family: 'header', sites: (x) => headerSites(x, () => true), apply: (_x, p) => ({ change: (r) => ({ ...r, keepLength: p.header === 'content-length', headers: Object.fromEntries(Object.entries(r.headers).filter(([n]) => n !== p.header)) }) }) },
  { name: 'header value in another case', family: 'header', sites: (x) => headerSites(x, (_n, v) => otherCase(v) !== undefined), apply: (x, p) => setHeader(p.header as string, otherCase(x.reply.headers[p.header as string]) as string) },
  { name: 'header parameters changed', family: 'header', sites: (x) => headerSites(x, (n) => PARAMETERS.has(n)), apply: (x, p) => setHeader(p.header as string, otherParameters(p.header as string, x.reply.headers[p.header as string] as string, x)) },
  { name: 'header number with a leading zero', family: 'header', sites: (x) => headerSites(x, (_n, v) => NUMBER.test(v)), apply: (x, p) => setHeader(p.header as string, `0${x.reply.headers[p.header as string]}`, p.header === 'content-length' ? { keepLength: true } : {}) },
  { name: 'header number as a decimal', family: 'header', sites: (x) => headerSites(x, (_n, v) => NUMBER.test(v)), apply: (x, p) => setHeader(p.header as string, `${x.reply.headers[p.header as string]}.0`, p.header === 'content-length' ? { keepLength: true } : {}) },
  {
    name: 'header another valid-looking value',
    family: 'header',
    sites: (x) => headerSites(x, () => true),
    apply: (x, p) => {
      const other = otherHeaderValue(p.header as string, x.reply.headers[p.header as string] as string, x)
      return setHeader(p.header as string, other.value, other.extra)
    },
  },
  { name: 'header duplicated', family: 'header', sites: (x) => headerSites(x, () => true), apply: (x, p) => setHeader(p.header as string, [x.reply.headers[p.header as string] as string, x.reply.headers[p.header as string] as string], p.header === 'content-length' ? { keepLength: true } : {}) },
]

// ---- the status -------------------------------------------------------------------------

/** The status codes RFC 9110 (and RFC 6585 for 428, 429, 431) registers, by class. */
const REGISTERED = [200, 201, 202, 203, 204, 205, 206, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 426, 428, 429, 431, 500, 501, 502, 503, 504, 505]
const neighbour = (status: number, step: -1 | 1): number | undefined => {
  const i = REGISTERED.indexOf(status)
  const next = REGISTERED[i + step]
  return i < 0 || next === undefined || Math.floor(next / 100) !== Math.floor(status / 100) ? undefined : next
}
const statusOperator = (name: string, step: -1 | 1): Operator => ({
  name,
  family: 'status',
  sites: (x) => (neighbour(x.reply.status, step) === undefined ? [] : [{ group: `class ${x.cls}`, key: 'status', places: [{}] }]),
  apply: (x) => ({ change: (r) => ({ ...r, status: neighbour(x.reply.status, step) as number }) }),
})

// ---- JSON members -----------------------------------------------------------------------

/** The sites of a member operator: each member pattern the body holds where `fits` its value, with every place it stands. */
function memberSites(x: Recorded, fits: (value: unknown, path: Path) => boolean): Site[] {
  if (!isJson(x.reply)) return []
  const sites = new Map<string, Site & { places: Place[] }>()
  for (const m of members(jsonOf(x.reply))) {
    if (!fits(m.value, m.path)) continue
    const { group, key } = placeOf(x, m.path)
    const id = `${group}\n${key}`
    const site = sites.get(id) ?? { group, key, places: [] }
    site.places.push({ path: m.path, value: m.value })
    sites.set(id, site)
  }
  return [...sites.values()]
}
const memberOperator = (name: string, fits: (value: unknown, path: Path) => boolean, value: (old: unknown) => unknown, drop = false): Operator => ({
  name,
  family: 'member',
  sites: (x) => memberSites(x, fits),
  apply: (x, p) => atPath(x, p.path as Path, (old) => value(old), drop),
})

/** The member at `path` changed (or dropped), in this answer and wherever else the run answers its record. */
const atPath = (x: Recorded, path: Path, value: (old: unknown) => unknown, drop = false) => ({
  ...jsonChange((body) => setAt(body, path, value(at(body, path)), drop)),
  ...sameRecord(x, path, (record, within) => setAt(record, within, value(at(record, within)), drop)),
})

/**
 * A member of a record changed wherever the run answers that record (a list's page, the
 * answer with since, its detail): a deployment has one value for a record's member, and the
 * kit compares a detail with the list. The record is known by its id, else by its members.
 */
function sameRecord(x: Recorded, path: Path, change: (record: unknown, within: Path) => unknown): Pick<Deviation, 'also'> {
  const resource = resourceOf(x)
  const records = resource?.records
  if (resource === undefined || path[0] !== records || typeof path[1] !== 'number' || path.length < 3) return {}
  const original = at(jsonOf(x.reply), path.slice(0, 2))
  const same = (record: unknown) => (isObject(original) && typeof original.id === 'number' ? isObject(record) && record.id === original.id : JSON.stringify(record) === JSON.stringify(original))
  return {
    also: (reply, apiPath) => {
      if (!resource.path.test(apiPath) || !isJson(reply)) return reply
      const body = jsonOf(reply) as Record<string, unknown>
      const list = body[records as string]
      if (!Array.isArray(list) || !list.some(same)) return reply
      return withJson(reply, { ...body, [records as string]: list.map((record) => (same(record) ? change(record, path.slice(2)) : record)) })
    },
  }
}

/** The objects of a body, by pattern (the root is ``): where a member may be added. */
function objectSites(x: Recorded): Site[] {
  if (!isJson(x.reply)) return []
  const body = jsonOf(x.reply)
  const roots = isObject(body) ? [{ path: [] as Path, value: body }] : []
  const sites = new Map<string, Site & { places: Place[] }>()
  for (const m of [...roots, ...members(body)]) {
    const list = Array.isArray(m.value) ? m.value.map((item, i) => ({ path: [...m.path, i], value: item })) : [m]
    for (const o of list.filter((item) => isObject(item.value))) {
      const { group, key } = placeOf(x, [...o.path, 'x'])
      const parent = key.replace(/\.?x$/, '') || '(the body)'
      const id = `${group}\n${parent}`
      const site = sites.get(id) ?? { group, key: parent, places: [] }
      site.places.push({ path: o.path })
      sites.set(id, site)
    }
  }
  return [...sites.values()]
}

const MEMBERS: Operator[] = [
  memberOperator('member dropped', () => true, () => undefined, true),
  memberOperator('member set to null', (v) => v !== null, () => null),
  memberOperator('member of another type', () => true, otherType),
  memberOperator('member in another form', (v) => otherForm(v) !== undefined, (v) => otherForm(v)?.value),
  memberOperator('member in another case', (v) => otherCase(v) !== undefined, otherCase),
  memberOperator('member emptied', (v) => emptied(v) !== undefined, emptied),
  { name: 'member added', family: 'member', sites: objectSites, apply: (x, p) => atPath(x, [...(p.path as Path), 'engine_extra'], () => 'an unknown member') },
]

// ---- a page's records, links, totals -----------------------------------------------------

/** Arrays of objects (a page's records, a record's entries), by pattern. */
function recordSites(x: Recorded, least: number, also: (list: unknown[], path: Path) => boolean = () => true): Site[] {
  return memberSites(x, (v, path) => Array.isArray(v) && v.length >= least && v.every(isObject) && also(v, path))
}
const listChange = (x: Recorded, path: Path, change: (list: unknown[]) => unknown[]) => atPath(x, path, (list) => change([...(list as unknown[])]))

/** The recorded next page of a page: the exchange its next_page names. */
const nextOf = (x: Recorded, view: View): Recorded | undefined => {
  const next = (jsonOf(x.reply) as { next_page?: unknown } | undefined)?.next_page
  return typeof next === 'string' ? view.byUrl(next) : undefined
}

const RECORDS: Operator[] = [
  { name: 'record dropped', family: 'records', sites: (x) => recordSites(x, 1), apply: (x, p) => listChange(x, p.path as Path, (l) => l.slice(0, -1)) },
  { name: 'record duplicated', family: 'records', sites: (x) => recordSites(x, 1), apply: (x, p) => listChange(x, p.path as Path, (l) => [l[0], ...l]) },
  { name: 'records reordered', family: 'records', sites: (x) => recordSites(x, 2, (l) => JSON.stringify(l) !== JSON.stringify([...l].reverse())), apply: (x, p) => listChange(x, p.path as Path, (l) => l.reverse()) },
  {
    name: 'record swapped with the next page',
    family: 'records',
    sites: (x, view) => {
      const next = nextOf(x, view)
      const theirs = next && (jsonOf(next.reply) as { data?: unknown[] } | undefined)?.data
      return Array.isArray(theirs) && theirs.length > 0 ? recordSites(x, 1, (_l, path) => patternOf(path) === 'data') : []
    },
    apply: (x, _p, view) => {
      const next = nextOf(x, view) as Recorded
      const mine = ((jsonOf(x.reply) as { data: unknown[] }).data.at(-1))
      const theirs = (jsonOf(next.reply) as { data: unknown[] }).data[0]
      return {
        partner: next.id,
        change: (reply, which) =>
          isJson(reply) ? withJson(reply, setAt(jsonOf(reply), which === 'self' ? ['data', (jsonOf(reply) as { data: unknown[] }).data.length - 1] : ['data', 0], which === 'self' ? theirs : mine)) : reply,
      }
    },
  },
]

const isLink = (v: unknown, path: Path) => isUrl(v) || (typeof v === 'string' && /^(next|prev)_page$/.test(String(path.at(-1))))
const linkSites = (x: Recorded, fits: (url: URL) => boolean) => memberSites(x, (v, path) => isLink(v, path) && URL.canParse(v as string) && fits(new URL(v as string)))
const linkOperator = (name: string, fits: (url: URL) => boolean, change: (url: URL) => string): Operator => ({
  name,
  family: 'link',
  sites: (x) => linkSites(x, fits),
  // from the link as it comes: a write's answer comes from a fresh deployment each run, on an origin of its own
  apply: (x, p) => atPath(x, p.path as Path, (old) => change(new URL(typeof old === 'string' && URL.canParse(old) ? old : (p.value as string)))),
})
const LISTS = ['candidates', 'applications', 'timesheets', 'marketing']
const otherList = (path: string) => {
  const list = LISTS.find((l) => path.includes(`/${l}/`))
  const other = list === undefined ? undefined : LISTS[(LISTS.indexOf(list) + 1) % LISTS.length]
  return list === undefined ? path : path.replace(`/${list}/`, `/${other}/`)
}

const LINKS: Operator[] = [
  linkOperator('link made relative', () => true, (u) => `${u.pathname}${u.search}`),
  linkOperator('link to another page or record', (u) => u.searchParams.has('page') || /\/[0-9]+$/.test(u.pathname), (u) => {
    if (u.searchParams.has('page')) u.searchParams.set('page', String(Number(u.searchParams.get('page')) + 1))
    else u.pathname = u.pathname.replace(/[0-9]+$/, (id) => String(Number(id) + 1))
    return u.href
  }),
  linkOperator('link to another list', (u) => otherList(u.pathname) !== u.pathname, (u) => {
    u.pathname = otherList(u.pathname)
    return u.href
  }),
  linkOperator('link without its filters', (u) => u.searchParams.has('since') || u.searchParams.has('vacancy'), (u) => {
    u.searchParams.delete('since')
    u.searchParams.delete('vacancy')
    return u.href
  }),
]

const TOTALS: Operator[] = [
  {
    name: 'total changed',
    family: 'total',
    sites: (x) => (isJson(x.reply) && typeof (jsonOf(x.reply) as { total?: unknown }).total === 'number' ? [{ group: `class ${x.cls}`, key: 'total', places: [{ path: ['total'] }] }] : []),
    apply: () => jsonChange((body) => setAt(body, ['total'], (body as { total: number }).total + 1)),
  },
]

// ---- the body as bytes, and the 429's Retry-after ---------------------------------------------

const bodySite = (x: Recorded, fits: boolean): Site[] => (fits && x.reply.body.length > 0 ? [{ group: `${x.kind} body bytes`, key: 'body', places: [{}] }] : [])
const bytes = (change: (body: Buffer) => Buffer, extra: Partial<Reply> = {}) => ({ change: (r: Reply) => ({ ...r, ...extra, body: change(r.body) }) })
const BEYOND_ASCII = /[\u0080-\uffff]/g
const nonAscii = (x: Recorded) => /[\u0080-\uffff]/.test(x.reply.body.toString('utf8'))
/** The same JSON written with escapes: \u for every character beyond ASCII, \/ for every slash (JSON.stringify writes neither, and both stand only in strings). */
const escaped = (text: string) =>
  JSON.stringify(JSON.parse(text))
    .replace(BEYOND_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/')

const BODIES: Operator[] = [
  { name: 'body prefixed with whitespace', family: 'body', sites: (x) => bodySite(x, true), apply: () => bytes((b) => Buffer.concat([Buffer.from('\n  '), b])) },
  { name: 'body prefixed with a byte-order mark', family: 'body', sites: (x) => bodySite(x, isJson(x.reply)), apply: () => bytes((b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])) },
  { name: 'body prefixed with text', family: 'body', sites: (x) => bodySite(x, true), apply: () => bytes((b) => Buffer.concat([Buffer.from('Notice: Undefined index: page in /var/www/api.php on line 12\n'), b])) },
  { name: 'body truncated', family: 'body', sites: (x) => bodySite(x, x.reply.body.length > 1), apply: () => bytes((b) => b.subarray(0, Math.floor(b.length / 2))) },
  { name: 'body cut short of its Content-Length', family: 'body', sites: (x) => bodySite(x, x.reply.body.length > 1), apply: (x) => bytes((b) => b.subarray(0, Math.floor(b.length / 2)), { keepLength: true, cut: true, headers: { ...x.reply.headers, 'content-length': String(x.reply.body.length) } }) },
  { name: 'body re-encoded with JSON escapes', family: 'body', sites: (x) => bodySite(x, isJson(x.reply) && (nonAscii(x) || x.reply.body.includes('/'))), apply: () => bytes((b) => Buffer.from(escaped(b.toString('utf8')))) },
  { name: 'body re-encoded as Latin-1', family: 'body', sites: (x) => bodySite(x, isJson(x.reply) && nonAscii(x)), apply: () => bytes((b) => Buffer.from(b.toString('utf8'), 'latin1')) },
  { name: 'body re-encoded pretty-printed', family: 'body', sites: (x) => bodySite(x, isJson(x.reply)), apply: () => bytes((b) => Buffer.from(JSON.stringify(JSON.parse(b.toString('utf8')), null, 2))) },
]

const retryAfter = (x: Recorded) => x.reply.headers['retry-after']
const limitSite = (x: Recorded, fits: (seconds: number) => boolean): Site[] =>
  x.reply.status === 429 && NUMBER.test(retryAfter(x) ?? '') && fits(Number(retryAfter(x))) ? [{ group: `class ${x.cls}`, key: 'retry-after', places: [{ header: 'retry-after' }] }] : []
const LIMITS: Operator[] = [
  { name: 'Retry-after halved', family: 'limit', sites: (x) => limitSite(x, (n) => n > 1), apply: (x) => setHeader('retry-after', String(Math.floor(Number(retryAfter(x)) / 2))) },
  { name: 'Retry-after doubled', family: 'limit', sites: (x) => (x.reply.status === 429 && NUMBER.test(retryAfter(x) ?? '') ? [{ group: `class ${x.cls}`, key: 'retry-after', places: [{ header: 'retry-after' }] }] : []), apply: (x) => setHeader('retry-after', String(Number(retryAfter(x)) * 2)) },
  { name: 'Retry-after 0', family: 'limit', sites: (x) => (x.reply.status === 429 && NUMBER.test(retryAfter(x) ?? '') && retryAfter(x) !== '0' ? [{ group: `class ${x.cls}`, key: 'retry-after', places: [{ header: 'retry-after' }] }] : []), apply: () => setHeader('retry-after', '0') },
]

/** Every operator on answers, in the order the counts name them. */
export const OPERATORS: readonly Operator[] = [
  ...HEADERS,
  statusOperator('status: the registered code below', -1),
  statusOperator('status: the registered code above', 1),
  ...MEMBERS,
  ...RECORDS,
  ...LINKS,
  ...TOTALS,
  ...BODIES,
  ...LIMITS,
]
