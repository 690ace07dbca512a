// Every answer as bytes: what the wire itself must be, before any check reads what it
// means. A JSON answer is held to RFC 8259 (UTF-8, no byte-order mark, exactly one JSON
// value with nothing after it but JSON whitespace) and says so in its Content-Type (the
// spec: "All bodies are JSON"); each header the spec names is held to its RFC grammar
// (Content-Length RFC 9110 §8.6, Retry-after on a 429 as delay-seconds RFC 9110 §10.2.3,
// Content-Disposition RFC 6266 §4, a 401's WWW-Authenticate challenge RFC 9110 §11.6.1 and
// RFC 7617 §2: "HTTP Basic" brings them in), and each of them the kit reads that is not a
// list to one field line (RFC 9110 §5.3). The client computes an answer's problems once, when
// it comes (Answer.wire); the checks of the "every answer" endpoint (groups/wire-checks.ts) and
// of the downloads report them. The JSON the other checks read stays lenient (the first
// value of a body, decoded however it decodes), so that one wire fault is one failure,
// not a failure of every check that reads the answer.

import { challengeProblem } from './challenge.js'
import { quotedAt, TOKEN, tokenAt } from './grammar.js'

/** Which wire rule a problem breaks: each is reported by its own check. */
export const WIRE_RULES = ['encoding', 'one-value', 'content-type', 'content-length', 'retry-after', 'challenge', 'one-line'] as const
export type WireRule = (typeof WIRE_RULES)[number]

export interface WireProblem {
  readonly rule: WireRule
  /** What is wrong, in words (no body quoted: the message is safe to print). */
  readonly message: string
}

/** An answer as far as the wire checks need it. */
export interface WireAnswer {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly bytes: Uint8Array
  /** Why the body ended early, if it did. */
  readonly truncated: string | undefined
  /**
   * The caller decoded `bytes` as UTF-8 (fatal), found no byte-order mark and JSON.parse
   * read the text whole: the body has no encoding or one-value problem, and is not decoded
   * and parsed again (the proxy decodes each answer to rewrite its links).
   */
  readonly strictJson?: boolean
  /**
   * How many field lines each header came on (names in lower case), where the reader could
   * count them: a client that joins a field's lines into one value (undici's fetch, Node's
   * IncomingMessage) cannot tell `a, b` on one line from `a` and `b` on two. Without it the
   * one-line rule is not held.
   */
  readonly lines?: Readonly<Record<string, number>>
}

/** The API paths (after /api/v1) that answer raw files, not JSON: the spec's downloads. */
const DOWNLOAD_PATH = /^\/(?:candidates\/(?:timesheet|resume|document)|candidates\/timesheets\/download|applications\/attachment)\/[^/]+$/

/** Whether a path under the API root (`/candidates/resume/12`) is a download's. */
export const isDownloadPath = (path: string) => DOWNLOAD_PATH.test(path)

/** A media type's essence (`application/json` of `Application/JSON; charset=UTF-8`), lower case. */
export const essenceOf = (type: string | undefined) => type?.split(';')[0]?.trim().toLowerCase()

/** Whether a Content-Type claims JSON: application/json or a +json type, parameters allowed. */
export const claimsJson = (type: string | undefined) => {
  const essence = essenceOf(type)
  return essence === 'application/json' || (essence !== undefined && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence))
}

// RFC 8259 §2: the only insignificant whitespace (not U+00A0, U+FEFF or other Unicode spaces)
const JSON_WHITESPACE = /^[ \t\n\r]*$/

/**
 * Where the first JSON value of a text ends (an index past its last character), found by
 * brackets and strings alone, or undefined when the text does not start one. Used only to
 * read a body leniently; the wire check parses strictly.
 */
function endOfFirstValue(text: string, start: number): number | undefined {
  const open = text[start]
  if (open !== '{' && open !== '[') return undefined
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return undefined
}

/**
 * The body as the checks read it, leniently: decoded as UTF-8 whatever it is, a
 * byte-order mark and surrounding whitespace let go, and the first JSON object or array
 * taken even when something follows it. Undefined when there is none.
 */
export function lenientJson(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, '')
  const start = text.search(/\S/)
  if (start < 0) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    const end = endOfFirstValue(text, start)
    if (end === undefined) return undefined
    try {
      return JSON.parse(text.slice(start, end)) as unknown
    } catch {
      return undefined
    }
  }
}

/** What is wrong with a body as JSON per RFC 8259: encoding (§8.1) and being one value (§2). */
export function jsonBodyProblems(bytes: Uint8Array): WireProblem[] {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return [{ rule: 'encoding', message: 'the body starts with a UTF-8 byte-order mark (EF BB BF), which RFC 8259 §8.1 forbids' }]
  }
  if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
    return [{ rule: 'encoding', message: 'the body starts with a UTF-16 byte-order mark: JSON exchanged between systems is UTF-8 (RFC 8259 §8.1)' }]
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    const at = firstInvalidUtf8(bytes)
    return [{ rule: 'encoding', message: `the body is not valid UTF-8 (RFC 8259 §8.1): byte ${at} (0x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')}) starts no valid sequence, as when Latin-1 or another 8-bit encoding writes a character` }]
  }
  // JavaScript's \s takes every Unicode space: the start of the value whatever precedes it
  const start = text.search(/\S/)
  if (start < 0) {
    return [{ rule: 'one-value', message: JSON_WHITESPACE.test(text) ? 'the body is empty: it holds no JSON value (RFC 8259 §2)' : `the body holds only whitespace JSON does not allow (${describeSpace(text)})` }]
  }
  const leading = text.slice(0, start)
  if (!JSON_WHITESPACE.test(leading)) return [{ rule: 'one-value', message: `the body starts with whitespace JSON does not allow (${describeSpace(leading)}): RFC 8259 §2 allows only space, tab, LF and CR` }]
  try {
    JSON.parse(text)
    return []
  } catch (error) {
    const end = endOfFirstValue(text, start)
    if (end !== undefined && isJson(text.slice(start, end))) {
      const rest = text.slice(end)
      const what = /^\s*$/.test(rest) ? `whitespace JSON does not allow (${describeSpace(rest)})` : /^[ \t\n\r]*[{["0-9tfn-]/.test(rest) ? 'a second JSON value' : 'text that is not JSON'
      return [{ rule: 'one-value', message: `the body holds one JSON value and then, from character ${end}, ${what}: RFC 8259 §2 allows only space, tab, LF and CR after it` }]
    }
    // the parser's own message quotes the body: only its position is kept, so no message carries what the body holds
    const position = /position ([0-9]+)/.exec((error as Error).message)?.[1]
    return [{ rule: 'one-value', message: `the body is not one JSON value (RFC 8259 §2)${position === undefined ? '' : `: the JSON breaks at character ${position}`}` }]
  }
}

const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** The code points of the whitespace found, as U+XXXX. */
const describeSpace = (text: string) =>
  [...new Set([...text].filter((c) => !' \t\n\r'.includes(c)).map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`))].join(', ') || 'none'

/** The index of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  // a streaming decode throws on an invalid byte but waits on a sequence cut at the end: the longest prefix that
  // does not throw ends just before the culprit, and every longer one throws (binary search)
  const valid = (length: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, length), { stream: true })
      return true
    } catch {
      return false
    }
  }
  let [good, bad] = [0, bytes.length]
  while (bad - good > 1) {
    const mid = (good + bad) >> 1
    if (valid(mid)) good = mid
    else bad = mid
  }
  const end = valid(bad) ? bad : good
  // the byte that broke it may end a sequence begun up to 3 bytes before: name the sequence's first byte
  for (let k = end; k >= Math.max(0, end - 3); k--) {
    const lead = bytes[k] ?? 0
    const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0
    if (size > 0 && k + size > end) return k
  }
  return end
}

/** RFC 9110 §10.2.3's delay-seconds (`1*DIGIT`), as a number; undefined for an HTTP-date or anything else. 0 is legal. */
export function delaySeconds(value: string | undefined): number | undefined {
  const trimmed = value?.replace(/^[ \t]+|[ \t]+$/g, '')
  return trimmed !== undefined && /^[0-9]+$/.test(trimmed) ? Number(trimmed) : undefined
}

/**
 * What is wrong with a Content-Length (RFC 9110 §8.6: `1*DIGIT`, the body's length in
 * bytes), given the bytes that came (or only their count, for a body streamed past a
 * reader that kept none); undefined when nothing is (or none was sent). A body
 * the server compressed anyway is not compared: the length is then the coded body's.
 */
export function contentLengthProblem(answer: Pick<WireAnswer, 'headers' | 'truncated'> & { readonly bytes: { readonly length: number } }): string | undefined {
  const length = answer.headers['content-length']
  if (length === undefined) return undefined
  if (!/^[0-9]+$/.test(length.trim())) return `Content-Length is ${JSON.stringify(length)}, not a number of bytes (RFC 9110 §8.6: 1*DIGIT)`
  const coding = answer.headers['content-encoding']?.trim().toLowerCase()
  if (coding !== undefined && coding !== '' && coding !== 'identity') return undefined
  const received = answer.bytes.length
  if (Number(length.trim()) === received && answer.truncated === undefined) return undefined
  return `Content-Length says ${length.trim()} but ${received} bytes came${answer.truncated ? ` before the connection ended (${answer.truncated})` : ''}`
}

/** Whether a body reads as JSON at a glance: an object or an array after any whitespace (Unicode's too) and a byte-order mark. */
const startsLikeJson = (bytes: Uint8Array) => /^[{[]/.test(Buffer.from(bytes.subarray(0, 256)).toString('utf8').trimStart())

/**
 * The wire rules an answer is held to. `path` is its path under the API root (undefined
 * for a page outside the API). A JSON answer is one that claims JSON in its Content-Type,
 * or a success (any 2xx: records.ts succeeded) or 412 of a JSON endpoint (not a download) whose body is an object or an array
 * ("All bodies are JSON"; "JSON body with `status` 412"): its bytes must be JSON and its
 * Content-Type application/json. A body that is no JSON at all (an error page, an error in
 * words sent as HTTP 200) is not held here: error bodies are "not shown" by the spec (a
 * profile point), and a success that is not JSON fails its endpoint's schema check.
 */
export function heldTo(answer: WireAnswer, path: string | undefined): Set<WireRule> {
  const held = new Set<WireRule>()
  if (answer.headers['content-length'] !== undefined) held.add('content-length')
  if (answer.lines !== undefined) held.add('one-line')
  if (path === undefined) return held
  if (answer.status === 429) held.add('retry-after')
  // a 403 needs no challenge (RFC 9110 §11.6.1: "MAY" in other responses)
  if (answer.status === 401) held.add('challenge')
  const claims = claimsJson(answer.headers['content-type'])
  const jsonEndpoint = !isDownloadPath(path) && ((answer.status >= 200 && answer.status < 300) || answer.status === 412)
  const looksJson = startsLikeJson(answer.bytes)
  if (jsonEndpoint && (looksJson || claims)) held.add('content-type')
  if ((claims || (jsonEndpoint && looksJson)) && answer.truncated === undefined) {
    held.add('encoding')
    held.add('one-value')
  }
  return held
}

/**
 * The headers the kit reads that are not lists, each with its grammar (a singleton: no `#`
 * list rule), by the answers it reads them on: Content-Length wherever sent (the body's
 * length), Content-Type on every answer of the API (whether it claims JSON), Retry-after on
 * a 429, Content-Disposition and Content-Transfer-Encoding on a download. WWW-Authenticate
 * is a list of challenges (RFC 9110 §11.6.1); Date, read as a hint only, is not named by the spec.
 */
const SINGLETONS: ReadonlyArray<{ name: string; field: string; grammar: string; on: (answer: WireAnswer, path: string | undefined) => boolean }> = [
  { name: 'content-length', field: 'Content-Length', grammar: 'Content-Length = 1*DIGIT, RFC 9110 §8.6', on: () => true },
  { name: 'content-type', field: 'Content-Type', grammar: 'Content-Type = media-type, a singleton field, RFC 9110 §8.3', on: (_a, path) => path !== undefined },
  { name: 'retry-after', field: 'Retry-after', grammar: 'Retry-After = HTTP-date / delay-seconds, RFC 9110 §10.2.3', on: (a, path) => path !== undefined && a.status === 429 },
  { name: 'content-disposition', field: 'Content-Disposition', grammar: 'one disposition-type and its parameters, RFC 6266 §4.1', on: (_a, path) => path !== undefined && isDownloadPath(path) },
  { name: 'content-transfer-encoding', field: 'Content-Transfer-Encoding', grammar: 'one mechanism, RFC 2045 §6.1', on: (_a, path) => path !== undefined && isDownloadPath(path) },
]

/** The headers of an answer the kit reads that are not lists and came on more than one field line: none where the lines were not counted. */
function repeatedSingletons(answer: WireAnswer, path: string | undefined): Array<(typeof SINGLETONS)[number]> {
  const lines = answer.lines
  return lines === undefined ? [] : SINGLETONS.filter((s) => (lines[s.name] ?? 0) > 1 && s.on(answer, path))
}

/** Every wire problem of one answer, by the rules it is held to (heldTo). A header sent on several lines is that problem only, not its value's too. */
export function wireProblems(answer: WireAnswer, path: string | undefined): WireProblem[] {
  const held = heldTo(answer, path)
  const repeated = held.has('one-line') ? repeatedSingletons(answer, path) : []
  const once = (name: string) => !repeated.some((s) => s.name === name)
  const problems: WireProblem[] = repeated.map((s) => ({
    rule: 'one-line',
    message: `${s.field} comes on ${answer.lines?.[s.name]} field lines (${JSON.stringify(answer.headers[s.name] ?? '')} together), though it is not a list (${s.grammar}): RFC 9110 §5.3 lets a field come on several lines only where it is a list`,
  }))
  const type = answer.headers['content-type']
  if (held.has('content-type') && once('content-type') && essenceOf(type) !== 'application/json') {
    problems.push({ rule: 'content-type', message: `HTTP ${answer.status} says Content-Type ${type === undefined ? '(none)' : JSON.stringify(type)}, not application/json` })
  }
  if (held.has('one-value') && answer.strictJson !== true) problems.push(...jsonBodyProblems(answer.bytes))
  const length = held.has('content-length') && once('content-length') ? contentLengthProblem(answer) : undefined
  if (length !== undefined) problems.push({ rule: 'content-length', message: length })
  if (held.has('retry-after') && once('retry-after')) {
    const header = answer.headers['retry-after']
    if (header === undefined) problems.push({ rule: 'retry-after', message: 'a 429 without Retry-after' })
    else if (delaySeconds(header) === undefined) {
      const date = !Number.isNaN(Date.parse(header))
      problems.push({ rule: 'retry-after', message: `Retry-after ${JSON.stringify(header)} is ${date ? 'an HTTP-date' : 'not a number'}, not the seconds to wait (delay-seconds, RFC 9110 §10.2.3: 1*DIGIT)` })
    }
  }
  if (held.has('challenge')) {
    const problem = challengeProblem(answer.headers['www-authenticate'])
    if (problem !== undefined) problems.push({ rule: 'challenge', message: problem })
  }
  return problems
}

// ---- Content-Disposition, RFC 6266 §4 ----

// RFC 5987 §3.2.1: charset "'" [ language ] "'" value-chars; value-chars = *( pct-encoded / attr-char )
const EXT_VALUE = /^([!#$%&+^_`{}~0-9A-Za-z-]+)'([A-Za-z0-9-]*)'((?:%[0-9A-Fa-f]{2}|[!#$&+.^_`|~0-9A-Za-z-])*)$/

export interface Disposition {
  /** The disposition type, lower case (`attachment`), or undefined when there is none. */
  type: string | undefined
  /** The file name: `filename*` decoded when given and decodable, else `filename`. */
  filename: string | undefined
  /** Where the header leaves RFC 6266's grammar, in words. */
  problems: string[]
}

/** Decodes an RFC 5987 ext-value's percent-encoded bytes in its charset (UTF-8 or ISO-8859-1). */
function decodeExtValue(charset: string, value: string): string | undefined {
  const bytes: number[] = []
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '%') {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(value.charCodeAt(i))
  }
  const label = charset.toLowerCase()
  if (label !== 'utf-8' && label !== 'iso-8859-1') return undefined
  try {
    return new TextDecoder(label === 'utf-8' ? 'utf-8' : 'latin1', { fatal: true }).decode(Uint8Array.from(bytes))
  } catch {
    return undefined
  }
}

/**
 * Content-Disposition read by RFC 6266 §4: a disposition type (a token; `attachment`
 * case-insensitive), then `; name=value` parameters, each value a token or a
 * quoted-string, an ext-token (`filename*`) taking an RFC 5987 ext-value; no parameter
 * twice (§4.1). Whitespace around `;` and `=` is allowed.
 */
export function parseDisposition(header: string): Disposition {
  const problems: string[] = []
  let i = 0
  const skipSpace = () => {
    while (i < header.length && (header[i] === ' ' || header[i] === '\t')) i++
  }
  const readToken = () => {
    const { value, end } = tokenAt(header, i)
    i = end
    return value
  }
  skipSpace()
  const type = readToken()
  if (type === '') problems.push(`it starts with ${JSON.stringify(header.slice(i, i + 10))}, not a disposition type`)
  const params = new Map<string, string>()
  skipSpace()
  while (i < header.length && problems.length === 0) {
    if (header[i] !== ';') {
      problems.push(`${JSON.stringify(header.slice(i, i + 20))} where a ";" and a parameter must come`)
      break
    }
    i++
    skipSpace()
    // a trailing ";" is not in the grammar, but common and harmless to read: said, not fatal
    if (i >= header.length) {
      problems.push('it ends with ";" and no parameter')
      break
    }
    const name = readToken().toLowerCase()
    skipSpace()
    if (name === '' || header[i] !== '=') {
      problems.push(`a parameter ${JSON.stringify(header.slice(i - name.length, i + 10))} without "name=value"`)
      break
    }
    i++
    skipSpace()
    let value: string
    if (header[i] === '"') {
      const quoted = quotedAt(header, i)
      i = quoted.end
      if (quoted.problem === 'a control character') problems.push(`the value of ${name} holds a control character`)
      else if (quoted.problem === 'not closed') problems.push(`the quoted value of ${name} is not closed`)
      value = quoted.value
      if (name.endsWith('*')) problems.push(`${name} is a quoted-string, not an ext-value (charset'language'value, RFC 5987)`)
    } else {
      const from = i
      while (i < header.length && header[i] !== ';' && header[i] !== ' ' && header[i] !== '\t') i++
      value = header.slice(from, i)
      if (name.endsWith('*')) {
        if (!EXT_VALUE.test(value)) problems.push(`${name}=${value} is not an ext-value (charset'language'value-chars, RFC 5987 §3.2.1)`)
      } else if (!TOKEN.test(value)) {
        problems.push(`${name}=${value} is neither a token nor a quoted-string (a space or one of ()<>@,;:\\"/[]?={} needs quotes)`)
      }
    }
    if (params.has(name)) problems.push(`${name} is given twice (RFC 6266 §4.1)`)
    params.set(name, value)
    skipSpace()
  }
  let filename = params.get('filename')
  const extended = params.get('filename*')
  const ext = extended === undefined ? undefined : EXT_VALUE.exec(extended)
  if (ext) {
    const decoded = decodeExtValue(ext[1] as string, ext[3] as string)
    if (decoded === undefined) problems.push(`filename* cannot be decoded as ${ext[1]}`)
    else filename = decoded
  }
  return { type: type === '' ? undefined : type.toLowerCase(), filename, problems }
}
