// The contract kit's test rig: the fake in process behind a small proxy that can break
// its answers (or its requests) the way a deviating deployment would, or answer in its
// stead (a gateway, a limiter, a strict server), and the kit run in process against it,
// its output and report kept for the assertions.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { KitClock } from '../../src/contract/kit-clock.js'
import type { ContractReport } from '../../src/contract/report.js'
import { runContract } from '../../src/contract/run.js'
import { resolveSettings, type ContractFlags } from '../../src/contract/settings.js'
import type { CheckResult } from '../../src/contract/suite.js'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import type { BuildOptions } from '../../src/fake/app.js'
import { checked, type Json } from '../helpers/board.js'
import { type OtherBoard, type OtherBoardOptions, startOtherBoard } from '../helpers/other-board.js'

export const CREDENTIALS = { username: 'jobboard', password: 'jobboard' }

/**
 * Credentials of every shape, for a deployment served under `basePath` (test/helpers/other-board.ts
 * takes it): a long password, a one-letter one (as in a quick local try), one that occurs in the
 * base URL (a staging path named like its password), and one the answers hold in their keys.
 */
export const CREDENTIAL_SHAPES = [
  // a colon, a slash, quotes and an ampersand: Basic splits at the first colon; JSON, URLs and XML escape the rest
  { shape: 'a long password', username: 'staging-sync', password: 'Tr0ub4dor:&"correct/horse"-battery-staple-2026', basePath: '' },
  { shape: 'a one-letter password', username: 'u', password: 'p', basePath: '' },
  { shape: 'a password that occurs in the base URL', username: 'jobboard', password: 'secret-stage', basePath: '/secret-stage' },
  // a word the answers hold in keys and values (created_at, updated_at, application_date)
  { shape: 'a password that occurs in the keys of the answers', username: 'jobboard', password: 'date', basePath: '' },
] as const
export const AUTHORIZATION = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`

export interface Exchange {
  method: string
  /** Path and query as the kit sent them. */
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface Reply {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** Send Content-Length as it stands, not the body's length (a broken length). */
  keepLength?: boolean
  /** Close the connection once the body is written. */
  cut?: boolean
}

export interface Breakage {
  /** Answers in the fake's stead (a gateway, a limiter, a strict server); undefined lets the request through. */
  answer?: (exchange: Exchange) => Reply | 'hang' | 'reset' | undefined | Promise<Reply | 'hang' | 'reset' | undefined>
  /** Changes a request before the fake sees it. */
  request?: (exchange: Exchange) => Exchange | Promise<Exchange>
  /** Changes an answer before the kit sees it. */
  reply?: (exchange: Exchange, reply: Reply) => Reply | Promise<Reply>
}

/** A 200 reply whose JSON body `change` rewrites (in place or by returning a new value); other replies as they are. */
export function json(reply: Reply, change: (body: Json) => unknown): Reply {
  if (reply.status !== 200 || !/json/.test(reply.headers['content-type'] ?? '')) return reply
  const body = JSON.parse(reply.body.toString('utf8')) as unknown
  const changed = change(body) ?? body
  return { ...reply, body: Buffer.from(JSON.stringify(changed)) }
}

/** Rewrites the JSON of the 200 answers of one API path. */
export const changeJson = (pattern: RegExp, change: (body: Json) => unknown): Breakage => ({
  reply: (exchange, reply) => (on(exchange, pattern) ? json(reply, change) : reply),
})

/** Changes the 200 answers of one API path, whatever their body. */
export const changeAnswer = (pattern: RegExp, change: (reply: Reply) => Reply): Breakage => ({
  reply: (exchange, reply) => (on(exchange, pattern) && reply.status === 200 ? change(reply) : reply),
})

/** Takes a header out of the answers of one API path (every path by default). */
export const dropHeader = (name: string, pattern = /./): Breakage => ({
  reply: (exchange, reply) => {
    if (!on(exchange, pattern)) return reply
    const { [name]: _gone, ...headers } = reply.headers
    return { ...reply, headers }
  },
})

const path = (exchange: Exchange) => exchange.url.split('?')[0] as string
/** Whether the exchange is for this API path (without /api/v1), query ignored. */
export const on = (exchange: Exchange, pattern: RegExp) => pattern.test(path(exchange).replace(/^\/api\/v1/, ''))

function send(response: ServerResponse, reply: Reply): void {
  if (!reply.keepLength) reply.headers['content-length'] = String(reply.body.length)
  response.writeHead(reply.status, reply.headers)
  if (reply.cut) response.write(reply.body, () => response.destroy())
  else response.end(reply.body)
}

/** A JSON reply of the server's own. */
export const jsonReply = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: Buffer.from(JSON.stringify(body)),
})

/** A limiter of its own (by full request, a window longer than any run), whose 429 carries `headers`: for a deployment whose upstream limits nothing. */
export function limiter(headers: Record<string, string>): Breakage {
  const seen = new Set<string>()
  return {
    answer: (x) => {
      if (!x.url.startsWith('/api/v1/')) return undefined
      if (!seen.has(x.url)) {
        seen.add(x.url)
        return undefined
      }
      return jsonReply(429, { status: 429, message: 'Too many requests' }, headers)
    },
  }
}

/** The fake, seen through a proxy that breaks it as told. Answers the proxy's URL. */
export async function board(t: Test, breakage: Breakage = {}, options: BuildOptions = {}): Promise<{ url: string; fake: MockServer }> {
  let fake: MockServer | undefined
  const url = await proxyTo(t, breakage, () => (fake as MockServer).url, undefined, (exchange) => injected(fake as MockServer, exchange))
  fake = await createMockServer({ clock: 'virtual', port: 0, publicBaseUrl: url, ...checked(t), ...options })
  await fake.listen(0)
  t.teardown(() => fake?.close())
  return { url, fake }
}

/** The request headers the test proxy passes on to its upstream. */
function passedOn(exchange: Exchange): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const name of ['authorization', 'content-type', 'accept']) {
    const value = exchange.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  return headers
}

/** The answer headers it does not pass back: the connection's own, and Date (Node's server sends its own). */
const HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', 'date']

/**
 * The fake's answer to a request the proxy forwards, in process (its inject) rather than
 * over a second socket: the kit still meets the proxy over HTTP, and the fake answers as it
 * would over its own socket — an armed fault that drops the connection or cuts the body
 * short (over a socket the proxy met it as a connection gone before any answer) is a
 * connection gone here too (src/fake/nock.ts reads the same marks). A second HTTP hop per
 * request was some 5 % of `npm test`'s CPU.
 */
async function injected(fake: MockServer, exchange: Exchange): Promise<Reply | 'reset'> {
  const answer = await fake.inject({ method: exchange.method as 'GET', url: exchange.url, headers: passedOn(exchange), ...(exchange.method === 'GET' ? {} : { payload: exchange.body }) })
  if (answer.headers['x-jobboard-kit-fault'] !== undefined) return 'reset'
  const replyHeaders: Record<string, string> = {}
  // in the order a fetch's Headers gives them (by name), as the proxy passed them on over HTTP
  for (const [name, value] of Object.entries(answer.headers).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    if (value !== undefined && !HOP_HEADERS.includes(name)) replyHeaders[name] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return { status: answer.statusCode, headers: replyHeaders, body: answer.rawPayload }
}

/** The second server (test/helpers/other-board.ts), seen through the same proxy, its own origin in its answers rewritten to the proxy's. */
export async function otherBoard(t: Test, breakage: Breakage, options: OtherBoardOptions): Promise<{ url: string; board: OtherBoard }> {
  const other = await startOtherBoard(options)
  t.teardown(() => other.close())
  const url = await proxyTo(t, breakage, () => other.url, new URL(other.url).origin)
  return { url: `${url}${options.basePath ?? ''}`, board: other }
}

/**
 * A proxy in front of `upstream`, breaking it as told; `origin`, the upstream's own origin,
 * is rewritten to the proxy's in its JSON and text answers (links, next_page, public
 * pages), as a gateway in front of a deployment would. Answers the proxy's URL.
 */
export async function proxyTo(t: Test, breakage: Breakage, upstream: () => string, origin?: string, inProcess?: (exchange: Exchange) => Promise<Reply | 'reset'>): Promise<string> {
  const proxy = createServer((request, response) => {
    // a request the fake cannot answer (it is closing) ends the connection, as a dead upstream would
    forward(request, response).catch(() => response.destroy())
  })
  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    let exchange: Exchange = { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks) }
    if (breakage.request) exchange = await breakage.request(exchange)
    const own = breakage.answer ? await breakage.answer(exchange) : undefined
    if (own === 'hang') return
    if (own === 'reset') return void response.destroy()
    if (own) return send(response, own)
    if (inProcess !== undefined) {
      const reply = await inProcess(exchange)
      if (reply === 'reset') return void response.destroy()
      return send(response, breakage.reply ? await breakage.reply(exchange, reply) : reply)
    }
    const headers: Record<string, string> = { 'accept-encoding': 'identity', ...passedOn(exchange) }
    const answer = await fetch(`${new URL(upstream()).origin}${exchange.url}`, {
      method: exchange.method,
      headers,
      body: exchange.method === 'GET' ? undefined : exchange.body,
      redirect: 'manual',
    })
    const replyHeaders = Object.fromEntries(answer.headers)
    for (const hop of HOP_HEADERS) delete replyHeaders[hop]
    let reply: Reply = { status: answer.status, headers: replyHeaders, body: Buffer.from(await answer.arrayBuffer()) }
    if (origin !== undefined && /json|text/.test(replyHeaders['content-type'] ?? '')) {
      const text = reply.body.toString('utf8')
      reply = { ...reply, body: Buffer.from(text.replaceAll(origin, url).replaceAll(origin.replaceAll('/', '\\/'), url.replaceAll('/', '\\/'))) }
    }
    if (breakage.reply) reply = await breakage.reply(exchange, reply)
    send(response, reply)
  }
  // Node's 5 s keep-alive races the kit's reuse of an idle connection on a loaded machine (a POST
  // then meets ECONNRESET: an outage the deployment did not have); a staging gateway keeps them for a minute
  proxy.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  t.teardown(async () => {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  })
  return url
}

export interface KitRun {
  exitCode: number
  reason: string | undefined
  report: ContractReport
  output: string
  check(endpoint: string, name: string): CheckResult | undefined
  failed(): string[]
}

/** The kit in process, as `contract` runs it, with the fake's credentials unless told otherwise. */
export async function contract(flags: ContractFlags, io: { clock?: KitClock; signal?: AbortSignal } = {}): Promise<KitRun> {
  const settings = resolveSettings({ ...CREDENTIALS, ...flags })
  let output = ''
  const sink = { write: (text: string) => (output += text) }
  const result = await runContract(settings, { stdout: sink, stderr: sink, ...io })
  const report = result.report as ContractReport
  return {
    exitCode: result.exitCode,
    reason: result.reason,
    report,
    output,
    check: (endpoint, name) => report.checks.find((c) => c.endpoint === endpoint && c.name === name),
    failed: () => report.checks.filter((c) => c.status === 'fail').map((c) => `${c.endpoint}: ${c.name}`),
  }
}

/** A clock that only moves when the kit sleeps or the test says so: waits cost no time. */
export function steppingClock(start = Date.UTC(2026, 10, 22, 9, 30)): KitClock & { advance(seconds: number): void } {
  let now = start
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms
    },
    advance: (seconds) => {
      now += seconds * 1000
    },
  }
}
