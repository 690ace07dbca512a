// The fast path in front of Fastify (src/fake/http/fast-path.ts) changes nothing anyone can
// see but speed. One scripted day of a client is played over real HTTP (kept-alive
// connections taken in turn, pipelined requests on a raw socket, HEADs among them) against
// two fakes built the same way, one with the fast path and one without (fastPath: false),
// their virtual clocks moved alike. Every answer is compared (status, headers but Date,
// body), and after each phase everything the control API, the page's data routes and the
// controller show: the journal and each entry's detail, the verdict (per user too), the
// rate-limit windows, the faults, the clock and the saved state. The byte test beside it
// (fast-path.test.ts) compares each kept row alone; this one compares a whole day.
import type { FastifyInstance } from 'fastify'
import { readFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { isDeepStrictEqual } from 'node:util'
import t, { type Test } from 'tap'
import { formatTimestamp } from '../../../src/core/time.js'
import type { ScenarioFile } from '../../../src/core/types.js'
import { buildApp, type BuildOptions } from '../../../src/fake/app.js'
import { entryDetail } from '../../../src/watch/journal-detail.js'
import type { HeldEntry } from '../../../src/watch/journal.js'
import { jobInputSample } from '../../fixtures/samples.js'
import { basic } from '../../helpers/board.js'
import { routedCount } from '../../helpers/routed.js'
import { rawRequest } from '../../helpers/socket.js'

const API = '/api/v1'
const DAY = 86_400_000

/** One fake of a pair: its app, its port, a few kept-alive connections taken in turn, and one for the control API. */
interface Side {
  app: FastifyInstance
  port: number
  connections: Agent[]
  turn: number
  control: Agent
  /** API requests handed to its routes (the fast path's never are). */
  fastify: () => number
}

interface Pair {
  fast: Side
  slow: Side
  /** By account: the newest journal entry whose details were compared. */
  compared: Map<string, number>
}

/** What a client sees of an answer: the status, the headers as sent but Date, the body (bytes as latin1). */
interface Answer {
  status: number
  headers: string[]
  body: string
}

interface Ask {
  method?: string
  path: string
  /** Host and Authorization are given unless set here (undefined leaves one out). */
  headers?: Record<string, string | undefined>
  body?: string
}

/** Two fakes of the same options, one with the fast path and one without. */
async function pair(t: Test, options: BuildOptions = {}): Promise<Pair> {
  const side = async (fastPath: boolean): Promise<Side> => {
    const app = await buildApp({ clock: 'virtual', rateLimitWindow: 0, ...options, fastPath })
    // the API requests handed to its routes: the fast path's answers never are
    const fastify = routedCount(t, app, `${API}/`)
    const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
    const connections = [1, 2, 3].map(() => new Agent({ keepAlive: true, maxSockets: 1 }))
    const control = new Agent({ keepAlive: true, maxSockets: 1 })
    t.teardown(async () => {
      for (const agent of [...connections, control]) agent.destroy()
      if (app.server.listening) await app.close()
    })
    return { app, port, connections, turn: 0, control, fastify }
  }
  return { fast: await side(true), slow: await side(false), compared: new Map() }
}

/** Sends one request on an agent's connection; a connection dropped short of an answer is status 0. */
function send(port: number, agent: Agent, ask: Ask): Promise<Answer> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries({ Host: '127.0.0.1', Authorization: basic(), ...ask.headers })) if (value !== undefined) headers[name] = value
  if (ask.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(ask.body))
  return new Promise((resolve) => {
    const sent = httpRequest({ host: '127.0.0.1', port, agent, method: ask.method ?? 'GET', path: ask.path, headers, setHost: false }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('error', () => resolve({ status: 0, headers: [], body: 'cut short' }))
      answer.on('end', () => {
        const raw = answer.rawHeaders
        const kept: string[] = []
        for (let i = 0; i < raw.length; i += 2) if ((raw[i] as string).toLowerCase() !== 'date') kept.push(raw[i] as string, raw[i + 1] as string)
        resolve({ status: answer.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString('latin1') })
      })
    })
    sent.on('error', () => resolve({ status: 0, headers: [], body: 'dropped' }))
    sent.end(ask.body)
  })
}

/** The API's requests go out on the side's connections in turn: each kept alive, several in a day. */
const ask = (side: Side, request: Ask) => send(side.port, side.connections[side.turn++ % side.connections.length] as Agent, request)

/** The control API, on its own connection; JSON bodies parsed, others as text. */
async function control(side: Side, path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: unknown }> {
  const answer = await send(side.port, side.control, {
    method,
    path,
    headers: { Authorization: undefined, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = Buffer.from(answer.body, 'latin1').toString('utf8')
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: answer.status, body: parsed }
}

/** A raw request's text, for pipelining several on one socket. */
const raw = (method: string, path: string, headers: Record<string, string> = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries({ Authorization: basic(), ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`

/** An exchange's bytes (latin1, as rawRequest reads them) with each Date header's value blanked. */
const withoutDates = (text: string) => text.replace(/\r\nDate: [^\r]*/g, '\r\nDate: -')

/** Pipelined on one connection, the last request saying Connection: close: everything sent back, each Date blanked. */
const pipelined = async (side: Side, texts: string[]) => withoutDates(await rawRequest(side.port, latin1(texts.join(''))))

/** rawRequest writes latin1: a text with a body in UTF-8 (a job's £) is given as its bytes. */
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

/** A connection of the test's own, written to now and later: everything the fake sent on it until it closed it (5 s at most), each Date blanked. */
function connection(port: number): { write: (text: string) => void; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1')
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  socket.on('error', () => socket.destroy())
  const timer = setTimeout(() => socket.destroy(), 5_000)
  const closed = new Promise<string>((resolve) =>
    socket.once('close', () => {
      clearTimeout(timer)
      resolve(withoutDates(received))
    }),
  )
  return { write: (text) => void (socket.destroyed || socket.write(latin1(text), 'latin1')), closed }
}

/** Runs the same act on the fast fake, then on the slow one, and asserts both saw the same. */
async function same<T>(t: Test, p: Pair, what: string, act: (side: Side) => Promise<T>): Promise<T> {
  const fast = await act(p.fast)
  const slow = await act(p.slow)
  t.strictSame(fast, slow, `${what}: the same with the fast path as without it`)
  return fast
}

/** The same control call on both (moving the clock, arming a fault, a reset, an import), answered the same. */
const onBoth = (t: Test, p: Pair, path: string, method: string, body?: unknown) => same(t, p, `${method} ${path}`, (side) => control(side, path, method, body))

interface Scope {
  /** The accounts looked at: '' for the first (/__mock/...), else by name (/__mock/accounts/{name}/...). */
  accounts: string[]
  /** The users whose verdict is asked for apart. */
  users: string[]
}

/**
 * Everything the control API, the page's data routes and the controller show of each account's
 * day: the details of the entries after `after` (each account's), and with `full` every
 * entry's and the saved state (asked after writes and at the end).
 */
async function observe(side: Side, scope: Scope, after: ReadonlyMap<string, number>, full: boolean): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {}
  for (const account of scope.accounts) {
    const base = account === '' ? '/__mock' : `/__mock/accounts/${account}`
    const controller = account === '' ? side.app.controller : side.app.accounts.require(account).controller
    const look = async (path: string) => {
      seen[`GET ${base}${path}`] = await control(side, `${base}${path}`)
    }
    await look('/requests')
    const entries = (seen[`GET ${base}/requests`] as { body: { data: Array<{ id: number }> } }).body.data
    const newest = entries.at(-1)?.id ?? 0
    const from = newest < (after.get(account) ?? 0) ? 0 : (after.get(account) ?? 0)
    // each new entry's detail as the control API and the page's route make it, in-process; one in five over HTTP too
    // (a round trip for each would be most of the file's time)
    const journal = controller.board.journal
    const fresh = entries.filter((held) => held.id > from)
    seen[`${account} the new entries' details`] = fresh.map((entry) => [entryDetail(journal, journal.entry(entry.id) as HeldEntry), entryDetail(journal, journal.entry(entry.id) as HeldEntry, { urlShown: 4_096 })])
    for (const entry of fresh.filter((_held, index) => index % 5 === 0 || index === fresh.length - 1)) {
      await look(`/requests/${entry.id}`)
      await look(`/ui/entry/${entry.id}`)
    }
    if (full) seen[`${account} every entry's detail`] = entries.map((entry) => entryDetail(journal, journal.entry(entry.id) as HeldEntry))
    for (const path of ['/verdict', '/rate-limits', '/faults', '/clock', '/ui/journal', '/ui/board', ...(full ? ['/state'] : [])]) await look(path)
    for (const user of scope.users) await look(`/verdict?user=${encodeURIComponent(user)}`)
    seen[`${account} controller.requests()`] = controller.requests()
    seen[`${account} controller.verdict()`] = controller.verdict()
    for (const user of scope.users) seen[`${account} controller.verdict({ user: ${user} })`] = controller.verdict({ user })
    seen[`${account} controller.rateLimits()`] = controller.rateLimits()
    if (full) seen[`${account} controller.exportState()`] = controller.exportState()
  }
  return seen
}

/** After a phase: everything observed is the same on both fakes (only what differs is shown when not); `full` after writes and at the end. */
async function sameDay(t: Test, p: Pair, phase: string, scope: Scope, full = false): Promise<void> {
  const fast = await observe(p.fast, scope, p.compared, full)
  const slow = await observe(p.slow, scope, p.compared, full)
  for (const account of scope.accounts) {
    const list = fast[`GET ${account === '' ? '/__mock' : `/__mock/accounts/${account}`}/requests`] as { body: { data: Array<{ id: number }> } }
    p.compared.set(account, list.body.data.at(-1)?.id ?? 0)
  }
  const keys = [...new Set([...Object.keys(fast), ...Object.keys(slow)])]
  const differ = keys.filter((key) => !isDeepStrictEqual(fast[key], slow[key]))
  const pick = (seen: Record<string, unknown>) => Object.fromEntries(differ.map((key) => [key, seen[key]]))
  t.strictSame(pick(fast), pick(slow), `${phase}: the journal, its entries, the verdict, the windows, the page's data and the state are the same`)
  t.ok(keys.length > 0, `${phase}: ${keys.length} things observed`)
}

/** The fast fake answered some of the day's API requests in front of Fastify: the comparison is not of two slow paths. */
function servedInFront(t: Test, p: Pair): void {
  const fastify = p.fast.fastify()
  const all = p.slow.fastify()
  t.ok(fastify < all, `the fast fake's Fastify saw ${fastify} of the ${all} API requests the slow one's saw`)
}

/** A `since` value some days before the fake's now, as a client writes it (a space sent as +). */
const since = (app: FastifyInstance, days: number) => formatTimestamp(app.board.clock.now() - days * DAY).slice(0, 16).replace(' ', '+')

/** The reads of a client's day: lists and their pages, since pages, details, downloads, metrics, job/fields, a miss. */
function reads(app: FastifyInstance): string[] {
  return [
    `${API}/applications/list?page=1`,
    `${API}/applications/list?page=2`,
    `${API}/applications/list?since=${since(app, 3)}`,
    `${API}/applications/list?since=${since(app, 30)}&page=2&cachebuster=7`,
    `${API}/candidates/list`,
    `${API}/candidates/list?since=${since(app, 60)}`,
    `${API}/candidates/details/1`,
    `${API}/candidates/details/2`,
    `${API}/applications/details/3`,
    `${API}/timesheets/list?page=2`,
    `${API}/marketing/list`,
    `${API}/candidates/resume/1`,
    `${API}/candidates/document/1`,
    `${API}/metrics/list`,
    `${API}/job/fields`,
    `${API}/candidates/details/999999`,
  ]
}

/** Each read on the connections in turn, `rounds` times, a HEAD of some between. */
async function readAll(side: Side, urls: string[], rounds = 2): Promise<Answer[]> {
  const answers: Answer[] = []
  for (let round = 0; round < rounds; round++) {
    for (const url of urls) answers.push(await ask(side, { path: url }))
    answers.push(await ask(side, { method: 'HEAD', path: urls[0] as string }))
  }
  return answers
}

/** The same reads pipelined on one connection, a HEAD among them, the last closing it. */
const readPipelined = (side: Side, urls: string[], headers: Record<string, string> = {}) =>
  pipelined(side, [
    ...urls.map((url) => raw('GET', url, headers)),
    raw('HEAD', urls[1] as string, headers),
    ...urls.map((url) => raw('GET', url, headers)),
    raw('GET', `${API}/metrics/list`, { ...headers, Connection: 'close' }),
  ])

const JSON_TYPE = { 'Content-Type': 'application/json' }
/** A client whose list of job types is out of date: a 412 naming the field. */
const staleJob = () => ({ ...jobInputSample(), job_type: 'Full time, mostly' })
const post = (path: string, body: object, headers: Record<string, string | undefined> = {}): Ask => ({ method: 'POST', path, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(body) })
const rawPost = (body: object, extra: Record<string, string> = {}) => {
  const text = JSON.stringify(body)
  return `POST ${API}/job/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${Object.entries(extra)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${text}`
}

/** The default scenario with a second user on its board. */
function twoUsers(behaviour: object = {}): ScenarioFile {
  const scenario = JSON.parse(readFileSync(new URL('../../../scenarios/default.json', import.meta.url), 'utf8')) as ScenarioFile
  return { ...scenario, credentials: [{ username: 'jobboard', password: 'jobboard' }, { username: 'second', password: 'other' }], behaviour }
}
const SECOND = basic('second', 'other')

const ONE: Scope = { accounts: [''], users: ['jobboard', 'second'] }

t.test('a day of reads, faults, Prefer, wrong credentials, writes, a month change, a reset and an import looks the same with the fast path as without it', async (t) => {
  const p = await pair(t, { scenarioData: twoUsers() })
  const urls = reads(p.fast.app)
  t.strictSame(urls, reads(p.slow.app), 'both fakes start at the same time')

  const before = [p.fast.fastify(), p.slow.fastify()]
  await same(t, p, 'every read asked twice on three kept-alive connections, a HEAD each round', (side) => readAll(side, urls))
  await same(t, p, 'the reads pipelined on one connection, a HEAD among them', (side) => readPipelined(side, urls))
  await same(t, p, 'the reads with another Host, twice (links on another origin)', async (side) => {
    const answers: Answer[] = []
    for (const url of [...urls, ...urls]) answers.push(await ask(side, { path: url, headers: { Host: 'localhost:8080' } }))
    return answers
  })
  await same(t, p, 'a read with a Host that is no host, twice', async (side) => [
    await ask(side, { path: urls[0] as string, headers: { Host: 'bad"host' } }),
    await ask(side, { path: urls[0] as string, headers: { Host: 'bad"host' } }),
  ])
  t.ok(p.fast.fastify() - (before[0] as number) < p.slow.fastify() - (before[1] as number), 'the fast fake answered some reads in front of Fastify')
  await sameDay(t, p, 'after the reads', ONE)

  // an armed fault: met by the next matching requests; every request of the board goes to Fastify while one is armed
  await onBoth(t, p, '/__mock/faults', 'POST', { path: `${API}/metrics/list`, status: 503, times: 2 })
  await same(t, p, 'reads while a fault is armed on metrics, which meets it twice', (side) =>
    Promise.all([readAll(side, urls, 1), ask(side, { path: `${API}/metrics/list` })]),
  )
  await onBoth(t, p, '/__mock/faults', 'POST', { path: `${API}/candidates/details/1`, delayMs: 30 })
  await same(t, p, 'a delayed read, and reads after it', (side) => readAll(side, urls.slice(5, 9), 1))
  await onBoth(t, p, '/__mock/faults', 'POST', { path: `${API}/candidates/list`, drop: true })
  await same(t, p, 'a dropped read pipelined before others', (side) => readPipelined(side, [`${API}/candidates/list`, `${API}/job/fields`]))
  await same(t, p, 'the reads once no fault is armed', (side) => readAll(side, urls, 1))
  await sameDay(t, p, 'after the faults', ONE)

  // what the fast path leaves to Fastify
  const refused: Ask[] = [
    { path: `${API}/metrics/list`, headers: { Prefer: 'code=404' } },
    { path: `${API}/candidates/details/1`, headers: { Prefer: 'code=429' } },
    { path: `${API}/metrics/list`, headers: { Authorization: basic('jobboard', 'wrong') } },
    { path: `${API}/metrics/list`, headers: { Authorization: basic('nobody', 'jobboard') } },
    { path: `${API}/metrics/list`, headers: { Authorization: undefined } },
    { path: `${API}/metrics/list`, headers: { Authorization: 'Bearer jobboard' } },
    { path: `${API}/metrics/list`, headers: { Authorization: basic().toLowerCase() } },
    { path: `${API}/metrics/list`, headers: { Authorization: `${basic()} ` } },
    { method: 'HEAD', path: `${API}/metrics/list` },
    { path: `${API}/metrics/list?` },
    { path: `${API}//metrics/list` },
    { path: `${API}/metrics/list/` },
    { path: `${API}/METRICS/list` },
    { path: `${API}/metrics/list#top` },
  ]
  await same(t, p, 'Prefer, wrong credentials, odd URLs and HEADs, each asked twice', async (side) => {
    const answers: Answer[] = []
    for (const request of [...refused, ...refused]) answers.push(await ask(side, request))
    return answers
  })
  await same(t, p, 'the same pipelined', (side) =>
    pipelined(side, [
      raw('GET', `${API}/metrics/list`, { Prefer: 'code=404' }),
      raw('GET', `${API}/metrics/list`, { Authorization: basic('jobboard', 'wrong') }),
      raw('GET', `${API}/metrics/list`),
      raw('GET', `${API}/metrics/list`, { Authorization: basic('nobody', 'x') }),
      raw('HEAD', `${API}/metrics/list`),
      raw('GET', `${API}/job/fields`, { Connection: 'close' }),
    ]),
  )
  await sameDay(t, p, 'after Prefer and wrong credentials', ONE)

  // job/add: refused for a stale field (kept, then sent again in front of Fastify), then a job added: the revision moves
  await same(t, p, 'a stale job/add refused, then again, pipelined', (side) =>
    pipelined(side, [rawPost(staleJob()), rawPost(staleJob()), raw('GET', `${API}/job/fields`), rawPost(staleJob()), raw('GET', `${API}/metrics/list`, { Connection: 'close' })]),
  )
  await same(t, p, 'a stale job/add on the kept-alive connections, then again', async (side) => [
    await ask(side, post(`${API}/job/add`, staleJob())),
    await ask(side, post(`${API}/job/add`, staleJob())),
    await ask(side, post(`${API}/job/add`, staleJob(), { 'Content-Type': 'application/json; charset=utf-8' })),
    await ask(side, post(`${API}/job/add`, staleJob(), { Prefer: 'code=412' })),
  ])
  // a 412 asked for by Prefer never read the body: the same body without it is added
  const preferred = await same(t, p, 'a good job/add refused by Prefer: code=412 twice, then added without it, then the same reads', async (side) => [
    await ask(side, post(`${API}/job/add`, jobInputSample(), { Prefer: 'code=412' })),
    await ask(side, post(`${API}/job/add`, jobInputSample(), { Prefer: 'code=412' })),
    await ask(side, post(`${API}/job/add`, jobInputSample())),
    ...(await readAll(side, urls)),
  ])
  t.strictSame(
    preferred.slice(0, 3).map((answer) => answer.status),
    [412, 412, 200],
    'refused as asked, then added',
  )
  await same(t, p, 'the stale job/add after the write, twice, then by the other user twice', async (side) => [
    await ask(side, post(`${API}/job/add`, staleJob())),
    await ask(side, post(`${API}/job/add`, staleJob())),
    await ask(side, post(`${API}/job/add`, staleJob(), { Authorization: SECOND })),
    await ask(side, post(`${API}/job/add`, staleJob(), { Authorization: SECOND })),
  ])
  await same(t, p, 'the reads by the other user', async (side) => {
    const answers: Answer[] = []
    for (const url of [...urls, ...urls]) answers.push(await ask(side, { path: url, headers: { Authorization: SECOND } }))
    return answers
  })
  await onBoth(t, p, '/__mock/candidates', 'POST', { name: 'Ada Lovelace' })
  await same(t, p, 'the reads after a candidate added through the control API', (side) => readAll(side, urls, 2))
  await onBoth(t, p, '/__mock/job-fields', 'POST', { add: { job_type: ['Full time, mostly'] } })
  await same(t, p, 'job/fields and the once stale job/add after the lists changed', async (side) => [
    await ask(side, { path: `${API}/job/fields` }),
    await ask(side, post(`${API}/job/add`, staleJob())),
    await ask(side, { path: `${API}/job/fields` }),
  ])
  await sameDay(t, p, 'after the writes', ONE, true)
  const saved = (await control(p.fast, '/__mock/state')).body

  // a month change: metrics are answered for the new month
  await onBoth(t, p, '/__mock/clock/advance', 'POST', { seconds: 9 * 86_400 })
  await same(t, p, 'the reads nine days on, the month changed', (side) => readAll(side, urls))
  await onBoth(t, p, '/__mock/clock/set', 'POST', { now: '2027-01-01 00:00:01' })
  await same(t, p, 'metrics in a new year, twice, pipelined', (side) => readPipelined(side, [`${API}/metrics/list`, `${API}/metrics/list`]))
  await sameDay(t, p, 'after the month changed', ONE)

  // a reset, and the saved state imported: other stores, answered the same
  await onBoth(t, p, '/__mock/reset', 'POST', { seed: 7 })
  await same(t, p, 'the reads after a reset to another seed', (side) => readAll(side, reads(side.app)))
  await sameDay(t, p, 'after a reset', ONE, true)
  await onBoth(t, p, '/__mock/state', 'PUT', saved)
  await same(t, p, 'the reads after the saved state is imported', async (side) => [...(await readAll(side, reads(side.app))), await readPipelined(side, reads(side.app))])
  await sameDay(t, p, 'after an import', ONE, true)
  await onBoth(t, p, '/__mock/requests', 'DELETE')
  await same(t, p, 'the reads after the journal is emptied', (side) => readAll(side, urls, 1))
  await sameDay(t, p, 'after the journal is emptied', ONE, true)
  servedInFront(t, p)
})

for (const counts of ['all', 'success'] as const) {
t.test(`two users of one board hitting the rate limit (counting ${counts} answers), across window boundaries, look the same with the fast path as without it`, async (t) => {
  const users = { jobboard: basic(), second: SECOND }
  const p = await pair(t, { scenarioData: twoUsers({ rateLimitCounts: counts }), rateLimitWindow: 60 })
  const urls = reads(p.fast.app).slice(0, 8)
  const scope = ONE
  /** Each user asks each URL `times` times on the connections in turn. */
  const round = (times: number) => async (side: Side) => {
    const answers: Answer[] = []
    for (let i = 0; i < times; i++) for (const url of urls) for (const authorization of Object.values(users)) answers.push(await ask(side, { path: url, headers: { Authorization: authorization } }))
    return answers
  }
  const first = await same(t, p, 'each user asks each URL three times: a 200, then 429s', round(3))
  t.ok(first.some((answer) => answer.status === 429), 'the rate limit refused some')
  await same(t, p, 'the same pipelined for one user: every answer a 429', (side) => readPipelined(side, urls))
  await sameDay(t, p, 'in the first window', scope)
  for (const [seconds, when] of [
    [20, 'twenty seconds on: a shorter Retry-After'],
    [39, 'a second before the windows close'],
    [1, 'the windows closed: a 200 each, then 429s'],
    [59, 'the next window, nearly over'],
    [61, 'two windows on'],
  ] as const) {
    await onBoth(t, p, '/__mock/clock/advance', 'POST', { seconds })
    await same(t, p, when, round(2))
    await same(t, p, `${when}, pipelined`, (side) => readPipelined(side, urls.slice(0, 3), { Authorization: users.second }))
    await sameDay(t, p, when, scope)
  }
  await onBoth(t, p, '/__mock/rate-limits', 'DELETE')
  await same(t, p, 'the windows closed through the control API', round(2))
  await onBoth(t, p, '/__mock/reset', 'POST', { seed: 7 })
  await same(t, p, 'after a reset to another seed', round(2))
  await sameDay(t, p, 'after the reset', scope, true)
  servedInFront(t, p)
})
}

t.test('a fake of several accounts, each asked by its user, one unknown and one written to, looks the same with the fast path as without it', async (t) => {
  const accounts = [
    { name: 'worker-1', password: 'one' },
    { name: 'worker-2', password: 'two' },
    { name: 'worker-3', password: 'three', seed: 99 },
  ]
  const p = await pair(t, { accounts, rateLimitWindow: 60 })
  const urls = reads(p.fast.app).filter((url) => !/resume|document/.test(url))
  const as = (name: string, password: string) => ({ Authorization: basic(name, password) })
  const everyone = async (side: Side) => {
    const answers: Answer[] = []
    for (const { name, password } of accounts) for (const url of urls) answers.push(await ask(side, { path: url, headers: as(name, password) }))
    answers.push(await ask(side, { path: urls[0] as string, headers: as('worker-9', 'nine') }))
    answers.push(await ask(side, { path: urls[0] as string, headers: as('worker-1', 'two') }))
    answers.push(await ask(side, { path: urls[0] as string, headers: as('jobboard', 'jobboard') }))
    answers.push(await ask(side, { path: urls[0] as string, headers: { Authorization: undefined } }))
    return answers
  }
  const scope = { accounts: accounts.map((account) => account.name), users: accounts.map((account) => account.name) }
  await same(t, p, 'each account asked each read, an unknown account, a wrong password', everyone)
  await same(t, p, 'the same again in the window: 429s', everyone)
  await same(t, p, "one account's reads pipelined", (side) => readPipelined(side, urls, as('worker-2', 'two')))
  await sameDay(t, p, 'in the first window', scope)
  await onBoth(t, p, '/__mock/accounts/worker-2/clock/advance', 'POST', { seconds: 60 })
  await same(t, p, "after one account's clock moved past its windows", everyone)
  await sameDay(t, p, "after one account's clock moved", scope)
  await onBoth(t, p, '/__mock/accounts/worker-1/clock/advance', 'POST', { seconds: 60 })
  await onBoth(t, p, '/__mock/accounts/worker-3/clock/advance', 'POST', { seconds: 60 })
  await same(t, p, 'a job added to one account over the API', (side) => ask(side, post(`${API}/job/add`, jobInputSample(), as('worker-3', 'three'))))
  await onBoth(t, p, '/__mock/accounts/worker-1/candidates', 'POST', { name: 'Ada Lovelace' })
  await same(t, p, 'the reads after writes to two accounts', everyone)
  await onBoth(t, p, '/__mock/accounts/worker-2/faults', 'POST', { path: `${API}/metrics/list`, status: 500 })
  for (const name of ['worker-1', 'worker-2', 'worker-3']) await onBoth(t, p, `/__mock/accounts/${name}/clock/advance`, 'POST', { seconds: 60 })
  await same(t, p, 'the reads with a fault armed on one account', everyone)
  await onBoth(t, p, '/__mock/accounts/worker-1/reset', 'POST', {})
  for (const name of ['worker-1', 'worker-2', 'worker-3']) await onBoth(t, p, `/__mock/accounts/${name}/clock/advance`, 'POST', { seconds: 60 })
  await same(t, p, 'the reads after one account was reset', everyone)
  await sameDay(t, p, 'after writes, a fault and a reset', scope, true)
  servedInFront(t, p)
})

t.test("a day of the board's own events (an activity: outages, new records, changed job fields) looks the same with the fast path as without it", async (t) => {
  const p = await pair(t, { activity: 'bad-day' })
  const urls = reads(p.fast.app)
  const start = p.fast.app.board.clock.now()
  // times after the start (minutes): in the candidates list's outage, past its slow spell (2:20-2:30: 10 s holds), the job fields changed, the burst, the second outage, the end
  for (const minutes of [110, 125, 155, 190, 245, 365, 600]) {
    const to = formatTimestamp(start + minutes * 60_000)
    await onBoth(t, p, '/__mock/clock/set', 'POST', { now: to })
    await same(t, p, `the reads at ${to}`, (side) => readAll(side, urls, 1))
    await same(t, p, `the reads at ${to}, pipelined`, (side) => readPipelined(side, urls))
    await same(t, p, `a stale job/add at ${to}, twice`, async (side) => [await ask(side, post(`${API}/job/add`, staleJob())), await ask(side, post(`${API}/job/add`, staleJob()))])
    await sameDay(t, p, `at ${to}`, ONE, minutes === 600)
  }
  servedInFront(t, p)
})

t.test('a fake closing while a request is in flight answers and records the same with the fast path as without it', async (t) => {
  const p = await pair(t)
  const urls = reads(p.fast.app).slice(0, 6)
  await same(t, p, 'the reads, kept', (side) => readAll(side, urls))
  await onBoth(t, p, '/__mock/faults', 'POST', { path: `${API}/candidates/details/2`, delayMs: 2_000 })
  const closing = async (side: Side) => {
    // a request held by its delay, kept answers pipelined behind it, and one more written on that connection once close() began;
    // another connection answered and idle; a request on the kept-alive agent after close() began
    const held = connection(side.port)
    held.write([raw('GET', `${API}/candidates/details/2`), ...urls.map((url) => raw('GET', url))].join(''))
    const idle = connection(side.port)
    idle.write(raw('GET', urls[0] as string))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const closed = side.app.close()
    // once close() has begun (the server stops listening in it): the fake is closing
    while (side.app.server.listening) await new Promise((resolve) => setImmediate(resolve))
    held.write(raw('GET', urls[1] as string))
    const late = await ask(side, { path: urls[0] as string })
    await closed
    return { held: await held.closed, idle: await idle.closed, late: late.status }
  }
  await same(t, p, 'a held request and kept answers behind it, the fake closed meanwhile', closing)
  const inProcess = (side: Side) => ({ requests: side.app.controller.requests(), verdict: side.app.controller.verdict(), windows: side.app.controller.rateLimits() })
  t.strictSame(inProcess(p.fast), inProcess(p.slow), 'the journal, the verdict and the windows in-process after the close')
  servedInFront(t, p)
})
