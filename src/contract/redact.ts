// No secret in any output: the one redaction of the contract kit. Whatever a deployment
// sends back (a debug page echoing the request, a JSON error quoting the headers, a link
// carrying credentials), every body, header, URL and message is passed through this
// before it reaches stdout, stderr, the JUnit file, the JSON report, the ledger or the
// profile. It hides the password in the forms it travels in (plain, JSON- and
// URL-escaped, HTML-escaped, `user:pass` and its base64, the Basic header), any value of
// an Authorization, Proxy-Authorization, Cookie or Set-Cookie header, credentials in a
// URL (`https://user:pass@host`), and the same for the proxy's credentials. It is for
// outputs only: the checks, the profile and the recorder read the answers as they came
// (a one-letter password cut out of every link would break every link); a quote is
// redacted before it is cut (src/contract/http.ts, excerpt), so it cannot keep half a
// password. A password shorter than SHORT_PASSWORD characters cannot be told apart from
// text ("p" is in "passed"): its plain forms are hidden where they stand alone, as a
// whole token, and its unambiguous forms (`user:pass`, the base64 pair, the Basic header,
// URL user info) wherever they are.
import { Buffer } from 'node:buffer'
import type { ContractSettings } from './settings.js'

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
  /**
   * A JSON-like value with every string redacted and its keys kept: for a file whose keys
   * are names the reader looks up (a profile's points, `value`, `date`, a record's fields),
   * which a short password that is the same word (`date`) must not rewrite.
   */
  values<T>(value: T): T
  /** Headers with the values of the secret-bearing ones replaced, the others redacted as text. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string>
}

/** A password shorter than this is hidden in its plain forms only where it stands alone (docs/contract.md). */
export const SHORT_PASSWORD = 8

/** Headers whose value is a secret whatever it holds. */
const SECRET_HEADERS = /^(proxy-authorization|authorization|cookie|set-cookie)$/i

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** The escaped forms a secret travels in: plain, JSON, URL, form and HTML. */
const escapes = (secret: string) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), html(secret)]

/** The forms a user name and password travel in: `anywhere` hidden wherever they occur, `alone` only as a whole token. */
function formsOf(username: string | undefined, password: string | undefined): { anywhere: string[]; alone: string[] } {
  if (password === undefined || password === '') return { anywhere: [], alone: [] }
  const pair = `${username ?? ''}:${password}`
  const base64 = Buffer.from(pair, 'utf8').toString('base64')
  const anywhere = new Set([...escapes(pair), base64, base64.replace(/=+$/, ''), Buffer.from(pair, 'utf8').toString('base64url')])
  // a password that is the user name too is shown as the user the run is made as; its other forms still go
  const plain = password === username ? [] : escapes(password)
  const short = [...password].length < SHORT_PASSWORD
  for (const form of short ? [] : plain) anywhere.add(form)
  const alone = short ? plain.filter((form) => !anywhere.has(form)) : []
  return { anywhere: [...anywhere].filter((form) => form !== ''), alone: [...new Set(alone)].filter((form) => form !== '') }
}

/** One pattern of every form, the longest first: `user:pass` goes whole before `pass` would leave `user:` behind. */
function patternOf(anywhere: readonly string[], alone: readonly string[]): RegExp | undefined {
  const sources = [
    ...[...new Set(anywhere)].map((form) => ({ form, source: escapeRegExp(form) })),
    // a whole token: no letter or digit right before or after it
    ...[...new Set(alone)].map((form) => ({ form, source: `(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])` })),
  ].sort((a, b) => b.form.length - a.form.length)
  return sources.length === 0 ? undefined : new RegExp(sources.map((s) => s.source).join('|'), 'gu')
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
  const forms = [formsOf(secrets.username, secrets.password), ...(secrets.proxies ?? []).flatMap(proxySecrets).map(([user, pass]) => (user === undefined ? formsOf(undefined, pass) : formsOf(user, pass)))]
  const pattern = patternOf(
    forms.flatMap((f) => f.anywhere),
    forms.flatMap((f) => f.alone),
  )
  const text = (value: string): string => {
    let out = pattern ? value.replace(pattern, REDACTED) : value
    out = out.replace(HEADER_VALUE, (_all, name: string, separator: string) => `${name}${separator}${REDACTED}`)
    out = out.replace(USER_INFO, (_all, scheme: string) => `${scheme}${REDACTED}@`)
    out = out.replace(BASIC, (all, prefix: string, token: string) => (Buffer.from(token, 'base64').toString('latin1').includes(':') ? `${prefix}${REDACTED}` : all))
    return out.replace(BEARER, (_all, prefix: string) => `${prefix}${REDACTED}`)
  }
  const walk = (keys: (key: string) => string) => {
    const each = <T>(value: T): T => {
      if (typeof value === 'string') return text(value) as T
      if (Array.isArray(value)) return value.map(each) as T
      if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
        return Object.fromEntries(Object.entries(value).map(([key, v]) => [keys(key), each(v)])) as T
      }
      return value
    }
    return each
  }
  const deep = walk(text)
  const values = walk((key) => key)
  const headers = (given: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(given).map(([name, value]) => [name, SECRET_HEADERS.test(name) ? REDACTED : text(value)]))
  return { text, deep, values, headers }
}

/** A writer whose every text is redacted first. */
export const redacting = (out: { write(text: string): unknown }, redact: Redactor) => ({ write: (text: string) => out.write(redact.text(text)) })

/** The redaction of a run's secrets: the credentials and the proxies' user info. */
export const redactorOf = (settings: Pick<ContractSettings, 'username' | 'password' | 'network'>): Redactor =>
  redactor({ username: settings.username, password: settings.password, proxies: [settings.network?.httpsProxy, settings.network?.httpProxy] })
