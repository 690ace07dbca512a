// One request passed through to the upstream and its answer back, on node:http (the
// kit's own server stack, Fastify's too): the request's method, path, query, headers
// (their names' case and order) and body go upstream as sent; the answer's status line,
// headers and body come back as they came, streamed. What changes, and why:
// - the Host header names the upstream, and the hop-by-hop headers of RFC 9110 §7.6.1
//   (Connection and those it names, Keep-Alive, Proxy-Connection, TE, Trailer,
//   Transfer-Encoding, Upgrade) belong to each connection, not to the message;
// - the upstream's base in answer links becomes the proxy's (link-rewrite.ts), unless
//   --keep-links: a JSON answer is held whole (up to --check-bytes) to do it, and to be
//   checked; a download, or anything longer, streams through in constant memory.
// A fault of the upstream (unreachable, refusing TLS, silent past --upstream-timeout, a
// dropped connection) is the proxy's own answer, 502 or 504 JSON {status, message}
// naming the cause, never a hang; once an answer has begun, a fault cuts the client's
// connection short, as the upstream's was. A client that goes away ends the upstream
// request.
import { type Agent as HttpAgent, type IncomingMessage, request as httpRequest, type OutgoingHttpHeaders, type ServerResponse } from 'node:http'
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { isUtf8 } from 'node:buffer'
import { pipeline } from 'node:stream'
import { TEXT_TYPE } from '../watch/exchange.js'
import type { AnswerMemo, KeptAnswer } from './answer-memo.js'
import type { LinkRewriter } from './link-rewrite.js'

/** Headers of one connection, never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** An origin of printable ASCII alone: as many bytes in UTF-8 as characters. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** Bytes of a streamed body's start kept for the checks (whether it reads as JSON). */
const HEAD_BYTES = 4096

const pastBound = (bytes: number) => `the answer is longer than ${bytes} bytes (--check-bytes): streamed through as it came, links not rewritten, checked by its headers and length`

/** What the upstream is: where to send, and how. */
export interface Upstream {
  readonly protocol: 'http:' | 'https:'
  readonly hostname: string
  readonly port: number
  /** Host as the upstream's Host header names it. */
  readonly host: string
  /** The path the API lives under at the upstream ('' or `/staging`): prefixed to each request's path. */
  readonly basePath: string
  /** Origin and base path: what link-rewrite.ts rewrites. */
  readonly base: string
  readonly agent: HttpAgent | HttpsAgent
}

/** Why the proxy answered itself: the upstream could not be reached, refused TLS, went silent or dropped the connection. */
export type FaultCause = 'unreachable' | 'tls' | 'timeout' | 'dropped'

/** What happened to one request, for the journal, the checks and the log. */
export interface Passed {
  status: number
  /** The answer's headers as the upstream sent them (names in lower case, a field's lines joined by ", "), before any rewrite. */
  headers: Record<string, string>
  /** How many field lines each of them came on (undefined when the proxy answered itself). */
  lines: Record<string, number> | undefined
  /** The raw header list sent to the client (undefined when the proxy answered itself). */
  sentHeaders: Record<string, string | string[]> | undefined
  /** The body as the upstream sent it, when held whole. */
  bytes: Buffer | undefined
  /** What the proxy made of the same answer before (answer-memo.ts), or of this one, to be kept: held whole answers only. */
  kept: KeptAnswer | undefined
  /** The first bytes of a body streamed through (what the checks can read of it). */
  head: Buffer | undefined
  /** The body as the client got it: `bytes`, or the text its links were rewritten in. */
  sent: Buffer | string | undefined
  /** Its size in bytes (0 while there is none). */
  sentBytes: number
  /** `bytes` read as UTF-8 (when they are UTF-8; a leading BOM dropped), when the link rewrite read them: the checks read it rather than decode it again. */
  text: string | undefined
  /** Bytes of the body that came from the upstream. */
  received: number
  /** Why the body ended early, if it did. */
  truncated: string | undefined
  /** What the proxy did beside passing on, in words (a fault, a bound, a client that left). */
  notes: string[]
  /** The proxy's own answer to a fault of the upstream. */
  fault: FaultCause | undefined
  /** The request's body as sent, when held (up to the bound). */
  requestBody: Buffer | undefined
  requestBytes: number
}

export interface ForwardOptions {
  upstream: Upstream
  links: LinkRewriter | undefined
  timeoutMs: number
  /** Bytes of a JSON answer (and of a request body) held at most. */
  holdBytes: number
  /** Whether the request's path is a download's (never held). */
  download: boolean
  /** Where an answer held whole is looked up, and kept (answer-memo.ts). */
  memo?: AnswerMemo
  /** Called once the request went upstream (it left: counted). */
  sent?: () => void
  done: (passed: Passed) => void
}

/** The header list to send upstream: as sent, but for Host and the hop-by-hop headers. */
function upstreamHeaders(raw: readonly string[], host: string): string[] {
  const connection = new Set<string>()
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === 'connection') for (const name of (raw[i + 1] as string).split(',')) connection.add(name.trim().toLowerCase())
  }
  const out: string[] = ['Host', host]
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    if (name === 'host' || name === 'expect' || HOP_BY_HOP.has(name) || connection.has(name)) continue
    out.push(raw[i] as string, raw[i + 1] as string)
  }
  return out
}

/** The answer's headers for the client: as they came, but the hop-by-hop ones, Location rewritten. */
function answerHeaders(raw: readonly string[], rewrite: ((location: string) => string) | undefined): { list: string[]; byName: Record<string, string>; lines: Record<string, number> } {
  const connection = new Set<string>()
  const byName: Record<string, string> = {}
  const lines: Record<string, number> = {}
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    const value = raw[i + 1] as string
    byName[name] = byName[name] === undefined ? value : `${byName[name]}, ${value}`
    lines[name] = (lines[name] ?? 0) + 1
    if (name === 'connection') for (const named of value.split(',')) connection.add(named.trim().toLowerCase())
  }
  const list: string[] = []
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    if ((HOP_BY_HOP.has(name) && name !== 'transfer-encoding') || connection.has(name)) continue
    const value = raw[i + 1] as string
    list.push(raw[i] as string, name === 'location' && rewrite ? rewrite(value) : value)
  }
  return { list, byName, lines }
}

/** The cause of an error of the upstream request, and the message the client gets. */
export function faultOf(error: NodeJS.ErrnoException & { faultCause?: FaultCause }, upstream: Upstream, timeoutMs: number): { cause: FaultCause; status: 502 | 504; message: string } {
  const code = error.code ?? ''
  const where = `${upstream.protocol}//${upstream.host}`
  if (error.faultCause === 'timeout' || code === 'ETIMEDOUT') {
    return { cause: 'timeout', status: 504, message: `The upstream ${where} did not answer within ${timeoutMs} ms (--upstream-timeout): the proxy gave up on it.` }
  }
  if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/.test(code)) {
    return { cause: 'unreachable', status: 502, message: `The upstream ${where} is unreachable (${code}): the proxy could not connect to it.` }
  }
  if (/CERT|TLS|SSL|EPROTO|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_OSSL/i.test(code) || /certificate|tls|ssl|wrong version number/i.test(error.message)) {
    return { cause: 'tls', status: 502, message: `The upstream ${where} refused TLS (${code || 'handshake failed'}): ${error.message.split('\n', 1)[0]}.` }
  }
  return { cause: 'dropped', status: 502, message: `The upstream ${where} dropped the connection before answering (${code || error.message}).` }
}

/** The proxy's own JSON answer to a fault. */
function answerFault(response: ServerResponse, status: number, message: string): Buffer {
  const body = Buffer.from(JSON.stringify({ status, message }))
  if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  response.end(body)
  return body
}

/** The first HEAD_BYTES of the chunks held so far. */
function headOf(chunks: readonly Buffer[]): Buffer {
  const start: Buffer[] = []
  let length = 0
  for (const chunk of chunks) {
    if (length >= HEAD_BYTES) break
    start.push(chunk.subarray(0, HEAD_BYTES - length))
    length += Math.min(chunk.length, HEAD_BYTES - length)
  }
  return Buffer.concat(start, length)
}

/** A raw header list as an object (names as sent; a repeated name's last value). */
function headerObject(list: readonly string[]): Record<string, string> {
  const object: Record<string, string> = {}
  for (let i = 0; i < list.length; i += 2) object[list[i] as string] = list[i + 1] as string
  return object
}

/** Whether a held body may be rewritten: text by its type (or none given), and valid UTF-8. */
function rewritable(type: string | undefined): boolean {
  return type === undefined || TEXT_TYPE.test(type)
}

export function forward(request: IncomingMessage, response: ServerResponse, options: ForwardOptions): void {
  const { upstream, timeoutMs, holdBytes } = options
  const passed: Passed = {
    status: 0,
    headers: {},
    lines: undefined,
    sentHeaders: undefined,
    bytes: undefined,
    kept: undefined,
    head: undefined,
    sent: undefined,
    sentBytes: 0,
    text: undefined,
    received: 0,
    truncated: undefined,
    notes: [],
    fault: undefined,
    requestBody: undefined,
    requestBytes: 0,
  }
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    options.done(passed)
  }
  const origin = `http://${request.headers.host ?? 'localhost'}`
  const rewriteLocation = options.links ? (value: string) => (options.links as LinkRewriter).location(value, origin) : undefined
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest
  const outgoing = send({
    protocol: upstream.protocol,
    hostname: upstream.hostname,
    port: upstream.port,
    method: request.method,
    path: `${upstream.basePath}${request.url ?? '/'}`,
    headers: upstreamHeaders(request.rawHeaders, upstream.host) as unknown as OutgoingHttpHeaders,
    agent: upstream.agent,
    timeout: timeoutMs,
  })
  options.sent?.()
  outgoing.on('timeout', () => {
    if (passed.status !== 0) passed.truncated ??= `the upstream went silent for ${timeoutMs} ms (--upstream-timeout) before the body ended`
    outgoing.destroy(Object.assign(new Error('timeout'), { faultCause: 'timeout' as const }))
  })

  // the client goes away: the upstream request ends with it
  response.on('close', () => {
    if (response.writableFinished) return
    if (!outgoing.destroyed) outgoing.destroy()
    if (passed.fault === undefined && passed.truncated === undefined) passed.notes.push('the client closed the connection before the answer ended: the upstream request was ended')
    finish()
  })

  // the request's body: passed on as it comes, its start held for the journal and the verdict
  const held: Buffer[] = []
  request.on('data', (chunk: Buffer) => {
    passed.requestBytes += chunk.length
    if (passed.requestBytes <= holdBytes) held.push(chunk)
  })
  request.on('end', () => {
    if (passed.requestBytes > 0 && passed.requestBytes <= holdBytes) passed.requestBody = Buffer.concat(held)
    else if (passed.requestBytes > holdBytes) passed.notes.push(`the request's body (${passed.requestBytes} bytes) was passed on but not held: more than ${holdBytes} bytes`)
  })
  request.pipe(outgoing)

  outgoing.on('error', (error: NodeJS.ErrnoException & { faultCause?: FaultCause }) => {
    if (finished) return
    if (passed.status !== 0 || response.headersSent) return
    if (response.destroyed) return finish()
    const fault = faultOf(error, upstream, timeoutMs)
    passed.fault = fault.cause
    passed.status = fault.status
    passed.notes.push(`proxy answered ${fault.status}: ${fault.message}`)
    passed.sent = answerFault(response, fault.status, fault.message)
    passed.sentBytes = passed.sent.length
    passed.headers = { 'content-type': 'application/json; charset=utf-8' }
    finish()
  })

  outgoing.on('response', (answer: IncomingMessage) => {
    passed.status = answer.statusCode ?? 0
    const { list, byName, lines } = answerHeaders(answer.rawHeaders, rewriteLocation)
    passed.headers = byName
    passed.lines = lines
    const declared = Number(byName['content-length'])
    const hold = request.method !== 'HEAD' && !options.download && !(Number.isFinite(declared) && declared > holdBytes)
    const chunks: Buffer[] = []
    let streaming = false
    const head = (headers: string[]) => {
      passed.sentHeaders = headerObject(headers)
      response.writeHead(passed.status, answer.statusMessage, headers)
    }
    const stream = (reason: string | undefined) => {
      streaming = true
      if (reason) passed.notes.push(reason)
      // the checks read a streamed body's start: what came before it streamed, the rest as it streams
      if (chunks.length > 0) passed.head = headOf(chunks)
      head(list)
      for (const chunk of chunks) response.write(chunk)
      chunks.length = 0
      pipeline(answer, response, (error) => {
        if (error && passed.truncated === undefined && !response.writableFinished) {
          passed.truncated = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && response.destroyed ? 'the client closed the connection' : 'the upstream closed the connection before the body ended'
          response.destroy()
        }
        finish()
      })
    }
    answer.on('data', (chunk: Buffer) => {
      if (streaming) {
        if (passed.received < HEAD_BYTES) passed.head = Buffer.concat([passed.head ?? Buffer.alloc(0), chunk.subarray(0, HEAD_BYTES - passed.received)])
        passed.received += chunk.length
        return
      }
      passed.received += chunk.length
      chunks.push(chunk)
      if (passed.received > holdBytes) {
        answer.pause()
        stream(pastBound(holdBytes))
        answer.resume()
      }
    })
    answer.on('error', () => {
      passed.truncated ??= 'the upstream closed the connection before the body ended'
    })
    answer.on('close', () => {
      if (streaming) return
      if (!answer.complete) {
        // cut short before it was passed on: the client is cut short too, as the upstream cut the proxy
        passed.truncated ??= 'the upstream closed the connection before the body ended'
        passed.bytes = Buffer.concat(chunks)
        head(list)
        response.end()
        response.destroy()
        return finish()
      }
    })
    if (!hold) return stream(options.download || request.method === 'HEAD' ? undefined : pastBound(holdBytes))
    answer.on('end', () => {
      if (streaming) return
      const memo = options.memo
      const key = memo?.key(request.method ?? 'GET', request.url ?? '/', origin, passed.status, byName, lines)
      // the same answer as before: its bytes as they were sent then, not decoded, rewritten and copied again
      const known = key === undefined ? undefined : memo?.find(key, chunks, passed.received)
      const bytes = known?.bytes ?? (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, passed.received))
      passed.bytes = bytes
      let sent: Buffer | string = known?.sent ?? bytes
      let sentBytes = known?.sentBytes ?? bytes.length
      // not UTF-8: passed on as it came; else read once (for the rewrite and the checks), and a
      // rewritten text sent as it is: node:http writes it into the socket as UTF-8 with the
      // header block, which cost the server 12 % less CPU than a Buffer made of it (issue 45:
      // a 17 KB page, new text each answer, 9 alternating rounds of wrk, twice). Its length in
      // bytes is counted from the change, not by reading the text again: the base and an
      // origin of printable ASCII are as many bytes as characters, so the text grows in bytes
      // by what it grows in characters
      if (known === undefined && options.links && rewritable(byName['content-type']) && isUtf8(bytes)) {
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
        const text = (bom === 0 ? bytes : bytes.subarray(bom)).toString('utf8')
        passed.text = text
        const rewritten = options.links.text(text, origin)
        if (rewritten !== text) {
          sent = rewritten
          sentBytes = PRINTABLE_ASCII.test(origin) ? bytes.length - bom + rewritten.length - text.length : Buffer.byteLength(rewritten)
        }
      }
      passed.kept = known ?? (key === undefined ? undefined : memo?.keep(key, bytes, sent, sentBytes))
      passed.sent = sent
      passed.sentBytes = sentBytes
      if (sent !== bytes) {
        // the rewritten body's own length, where the upstream gave one
        for (let i = 0; i < list.length; i += 2) if ((list[i] as string).toLowerCase() === 'content-length') list[i + 1] = String(sentBytes)
      }
      head(list)
      response.end(sent, finish)
    })
  })
}
