// Every answer checked as bytes (issue 27, item 2): each wire rule (RFC 8259's JSON, a
// JSON Content-Type, the grammar of each header the spec names, data an array in an
// answer with no records, file lists arrays when empty) has a deployment that breaks it
// and fails exactly that check, the rest of the run going on, and a legal twin that
// passes: escaped slashes, an added field, keys in any order, %20 in next_page, a
// charset parameter, newlines around the JSON, Attachment capitalised, an account with
// no marketing records. A shape the deployment answers with something unparsable fails
// that shape's checks only; one it drops the connection on is an outage (exit 3).
import t from 'tap'
import { WIRE_ENDPOINT } from '../../src/contract/groups/wire-checks.js'
import { contentLengthProblem, delaySeconds, jsonBodyProblems, lenientJson, parseDisposition, wireProblems } from '../../src/contract/wire.js'
import { board, changeAnswer, contract, jsonReply, on, type Breakage, type Exchange, type Reply } from './helpers.js'

const bytes = (text: string) => Buffer.from(text, 'utf8')
const BOM = Buffer.from([0xef, 0xbb, 0xbf])
const rules = (body: Buffer) => jsonBodyProblems(body).map((p) => p.rule)

t.test('RFC 8259 read from the bytes: UTF-8, no byte-order mark, one value and only JSON whitespace after it', async (t) => {
  t.same(rules(bytes('{"href":"http:\\/\\/board\\/api\\/v1","b":[1,2]}')), [], 'escaped slashes are JSON')
  t.same(rules(bytes('\n{"a":1}\r\n')), [], 'space, tab, LF and CR around the value are JSON whitespace')
  t.same(rules(bytes('{"name":"Zoë"}')), [], 'a character beyond ASCII, in UTF-8')
  t.same(rules(Buffer.concat([BOM, bytes('{"a":1}')])), ['encoding'], 'a byte-order mark')
  t.match(jsonBodyProblems(Buffer.from('{"name":"Zoë"}', 'latin1'))[0]?.message, /not valid UTF-8.*byte 11 \(0xEB\)/, 'Latin-1 bytes, named by their place')
  t.match(jsonBodyProblems(bytes('{"a":1}{"a":2}'))[0], { rule: 'one-value', message: /a second JSON value/ }, 'two JSON values')
  t.match(jsonBodyProblems(bytes('{"a":1}\n<!-- 3 ms -->'))[0], { rule: 'one-value', message: /text that is not JSON/ }, 'trailing garbage')
  t.match(jsonBodyProblems(bytes('{"a":1}\u00a0'))[0], { rule: 'one-value', message: /U\+00A0/ }, 'a no-break space is not JSON whitespace')
  t.match(jsonBodyProblems(bytes('\u2003{"a":1}'))[0], { rule: 'one-value', message: /starts with whitespace JSON does not allow \(U\+2003\)/ }, 'nor an em space before the value')
  t.same(rules(bytes('')), ['one-value'], 'an empty body holds no value')
  t.notMatch(jsonBodyProblems(bytes('<p>secret-token</p>'))[0]?.message, /secret-token/, 'no message quotes the body')
})

t.test('the JSON the other checks read stays lenient: one wire fault does not hide the answer', async (t) => {
  t.same(lenientJson(Buffer.concat([BOM, bytes('{"a":1}')])), { a: 1 }, 'a byte-order mark is let go')
  t.same(lenientJson(bytes('{"a":"}"}{"b":2}')), { a: '}' }, 'the first of two values, a bracket inside a string aside')
  t.same(lenientJson(bytes('[1,2]<!-- debug -->')), [1, 2], 'the value before trailing garbage')
  t.equal(lenientJson(bytes('<html></html>')), undefined, 'no JSON, nothing')
})

t.test('the header grammars: Retry-after delay-seconds, Content-Length, Content-Disposition', async (t) => {
  t.equal(delaySeconds('900'), 900)
  t.equal(delaySeconds('0'), 0, '0 is delay-seconds')
  for (const value of ['15 minutes', 'Fri, 27 Nov 2026 10:00:00 GMT', '-1', '1.5', '']) t.equal(delaySeconds(value), undefined, `${JSON.stringify(value)} is not`)
  const answer = (length: string | undefined, body = '{}', more: Record<string, string> = {}) => ({
    status: 200,
    headers: { ...(length === undefined ? {} : { 'content-length': length }), ...more },
    bytes: bytes(body),
    truncated: undefined,
  })
  t.equal(contentLengthProblem(answer('2')), undefined, 'the length of the body')
  t.equal(contentLengthProblem(answer(undefined)), undefined, 'none sent (chunked)')
  t.match(contentLengthProblem(answer('3')), /says 3 but 2 bytes came/)
  t.match(contentLengthProblem(answer('2 bytes')), /not a number of bytes/)
  t.equal(contentLengthProblem(answer('9', '{}', { 'content-encoding': 'gzip' })), undefined, 'a coded body is not compared')
  const legal: Array<[string, string]> = [
    ['attachment; filename="cv 2026.pdf"', 'cv 2026.pdf'],
    ['Attachment; filename=cv.pdf', 'cv.pdf'],
    ['ATTACHMENT;filename=cv.pdf', 'cv.pdf'],
    [`attachment; filename="cv.pdf"; filename*=UTF-8''Zo%C3%AB.pdf`, 'Zoë.pdf'],
    [`attachment; filename*=utf-8'en'a%20b.pdf`, 'a b.pdf'],
    ['attachment; filename="a\\"b.pdf"', 'a"b.pdf'],
  ]
  for (const [header, filename] of legal) t.match(parseDisposition(header), { type: 'attachment', filename, problems: [] }, header)
  t.match(parseDisposition('inline; filename=cv.pdf'), { type: 'inline', problems: [] }, 'inline is a disposition type, not attachment')
  t.match(parseDisposition('attachment'), { type: 'attachment', filename: undefined }, 'no filename')
  t.match(parseDisposition('attachment; filename=cv 2026.pdf').problems, [/needs quotes|where a ";"/], 'a space outside quotes')
  t.match(parseDisposition('attachment; filename="a"; filename="b"').problems, [/given twice/])
  t.match(parseDisposition('attachment; filename*="cv.pdf"').problems, [/not an ext-value/])
})

t.test('which answers are held to JSON: the JSON ones, not an error in words, whatever its HTTP status', async (t) => {
  const answer = (status: number, type: string, body: string) => ({ status, headers: { 'content-type': type }, bytes: bytes(body), truncated: undefined })
  const rulesOf = (a: ReturnType<typeof answer>, path: string) => wireProblems(a, path).map((p) => p.rule)
  t.same(rulesOf(answer(200, 'text/plain; charset=utf-8', 'Candidate not found'), '/candidates/details/9'), [], 'a 404 sent as HTTP 200 in words: its body is not shown by the spec')
  t.same(rulesOf(answer(404, 'text/html', '<h1>Not found</h1>'), '/candidates/details/9'), [], 'an error page')
  t.same(rulesOf(answer(200, 'text/plain', '{"status":200}'), '/candidates/list'), ['content-type'], 'JSON said to be text')
  t.same(rulesOf(answer(404, 'application/json', '{"status":404}\n{}'), '/candidates/details/9'), ['one-value'], 'an error that claims JSON is held to it')
  t.same(rulesOf(answer(200, 'application/pdf', '%PDF-1.4 {'), '/candidates/resume/9'), [], 'a download is not JSON')
  t.same(rulesOf(answer(200, 'text/html', '{}'), '/job/99'), ['content-type'], 'a path under the API is read by what it holds')
  t.same(wireProblems(answer(200, 'text/html', '{}'), undefined), [], 'a page outside the API is not')
})

t.test('a header the kit reads that is not a list comes on one field line (RFC 9110 §5.3); a list may come on several', async (t) => {
  const answer = (status: number, headers: Record<string, string>, lines?: Record<string, number>) => ({ status, headers, bytes: bytes('{}'), truncated: undefined, ...(lines ? { lines } : {}) })
  const json = 'application/json; charset=utf-8'
  const problems = (a: ReturnType<typeof answer>, path: string | undefined) => wireProblems(a, path).map((p) => `${p.rule}: ${p.message}`)
  t.match(problems(answer(200, { 'content-type': `${json}, ${json}` }, { 'content-type': 2 }), '/candidates/list'), [/^one-line: Content-Type comes on 2 field lines .*media-type.*RFC 9110 §8\.3.*RFC 9110 §5\.3/], 'a Content-Type sent twice: that, not also its value')
  t.same(problems(answer(200, { 'content-type': `${json}, ${json}` }), '/candidates/list'), [], 'lines not counted (a client that joins them): not held')
  t.match(problems(answer(200, { 'content-type': json, 'content-length': '2, 2' }, { 'content-type': 1, 'content-length': 2 }), '/candidates/list'), [/^one-line: Content-Length comes on 2 field lines \("2, 2" together\).*RFC 9110 §8\.6/], 'a Content-Length sent twice, the same number on each')
  t.match(problems(answer(429, { 'content-type': json, 'retry-after': '900, 900' }, { 'retry-after': 2 }), '/candidates/list'), [/^one-line: Retry-after comes on 2/], 'a Retry-after sent twice')
  t.match(problems(answer(200, { 'content-disposition': 'attachment; filename="a.pdf", attachment; filename="a.pdf"' }, { 'content-disposition': 2 }), '/candidates/resume/9'), [/^one-line: Content-Disposition comes on 2/], 'a Content-Disposition sent twice')
  t.same(problems(answer(401, { 'content-type': json, 'www-authenticate': 'Basic realm="a", Basic realm="a"' }, { 'www-authenticate': 2 }), '/candidates/list'), [], 'WWW-Authenticate is a list of challenges: two lines are legal')
  t.same(problems(answer(200, { 'content-type': 'text/html, text/html' }, { 'content-type': 2 }), undefined), [], "a public page's Content-Type is not read: not held")
  t.match(problems(answer(200, { 'content-length': '2, 2' }, { 'content-length': 2 }), undefined), [/^one-line: Content-Length comes on 2/], "a public page's Content-Length is")
  t.same(problems(answer(200, { 'content-type': json, 'content-disposition': 'a, b' }, { 'content-disposition': 2 }), '/candidates/list'), [], 'a header the kit does not read on that answer is not held')
})

/** Rewrites the bytes (and headers) of the 200 JSON answers of some API paths. */
const rewrite = (pattern: RegExp, change: (body: Buffer, reply: Reply, x: Exchange) => Partial<Reply>): Breakage => ({
  reply: (x, r) => (on(x, pattern) && r.status === 200 && /json/.test(r.headers['content-type'] ?? '') ? { ...r, ...change(r.body, r, x) } : r),
})

const firstPage = (x: Exchange) => !x.url.includes('?')
/** The fake's now (scenarios/default.json): every record is older. */
const BOARD_NOW = '2026-11-22 09:30'
/** The ask for the answer with no records: the only since after the board's now (the kit's other asks take a record's time). */
const isEmptyAsk = (x: Exchange) => {
  const since = new URL(x.url, 'http://board').searchParams.get('since')
  return since !== null && /^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(since) && since > BOARD_NOW
}

interface Broken {
  deviation: string
  breakage: Breakage
  only: string
  /** `endpoint: name` of the one check it fails. */
  fails: string
  says: RegExp
}

const WIRE = (name: string) => `${WIRE_ENDPOINT}: ${name}`
/** A header value sent on two field lines (the proxy writes an array as one line each). */
const twice = (value: string) => [value, value] as unknown as string
const NO_RECORDS = 'marketing/list: the answer with no records (since after the newest) fits the schema, data an empty array and total 0'
const DISPOSITION = 'applications/attachment/{id}: Content-Disposition is attachment with the listed filename'
const marketingFirst = (change: (body: Buffer, reply: Reply) => Partial<Reply>) => rewrite(/^\/marketing\/list$/, (body, reply, x) => (firstPage(x) ? change(body, reply) : {}))
const limitedOnce = (retryAfter: string): Breakage => {
  let sent = false
  return {
    answer: (x) => {
      if (sent || !on(x, /^\/candidates\/list$/) || !x.url.includes('page=2')) return undefined
      sent = true
      return jsonReply(429, { status: 429, message: 'Too many requests' }, { 'retry-after': retryAfter })
    },
  }
}

const BROKEN: Broken[] = [
  { deviation: 'a byte-order mark before the JSON', breakage: marketingFirst((body) => ({ body: Buffer.concat([BOM, body]) })), only: 'marketing', fails: WIRE('each JSON body is UTF-8 without a byte-order mark'), says: /GET \/marketing\/list: .*byte-order mark/ },
  {
    deviation: 'Latin-1 bytes',
    breakage: marketingFirst((body) => ({ body: Buffer.from(JSON.stringify({ ...JSON.parse(body.toString('utf8')), note: 'Zoë, Müller' }), 'latin1') })),
    only: 'marketing',
    fails: WIRE('each JSON body is UTF-8 without a byte-order mark'),
    says: /GET \/marketing\/list: the body is not valid UTF-8/,
  },
  { deviation: 'two JSON values', breakage: marketingFirst((body) => ({ body: Buffer.concat([body, body]) })), only: 'marketing', fails: WIRE('each JSON body is exactly one JSON value, with nothing after it but JSON whitespace'), says: /a second JSON value/ },
  { deviation: 'trailing garbage after the JSON', breakage: marketingFirst((body) => ({ body: Buffer.concat([body, bytes('\n<!-- served in 3 ms -->')]) })), only: 'marketing', fails: WIRE('each JSON body is exactly one JSON value, with nothing after it but JSON whitespace'), says: /text that is not JSON/ },
  {
    deviation: 'a JSON answer said to be text/html',
    breakage: marketingFirst((_body, reply) => ({ headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' } })),
    only: 'marketing',
    fails: WIRE('each JSON answer says Content-Type application/json'),
    says: /GET \/marketing\/list: HTTP 200 says Content-Type "text\/html; charset=utf-8", not application\/json/,
  },
  {
    deviation: 'a Content-Length that lies on a JSON answer',
    breakage: marketingFirst((body, reply) => ({ headers: { ...reply.headers, 'content-length': String(body.length + 10) }, keepLength: true, cut: true })),
    only: 'marketing',
    fails: WIRE('each Content-Length is the number of bytes that came'),
    says: /GET \/marketing\/list: Content-Length says \d+ but \d+ bytes came before the connection ended/,
  },
  {
    deviation: 'a JSON answer whose Content-Type comes on two field lines',
    breakage: marketingFirst((_body, reply) => ({ headers: { ...reply.headers, 'content-type': twice(reply.headers['content-type'] ?? '') } })),
    only: 'marketing',
    fails: WIRE('each header the kit reads that is not a list comes on one field line'),
    says: /GET \/marketing\/list: Content-Type comes on 2 field lines/,
  },
  { deviation: 'a 429 whose Retry-after says "15 minutes"', breakage: limitedOnce('15 minutes'), only: 'candidates', fails: WIRE('each 429 carries Retry-after as a number of seconds'), says: /Retry-after "15 minutes" is not a number/ },
  { deviation: 'a 429 whose Retry-after is an HTTP-date', breakage: limitedOnce('Fri, 27 Nov 2026 10:00:00 GMT'), only: 'candidates', fails: WIRE('each 429 carries Retry-after as a number of seconds'), says: /is an HTTP-date, not the seconds to wait/ },
  {
    deviation: 'Content-Disposition: inline',
    breakage: changeAnswer(/^\/applications\/attachment\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-disposition': String(r.headers['content-disposition']).replace(/^attachment/, 'inline') } })),
    only: 'applications',
    fails: DISPOSITION,
    says: /is "inline; filename=.*", not attachment/,
  },
  { deviation: 'a Content-Disposition without a filename', breakage: changeAnswer(/^\/applications\/attachment\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-disposition': 'attachment' } })), only: 'applications', fails: DISPOSITION, says: /it names no filename/ },
  {
    deviation: 'a filename with a space outside quotes',
    breakage: changeAnswer(/^\/applications\/attachment\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-disposition': 'attachment; filename=my cv.pdf' } })),
    only: 'applications',
    fails: DISPOSITION,
    says: /not as RFC 6266 §4 writes it/,
  },
  {
    deviation: 'data an object in an answer with no records',
    breakage: rewrite(/^\/marketing\/list$/, (body, _r, x) => (isEmptyAsk(x) ? { body: bytes(JSON.stringify({ ...JSON.parse(body.toString('utf8')), data: {} })) } : {})),
    only: 'marketing',
    fails: NO_RECORDS,
    says: /data is \{\}, not an array/,
  },
]

for (const broken of BROKEN) {
  t.test(`${broken.deviation} fails "${broken.fails}" and no other check`, async (t) => {
    const { url } = await board(t, broken.breakage)
    const run = await contract({ baseUrl: url, only: broken.only })
    t.same(run.failed(), [broken.fails], 'that check fails, and only it: the other checks read the answer leniently')
    const [endpoint, name] = broken.fails.split(/: (.*)/s) as [string, string]
    t.match(run.check(endpoint, name)?.failures.join('\n'), broken.says, 'saying what came')
    t.equal(run.exitCode, 1, run.reason ?? 'exit 1')
    t.ok(run.report.checks.filter((c) => c.status === 'pass').length > 10, 'the rest of the run went on')
  })
}

t.test('an answer whose Content-Length comes on two field lines cannot be read: the checks that needed it are errored, and the Content-Length check fails saying so', async (t) => {
  const { url } = await board(t, { reply: (x, r) => (on(x, /^\/metrics\/list$/) ? { ...r, headers: { ...r.headers, 'content-length': twice(String(r.body.length)) }, keepLength: true } : r) })
  const run = await contract({ baseUrl: url, only: 'metrics,marketing' })
  t.same(run.failed(), [WIRE('each Content-Length is the number of bytes that came')], 'the Content-Length check fails, and only it')
  t.match(run.check(WIRE_ENDPOINT, 'each Content-Length is the number of bytes that came')?.failures.join('\n'), /GET \/metrics\/list: the answer came, but its Content-Length does not frame its body \(the HTTP client says: [A-Z_]+.*\); RFC 9110 §8\.6/, 'naming the request and what the client said')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'metrics/list').every((c) => c.status === 'error'), 'the metrics checks are errored: an outage of what needed the answer')
  t.ok(run.report.checks.filter((c) => c.endpoint === 'marketing/list').every((c) => c.status !== 'error'), 'the rest of the run went on')
  t.equal(run.exitCode, 1, run.reason ?? 'exit 1')
})

t.test("a public job page cut short of its Content-Length fails the every-answer check of Content-Length, naming the page; its status checks still read", async (t) => {
  const { url } = await board(t, { reply: (x, r) => (x.url.startsWith('/api/') ? r : { ...r, headers: { ...r.headers, 'content-length': String(r.body.length + 10) }, keepLength: true, cut: true }) }, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, only: 'fields,jobs', writes: true, rateLimitWindow: 0 })
  t.same(run.failed(), [WIRE('each Content-Length is the number of bytes that came')], 'that check fails, and only it')
  t.match(run.check(WIRE_ENDPOINT, 'each Content-Length is the number of bytes that came')?.failures.join('\n'), /GET \S*\/jobs\/[0-9]+: Content-Length says [0-9]+ but [0-9]+ bytes came before the connection ended/, 'naming the page')
  t.equal(run.check('job/close', 'the public page answers 404 after close')?.status, 'pass', 'the page after close read as 404')
  t.equal(run.exitCode, 1, run.reason ?? 'exit 1')
})

t.test('a candidate file list that is not an array when empty fails the candidate schema checks', async (t) => {
  const emptyAsObject = rewrite(/^\/candidates\/(list|details\/[0-9]+)$/, (body) => {
    const answer = JSON.parse(body.toString('utf8')) as { data: Array<Record<string, unknown>> }
    for (const candidate of answer.data) for (const list of ['timesheets', 'resumes', 'documents', 'applications', 'consent']) if (Array.isArray(candidate[list]) && (candidate[list] as unknown[]).length === 0) candidate[list] = {}
    return { body: bytes(JSON.stringify(answer)) }
  })
  const { url } = await board(t, emptyAsObject)
  const run = await contract({ baseUrl: url, only: 'candidates' })
  const first = run.check('candidates/list', 'the first page fits the candidate list schema')
  t.equal(first?.status, 'fail')
  t.match(first?.failures.join('\n'), /data\[[0-9]+\]\.(timesheets|resumes|documents|applications|consent)/, 'naming the list')
  t.equal(run.check('candidates/details/{id}', 'the detail of a listed candidate fits the schema')?.status, 'fail', 'the detail too')
  t.ok(run.failed().every((c) => /^candidates\/(list|details\/\{id\}): /.test(c)), `only the checks reading candidate records fail: ${run.failed().join('; ')}`)
})

/** Every object's keys in reverse order, at every depth. */
const reversed = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reversed)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]))
  return value
}

/** A legal deployment choosing otherwise than the fake wherever the wire allows, on every answer at once. */
const LEGAL: Breakage = {
  reply: (_x, reply) => {
    // a 401's challenges on two field lines: WWW-Authenticate is a list (RFC 9110 §11.6.1)
    const challenge = reply.headers['www-authenticate']
    const r = challenge === undefined ? reply : { ...reply, headers: { ...reply.headers, 'www-authenticate': twice(challenge) } }
    const type = r.headers['content-type'] ?? ''
    if (/json/.test(type) && r.body.length > 0) {
      const body = JSON.parse(r.body.toString('utf8')) as Record<string, unknown>
      if (r.status === 200 && typeof body.next_page === 'string') body.next_page = body.next_page.replace(/\+/g, '%20')
      if (r.status === 200) body.served_by = 'edge-7'
      // strings the spec gives no length: an opaque identifier, a consent entry's type, a marketing action (not a revocation)
      for (const record of Array.isArray(body.data) ? (body.data as Array<Record<string, unknown>>) : []) {
        if (typeof record.identifier === 'string') record.identifier = ''
        const consent = Array.isArray(record.consent) ? (record.consent as Array<Record<string, unknown>>) : []
        if (consent[0] !== undefined) consent[0].type = ''
        if (typeof record.action === 'string' && record.action !== 'Revoked') record.action = ''
      }
      // \/ for every slash, keys reversed, newlines around the value
      const text = `\n${JSON.stringify(reversed(body)).replace(/\//g, '\\/')}\r\n`
      return { ...r, headers: { ...r.headers, 'content-type': 'application/json; charset=UTF-8' }, body: bytes(text) }
    }
    const disposition = r.headers['content-disposition']
    if (disposition !== undefined) {
      // a Content-Length with a leading zero is the same number of bytes (RFC 9110 §8.6: 1*DIGIT)
      return { ...r, headers: { ...r.headers, 'content-disposition': disposition.replace(/^attachment/, 'Attachment'), 'content-transfer-encoding': 'BINARY', 'content-length': `0${r.body.length}` }, keepLength: true }
    }
    return r
  },
}

t.test('a legal deployment passes every wire check: \\/, an added field, keys in any order, %20 in next_page, a charset, newlines, Attachment, a Content-Length of 0917, empty strings of no stated length, a challenge on two lines', async (t) => {
  const { url } = await board(t, LEGAL)
  const run = await contract({ baseUrl: url, only: 'fields,candidates,applications,timesheets,marketing,metrics,auth,rate-limit' })
  t.same(run.failed(), [], 'no check fails')
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  const wire = run.report.checks.filter((c) => c.endpoint === WIRE_ENDPOINT)
  t.same(wire.map((c) => `${c.name}: ${c.status}`), [
    'each JSON body is UTF-8 without a byte-order mark: pass',
    'each JSON body is exactly one JSON value, with nothing after it but JSON whitespace: pass',
    'each JSON answer says Content-Type application/json: pass',
    'each Content-Length is the number of bytes that came: pass',
    'each 429 carries Retry-after as a number of seconds: pass',
    'each 401 carries a WWW-Authenticate challenge for Basic with a quoted realm: pass',
    'each header the kit reads that is not a list comes on one field line: pass',
  ], 'every wire check is made, the 429 of the rate-limit group and the 401s of the auth group included')
  for (const endpoint of ['candidates/list', 'applications/list', 'timesheets/list', 'marketing/list']) {
    t.equal(run.check(endpoint, 'the answer with no records (since after the newest) fits the schema, data an empty array and total 0')?.status, 'pass', `${endpoint}: the answer with no records`)
  }
  for (const endpoint of ['applications/attachment/{id}', 'candidates/resume/{id}']) t.equal(run.check(endpoint, 'Content-Disposition is attachment with the listed filename')?.status, 'pass', `${endpoint}: Attachment`)
  for (const endpoint of ['candidates/resume/{id}', 'candidates/document/{id}']) t.equal(run.check(endpoint, 'Content-Length equals the listed filesize')?.status, 'pass', `${endpoint}: a Content-Length with a leading zero`)
  t.equal(run.check('timesheets/list', 'next_page of the answer with since carries since and page')?.status, 'pass', '%20 for the space of since')
})

t.test('an account with no marketing records passes: data [] and total 0', async (t) => {
  const { url } = await board(t, {}, { scenarioData: { name: 'no-marketing', counts: { marketing: 0 } } })
  const run = await contract({ baseUrl: url, only: 'marketing' })
  t.same(run.failed(), [], 'no check fails')
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.equal(run.check('marketing/list', 'the first page fits the marketing record list schema')?.status, 'pass')
  t.equal(run.check('marketing/list', 'the answer with no records (since after the newest) fits the schema, data an empty array and total 0')?.status, 'pass', "asked after the first page's Date")
})

t.test('an answer with no records that is unparsable fails that answer only; the rest of the run goes on', async (t) => {
  const html: Reply = { status: 200, headers: { 'content-type': 'text/html' }, body: bytes('<html><body>No records</body></html>') }
  const { url } = await board(t, { answer: (x) => (on(x, /^\/marketing\/list$/) && isEmptyAsk(x) ? html : undefined) })
  const run = await contract({ baseUrl: url, only: 'marketing' })
  // a page that is no JSON at all is not held to JSON's grammar (an error page may be anything): the check reading it fails
  t.same(run.failed(), [NO_RECORDS])
  t.match(run.check('marketing/list', NO_RECORDS.split(': ')[1] as string)?.failures.join('\n'), /not a JSON object/)
  t.equal(run.exitCode, 1)
  t.equal(run.check('marketing/list', 'the first page fits the marketing record list schema')?.status, 'pass', 'the other shapes are checked as ever')
})

t.test('a deployment that drops the connection on the answer with no records: an outage of that check, exit 3, not a crash', async (t) => {
  const { url } = await board(t, { answer: (x) => (on(x, /^\/marketing\/list$/) && isEmptyAsk(x) ? 'reset' : undefined) })
  const run = await contract({ baseUrl: url, only: 'marketing' })
  t.same(run.failed(), [], 'no check fails')
  t.equal(run.exitCode, 3, run.reason ?? 'exit 3')
  t.match(run.check('marketing/list', 'the answer with no records (since after the newest) fits the schema, data an empty array and total 0'), { status: 'error' })
  t.equal(run.check('marketing/list', 'the first page fits the marketing record list schema')?.status, 'pass')
})
