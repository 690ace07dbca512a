// The deviations and legal twins of the RFC statements of the index (src/core/statements/rfc-statements.ts,
// issue 43 item 2), as deviations.ts has them for the spec's: for each RFC rule for the
// server, a deployment breaking exactly it (the kit must fail citing the RFC's words); for
// each latitude (what the RFC allows), a deployment taking it (the kit must pass). Each
// named by the statement's words, the breakage its words call for.
import { STATEMENT_INDEX, type IndexEntry } from '../../src/core/statements/statement-index.js'
import type { Deviation } from './deviations.js'
import { AUTHORIZATION, changeAnswer, dropHeader, jsonReply, limiter, type Breakage, type Reply } from './helpers.js'

const entry = (words: string): IndexEntry => {
  const found = STATEMENT_INDEX.find((e) => e.rfc !== undefined && e.words === words)
  if (found === undefined) throw new Error(`no RFC statement "${words}"`)
  return found
}

const AUTH = { only: 'auth' } as const
const RATE = { only: 'rate-limit' } as const
/** A deployment whose upstream limits nothing, for a limiter of the breakage's own. */
const NO_LIMIT = { fake: { rateLimitWindow: 0 }, other: { rateLimitWindow: 0 } } as const

/** The challenge of every 401 set to `value` (undefined: none), the status to `status`. */
const refusals = (value: string | undefined, status = 401): Breakage => ({
  reply: (_x, r) => {
    if (r.status !== 401) return r
    const { 'www-authenticate': _gone, ...headers } = r.headers
    return { ...r, status, headers: value === undefined ? headers : { ...headers, 'www-authenticate': value } }
  },
})

/** Every JSON answer (a 200 that says JSON) of the lists and metrics rewritten as text: `write(body)` gives the new text. */
const jsonText = (write: (body: unknown, text: string) => string, pattern = /^\/(candidates|applications|timesheets|marketing|metrics)\/list$/): Breakage =>
  changeAnswer(pattern, (r) => (/json/.test(r.headers['content-type'] ?? '') ? { ...r, body: Buffer.from(write(JSON.parse(r.body.toString('utf8')) as unknown, r.body.toString('utf8'))) } : r))

/** The answers' Content-Type set to `type`, for the JSON ones. */
const contentType = (type: string): Breakage => changeAnswer(/^\/(metrics|marketing)\/list$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': type } }))

/** The attachment downloads' Content-Disposition rewritten from their filename. */
const disposition = (write: (filename: string) => string): Breakage =>
  changeAnswer(/^\/applications\/attachment\/[0-9]+$/, (r) => {
    const name = /filename="([^"]*)"/.exec(r.headers['content-disposition'] ?? '')?.[1] ?? /filename=([^;\s]+)/.exec(r.headers['content-disposition'] ?? '')?.[1]
    return name === undefined ? r : { ...r, headers: { ...r.headers, 'content-disposition': write(name) } }
  })

/** One breakage's replies, then another's. */
const both = (a: Breakage, b: Breakage): Breakage => ({ reply: async (x, r) => (await b.reply?.(x, (await a.reply?.(x, r)) ?? r)) ?? r })

/** RFC 8187's value-chars: a name percent-encoded where it holds anything but attr-char. */
const extValue = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}`)

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Each member of every object in reverse order, arrays as they are. */
const reversed = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(reversed) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])) : value

/** JSON text with every solidus escaped and every character beyond ASCII written \uXXXX. */
const escaped = (body: unknown) => JSON.stringify(body).replace(/\//g, '\\/').replace(/[^ -~]/g, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)

/** A header value sent on two field lines (the proxy writes an array as one line each). */
const twice = (value: string) => [value, value] as unknown as string

type Row = [words: string, what: string, breakage: () => Breakage, flags: Deviation['flags'], more?: Partial<Deviation>]

/** A deployment breaking each RFC rule for the server that a check reads. */
const BREAKING: readonly Row[] = [
  ['The server will service the request only if it can validate the user-id and password for the protection space applying to the requested resource.', 'any Basic credentials let in as the account', () => ({ request: (x) => (/^basic /i.test(String(x.headers.authorization ?? '')) ? { ...x, headers: { ...x.headers, authorization: AUTHORIZATION } } : x) }), AUTH],
  ["the authentication parameter 'realm' is REQUIRED ([RFC7235], Section 2.2)", 'a 401 challenging Basic without a realm', () => refusals('Basic charset="UTF-8"'), AUTH],
  ['It uses a case-insensitive token to identify the authentication scheme:', 'credentials refused unless the scheme is spelt Basic', () => ({ answer: (x) => (/^basic /.test(String(x.headers.authorization ?? '')) ? jsonReply(401, { status: 401, message: 'Unauthorised' }, { 'www-authenticate': 'Basic realm="jobboard"' }) : undefined) }), AUTH],
  ['For historical reasons, a sender MUST only generate the quoted-string syntax.', "a 401 whose realm is a token, not quoted", () => refusals('Basic realm=jobboard'), AUTH],
  ['A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.', 'a 401 without WWW-Authenticate', () => dropHeader('www-authenticate'), AUTH],
  ['The server generating a 401 response MUST send a WWW-Authenticate header field (Section 11.6.1) containing at least one challenge applicable to the target resource.', 'a 401 challenging Bearer only', () => refusals('Bearer realm="jobboard"'), AUTH],
  ['A JSON text is a serialized value.', 'a JSON answer followed by a second value', () => jsonText((_b, text) => `${text}\n{"status":200}`, /^\/metrics\/list$/), { only: 'metrics' }],
  ['JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].', 'a JSON answer encoded in Latin-1', () => changeAnswer(/^\/metrics\/list$/, (r) => ({ ...r, body: Buffer.from(r.body.toString('utf8').replace('{', '{"note":"Malmö",'), 'latin1') })), { only: 'metrics' }],
  ['Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.', 'a JSON answer with a byte-order mark', () => changeAnswer(/^\/metrics\/list$/, (r) => ({ ...r, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), r.body]) })), { only: 'metrics' }],
  ['The media type for JSON text is application/json.', 'JSON answers said to be text/json', () => contentType('text/json'), { only: 'marketing' }],
  ['The "Content-Length" header field indicates the associated representation\'s data length as a decimal non-negative integer number of octets.', 'a JSON answer cut short of its Content-Length', () => changeAnswer(/^\/metrics\/list$/, (r): Reply => ({ ...r, headers: { ...r.headers, 'content-length': String(r.body.length + 7) }, keepLength: true, cut: true })), { only: 'metrics' }],
  ['filename-parm = "filename" "=" value | "filename*" "=" ext-value', 'a filename whose quotes are not closed', () => disposition((name) => `attachment; filename="${name}`), { only: 'applications' }],
  ['Content-Disposition header field values with multiple instances of the same parameter name are invalid.', 'filename given twice', () => disposition((name) => `attachment; filename="${name}"; filename="${name}"`), { only: 'applications' }],
  ['A delay-seconds value is a non-negative decimal integer, representing time in seconds.', 'a 429 with Retry-after 90.5', () => limiter({ 'retry-after': '90.5' }), RATE, NO_LIMIT],
  [
    "This means that, aside from the well-known exception noted below, a sender MUST NOT generate multiple field lines with the same name in a message (whether in the headers or trailers) or append a field line when a field line of the same name already exists in the message, unless that field's definition allows multiple field line values to be recombined as a comma-separated list (i.e., at least one alternative of the field's definition allows a comma-separated list, such as an ABNF rule of #(values) defined in Section 5.6.1).",
    'a 429 whose Retry-after comes on two field lines',
    () => limiter({ 'retry-after': twice('900') }),
    RATE,
    NO_LIMIT,
  ],
  ['Although Content-Type is defined as a singleton field, it is sometimes incorrectly generated multiple times, resulting in a combined field value that appears to be a list.', 'JSON answers whose Content-Type comes on two field lines', () => changeAnswer(/^\/metrics\/list$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': twice(r.headers['content-type'] ?? '') } })), { only: 'metrics' }],
  [
    'Likewise, a sender MUST NOT forward a message with a Content-Length header field value that does not match the ABNF above, with one exception: a recipient of a Content-Length header field value consisting of the same decimal value repeated as a comma-separated list (e.g, "Content-Length: 42, 42") MAY either reject the message as invalid or replace that invalid field value with a single instance of the decimal value, since this likely indicates that a duplicate was generated or combined by an upstream message processor.',
    'a JSON answer whose Content-Length comes on two field lines, the same number on each',
    () => changeAnswer(/^\/metrics\/list$/, (r): Reply => ({ ...r, headers: { ...r.headers, 'content-length': twice(String(r.body.length)) }, keepLength: true })),
    { only: 'metrics' },
  ],
]

/** A deployment taking each latitude an RFC gives. */
const TAKING: readonly Row[] = [
  ["the authentication parameter 'charset' is OPTIONAL (see Section 2.1)", 'a 401 challenge without charset', () => refusals('Basic realm="Job Board"'), AUTH],
  ['Note that both scheme and parameter names are matched case-insensitively.', 'a 401 challenge written in lower and upper case', () => refusals('basic REALM="jobboard", CHARSET="UTF-8"'), AUTH],
  ['Upon receipt of a request for a protected resource that omits credentials, contains invalid credentials (e.g., a bad password) or partial credentials (e.g., when the authentication scheme requires more than one round trip), an origin server SHOULD send a 401 (Unauthorized) response that contains a WWW-Authenticate header field with at least one (possibly new) challenge applicable to the requested resource.', 'refusals answered 403 without a challenge', () => refusals(undefined, 403), AUTH],
  ['A server MAY generate a WWW-Authenticate header field in other response messages to indicate that supplying credentials (or different credentials) might affect the response.', 'refusals answered 403 with a challenge', () => refusals('Basic realm="jobboard"', 403), AUTH],
  ['Insignificant whitespace is allowed before or after any of the six structural characters.', 'JSON answers pretty-printed', () => jsonText((body) => `${JSON.stringify(body, null, 2)}\n`), { only: 'timesheets,metrics' }],
  ['Implementations whose behavior does not depend on member ordering will be interoperable in the sense that they will not be affected by these differences.', "every object's members in reverse order", () => jsonText((body) => JSON.stringify(reversed(body))), { only: 'candidates,timesheets,metrics' }],
  ['Any character may be escaped.', 'every solidus and every character beyond ASCII escaped', () => jsonText(escaped), { only: 'candidates,applications' }],
  ['No "charset" parameter is defined for this registration. Adding one really has no effect on compliant recipients.', 'JSON answers said to be application/json without charset', () => contentType('application/json'), { only: 'marketing,metrics' }],
  ['The type and subtype tokens are case-insensitive.', 'JSON answers said to be Application/JSON', () => contentType('Application/JSON; charset=UTF-8'), { only: 'marketing,metrics' }],
  ['A parameter value that matches the token production can be transmitted either as a token or within a quoted-string.', 'a quoted charset and an unquoted filename', () => both(contentType('application/json; charset="utf-8"'), disposition((name) => (TOKEN.test(name) ? `attachment; filename=${name}` : `attachment; filename="${name}"`))), { only: 'marketing,applications' }],
  ['Note that due to the rules for implied linear whitespace (Section 2.1 of [RFC2616]), OPTIONAL whitespace can appear between words (token or quoted-string) and separator characters.', 'a Content-Disposition with space around ";" and "="', () => disposition((name) => `attachment ; filename = "${name}"`), { only: 'applications' }],
  ['If the disposition type matches "attachment" (case-insensitively), this indicates that the recipient should prompt the user to save the response locally, rather than process it normally (as per its media type).', 'a disposition type written ATTACHMENT', () => disposition((name) => `ATTACHMENT; filename="${name}"`), { only: 'applications' }],
  ['Therefore, when both "filename" and "filename*" are present in a single header field value, recipients SHOULD pick "filename*" and ignore "filename".', "the file's name as filename* beside a plain fallback", () => disposition((name) => `attachment; filename="download.bin"; filename*=UTF-8''${extValue(name)}`), { only: 'applications' }],
  ["The 2xx (Successful) class of status code indicates that the client's request was successfully received, understood, and accepted.", 'every success answered HTTP 201 (lists, details, downloads, public pages, writes)', () => ({ reply: (_x, r) => (r.status === 200 ? { ...r, status: 201 } : r) }), { only: 'fields,candidates,applications,timesheets,marketing,metrics,jobs', writes: true }],
  ['Field names are case-insensitive and ought to be registered within the "Hypertext Transfer Protocol (HTTP) Field Name Registry"; see Section 16.3.1.', 'a 429 whose header is written RETRY-AFTER', () => limiter({ 'RETRY-AFTER': '900' }), RATE, NO_LIMIT],
]

const made = (rows: readonly Row[]): Deviation[] => rows.map(([words, what, breakage, flags, more]) => ({ entries: [entry(words)], what, breakage, flags, ...more }))

/** The deviations of the RFC rules for the server. */
export const rfcDeviations = (): Deviation[] => made(BREAKING)

/** The legal twins of the RFC latitudes. */
export const rfcTwins = (): Deviation[] => made(TAKING)
