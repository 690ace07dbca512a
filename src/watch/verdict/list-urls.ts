// What the verdict reads of a list URL: which list it is (LIST_PATHS), and since, vacancy
// and page read straight from its query as URLSearchParams would read them (every list
// request passes here, and a URLSearchParams of the whole query costs more than the rest of
// the rules together).
import { API_PREFIX } from '../../../schemas/common.js'

/** The lists a walk can be made of, and what each is called in a copy. */
export const LIST_PATHS = {
  applications: `${API_PREFIX}/applications/list`,
  candidates: `${API_PREFIX}/candidates/list`,
  timesheets: `${API_PREFIX}/timesheets/list`,
  marketing: `${API_PREFIX}/marketing/list`,
} as const
export type ListName = keyof typeof LIST_PATHS
export const LIST_BY_PATH = new Map<string, ListName>(Object.entries(LIST_PATHS).map(([name, path]) => [path, name as ListName]))

/** The parameters of a list URL a walk reads: the first of each, decoded as URLSearchParams decodes them (a `+` is a space), as the fake's query parser does. */
export interface ListParams {
  since: string | undefined
  vacancy: string | undefined
  page: string | undefined
}

/** A name or value of a query as URLSearchParams gives it: `+` a space, %XX decoded as leniently as it does. */
function formDecode(text: string): string {
  // one pass over the characters rather than three calls (includes, isWellFormed, includes): every list parameter comes here
  let plus = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // the rare shapes go through URLSearchParams itself: escapes, and surrogates (it makes a lone one U+FFFD; a pair it keeps, as the fast path would)
    if (c === 0x25 || (c >= 0xd800 && c <= 0xdfff)) return new URLSearchParams(`v=${text}`).get('v') as string
    if (c === 0x2b) plus = true
  }
  return plus ? text.replaceAll('+', ' ') : text
}

/**
 * since, vacancy and page of a URL, read straight from its query: every list request
 * passes here, and a URLSearchParams of the whole query (every parameter decoded, an
 * object per pair) costs more than the rest of the rules together.
 */
export function listParams(url: string): ListParams {
  const params: ListParams = { since: undefined, vacancy: undefined, page: undefined }
  const mark = url.indexOf('?')
  if (mark < 0) return params
  // URLSearchParams drops one leading `?` of the text it is given
  const from = url.charCodeAt(mark + 1) === 0x3f ? mark + 2 : mark + 1
  for (let at = from; at < url.length; ) {
    let end = url.indexOf('&', at)
    if (end < 0) end = url.length
    if (end > at) {
      let equals = url.indexOf('=', at)
      if (equals < 0 || equals > end) equals = end
      const raw = url.slice(at, equals)
      // a name written another way (`p%61ge`) is decoded first; a plain one is what it says
      const name = raw === 'since' || raw === 'vacancy' || raw === 'page' ? raw : raw.includes('%') || raw.includes('+') ? formDecode(raw) : raw
      if ((name === 'since' || name === 'vacancy' || name === 'page') && params[name] === undefined) {
        params[name] = equals === end ? '' : formDecode(url.slice(equals + 1, end))
      }
    }
    at = end + 1
  }
  return params
}

/** What the walk rules read of a list URL: a function of the URL alone, so kept by it. */
export interface ListRead {
  /** The URL's path: one of LIST_PATHS. */
  readonly path: string
  /** The list a walk is of: the path, and the vacancy filter if any. */
  readonly list: string
  readonly since: string | undefined
  /** Epoch ms of since when it has the shape of a minute (YYYY-MM-DD HH:MM); else undefined. */
  readonly sinceTime: number | undefined
  /** The page as Number() reads it (NaN for what is no number); 1 when none is given. */
  readonly page: number
}

/** Leading zeros of a page written in digits only, but its last digit. */
const LEADING_ZEROS = /^0+(?=[0-9]+$)/

/**
 * A page as Number() reads it. Number() reads a long run of leading zeros (`page=0…01`,
 * a spelling that dodges a cache) a digit at a time, slower than a pattern drops them.
 */
export const pageNumber = (text: string): number => Number(text.length > 16 ? text.replace(LEADING_ZEROS, '') : text)
