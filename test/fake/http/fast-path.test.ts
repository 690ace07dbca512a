// The fast path in front of Fastify (src/fake/http/fast-path.ts) sends the bytes Fastify
// sends: the same requests, over a raw socket, to a fake with it and to one without it
// (fastPath: false) give the same status lines, headers in the same order and bodies
// (only Date may differ), pipelined on one kept-alive connection, a HEAD among them; and
// leave the same journal, entry details, verdict and rate-limit windows. The fast fake is
// shown to have answered them in front of Fastify (it never handed them to its routes).
import type { FastifyInstance } from 'fastify'
import { connect } from 'node:net'
import t, { type Test } from 'tap'
import { formatTimestamp } from '../../../src/core/time.js'
import { buildApp, type BuildOptions } from '../../../src/fake/app.js'
import { jobInputSample } from '../../fixtures/samples.js'
import { basic } from '../../helpers/board.js'
import { routedCount } from '../../helpers/routed.js'
import { listening } from '../../helpers/socket.js'

const API = '/api/v1'
const DAY = 86_400_000

/** Every byte the server sends for `text` until it closes the connection (the last request says Connection: close); text given in pieces is written a piece at a time, 50 ms apart. */
function exchange(port: number, text: string | string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('error', reject)
    socket.once('close', () => resolve(Buffer.concat(chunks)))
    const pieces = [text].flat()
    const next = () => {
      const piece = pieces.shift() as string
      if (pieces.length === 0) socket.end(piece)
      else socket.write(piece, () => setTimeout(next, 50))
    }
    next()
  })
}

const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`

/** The bytes with each Date header's value blanked: the one part of an answer allowed to differ. */
const withoutDates = (bytes: Buffer) => bytes.toString('latin1').replace(/\r\nDate: [^\r]*/g, '\r\nDate: -')

interface Pair {
  fast: { app: FastifyInstance; port: number; seen: () => number }
  slow: { app: FastifyInstance; port: number }
}

/** Two fakes of the same options, one with the fast path and one without; the fast one counts the API requests Fastify saw. */
async function pair(t: Test, options: BuildOptions = {}): Promise<Pair> {
  const slow = await listening(t, { ...options, fastPath: false })
  const app = await buildApp({ clock: 'virtual', rateLimitWindow: 0, ...options })
  t.teardown(() => app.close())
  // the requests the fake handed to its routes: what the fast path did not answer
  const seen = routedCount(t, app, `${API}/`)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return { fast: { app, port: address.port, seen }, slow }
}

/** Sends the same text to both; the bytes of each with dates blanked. */
async function both(p: Pair, text: string | string[]): Promise<{ fast: string; slow: string }> {
  const [fast, slow] = await Promise.all([exchange(p.fast.port, text), exchange(p.slow.port, text)])
  return { fast: withoutDates(fast), slow: withoutDates(slow) }
}

/** The rows of the throughput table the fast path answers (bench/throughput.ts). */
function rows(app: FastifyInstance): Record<string, string> {
  const now = app.board.clock.now()
  return {
    'applications page 1': `${API}/applications/list?page=1`,
    'applications since': `${API}/applications/list?since=${encodeURIComponent(formatTimestamp(now - 3 * DAY).slice(0, 16))}`,
    'candidates list': `${API}/candidates/list?page=2`,
    'candidates details': `${API}/candidates/details/1`,
    'a resume download': `${API}/candidates/resume/1`,
    metrics: `${API}/metrics/list`,
    'job/fields': `${API}/job/fields`,
  }
}

/** What each fake's control API says of its day: the journal, each entry's detail, the verdict, the windows. */
async function day(app: FastifyInstance): Promise<string[]> {
  const list = (await app.inject({ url: '/__mock/requests' })).json() as { data: Array<{ id: number }> }
  const details = await Promise.all(list.data.map(async (entry) => (await app.inject({ url: `/__mock/requests/${entry.id}` })).body))
  const verdict = (await app.inject({ url: '/__mock/verdict' })).body
  const windows = (await app.inject({ url: '/__mock/rate-limits' })).body
  return [JSON.stringify(list), ...details, verdict, windows]
}

t.test('each row answers the same bytes with the fast path as without it, asked alone, again and pipelined with a HEAD', async (t) => {
  const p = await pair(t)
  const auth = { Authorization: basic() }
  const urls = rows(p.fast.app)
  // asked once each: Fastify answers and keeps them; asked again: the fast path answers
  for (const round of ['first', 'again']) {
    for (const [row, url] of Object.entries(urls)) {
      const { fast, slow } = await both(p, request('GET', url, { ...auth, Connection: 'close' }))
      t.match(fast, /^HTTP\/1\.1 200 OK\r\n/, `${row}, ${round}: answered`)
      t.equal(fast, slow, `${row}, ${round}: the same bytes`)
    }
  }
  const before = p.fast.seen()
  const pipelined = [
    ...Object.values(urls).map((url) => request('GET', url, auth)),
    request('HEAD', urls['applications page 1'] as string, auth),
    ...Object.values(urls).map((url) => request('GET', url, auth)),
    request('GET', urls.metrics as string, { ...auth, Connection: 'close' }),
  ].join('')
  const { fast, slow } = await both(p, pipelined)
  t.equal(fast.match(/HTTP\/1\.1 [0-9]{3} /g)?.length, 2 * Object.keys(urls).length + 2, 'every pipelined request was answered')
  t.equal(fast, slow, 'pipelined on one connection, a HEAD among them: the same bytes')
  // the HEAD went through Fastify; the kept answers, the download among them, did not
  t.equal(p.fast.seen() - before, 1, 'the kept answers were sent in front of Fastify')
  t.same(await day(p.fast.app), await day(p.slow.app), 'the same journal, entry details, verdict and windows')
})

t.test('a 429 of the rate limit is the same bytes with the fast path as without it, and the window is counted the same', async (t) => {
  const p = await pair(t, { rateLimitWindow: 900 })
  const auth = { Authorization: basic() }
  const url = `${API}/applications/list?page=2`
  const other = `${API}/metrics/list`
  const text = [request('GET', url, auth), request('GET', url, auth), request('GET', other, auth), request('GET', url, auth), request('GET', other, auth), request('GET', url, { ...auth, Connection: 'close' })].join('')
  const first = await both(p, text)
  t.equal(first.fast, first.slow, 'a 200, then 429s: the same bytes')
  t.equal(first.fast.match(/HTTP\/1\.1 429 /g)?.length, 4, 'the URL asked again in its window is refused')
  const before = p.fast.seen()
  const again = await both(p, text)
  t.equal(again.fast, again.slow, 'asked again: every answer a 429, the same bytes')
  t.equal(p.fast.seen(), before, 'the 429s were sent in front of Fastify')
  t.same(await day(p.fast.app), await day(p.slow.app), 'the same journal, entry details, verdict and windows')
})

t.test('what the fast path leaves to Fastify is answered by Fastify: wrong or no credentials, Prefer, an armed fault, a body', async (t) => {
  const p = await pair(t)
  const url = `${API}/metrics/list`
  const auth = { Authorization: basic() }
  await both(p, request('GET', url, { ...auth, Connection: 'close' }))
  const cases: Record<string, string> = {
    'no credentials': request('GET', url, { Connection: 'close' }),
    'a wrong password': request('GET', url, { Authorization: basic('jobboard', 'wrong'), Connection: 'close' }),
    'Prefer: code=404': request('GET', url, { ...auth, Prefer: 'code=404', Connection: 'close' }),
    'a body': `GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic()}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    'no Host (HTTP/1.1)': `GET ${url} HTTP/1.1\r\nAuthorization: ${basic()}\r\nConnection: close\r\n\r\n`,
  }
  for (const [name, text] of Object.entries(cases)) {
    const before = p.fast.seen()
    const { fast, slow } = await both(p, text)
    t.equal(fast, slow, `${name}: the same bytes`)
    t.equal(p.fast.seen(), before + 1, `${name}: answered by Fastify`)
  }
  for (const app of [p.fast.app, p.slow.app]) await app.inject({ method: 'POST', url: '/__mock/faults', payload: { path: url, status: 503 } })
  const before = p.fast.seen()
  const { fast, slow } = await both(p, request('GET', url, { ...auth, Connection: 'close' }))
  t.match(fast, /^HTTP\/1\.1 503 /, 'an armed fault answers')
  t.equal(fast, slow, 'an armed fault: the same bytes')
  t.equal(p.fast.seen(), before + 1, 'an armed fault: answered by Fastify')
  t.same(await day(p.fast.app), await day(p.slow.app), 'the same journal, entry details, verdict and windows')
})

t.test('on a fake of several accounts, each account is answered its own bytes with the fast path as without it, before and after a write', async (t) => {
  const accounts = [
    { name: 'worker-1', password: 'one' },
    { name: 'worker-2', password: 'two' },
  ]
  const p = await pair(t, { accounts })
  const urls = Object.entries(rows(p.fast.app)).filter(([row]) => row !== 'a resume download')
  const ask = (user: string, password: string) => urls.map(([, url]) => request('GET', url, { Authorization: basic(user, password) })).join('')
  const close = request('GET', `${API}/metrics/list`, { Authorization: basic('worker-1', 'one'), Connection: 'close' })
  const text = `${ask('worker-1', 'one')}${ask('worker-2', 'two')}${close}`
  const first = await both(p, text)
  t.equal(first.fast, first.slow, 'asked first: the same bytes')
  const before = p.fast.seen()
  const again = await both(p, text)
  t.equal(again.fast, again.slow, 'asked again: the same bytes')
  t.equal(p.fast.seen(), before, 'asked again: sent in front of Fastify')
  // a write to one account's board: its answers are its own from then on
  for (const app of [p.fast.app, p.slow.app]) app.accounts.require('worker-2').controller.addCandidate({ name: 'Ada Lovelace' })
  const written = await both(p, text)
  t.equal(written.fast, written.slow, 'after a write to one account: the same bytes')
  t.not(written.fast, again.fast, "the write changed that account's answers")
  t.same(await day(p.fast.app), await day(p.slow.app), "the first account's journal, entry details, verdict and windows")
})

t.test('accounts on other seeds, none written to, are each answered in front of Fastify when asked in turn, downloads too', async (t) => {
  const accounts = [
    { name: 'worker-1', password: 'one' },
    { name: 'worker-2', password: 'two', seed: 99 },
  ]
  const p = await pair(t, { accounts })
  const urls = Object.values(rows(p.fast.app))
  // in turn: each URL asked by one account, then by the other, so neither's answer may push out the other's
  const text = urls.flatMap((url) => [request('GET', url, { Authorization: basic('worker-1', 'one') }), request('GET', url, { Authorization: basic('worker-2', 'two') })]).join('')
  const close = request('GET', `${API}/metrics/list`, { Authorization: basic('worker-1', 'one'), Connection: 'close' })
  const first = await both(p, `${text}${close}`)
  t.equal(first.fast, first.slow, 'asked first: the same bytes')
  const before = p.fast.seen()
  const again = await both(p, `${text}${close}`)
  t.equal(again.fast, again.slow, 'asked again: the same bytes')
  t.equal(p.fast.seen(), before, "asked again in turn: every answer sent in front of Fastify, neither account's pushing out the other's")
  t.same(await day(p.fast.app), await day(p.slow.app), "the first account's journal, entry details, verdict and windows")
})

t.test("a job/add body refused before is refused again with the same bytes with the fast path as without it; any other body goes to Fastify", async (t) => {
  const p = await pair(t)
  const post = (job: object, extra: Record<string, string> = {}) => {
    const body = JSON.stringify(job)
    return `POST ${API}/job/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${Object.entries(extra)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n${body}`
  }
  const close = request('GET', `${API}/job/fields`, { Authorization: basic(), Connection: 'close' })
  // a client whose list of job types is out of date: the 412 names the field, and the verdict notes the stale value
  const stale = { ...jobInputSample(), job_type: 'Full time, mostly' }
  const other = { ...jobInputSample(), contract_type: 'Mostly permanent' }
  const first = await both(p, `${post(stale)}${close}`)
  t.match(first.fast, /^HTTP\/1\.1 412 /, 'refused')
  t.equal(first.fast, first.slow, 'refused first: the same bytes')
  let before = p.fast.seen()
  const again = await both(p, `${post(stale)}${post(stale)}${close}`)
  t.equal(again.fast, again.slow, 'refused again, twice on one connection: the same bytes')
  t.equal(p.fast.seen(), before, 'refused again: sent in front of Fastify')
  before = p.fast.seen()
  const mixed = await both(p, `${post(other)}${post(stale)}${post({ ...stale, title: 'Another title' })}${close}`)
  t.equal(mixed.fast, mixed.slow, 'other bodies between: the same bytes')
  t.equal(p.fast.seen(), before + 2, 'the bodies not refused before went to Fastify, read whole')
  const split = post(stale)
  const cut = split.length - 100
  before = p.fast.seen()
  const late = await both(p, [split.slice(0, cut), `${split.slice(cut)}${close}`])
  t.equal(late.fast, late.slow, 'a body that came after its head: the same bytes')
  t.equal(p.fast.seen(), before + 1, "a body that came after its head went to Fastify")
  // a job added: the board's revision moves, the kept refusal no longer holds until Fastify refuses it again
  const added = await both(p, `${post(jobInputSample())}${post(stale)}${post(stale)}${close}`)
  t.match(added.fast, /^HTTP\/1\.1 200 /, 'the good job is added')
  t.equal(added.fast, added.slow, 'after a write: the same bytes')
  t.same(await day(p.fast.app), await day(p.slow.app), 'the same journal, entry details, verdict and windows')
})

t.test('a fake with a request log or a response check has no fast path: Fastify answers every request, and the log sees each', async (t) => {
  const url = `${API}/metrics/list`
  const text = `${request('GET', url, { Authorization: basic() })}${request('GET', url, { Authorization: basic(), Connection: 'close' })}`
  const logged: string[] = []
  const logging = await pair(t, { requestLog: (request, _reply, status) => void logged.push(`${request.method} ${request.url} ${status}`) })
  await both(logging, text)
  const before = logging.fast.seen()
  const { fast, slow } = await both(logging, text)
  t.equal(fast, slow, 'a request log: the same bytes')
  t.equal(logging.fast.seen(), before + 2, 'a request log: both answered by Fastify')
  t.equal(logged.length, 8, 'the log saw every request of both fakes')
  const checked = await pair(t, { checkResponses: (problem: string) => t.fail(problem) })
  await both(checked, text)
  const since = checked.fast.seen()
  await both(checked, text)
  t.equal(checked.fast.seen(), since + 2, 'a response check: both answered by Fastify')
})
