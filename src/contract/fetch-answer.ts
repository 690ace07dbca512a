// One request of the kit over the wire (src/contract/http.ts's client sends each through
// here once it may go): undici's fetch through the deployment's dispatcher (dispatcherOf:
// straight, or through the environment's proxies), its body read whole (what came, when the
// connection closed early), made an Answer as it came, held to the wire's rules once
// (wire.ts), its quote redacted; no answer (refused, reset, timed out) is Unavailable.
// Each answer's field lines are counted as the connection gave them (hearing): fetch joins
// a field's lines into one value. An answer that came but whose framing the client cannot
// take (a Content-Length sent twice, or no number: the parser refuses its head) is
// Unavailable, saying so (`framing`): an outage of the checks that needed it, and a break
// of the Content-Length rule the every-answer check reports.
import { Buffer } from 'node:buffer'
import { Agent, EnvHttpProxyAgent, fetch, type Dispatcher } from 'undici'
import type { Redactor } from './redact.js'
import type { Answer, Unavailable } from './request-outcomes.js'
import type { ContractSettings } from './settings.js'
import { lenientJson, wireProblems } from './wire.js'

/** How much of a body is redacted for quoting: far more than an excerpt keeps, so whitespace folded away still leaves enough. */
const SHOWN_BYTES = 64 * 1024

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
  return cause?.message ?? (error as Error).message ?? String(error)
}

/**
 * How the kit reaches the deployment: straight, or through the proxies the environment
 * names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, with undici's EnvHttpProxyAgent). TLS is
 * verified against the system CAs and NODE_EXTRA_CA_CERTS (Node's default store) unless
 * --insecure says not to.
 */
export function dispatcherOf(settings: Pick<ContractSettings, 'insecure' | 'network'>): Dispatcher {
  const tls = { rejectUnauthorized: !settings.insecure }
  const network = settings.network ?? {}
  if (network.httpsProxy === undefined && network.httpProxy === undefined) return new Agent({ connect: tls })
  // without a proxy variable set, EnvHttpProxyAgent would read the process's own: the settings already did
  const options = { httpsProxy: network.httpsProxy ?? network.httpProxy, httpProxy: network.httpProxy ?? '', noProxy: network.noProxy ?? '', connect: tls, requestTls: tls, proxyTls: tls }
  // undici 6 marks the agent experimental with a process warning: the kit names its proxy itself
  const warn = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const code = (rest[0] as { code?: string } | undefined)?.code
    if (code !== 'UNDICI-EHPA') (warn as (...args: unknown[]) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return new EnvHttpProxyAgent(options)
  } finally {
    process.emitWarning = warn
  }
}

/** A request as it goes out: its Authorization made (request-credentials.ts), its JSON body or a GET's Content-Type. */
export interface OutgoingRequest {
  readonly method: string
  readonly url: string
  readonly authorization: string | undefined
  readonly body?: unknown
  readonly contentType?: string
  /** The run's stop; undefined for a request not cut short when the run is interrupted (cleanup's delete). */
  readonly run: AbortSignal | undefined
}

/** What the client sends through: the dispatcher, the time-out, the redactor of quotes, and the API's paths (for the wire's rules). */
export interface Wire {
  readonly dispatcher: Dispatcher
  /** --request-timeout, seconds. */
  readonly requestTimeout: number
  readonly redact: Redactor
  readonly apiPath: (url: string) => string | undefined
}

/** The field lines of an answer's head, as the connection gave them (undici's raw headers), lower-cased names. */
interface Heard {
  lines: Array<[name: string, value: string]>
}

/**
 * The dispatcher that hears each answer's field lines into `heard` on their way to fetch
 * (each call of the handler passed on as a method of it: fetch's handler keeps its state
 * in `this`). A 1xx head, if one reaches here, is replaced by the final one.
 */
function hearing(dispatcher: Dispatcher, heard: Heard): Dispatcher {
  const listen = (handler: Dispatcher.DispatchHandlers): Dispatcher.DispatchHandlers => ({
    onConnect: (abort) => handler.onConnect?.(abort),
    onError: (error) => handler.onError?.(error),
    onUpgrade: (status, headers, socket) => handler.onUpgrade?.(status, headers, socket),
    onResponseStarted: () => handler.onResponseStarted?.(),
    onHeaders: (status, raw, resume, text) => {
      heard.lines = []
      for (let i = 0; i + 1 < raw.length; i += 2) heard.lines.push([String(raw[i]).toLowerCase(), String(raw[i + 1])])
      return handler.onHeaders?.(status, raw, resume, text) ?? true
    },
    onData: (chunk) => handler.onData?.(chunk) ?? true,
    onComplete: (trailers) => handler.onComplete?.(trailers),
    onBodySent: (chunk, total) => handler.onBodySent?.(chunk, total),
  })
  return dispatcher.compose((dispatch) => (options, handler) => dispatch(options, listen(handler)))
}

/**
 * The client's errors for an answer whose head came but whose Content-Length it cannot
 * frame the body by: no number (llhttp's HPE_INVALID_CONTENT_LENGTH), sent twice or beside
 * a Transfer-Encoding (HPE_UNEXPECTED_CONTENT_LENGTH), not the bytes that came (undici's
 * UND_ERR_RES_CONTENT_LENGTH_MISMATCH, which is also what two equal lines come out as).
 */
const FRAMING = new Set(['HPE_INVALID_CONTENT_LENGTH', 'HPE_UNEXPECTED_CONTENT_LENGTH', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'])

/** How many field lines each header came on. */
const countLines = (lines: Heard['lines']): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const [name] of lines) counts[name] = (counts[name] ?? 0) + 1
  return counts
}

/** Sends one request and reads its answer whole; Unavailable when none came (or the run was interrupted). */
export async function fetchAnswer(request: OutgoingRequest, how: Wire): Promise<Answer | Unavailable> {
  const { method, url, run } = request
  // identity: a download's bytes must be compared with its Content-Length as sent
  const headers: Record<string, string> = { accept: 'application/json, */*', 'accept-encoding': 'identity' }
  if (request.authorization !== undefined) headers.authorization = request.authorization
  let body: string | undefined
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(request.body)
  } else if (request.contentType !== undefined) headers['content-type'] = request.contentType
  const timeout = AbortSignal.timeout(how.requestTimeout * 1000)
  const signal = run ? AbortSignal.any([run, timeout]) : timeout
  const heard: Heard = { lines: [] }
  let response: Awaited<ReturnType<typeof fetch>>
  try {
    response = await fetch(url, { method, headers, body, redirect: 'manual', signal, dispatcher: hearing(how.dispatcher, heard) })
  } catch (error) {
    const aborted = run?.aborted === true
    return {
      kind: 'unavailable',
      method,
      url,
      cause: aborted ? 'aborted' : timeout.aborted ? 'timeout' : 'network',
      reason: aborted ? 'the run was interrupted' : timeout.aborted ? `no answer within --request-timeout ${how.requestTimeout} s` : `no answer: ${describeNetworkError(error)}`,
      ...(!aborted && !timeout.aborted && FRAMING.has(String((error as { cause?: { code?: unknown } }).cause?.code)) ? { framing: describeNetworkError(error) } : {}),
    }
  }
  const chunks: Uint8Array[] = []
  let truncated: string | undefined
  if (response.body) {
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        chunks.push(value)
      }
    } catch (error) {
      // a body shorter than its Content-Length ends in a closed connection: keep what came
      truncated = describeNetworkError(error)
    }
  }
  return answerOf({ method, url, status: response.status, headers: Object.fromEntries(response.headers), lines: countLines(heard.lines), bytes: Buffer.concat(chunks), truncated }, how)
}

/** An answer as it came, made an Answer: its JSON read leniently, held to the wire's rules once, its quote redacted. */
function answerOf(came: Pick<Answer, 'method' | 'url' | 'status' | 'headers' | 'bytes' | 'truncated'> & { lines: Record<string, number> }, how: Wire): Answer {
  const { bytes, status, headers, truncated, lines } = came
  const text = bytes.toString('utf8')
  // the checks read what came; only the quote is redacted, before anything cuts it
  return {
    kind: 'answer',
    method: came.method,
    url: came.url,
    status,
    headers,
    lines,
    bytes,
    truncated,
    json: lenientJson(bytes),
    // every answer is held to the wire's rules once, here, before any check reads it
    wire: wireProblems({ status, headers, bytes, truncated, lines }, how.apiPath(came.url)),
    text,
    shown: how.redact.text(text.slice(0, SHOWN_BYTES)),
  }
}
