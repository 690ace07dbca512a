// The statements of the RFCs the spec's words bring in (issue 43 item 2): "HTTP Basic
// authentication" brings RFC 7617 and RFC 9110's authentication (the 401 and its
// challenge); "All bodies are JSON" RFC 8259 and the Content-Type of RFC 9110; the download
// headers RFC 6266 (Content-Disposition) and RFC 9110's Content-Length; `Retry-after` RFC
// 9110's Retry-After; a success, whose HTTP status the spec never names, RFC 9110's 2xx. Each is an entry of the statement index (statement-index.ts) with the RFC's
// own words, quoted as the RFC Editor's text has them (line breaks joined), under its section
// (`RFC 9110 §11.6.1`), and the spec's words that bring it in. Its kind:
// - `server`: what a deployment must do (a MUST, a REQUIRED, a grammar): the kit fails a
//   deployment that breaks it, citing these words (rules.ts rows cite the section, and a
//   fragment of the words where the section holds several statements);
// - `latitude`: what the RFC allows a deployment (a MAY, a SHOULD that leaves the other way
//   open, an OPTIONAL, a form that is equivalent to another): a deployment taking it must
//   pass; test/contract/deviations.ts has a legal twin for each;
// - `description`: what the RFC says that the spec's own words narrow (why in `why`).
// Imports nothing: statement-index.ts (which src/fake and src/profile may read) joins them in.

/** The RFCs a rule may rest on, by number, with their titles. */
export const RFCS: Readonly<Record<string, string>> = {
  '6266': 'Use of the Content-Disposition Header Field in HTTP',
  '7617': "The 'Basic' HTTP Authentication Scheme",
  '8259': 'The JavaScript Object Notation (JSON) Data Interchange Format',
  '9110': 'HTTP Semantics',
}

/**
 * The fixed form of an RFC citation: `RFC <number>`, then ` §<section>` where a section is
 * meant, then a fragment of the words in double quotes where the section holds several
 * statements and only some are meant (`RFC 8259 §2 "serialized value"`).
 */
export const RFC_CITATION = /^RFC ([0-9]{3,5})(?: §([0-9]+(?:\.[0-9]+)*))?(?: "([^"]+)")?$/

// the spec's words that bring each RFC in (each a statement of the spec)
const BASIC = 'All endpoints use HTTP Basic authentication with the form `<username>:<password>`.'
const JSON_BODIES = 'All bodies are JSON.'
const DOWNLOAD_HEADERS =
  'Headers: `Content-Type` (application/octet-stream for application attachments; a timesheet-specific octet-stream type for timesheets), `Content-Length` (bytes), `Content-Disposition: attachment` with `filename` set to the original file name, and `Content-Transfer-Encoding: binary`.'
const RETRY_ROW = '| More than one request to the same endpoint within 15 minutes | HTTP 429 with header `Retry-after` holding the seconds to wait before retrying |'
const RETRY_LIMIT = 'Exceeding the limit yields 429 with `Retry-after` in seconds.'
const SUCCESS = 'On success the JSON body carries `status` 200.'
const RAW_FILE = 'A file download answers with the raw file.'

/** An RFC statement, as the index (statement-index.ts) makes an entry of it. */
export interface RfcStatement {
  /** Its citation (`RFC 9110 §11.6.1`): the entry's section. */
  readonly rfc: string
  readonly kind: 'server' | 'latitude' | 'description'
  /** The RFC's own words. */
  readonly words: string
  readonly why: string
  /** The spec's words (each a statement of the spec) that bring the RFC in. */
  readonly invokedBy: readonly string[]
  /** A server rule no check from outside can tell: why. */
  readonly untestable?: string
}

type Row = [rfc: string, kind: RfcStatement['kind'], words: string, why: string, invokedBy: readonly string[], extra?: Pick<RfcStatement, 'untestable'>]

const ROWS: readonly Row[] = [
  // ---- HTTP Basic: RFC 7617, and RFC 9110's authentication framework --------------------
  ['RFC 7617 §2', 'server', 'The server will service the request only if it can validate the user-id and password for the protection space applying to the requested resource.', 'request: none, wrong or otherwise sent credentials are refused', [BASIC]],
  ['RFC 7617 §2', 'server', "the authentication parameter 'realm' is REQUIRED ([RFC7235], Section 2.2)", "answer: a 401's Basic challenge names its realm", [BASIC]],
  ['RFC 7617 §2', 'latitude', "the authentication parameter 'charset' is OPTIONAL (see Section 2.1)", 'a challenge with charset="UTF-8" or without it', [BASIC]],
  ['RFC 7617 §2', 'latitude', 'Note that both scheme and parameter names are matched case-insensitively.', 'a challenge written `basic REALM="…"`: the kit reads names in any case', [BASIC]],
  [
    'RFC 7617 §2',
    'server',
    'Furthermore, a user-id containing a colon character is invalid, as the first colon in a user-pass string separates user-id and password from one another; text after the first colon is part of the password.',
    'request: a password holding a colon is read whole',
    [BASIC],
    { untestable: "the kit sends the account's own password: whether one holding a colon is read whole shows only when the account's password has one (the fake and the second server are held to it with such a password: test/contract/password-shapes.test.ts, test/contract/other-board.test.ts)" },
  ],
  ['RFC 9110 §11.1', 'server', 'It uses a case-insensitive token to identify the authentication scheme:', 'request: the credentials sent as `basic` (lower case) are Basic, and accepted', [BASIC]],
  ['RFC 9110 §11.4', 'latitude', 'Upon receipt of a request for a protected resource that omits credentials, contains invalid credentials (e.g., a bad password) or partial credentials (e.g., when the authentication scheme requires more than one round trip), an origin server SHOULD send a 401 (Unauthorized) response that contains a WWW-Authenticate header field with at least one (possibly new) challenge applicable to the requested resource.', 'a SHOULD: a refusal answered 403 is allowed too (the profile point authStatus); the kit takes 401 or 403', [BASIC]],
  ['RFC 9110 §11.5', 'server', 'For historical reasons, a sender MUST only generate the quoted-string syntax.', "answer: the realm's value of a challenge is a quoted-string (`realm=\"…\"`)", [BASIC]],
  ['RFC 9110 §11.6.1', 'server', 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.', 'answer: every 401 carries WWW-Authenticate', [BASIC]],
  ['RFC 9110 §11.6.1', 'latitude', 'A server MAY generate a WWW-Authenticate header field in other response messages to indicate that supplying credentials (or different credentials) might affect the response.', 'a 403 refusal with a challenge or without one (the profile point authChallenge)', [BASIC]],
  ['RFC 9110 §15.5.2', 'server', 'The server generating a 401 response MUST send a WWW-Authenticate header field (Section 11.6.1) containing at least one challenge applicable to the target resource.', "answer: a 401's challenges include one for Basic, the scheme the spec names", [BASIC]],
  // ---- JSON: RFC 8259, and its media type ------------------------------------------------
  ['RFC 8259 §2', 'server', 'A JSON text is a serialized value.', 'answer: a JSON body is exactly one value, nothing after it but whitespace', [JSON_BODIES]],
  ['RFC 8259 §2', 'latitude', 'Insignificant whitespace is allowed before or after any of the six structural characters.', 'a body pretty-printed, or with space around its values', [JSON_BODIES]],
  ['RFC 8259 §4', 'latitude', 'Implementations whose behavior does not depend on member ordering will be interoperable in the sense that they will not be affected by these differences.', "an object's members in any order", [JSON_BODIES]],
  ['RFC 8259 §7', 'latitude', 'Any character may be escaped.', 'strings with `\\/` or `\\u00e9` where the character could stand as it is', [JSON_BODIES]],
  ['RFC 8259 §8.1', 'server', 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].', 'answer: a JSON body is UTF-8', [JSON_BODIES]],
  ['RFC 8259 §8.1', 'server', 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.', 'answer: a JSON body starts with no byte-order mark', [JSON_BODIES]],
  ['RFC 8259 §11', 'server', 'The media type for JSON text is application/json.', 'answer: a JSON body says Content-Type application/json', [JSON_BODIES]],
  ['RFC 8259 §11', 'latitude', 'No "charset" parameter is defined for this registration. Adding one really has no effect on compliant recipients.', 'Content-Type application/json with a charset parameter or without one', [JSON_BODIES]],
  ['RFC 9110 §8.3.1', 'latitude', 'The type and subtype tokens are case-insensitive.', 'Content-Type `Application/JSON` is application/json', [JSON_BODIES, DOWNLOAD_HEADERS]],
  ['RFC 9110 §5.6.6', 'latitude', 'A parameter value that matches the token production can be transmitted either as a token or within a quoted-string.', 'a parameter quoted or not: `charset="utf-8"`, `filename=resume.pdf`', [JSON_BODIES, DOWNLOAD_HEADERS]],
  // ---- the download headers: Content-Length (RFC 9110), Content-Disposition (RFC 6266) --------
  ['RFC 9110 §8.6', 'server', 'The "Content-Length" header field indicates the associated representation\'s data length as a decimal non-negative integer number of octets.', 'answer: a Content-Length is the number of bytes that come', [DOWNLOAD_HEADERS]],
  [
    'RFC 9110 §8.6',
    'server',
    'Likewise, a sender MUST NOT forward a message with a Content-Length header field value that does not match the ABNF above, with one exception: a recipient of a Content-Length header field value consisting of the same decimal value repeated as a comma-separated list (e.g, "Content-Length: 42, 42") MAY either reject the message as invalid or replace that invalid field value with a single instance of the decimal value, since this likely indicates that a duplicate was generated or combined by an upstream message processor.',
    'answer: one Content-Length, one number: `42, 42`, on one line or two, is no Content-Length a sender may send; a recipient may reject the answer, as the kit\'s HTTP client does (the checks that needed it are an outage, the Content-Length check fails it)',
    [DOWNLOAD_HEADERS],
  ],
  // ---- a field that is not a list: RFC 9110's field order, for every header the spec names ----
  [
    'RFC 9110 §5.3',
    'server',
    "This means that, aside from the well-known exception noted below, a sender MUST NOT generate multiple field lines with the same name in a message (whether in the headers or trailers) or append a field line when a field line of the same name already exists in the message, unless that field's definition allows multiple field line values to be recombined as a comma-separated list (i.e., at least one alternative of the field's definition allows a comma-separated list, such as an ABNF rule of #(values) defined in Section 5.6.1).",
    'answer: each header the kit reads that is not a list (Content-Type, Content-Length, Retry-after, Content-Disposition, Content-Transfer-Encoding) comes on one field line; WWW-Authenticate, a list of challenges, may come on several',
    [JSON_BODIES, DOWNLOAD_HEADERS, RETRY_ROW, RETRY_LIMIT],
  ],
  [
    'RFC 9110 §8.3',
    'server',
    'Although Content-Type is defined as a singleton field, it is sometimes incorrectly generated multiple times, resulting in a combined field value that appears to be a list.',
    'answer: one Content-Type, on one field line (§5.3): `application/json` sent twice is not application/json once',
    [JSON_BODIES, DOWNLOAD_HEADERS],
  ],
  ['RFC 6266 §4.1', 'server', 'filename-parm = "filename" "=" value | "filename*" "=" ext-value', 'answer: filename is a token or a quoted-string (a name with a space is quoted), filename* an ext-value', [DOWNLOAD_HEADERS]],
  ['RFC 6266 §4.1', 'server', 'Content-Disposition header field values with multiple instances of the same parameter name are invalid.', 'answer: no parameter twice', [DOWNLOAD_HEADERS]],
  ['RFC 6266 §4.1', 'latitude', 'Note that due to the rules for implied linear whitespace (Section 2.1 of [RFC2616]), OPTIONAL whitespace can appear between words (token or quoted-string) and separator characters.', '`attachment ; filename = "x.pdf"` reads as `attachment; filename="x.pdf"`', [DOWNLOAD_HEADERS]],
  ['RFC 6266 §4.2', 'latitude', 'If the disposition type matches "attachment" (case-insensitively), this indicates that the recipient should prompt the user to save the response locally, rather than process it normally (as per its media type).', '`Attachment` is attachment', [DOWNLOAD_HEADERS]],
  ['RFC 6266 §4.3', 'latitude', 'Therefore, when both "filename" and "filename*" are present in a single header field value, recipients SHOULD pick "filename*" and ignore "filename".', 'the file name as filename* (UTF-8, percent-encoded) beside a plain filename', [DOWNLOAD_HEADERS]],
  // ---- Retry-After: RFC 9110 ---------------------------------------------------------------------
  [
    'RFC 9110 §10.2.3',
    'description',
    'The Retry-After field value can be either an HTTP-date or a number of seconds to delay after receiving the response.',
    'narrowed by the spec: "holding the seconds to wait before retrying" and "`Retry-after` in seconds" take the second form, so an HTTP-date, legal in HTTP, is not what the spec asks (the Errors row fails it)',
    [RETRY_ROW, RETRY_LIMIT],
  ],
  ['RFC 9110 §10.2.3', 'server', 'A delay-seconds value is a non-negative decimal integer, representing time in seconds.', 'answer: Retry-after is digits (`0900` and `0` are delay-seconds)', [RETRY_ROW, RETRY_LIMIT]],
  // ---- a success: the spec names the status its JSON body carries, never its HTTP status ----------
  [
    'RFC 9110 §15.3',
    'latitude',
    "The 2xx (Successful) class of status code indicates that the client's request was successfully received, understood, and accepted.",
    'a success (a list, a detail, a download, a public page, a write whose body says `status` 200) answered with any 2xx, 201 as well as 200: the HTTP statuses the spec names are errors\' (429, 404); the kit observes a 2xx other than 200',
    [SUCCESS, RAW_FILE],
  ],
  ['RFC 9110 §5.1', 'latitude', 'Field names are case-insensitive and ought to be registered within the "Hypertext Transfer Protocol (HTTP) Field Name Registry"; see Section 16.3.1.', '`Retry-After`, `retry-after` or `RETRY-AFTER` for the spec\'s `Retry-after`', [RETRY_ROW, RETRY_LIMIT]],
]

/** Every RFC statement, RFC by RFC. */
export const RFC_STATEMENTS: readonly RfcStatement[] = ROWS.map(([rfc, kind, words, why, invokedBy, extra]) => ({ rfc, kind, words, why, invokedBy, ...extra }))

/** The parts of an RFC citation (RFC_CITATION), or undefined for a quote of the spec. */
export function rfcCitation(quote: string): { rfc: string; section: string | undefined; fragment: string | undefined } | undefined {
  const m = RFC_CITATION.exec(quote)
  return m ? { rfc: m[1] as string, section: m[2], fragment: m[3] } : undefined
}

/** The RFC statements a citation names: those of its RFC and section (the section's subsections too), holding its fragment. */
export function rfcStatements<E extends { readonly rfc?: string | undefined; readonly words: string }>(quote: string, index: readonly E[]): E[] {
  const cited = rfcCitation(quote)
  if (cited === undefined) return []
  const at = `RFC ${cited.rfc}${cited.section === undefined ? '' : ` §${cited.section}`}`
  return index.filter(
    (e) => e.rfc !== undefined && (e.rfc === at || e.rfc.startsWith(`${at}.`) || (cited.section === undefined && e.rfc.startsWith(`${at} `))) && (cited.fragment === undefined || e.words.includes(cited.fragment)),
  )
}
