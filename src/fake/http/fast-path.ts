// The fast path: answers a request whose answer is already kept as bytes in front of
// Fastify, on the server's raw (request, response), and hands every other request to
// Fastify unchanged. What it sends and records is what Fastify's path sends and records
// for that request (the same status line, headers in the same order, body; the same
// rate-limit window, journal entry and verdict facts): only the per-request work of
// Fastify's request and reply objects, its hooks and route lookup is left out.
//
// It serves a GET under /api/v1 that carries a Host, Basic credentials this board's
// check already accepted (basic-auth.ts remembers them), no Prefer and no body, on a board
// with no fault armed, while the fake is not closing, when the URL as sent was answered
// before through a route whose answers are kept (answers.ts, its index by URL) and that
// answer still holds: then the 200 as kept; or, when the rate limit refuses it, the 429
// the slow path sent before for the same Retry-After on the same scenario (kept here).
// A POST job/add (no rate limit on, a body of at most 16 KiB with a Content-Length) whose
// body text Fastify refused with a 412 before, on the same store at the same revision, is
// looked at on the next tick, once Node has parsed its body: when the whole body is there
// and is that text, the kept 412 is sent; else its bytes are put back unread and the
// request goes to Fastify as it came.
// Anything else (a miss, a first refusal, any doubt) goes to Fastify, which fills what
// the fast path reads next time: with the request's context as the fast path left it
// (src/fake/http/request-context.ts: its board looked up and its day caught up, not done again).
// A fake with a request log, a response check, Fastify's JSON logger or trustProxy has no
// fast path (buildApp, option fastPath).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { Board } from '../board/board.js'
import { hostOrigin } from './origin.js'
import { API_PREFIX } from '../store/record-links.js'
import { type AnswerCache, urlKey } from './answers.js'
import { boardOf, catchUp, contextOf, type KeptRefusals, type RequestContext } from './request-context.js'
import type { Auth } from './basic-auth.js'
import type { AnswerHeaders, ConstrainedLists } from '../../watch/exchange.js'
import { type KeptAnswer, keptWrite, type RequestJournal } from './request-journal.js'
import { requestKey } from '../board/windows.js'

const API_PATH = `${API_PREFIX}/`
const JOB_ADD = `${API_PREFIX}/job/add`
/** Refusals kept per scenario: one per Retry-After value seen, at most (emptied whole past it). */
export const MAX_KEPT_REFUSALS = 64
/** job/add bodies whose 412 is kept per scenario, at most (emptied whole past it), and the largest such body, in bytes. */
export const MAX_KEPT_BODIES = 64
export const MAX_KEPT_BODY = 16 * 1024

/** A refusal as the slow path sent it: what the fast path writes again. */
interface KeptRefusal extends KeptAnswer {
  readonly head: readonly string[]
  readonly bytes: Buffer
}

/** A job/add body refused: for the store scope and revision, and the Content-Type, it was refused at. */
interface KeptBodyRefusal extends KeptRefusal {
  readonly scope: object
  readonly revision: number
  readonly contentType: string
}

export interface FastPath extends KeptRefusals {
  /**
   * Answers the request and says true, or says false and leaves it untouched for Fastify.
   * A job/add whose body may be one refused before is taken (true) and looked at once its
   * body is parsed (the next tick): answered, or given to `fallback` with its body unread.
   */
  answer(raw: IncomingMessage, response: ServerResponse, fallback: (raw: IncomingMessage, response: ServerResponse) => void): boolean
}

export interface FastPathParts {
  /** Whether the fake serves declared accounts (each its own kept answers, once written over). */
  routed: boolean
  auth: Auth
  answers: AnswerCache
  journal: RequestJournal
  closing: () => boolean
}

export function fastPath(parts: FastPathParts): FastPath {
  const { routed, auth, answers, journal, closing } = parts
  // the 429s sent, by scenario (a reset or import may bring another's policy) and Retry-After
  const refusals = new WeakMap<object, Map<number, KeptRefusal>>()

  /** The board of the request's account, looked up once for the request (its context): a board that cannot be built is left to Fastify's path, which answers why. */
  const boardFor = (raw: IncomingMessage, context: RequestContext): Board | undefined => {
    try {
      return boardOf(raw, context)
    } catch {
      return undefined
    }
  }

  const write = (response: ServerResponse, status: number, head: readonly string[], bytes: Buffer) => {
    response.writeHead(status, head as string[])
    response.end(bytes)
  }

  /**
   * The journal records an answer as Fastify's onResponse does, once it is sent: at once when
   * the response holds the connection, else (pipelined behind an answer still going out) when
   * it finishes, so that the entries keep the order of the answers on the connection.
   */
  const record = (response: ServerResponse, ...entry: Parameters<RequestJournal['recordKept']>) => {
    if (response.socket !== null) journal.recordKept(...entry)
    else response.once('finish', () => journal.recordKept(...entry))
  }

  // the job/add bodies refused, by scenario and body text; how many are kept in all (none: no POST waits a tick)
  const bodyRefusals = new WeakMap<object, Map<string, KeptBodyRefusal>>()
  let keptBodies = 0

  /** The head of an answer Fastify sent, as it wrote it; undefined when a header was sent as several lines. */
  const headOf = (headers: AnswerHeaders): string[] | undefined => {
    const entries = Object.entries(headers)
    if (entries.some(([, value]) => Array.isArray(value))) return undefined
    return entries.flatMap(([name, value]) => (value === undefined ? [] : [name, String(value)]))
  }

  /**
   * A job/add body, looked at once Node has parsed it: when it came whole with its head (every
   * byte of its Content-Length buffered) and its text was refused before on this
   * store at this revision, with this Content-Type, the kept 412 is sent and the body read as
   * Fastify would read it. Anything else puts the bytes back, unread, for Fastify.
   */
  const refusedAgain = (raw: IncomingMessage, response: ServerResponse, board: Board, length: number): boolean => {
    // every byte of the Content-Length is buffered (Node marks the message complete later)
    if (raw.readableLength !== length || raw.readableFlowing === true || raw.readableEnded || response.headersSent) return false
    catchUp(contextOf(raw), board)
    if (closing() || board.faults.armed) return false
    const headers = raw.headers
    const user = auth.known(board, headers.authorization as string)
    const kept = bodyRefusals.get(board.scenario)
    if (user === undefined || kept === undefined) return false
    const bytes = raw.read() as Buffer | null
    if (bytes === null) return false
    const refusal = kept.get(bytes.toString('utf8'))
    const store = board.store
    if (refusal === undefined || refusal.contentType !== headers['content-type'] || refusal.scope !== store.answerScope || refusal.revision !== store.answerRevision) {
      raw.unshift(bytes)
      return false
    }
    write(response, refusal.status, refusal.head, refusal.bytes)
    record(response, board, raw, user, refusal, undefined, undefined)
    return true
  }

  /** A job/add refused with 412 for its body, sent whole with a Content-Length: kept by its text. */
  const keepBodyRefusal = (request: FastifyRequest, reply: FastifyReply, payload: string) => {
    const raw = request.raw
    const length = Number(raw.headers['content-length'])
    const contentType = raw.headers['content-type']
    const board = request.board
    // the fast path never answers a POST while a rate limit is on: nothing is kept for it then
    if (reply.statusCode !== 412 || request.url !== JOB_ADD || board.limiter.enabled || contentType === undefined) return
    if (!(length > 0 && length <= MAX_KEPT_BODY) || raw.headers['transfer-encoding'] !== undefined) return
    // a text kept already (refused again through Fastify: its store moved on since) is replaced below
    const held = bodyRefusals.get(board.scenario)?.get(request.rawBody as string)
    const store = board.store
    if (held !== undefined && held.scope === store.answerScope && held.revision === store.answerRevision && held.contentType === contentType) return
    const write = keptWrite(request, board.store.lists as ConstrainedLists)
    const headers = reply.getHeaders() as AnswerHeaders
    const head = headOf(headers)
    if (write === undefined || head === undefined) return
    let kept = bodyRefusals.get(board.scenario)
    if (kept === undefined) {
      kept = new Map()
      bodyRefusals.set(board.scenario, kept)
    }
    if (kept.size >= MAX_KEPT_BODIES) {
      keptBodies -= kept.size
      kept.clear()
    }
    if (!kept.has(write.text)) keptBodies += 1
    kept.set(write.text, { status: 412, head, bytes: Buffer.from(payload), headers, payload, write, scope: store.answerScope, revision: store.answerRevision, contentType })
  }

  return {
    answer(raw, response, fallback) {
      if (raw.method === 'POST' && keptBodies > 0 && raw.url === JOB_ADD) {
        const headers = raw.headers
        const length = Number(headers['content-length'])
        if (!(length > 0 && length <= MAX_KEPT_BODY) || headers['transfer-encoding'] !== undefined || headers.expect !== undefined) return false
        if (headers.host === undefined || headers.authorization === undefined || headers.prefer !== undefined || closing()) return false
        const board = boardFor(raw, contextOf(raw))
        // the rate limit admits a request before its body is read: a window is left to Fastify's path
        if (board === undefined || board.limiter.enabled || board.faults.armed || !bodyRefusals.has(board.scenario)) return false
        process.nextTick(() => {
          if (!refusedAgain(raw, response, board, length)) fallback(raw, response)
        })
        return true
      }
      if (raw.method !== 'GET') return false
      const url = raw.url as string
      if (!url.startsWith(API_PATH)) return false
      const headers = raw.headers
      const host = headers.host
      const authorization = headers.authorization
      if (host === undefined || authorization === undefined || headers.prefer !== undefined) return false
      if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false
      const context = contextOf(raw)
      const board = boardFor(raw, context)
      if (board === undefined) return false
      // the day's events up to now happen before the request is seen (an outage arms its fault): once, for the slow path too
      catchUp(context, board)
      if (closing() || board.faults.armed) return false
      const user = auth.known(board, authorization)
      if (user === undefined) return false
      const store = board.store
      const origin = board.scenario.publicBaseUrl ?? hostOrigin(board, host, (raw.socket as TLSSocket).encrypted ? 'https' : 'http')
      const hit = answers.byUrl(urlKey(answers.owner(store, board.account, routed), origin, url), store)
      if (hit === undefined) return false
      const limiter = board.limiter
      let limitKey: string | undefined
      if (limiter.enabled) {
        const key = requestKey(user, 'GET', url)
        const admission = limiter.admit(key)
        if (!admission.admitted) {
          // a refusal does not move the window: the slow path, asked again, refuses the same way
          const refusal = refusals.get(board.scenario)?.get(admission.retryAfter)
          if (refusal === undefined) return false
          write(response, refusal.status, refusal.head, refusal.bytes)
          record(response, board, raw, user, refusal, undefined, admission.opened)
          return true
        }
        limitKey = key
      }
      write(response, 200, hit.head, hit.body)
      if (limitKey !== undefined) limiter.settle(limitKey, 200)
      record(response, board, raw, user, hit, limitKey, undefined)
      return true
    },

    keepRefusal(request, reply) {
      const payload = request.sentPayload
      if (request.fault !== undefined || typeof payload !== 'string' || closing()) return
      if (request.windowOpened === undefined) {
        keepBodyRefusal(request, reply, payload)
        return
      }
      const retryAfter = Number(reply.getHeader('retry-after'))
      if (!Number.isSafeInteger(retryAfter)) return
      const scenario = request.board.scenario
      let kept = refusals.get(scenario)
      if (kept === undefined) {
        kept = new Map()
        refusals.set(scenario, kept)
      }
      if (kept.has(retryAfter)) return
      if (kept.size >= MAX_KEPT_REFUSALS) kept.clear()
      const headers = reply.getHeaders() as AnswerHeaders
      const head = headOf(headers)
      if (head !== undefined) kept.set(retryAfter, { status: reply.statusCode, head, bytes: Buffer.from(payload), headers, payload, retryAfter })
    },
  }
}
