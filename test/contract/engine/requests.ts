// The legal variants of the kit's own requests (issue 43 item 3): each a way to send the
// same request that a server must answer alike, with the words that make it the same.
// The engine sends every request of a run in one variant at a time and compares each
// answer with the one the request got as the kit sent it.
import type { Exchange } from '../helpers.js'

export interface Variant {
  name: string
  /** The words (the spec's, an RFC's) that make the variant the same request. */
  words: string[]
  why: string
  /** The variant of a request, or undefined where it does not apply (nothing to change). */
  change(x: Exchange): Exchange | undefined
}

const header = (x: Exchange, name: string, change: (value: string) => string | undefined): Exchange | undefined => {
  const value = x.headers[name]
  if (typeof value !== 'string') return undefined
  const changed = change(value)
  return changed === undefined || changed === value ? undefined : { ...x, headers: { ...x.headers, [name]: changed } }
}
const query = (x: Exchange, change: (query: string) => string): Exchange | undefined => {
  const [path, search] = x.url.split('?') as [string, string | undefined]
  if (search === undefined) return undefined
  const changed = change(search)
  return changed === search ? undefined : { ...x, url: `${path}?${changed}` }
}
const scheme = (to: string) => (value: string) => (/^Basic /.test(value) ? value.replace(/^Basic /, `${to} `) : undefined)

export const VARIANTS: readonly Variant[] = [
  {
    name: 'the Basic scheme name in lower case',
    words: ['All endpoints use HTTP Basic authentication with the form `<username>:<password>`.', 'RFC 9110 §11.1'],
    why: 'RFC 9110 §11.1: HTTP authentication "uses a case-insensitive token to identify the authentication scheme"',
    change: (x) => header(x, 'authorization', scheme('basic')),
  },
  {
    name: 'the Basic scheme name in upper case',
    words: ['All endpoints use HTTP Basic authentication with the form `<username>:<password>`.', 'RFC 9110 §11.1'],
    why: 'RFC 9110 §11.1: HTTP authentication "uses a case-insensitive token to identify the authentication scheme"',
    change: (x) => header(x, 'authorization', scheme('BASIC')),
  },
  {
    name: 'a space in the query percent-encoded (%20, not +)',
    words: ['optional query `since`, format `YYYY-MM-DD HH:MM` (a space is sent as +)', 'RFC 3986 §2.1'],
    why: 'since holds a space; %20 is that octet percent-encoded (RFC 3986 §2.1), as + is in a form: both are the same value',
    change: (x) => query(x, (q) => q.replace(/\+/g, '%20')),
  },
  {
    name: 'percent-encodings in lower-case hex',
    words: ['RFC 3986 §2.1'],
    why: 'RFC 3986 §2.1: "The uppercase hexadecimal digits \'A\' through \'F\' are equivalent to the lowercase digits \'a\' through \'f\'"',
    change: (x) => query(x, (q) => q.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())),
  },
  {
    name: 'a colon in the query sent as itself',
    words: ['optional query `since`, format `YYYY-MM-DD HH:MM` (a space is sent as +)', 'RFC 3986 §3.4'],
    why: 'since holds a colon; a query may carry ":" as itself (RFC 3986 §3.4: query = *( pchar / "/" / "?" ), pchar holds ":"): the same value',
    change: (x) => query(x, (q) => q.replace(/%3A/gi, ':')),
  },
  {
    name: "the query's parameters in another order",
    words: ['optional query `since`, optional `page`', 'optional query `since` (same format as above), optional `vacancy` (vacancy id, integer), optional `page`'],
    why: 'the spec names each query parameter by its name and gives them no order',
    change: (x) => query(x, (q) => (q.includes('&') ? q.split('&').reverse().join('&') : q)),
  },
  {
    name: 'a POST said to be JSON with a charset',
    words: ['POST bodies must be JSON with header `Content-Type: application/json`.', 'RFC 8259 §11'],
    why: 'RFC 8259 §11: no charset parameter is defined for application/json, and "adding one really has no effect on compliant recipients"',
    change: (x) => (x.method === 'POST' ? header(x, 'content-type', (v) => (v === 'application/json' ? 'application/json; charset=utf-8' : undefined)) : undefined),
  },
  {
    name: 'a POST said to be JSON in another case',
    words: ['POST bodies must be JSON with header `Content-Type: application/json`.', 'RFC 9110 §8.3.1'],
    why: 'RFC 9110 §8.3.1: "The type and subtype tokens are case-insensitive."',
    change: (x) => (x.method === 'POST' ? header(x, 'content-type', (v) => (v === 'application/json' ? 'Application/JSON' : undefined)) : undefined),
  },
]
