// GET /__mock/requests/{id}: one journal entry with its request and its answer, from
// outside over inject. A JSON body as sent (a malformed one too, an unread one said so); a huge body cut at 64 KiB, saying how much
// was left out; a resume download as "binary, N bytes, content-type X", never its bytes;
// no credential in the output (a one-letter password, and one that is part of the URL);
// an unknown id a 404, a non-numeric one a 400; the journal's list stays light; and many
// large requests: the journal lets the oldest bodies go within its bound, and says so.
import t from 'tap'
import { MAX_JOURNAL_BODY_BYTES } from '../../../src/watch/journal.js'
import { basic, board, type Json, USER } from '../../helpers/board.js'

const BODY_SHOWN = 64 * 1024
const json = { 'content-type': 'application/json' }

/** What the route answers for `id`, as text and as JSON. */
async function detail(app: Awaited<ReturnType<typeof board>>, id: number | string, prefix = '/__mock') {
  const answer = await app.inject(`${prefix}/requests/${id}`)
  return { status: answer.statusCode, text: answer.body, body: answer.json() as Json }
}

t.test('a JSON body is shown as sent, with the answer the client got and the headers, Authorization redacted', async (t) => {
  const app = await board(t, { scenario: 'default' })
  const sent = JSON.stringify({ title: 'A journal test job', salary_from: 30000 })
  const got = await app.inject({ method: 'POST', url: '/api/v1/job/add', headers: { ...json, authorization: basic() }, payload: sent })
  const id = (await app.inject('/__mock/requests')).json().data.at(-1).id
  const { status, body } = await detail(app, id)
  t.equal(status, 200, 'the entry answers 200')
  const entry = body.entry
  t.match(entry, { id, method: 'POST', url: '/api/v1/job/add', status: got.statusCode, user: USER }, "the entry's own fields, as the list gives them")
  t.same(entry.request.body, { kind: 'text', bytes: Buffer.byteLength(sent), contentType: 'application/json', text: sent }, 'the request body, as sent')
  t.equal(entry.request.headers['content-type'], 'application/json', 'the request headers')
  t.equal(entry.request.headers.authorization, 'Basic [redacted]', 'the Authorization header redacted, its scheme kept')
  t.equal(entry.answer.status, got.statusCode, 'the answer status')
  t.equal(entry.answer.body.text, got.body, 'the answer body, as the client got it')
  t.equal(entry.answer.headers['content-type'], got.headers['content-type'], 'the answer headers')
  t.notOk('dropped' in entry, 'nothing is said to be dropped')
})

t.test('a body that is not JSON is shown as sent; one the fake refused before reading is said to be unread', async (t) => {
  const app = await board(t, { scenario: 'default' })
  const broken = '{"title": "half a job'
  const refused = await app.inject({ method: 'POST', url: '/api/v1/job/add', headers: { ...json, authorization: basic() }, payload: broken })
  t.equal(refused.statusCode, 400, 'malformed JSON is a 400')
  t.match((await detail(app, 1)).body.entry.request.body, { kind: 'text', text: broken }, 'its body is shown as sent')
  const sent = JSON.stringify({ title: 'A job sent without credentials' })
  const unauthorised = await app.inject({ method: 'POST', url: '/api/v1/job/add', headers: json, payload: sent })
  t.equal(unauthorised.statusCode, 401, 'a POST without credentials is a 401, answered before its body is read')
  const body = (await detail(app, 2)).body.entry.request.body
  t.match(body, { kind: 'unread', bytes: Buffer.byteLength(sent), note: /not read/ }, 'its body is said to be unread, with its Content-Length')
  t.notOk('text' in body, 'and no text is made up for it')
})

t.test('a huge body is shown cut at 64 KiB, on a character, saying how many bytes were left out', async (t) => {
  const app = await board(t, { scenario: 'default' })
  // two-byte characters, so a cut at a byte count may fall inside one
  const sent = JSON.stringify({ title: 'Big', description: `${'é'.repeat(300_000)}the end` })
  const total = Buffer.byteLength(sent)
  await app.inject({ method: 'POST', url: '/api/v1/job/add', headers: { ...json, authorization: basic() }, payload: sent })
  const body = (await detail(app, 1)).body.entry.request.body
  t.equal(body.kind, 'text', 'it is text')
  t.equal(body.bytes, total, `it says its whole size (${total} bytes)`)
  const shown = Buffer.byteLength(body.text)
  t.ok(shown <= BODY_SHOWN && shown > BODY_SHOWN - 4, `the text shown is 64 KiB at most (${shown} bytes)`)
  t.ok(sent.startsWith(body.text), 'and is the start of the body, no character broken')
  t.equal(body.omittedBytes, total - shown, 'the bytes left out are counted')
  t.match(body.note, new RegExp(`${(total - shown).toLocaleString('en-US')} more bytes left out`), 'and said in words')
})

t.test('a resume download is shown as binary: its size and type, never its bytes', async (t) => {
  const app = await board(t, { scenario: 'default' })
  const candidates = (await app.inject({ url: '/api/v1/candidates/list', headers: { authorization: basic() } })).json().data
  // the first candidate with a resume
  let download = await app.inject({ url: `/api/v1/candidates/resume/${candidates[0].id}`, headers: { authorization: basic() } })
  for (const candidate of candidates.slice(1)) {
    if (download.statusCode === 200) break
    download = await app.inject({ url: `/api/v1/candidates/resume/${candidate.id}`, headers: { authorization: basic() } })
  }
  t.equal(download.statusCode, 200, 'the download answers 200')
  const { text, body } = await detail(app, (await app.inject('/__mock/requests')).json().total)
  const shown = body.entry.answer.body
  const type = String(download.headers['content-type'])
  t.same(
    shown,
    { kind: 'binary', bytes: download.rawPayload.length, contentType: type, note: `binary, ${download.rawPayload.length.toLocaleString('en-US')} bytes, content-type ${type}` },
    'the answer body is "binary, N bytes, content-type X"',
  )
  t.notOk(text.includes(download.rawPayload.subarray(0, 5).toString('latin1')), "and none of the file's bytes are in the output")
  t.equal(body.entry.answer.headers['content-length'], String(download.rawPayload.length), 'its headers are shown')
})

for (const [why, password, url] of [
  ['a one-letter password', 'p', '/api/v1/candidates/list'],
  ['a password that is part of the URL', 'candidates', '/api/v1/candidates/list?page=1'],
] as const) {
  t.test(`no credential is ever shown: ${why}`, async (t) => {
    const app = await board(t, { scenario: 'default', password })
    const header = basic(USER, password)
    const token = header.slice('Basic '.length)
    const pair = `${USER}:${password}`
    await app.inject({ url, headers: { authorization: header, cookie: 'session=a-cookie-value', 'x-api-key': 'an-api-key-value' } })
    await app.inject({ url, headers: { authorization: basic(USER, `${password}x`) } })
    // a client that echoes its own credentials in a body: the pair and its base64 are cut there too
    await app.inject({ method: 'POST', url: '/api/v1/job/add', headers: { ...json, authorization: header }, payload: JSON.stringify({ title: `${pair} ${token}` }) })
    const entries = (await app.inject('/__mock/requests')).json().data
    t.same(
      entries.map((e: Json) => e.status),
      [200, 401, 412],
      'an answered request, a refused one and a job with a bad body',
    )
    const outputs = [(await app.inject('/__mock/requests')).body]
    for (const entry of entries) {
      const { status, text, body } = await detail(app, entry.id)
      t.equal(status, 200, `entry ${entry.id} answers`)
      outputs.push(text, (await app.inject(`/__mock/ui/entry/${entry.id}`)).body)
      t.equal(body.entry.request.headers.authorization, 'Basic [redacted]', `entry ${entry.id}: Authorization is "Basic [redacted]"`)
      t.equal(body.entry.url, entry.url, `entry ${entry.id}: the URL is shown as asked`)
    }
    const first = (await detail(app, 1)).body.entry.request.headers
    t.equal(first.cookie, '[redacted]', 'a Cookie header is redacted')
    t.equal(first['x-api-key'], '[redacted]', 'so is a header named for a key')
    t.equal((await detail(app, 3)).body.entry.request.body.text, JSON.stringify({ title: '[redacted] [redacted]' }), 'the pair and its base64 are cut from a body')
    for (const output of outputs) {
      for (const secret of [token, pair, Buffer.from(`${USER}:${password}x`).toString('base64'), 'a-cookie-value', 'an-api-key-value']) {
        t.notOk(output.includes(secret), `no output holds ${secret === token ? 'the Basic token' : secret === pair ? 'user:password' : secret}`)
      }
    }
  })
}

t.test('an unknown or dropped id is a 404 naming it, a non-numeric one a 400; per account too', async (t) => {
  const app = await board(t, {
    scenario: 'empty',
    accounts: [
      { name: 'worker-1', password: 'one' },
      { name: 'worker-2', password: 'two' },
    ],
  })
  await app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic('worker-2', 'two') } })
  const unknown = await detail(app, 7)
  t.equal(unknown.status, 404, 'an id the journal never held is a 404')
  t.same(Object.keys(unknown.body).sort(), ['message', 'status'], 'as {status, message}')
  t.match(unknown.body.message, /no request 7\b/, 'naming the id')
  for (const bad of ['abc', '1.5', '-1', '1e3']) {
    const answer = await detail(app, bad)
    t.equal(answer.status, 400, `"${bad}" is a 400`)
    t.match(answer.body, { status: 400, message: new RegExp(`"${bad.replace('.', '\\.')}" is not one`) }, 'saying what an id is')
  }
  t.equal((await detail(app, 1)).status, 404, "the first account's journal has no request 1")
  const own = await detail(app, 1, '/__mock/accounts/worker-2')
  t.equal(own.status, 200, "worker-2's journal has its request 1 (/__mock/accounts/worker-2/requests/1)")
  t.equal(own.body.entry.user, 'worker-2', 'of that account')
  t.equal((await detail(app, 1, '/__mock/accounts/nobody')).status, 404, 'an unknown account is a 404')
  await app.inject({ method: 'DELETE', url: '/__mock/accounts/worker-2/requests' })
  t.equal((await detail(app, 1, '/__mock/accounts/worker-2')).status, 404, 'an entry of an emptied journal is a 404')
})

t.test('many large requests: the oldest bodies are dropped within the bound, and say so; the list stays light', async (t) => {
  const app = await board(t, { scenario: 'default' })
  const size = 900_000
  const count = Math.ceil((MAX_JOURNAL_BODY_BYTES * 1.5) / size)
  for (let i = 0; i < count; i++) {
    const payload = JSON.stringify({ title: `job ${i}`, description: String(i % 10).repeat(size) })
    await app.inject({ method: 'POST', url: '/api/v1/job/add', headers: { ...json, authorization: basic() }, payload })
  }
  const list = await app.inject('/__mock/requests')
  t.equal(list.json().total, count, `the journal lists every one of the ${count} requests`)
  t.ok(list.body.length < 300 * count, `its list carries no bodies (${list.body.length} bytes for ${count} entries)`)
  t.notMatch(list.body, /"request"|"answer"|"headers"|0000000000/, 'nor headers')
  const kinds: string[] = []
  let kept = 0
  for (let id = 1; id <= count; id++) {
    const entry = (await detail(app, id)).body.entry
    kinds.push(entry.request.body.kind)
    if (entry.request.body.kind === 'text') kept += entry.request.body.bytes
    else {
      t.equal(entry.request.body.kind, 'dropped', `entry ${id}: its body is dropped`)
      t.match(entry.dropped, /bodies were dropped: the journal keeps the bodies of its newest requests only, 16 MiB in all/, `entry ${id} says so`)
      t.equal(entry.request.headers.authorization, 'Basic [redacted]', `entry ${id} keeps its headers`)
    }
  }
  const firstKept = kinds.indexOf('text')
  t.ok(firstKept > 0, `the oldest bodies were dropped (${firstKept} of ${count})`)
  t.same(kinds.slice(firstKept), kinds.slice(firstKept).map(() => 'text'), 'the newest ones are all kept')
  t.ok(kept <= MAX_JOURNAL_BODY_BYTES, `the bodies kept are within the bound (${kept} bytes)`)
  t.ok(kept > MAX_JOURNAL_BODY_BYTES - 2 * size, 'and fill most of it')
})
