// No secret in any output: the one redaction of the contract kit. Whatever a deployment
// sends back (a debug page echoing the request, a JSON error quoting the headers, a link
// carrying credentials), every body, header, URL and message is passed through this
// before it reaches stdout, stderr, the JUnit file, the JSON report, the ledger or the
// profile. It hides the password in the forms it travels in (plain, JSON- and
// URL-escaped, HTML-escaped, `user:pass` and its base64, the Basic header), any value of
// an Authorization, Proxy-Authorization, Cookie or Set-Cookie header, credentials in a
// URL (`https://user:pass@host`), and the same for the proxy's credentials. Answers are
// redacted when they come in (src/contract/http.ts), so that a quote cut to a few
// hundred characters cannot keep half a password; the outputs are redacted again as
// they are written.
import { Buffer } from 'node:buffer'

export const REDACTED = '[redacted]'

export interface Secrets {
  username?: string | undefined
  password?: string | undefined
  /** Proxy URLs (HTTPS_PROXY, HTTP_PROXY): their user info is a secret too. */
  proxies?: ReadonlyArray<string | undefined>
}

export interface Redactor {
  /** A text with every secret form replaced by [redacted]. */
  text(value: string): string
  /** A JSON-like value with every string (and key) redacted; other values as they are. */
  deep<T>(value: T): T
  /** Headers with the values of the secret-bearing ones replaced, the others redacted as text. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string>
}

/** Headers whose value is a secret whatever it holds. */
const SECRET_HEADERS = /^(proxy-authorization|authorization|cookie|set-cookie)$/i

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** The forms a user name and password travel in: plain, escaped, joined, encoded. */
function formsOf(username: string | undefined, password: string | undefined): string[] {
  if (password === undefined || password === '') return []
  const forms = new Set<string>()
  const pair = `${username ?? ''}:${password}`
  for (const secret of [pair, password]) {
    // a password that is the user name too is shown as the user the run is made as; its other forms still go
    if (secret === password && password === username) continue
    forms.add(secret)
    forms.add(JSON.stringify(secret).slice(1, -1))
    forms.add(encodeURIComponent(secret))
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2))
    forms.add(html(secret))
  }
  const base64 = Buffer.from(pair, 'utf8').toString('base64')
  forms.add(base64)
  forms.add(base64.replace(/=+$/, ''))
  forms.add(Buffer.from(pair, 'utf8').toString('base64url'))
  return [...forms].filter((form) => form !== '')
}

/** The user info of a proxy URL, if it has any. */
function proxySecrets(proxy: string | undefined): Array<[string | undefined, string]> {
  if (proxy === undefined || proxy === '') return []
  try {
    const url = new URL(proxy)
    if (url.password === '') return url.username === '' ? [] : [[undefined, decodeURIComponent(url.username)]]
    return [[decodeURIComponent(url.username), decodeURIComponent(url.password)]]
  } catch {
    // not a URL (a usage error says so): whatever sits between :// and @ is hidden by the URL rule
    return []
  }
}

// header values by name, in any echo: `Authorization: Basic …`, `"cookie":"…"`, `authorization=…`
const HEADER_VALUE = /\b((?:proxy-)?authorization|(?:set-)?cookie)(["']?\s*[:=]\s*["']?)([^"'\r\n<>]+)/gi
// credentials in any URL
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi
// a Basic token whose decoding holds a colon is a user:pass pair, whoever's it is
const BASIC = /\b(Basic\s+)([A-Za-z0-9+/]{4,}={0,2})/g
const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{8,})/g

export function redactor(secrets: Secrets): Redactor {
  const forms = [
    ...formsOf(secrets.username, secrets.password),
    ...(secrets.proxies ?? []).flatMap(proxySecrets).flatMap(([user, pass]) => (user === undefined ? [pass] : formsOf(user, pass))),
  ]
  // the longest first: `user:pass` goes whole before `pass` would leave `user:` behind
  const pattern = forms.length === 0 ? undefined : new RegExp([...new Set(forms)].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g')
  const text = (value: string): string => {
    let out = pattern ? value.replace(pattern, REDACTED) : value
    out = out.replace(HEADER_VALUE, (_all, name: string, separator: string) => `${name}${separator}${REDACTED}`)
    out = out.replace(USER_INFO, (_all, scheme: string) => `${scheme}${REDACTED}@`)
    out = out.replace(BASIC, (all, prefix: string, token: string) => (Buffer.from(token, 'base64').toString('latin1').includes(':') ? `${prefix}${REDACTED}` : all))
    return out.replace(BEARER, (_all, prefix: string) => `${prefix}${REDACTED}`)
  }
  const deep = <T>(value: T): T => {
    if (typeof value === 'string') return text(value) as T
    if (Array.isArray(value)) return value.map(deep) as T
    if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [text(key), deep(v)])) as T
    }
    return value
  }
  const headers = (given: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(given).map(([name, value]) => [name, SECRET_HEADERS.test(name) ? REDACTED : text(value)]))
  return { text, deep, headers }
}

/** A writer whose every text is redacted first. */
export const redacting = (out: { write(text: string): unknown }, redact: Redactor) => ({ write: (text: string) => out.write(redact.text(text)) })
