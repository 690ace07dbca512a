// Finished answers of the API's read routes, kept as bytes. An answer depends on the
// board (its store: a reset or an import brings another), the board's revision (bumped
// by every write), the origin its links point at and the URL; metrics also on the
// current month. A hit skips validation, the handler, serialization, the link rewrite
// and the UTF-8 conversion. Auth, the rate limit, faults, Prefer and the journal apply
// before and after it as to any request (src/fake/app.ts). Query parameters a route does not
// read (a client's cache-buster, `&bench=7`) leave its answer as it is, so they are not
// part of the key: the rate limit still counts each full URL apart.
//
// registerAnswers is the request side: a read route's own onRequest hook answers from
// the cache, and the app's onSend fills it (and writes links on the request's origin).
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import type { Board } from '../board.js'
import { CONTROL_PREFIX } from '../routes/control.js'
import { baseUrl } from '../routes/reply.js'
import { API_PREFIX } from '../store/links.js'
import type { Store } from '../store/store.js'

/** A parameter name written plainly: nothing in it that the query parser would decode to another name. */
const PLAIN_NAME = /^[A-Za-z0-9_.~-]*$/

/**
 * The part of a URL its answer depends on: the path, and each `name=value` of the query
 * as sent, less those that plainly name a parameter the route does not read. A segment
 * whose name is escaped (`p%61ge`) or that names a read parameter stays, in its place,
 * so a repeated or oddly written parameter is never taken for another's answer.
 */
export function answerUrl(url: string, reads: ReadonlySet<string>): string {
  const mark = url.indexOf('?')
  if (mark < 0) return url
  let kept = ''
  for (const segment of url.slice(mark + 1).split('&')) {
    const equals = segment.indexOf('=')
    const name = equals < 0 ? segment : segment.slice(0, equals)
    if (name.length > 0 && !reads.has(name) && PLAIN_NAME.test(name)) continue
    kept += kept === '' ? segment : `&${segment}`
  }
  return `${url.slice(0, mark)}?${kept}`
}

/** The cache's bounds: entries, and bytes of bodies held together. */
export const MAX_CACHED_ANSWERS = 2_000
export const MAX_CACHED_BYTES = 64 * 1024 * 1024

export interface CachedAnswer {
  readonly body: Buffer
  readonly contentType: string
  /** The store's answerScope: the store, or the shared generated board while nothing is written over it. */
  readonly store: object
  readonly revision: number
  /** The month the answer was made in, for those that depend on it (metrics). */
  readonly month: string | undefined
  /** A list page: whether it gave a next page (request.nextPage, told again on a hit). */
  readonly nextPage?: boolean | undefined
}

export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>()
  #bytes = 0

  /** The answer for `key`, if it was made for this store at its current revision (and month). */
  get(key: string, store: Store, month: string | undefined): CachedAnswer | undefined {
    const found = this.#entries.get(key)
    if (found === undefined) return undefined
    if (found.store === store.answerScope && found.revision === store.answerRevision && found.month === month) return found
    this.#delete(key, found)
    return undefined
  }

  set(key: string, answer: CachedAnswer): void {
    if (answer.body.length > MAX_CACHED_BYTES / 8) return
    const old = this.#entries.get(key)
    if (old) this.#delete(key, old)
    this.#entries.set(key, answer)
    this.#bytes += answer.body.length
    // the oldest answers go first
    while (this.#entries.size > MAX_CACHED_ANSWERS || this.#bytes > MAX_CACHED_BYTES) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [string, CachedAnswer]
      this.#delete(oldestKey, oldest)
    }
  }

  clear(): void {
    this.#entries.clear()
    this.#bytes = 0
  }

  get size(): number {
    return this.#entries.size
  }

  #delete(key: string, answer: CachedAnswer): void {
    this.#entries.delete(key)
    this.#bytes -= answer.body.length
  }
}

export interface Answers {
  /** The payload to send: links on the request's origin; a fresh 200 of a cached route is kept. */
  keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown
}

/**
 * The answer cache of one app: every API route gets a last onRequest hook that answers a
 * GET from the cache when its route's answers are kept (config.answerCache), or goes on to
 * the handler, watched by `watchClose` unless a fault already has it watched.
 */
export function registerAnswers(
  app: FastifyInstance,
  fallback: Board,
  watchClose: (request: FastifyRequest, reply: FastifyReply) => void,
  routed = false,
): Answers {
  // the request's account's board; the first account's for one refused before onRequest chose one
  const boardOf = (request: FastifyRequest): Board => (request.board as Board | null) ?? fallback
  const answers = new AnswerCache()

  const answerFrom =
    (mode: 'revision' | 'month' | undefined, reads: ReadonlySet<string>): onRequestHookHandler =>
    (request, reply, done) => {
      if (mode !== undefined && request.method === 'GET') {
        const store = request.board.store
        const month = mode === 'month' ? store.month() : undefined
        // with accounts, each account's answers are its own (not one replacing another's), but
        // for those of accounts on a shared generated board nothing was written over: the same for all
        const own = routed && store.answerScope === store
        const key = own ? `${request.board.account} ${baseUrl(request)} ${answerUrl(request.url, reads)}` : `${baseUrl(request)} ${answerUrl(request.url, reads)}`
        const hit = answers.get(key, store, month)
        if (hit !== undefined) {
          request.nextPage = hit.nextPage
          reply.code(200).header('content-type', hit.contentType).send(hit.body)
          return
        }
        request.answerKey = key
        request.answerMonth = month
      }
      // a request that met a fault is watched already
      if (request.fault === undefined) watchClose(request, reply)
      done()
    }
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_PREFIX}/`)) return
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat()
    const reads = new Set(Object.keys((route.schema?.querystring as { properties?: object } | undefined)?.properties ?? {}))
    route.onRequest = [...own, answerFrom(route.config?.answerCache, reads)] as typeof route.onRequest
  })

  // records carry links on the store's origin; answer with the request's when they differ.
  // A saved board keeps the store's own links, so that it restores anywhere.
  const withLinks = (request: FastifyRequest, text: string): string => {
    const from = boardOf(request).store.links.base
    const to = baseUrl(request)
    if (from === to || request.url.startsWith(`${CONTROL_PREFIX}/state`)) return text
    return text.replaceAll(`"href":"${from}/`, `"href":"${to}/`)
  }

  return {
    keep(request, reply, payload) {
      if (typeof payload !== 'string') return payload
      const out = withLinks(request, payload)
      const key = request.answerKey
      if (key !== undefined && reply.statusCode === 200 && request.fault === undefined && payload.startsWith('{"status":200')) {
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8')
        const { store } = boardOf(request)
        answers.set(key, { body: Buffer.from(out), contentType, store: store.answerScope, revision: store.answerRevision, month: request.answerMonth, nextPage: request.nextPage })
      }
      return out
    },
  }
}
