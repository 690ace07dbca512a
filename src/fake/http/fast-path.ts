// The fast path: answers a request whose answer is already kept as bytes in front of
// Fastify, on the server's raw (request, response), and hands every other request to
// Fastify unchanged. What it sends and records is what Fastify's path sends and records
// for that request (the same status line, headers in the same order, body; the same
// rate-limit window, journal entry and verdict facts): only the per-request work of
// Fastify's request and reply objects, its hooks and route lookup is left out.
//
// It serves a GET under /api/v1 that carries a Host, Basic credentials this board's
// check already accepted (auth.ts remembers them), no Prefer and no body, on a board
// with no fault armed, while the fake is not closing, when the URL as sent was answered
// before through a route whose answers are kept (answers.ts, its index by URL) and that
// answer still holds: then the 200 as kept; or, when the rate limit refuses it, the 429
// the slow path sent before for the same Retry-After on the same scenario (kept here).
// Anything else (a miss, a first refusal, any doubt) goes to Fastify, which fills what
// the fast path reads next time. A fake with a request log, a response check, Fastify's
// JSON logger or trustProxy has no fast path (buildApp, option fastPath).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { Accounts } from '../accounts.js'
import type { Board } from '../board.js'
import { hostOrigin } from '../routes/reply.js'
import { API_PREFIX } from '../store/links.js'
import { type AnswerCache, urlKey } from './answers.js'
import type { Auth } from './auth.js'
import type { AnswerHeaders, KeptAnswer, RequestJournal } from './journal.js'
import { requestKey } from './rate-limit.js'

const API_PATH = `${API_PREFIX}/`
/** Refusals kept per scenario: one per Retry-After value seen, at most (emptied whole past it). */
export const MAX_KEPT_REFUSALS = 64

/** A refusal as the slow path sent it: what the fast path writes again. */
interface KeptRefusal extends KeptAnswer {
  readonly head: readonly string[]
  readonly bytes: Buffer
}

export interface FastPath {
  /** Answers the request and says true, or says false and leaves it untouched for Fastify. */
  answer(raw: IncomingMessage, response: ServerResponse): boolean
  /** After Fastify answered a request the rate limit refused (its onResponse): keeps that 429 for the fast path. */
  keepRefusal(request: FastifyRequest, reply: FastifyReply): void
}

export interface FastPathParts {
  /** The first account's board (app.board): every request's, on a fake that serves no declared accounts. */
  first: () => Board
  accounts: Accounts
  routed: boolean
  auth: Auth
  answers: AnswerCache
  journal: RequestJournal
  closing: () => boolean
}

export function fastPath(parts: FastPathParts): FastPath {
  const { accounts, routed, auth, answers, journal, closing, first } = parts
  // the 429s sent, by scenario (a reset or import may bring another's policy) and Retry-After
  const refusals = new WeakMap<object, Map<number, KeptRefusal>>()

  /** The board of the request's account, as the app's onRequest picks it (accounts.boardOf reads the Authorization header alone). */
  const boardOf = (raw: IncomingMessage): Board | undefined => {
    if (!routed) return first()
    try {
      return accounts.boardOf(raw as unknown as FastifyRequest)
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

  return {
    answer(raw, response) {
      if (raw.method !== 'GET') return false
      const url = raw.url as string
      if (!url.startsWith(API_PATH)) return false
      const headers = raw.headers
      const host = headers.host
      const authorization = headers.authorization
      if (host === undefined || authorization === undefined || headers.prefer !== undefined) return false
      if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false
      const board = boardOf(raw)
      if (board === undefined) return false
      // the day's events up to now happen before the request is seen (an outage arms its fault)
      board.activity?.catchUp()
      if (closing() || board.faults.armed) return false
      const user = auth.known(board, authorization)
      if (user === undefined) return false
      const store = board.store
      const origin = board.scenario.publicBaseUrl ?? hostOrigin(board, host, (raw.socket as TLSSocket).encrypted ? 'https' : 'http')
      const own = routed && store.answerScope === store
      const hit = answers.byUrl(urlKey(own ? board.account : '', origin, url), store)
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
      if (request.windowOpened === undefined || request.fault !== undefined || typeof payload !== 'string' || closing()) return
      const headers = reply.getHeaders() as AnswerHeaders
      const retryAfter = Number(headers['retry-after'])
      if (!Number.isSafeInteger(retryAfter)) return
      const scenario = request.board.scenario
      let kept = refusals.get(scenario)
      if (kept === undefined) {
        kept = new Map()
        refusals.set(scenario, kept)
      }
      if (kept.has(retryAfter)) return
      if (kept.size >= MAX_KEPT_REFUSALS) kept.clear()
      const entries = Object.entries(headers)
      // a header sent as several lines is left to the slow path
      if (entries.some(([, value]) => Array.isArray(value))) return
      const head = entries.flatMap(([name, value]) => (value === undefined ? [] : [name, String(value)]))
      kept.set(retryAfter, { status: reply.statusCode, head, bytes: Buffer.from(payload), headers, payload, retryAfter })
    },
  }
}
