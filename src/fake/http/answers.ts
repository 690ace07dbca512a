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
// The cache also keeps, for the fast path in front of Fastify (fast-path.ts), the key each
// URL as sent was answered under, and the downloads sent whole with their headers (which
// only the fast path sends from here: Fastify's route sends them from the board's files).
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import type { Board } from '../board/board.js'
import { API_PREFIX, CONTROL_PREFIX } from '../../../schemas/common.js'
import { baseUrl } from './origin.js'
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
  /** The answer's head as Fastify writes it for a hit, names and values in turn (content-type, content-length): what the fast path writes. */
  readonly head: readonly string[]
  /** The same as the object the journal shows (Fastify's reply headers of a hit). */
  readonly headers: Readonly<Record<string, string>>
  /** What the journal records of a hit: its status and the payload Fastify was given (the body). */
  readonly status: 200
  readonly payload: Buffer
}

/** Entries of the index by URL as sent (src/fake/http/fast-path.ts), and characters of their keys, at most. */
export const MAX_INDEXED_URLS = 4_000
export const MAX_INDEXED_CHARS = 8 * 1024 * 1024

export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>()
  #bytes = 0
  /**
   * The cache key each request URL as sent was answered under, with whether its route's
   * answers depend on the month: what the fast path (fast-path.ts) finds an answer by
   * before any route is known. Filled by the routes' own lookups, so only a URL Fastify
   * routed to a cached route is in it; emptied whole past its bounds.
   */
  readonly #byUrl = new Map<string, { key: string; monthly: boolean }>()
  #indexedChars = 0

  /** A label for each shared generated board kept for: accounts on other seeds or scenarios must not share keys. */
  readonly #scopes = new WeakMap<object, string>()

  /**
   * Whose answers a store's are, in keys: its account's when its answers are its own (a fake
   * with accounts, a store written over), else its shared generated board's, which every
   * account still on it answers alike (`#1`, `#2`: no account name starts with `#`).
   */
  owner(store: Store, account: string, routed: boolean): string {
    const scope = store.answerScope
    if (routed && scope === store) return account
    let label = this.#scopes.get(scope)
    if (label === undefined) {
      this.#labels += 1
      label = `#${this.#labels}`
      this.#scopes.set(scope, label)
    }
    return label
  }
  #labels = 0

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
    this.#byUrl.clear()
    this.#indexedChars = 0
  }

  /** Notes that the URL (as sent, with its account and origin) is answered under `key`, by the month (metrics) or not. */
  index(url: string, key: string, by: 'revision' | 'month'): void {
    if (this.#byUrl.has(url)) return
    if (this.#byUrl.size >= MAX_INDEXED_URLS || this.#indexedChars + url.length + key.length > MAX_INDEXED_CHARS) {
      this.#byUrl.clear()
      this.#indexedChars = 0
    }
    this.#byUrl.set(url, { key, monthly: by === 'month' })
    this.#indexedChars += url.length + key.length
  }

  /** The answer kept for a URL as sent, if the index knows it and the answer holds for this store now. */
  byUrl(url: string, store: Store): CachedAnswer | undefined {
    const found = this.#byUrl.get(url)
    return found === undefined ? undefined : this.get(found.key, store, found.monthly ? store.month() : undefined)
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
  /** The payload to send: links on the request's origin; a fresh 200 of a cached route is kept (in its fake's cache). */
  keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown
}

/** What the answer hooks read of the fake a request came to (an app's routes may serve several: src/fake/shared-app.ts). */
export interface AnswerParts {
  /** The fake's first account's board: the request's, for one refused before onRequest chose one. */
  readonly board: Board
  /** Whether the fake serves declared accounts (each its own answers). */
  readonly routed: boolean
  /** The fake's kept answers (the fast path's too). */
  readonly answers: AnswerCache
  readonly journal: { watchClose(request: FastifyRequest, reply: FastifyReply): void }
}

/** What the index by URL is keyed by: whose answers they are (AnswerCache.owner), the origin of links, the URL as sent. */
export const urlKey = (account: string, base: string, url: string) => `${account} ${base} ${url}`

/** The head of a kept JSON answer as Fastify writes it (reply headers in the order set), and as the journal shows it. */
function headOf(contentType: string, body: Buffer): Pick<CachedAnswer, 'head' | 'headers' | 'status' | 'payload'> {
  const headers = Object.freeze({ 'content-type': contentType, 'content-length': String(body.length) })
  return { head: Object.freeze(Object.entries(headers).flat()), headers, status: 200, payload: body }
}

/**
 * The answer cache of one app: every API route gets a last onRequest hook that answers a
 * GET from the cache when its route's answers are kept (config.answerCache), or goes on to
 * the handler, watched by `watchClose` unless a fault already has it watched.
 */
export function registerAnswers(app: FastifyInstance, partsOf: (request: FastifyRequest) => AnswerParts): Answers {
  // the request's account's board; the first account's for one refused before onRequest chose one
  const boardOf = (request: FastifyRequest): Board => (request.board as Board | null) ?? partsOf(request).board

  const answerFrom =
    (mode: 'revision' | 'month' | 'file' | undefined, reads: ReadonlySet<string>): onRequestHookHandler =>
    (request, reply, done) => {
      const { answers, routed, journal } = partsOf(request)
      if (mode === 'file') {
        // a download is kept once sent, for the fast path alone (its route sends its own headers)
        if (request.method === 'GET') {
          const owner = answers.owner(request.board.store, request.board.account, routed)
          const base = baseUrl(request)
          const key = `${owner} ${base} ${answerUrl(request.url, reads)}`
          answers.index(urlKey(owner, base, request.url), key, 'revision')
          request.answerKey = key
        }
      } else if (mode !== undefined && request.method === 'GET') {
        const store = request.board.store
        const month = mode === 'month' ? store.month() : undefined
        // with accounts, each account's answers are its own (not one replacing another's), but
        // for those of accounts on a shared generated board nothing was written over: the same for all
        const owner = answers.owner(store, request.board.account, routed)
        const base = baseUrl(request)
        const key = `${owner} ${base} ${answerUrl(request.url, reads)}`
        answers.index(urlKey(owner, base, request.url), key, mode)
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
      if (request.fault === undefined) journal.watchClose(request, reply)
      done()
    }
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_PREFIX}/`)) return
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat()
    const reads = new Set(Object.keys((route.schema?.querystring as { properties?: object } | undefined)?.properties ?? {}))
    const mode = route.config?.keptFile === true ? 'file' : route.config?.answerCache
    route.onRequest = [...own, answerFrom(mode, reads)] as typeof route.onRequest
  })

  // records carry links on the store's origin; answer with the request's when they differ.
  // A saved board keeps the store's own links, so that it restores anywhere.
  const withLinks = (request: FastifyRequest, text: string): string => {
    const from = boardOf(request).store.links.base
    const to = baseUrl(request)
    if (from === to || request.url.startsWith(`${CONTROL_PREFIX}/state`)) return text
    return text.replaceAll(`"href":"${from}/`, `"href":"${to}/`)
  }

  /** A download sent whole (a Buffer), kept with its headers as the route set them. */
  const keepFile = (request: FastifyRequest, reply: FastifyReply, body: Buffer) => {
    const key = request.answerKey
    if (key === undefined || reply.statusCode !== 200 || request.fault !== undefined) return
    const headers = reply.getHeaders()
    const entries = Object.entries(headers)
    if (entries.some(([, value]) => typeof value !== 'string')) return
    const contentType = String(headers['content-type'])
    const { store } = boardOf(request)
    partsOf(request).answers.set(key, {
      body,
      contentType,
      store: store.answerScope,
      revision: store.answerRevision,
      month: undefined,
      head: Object.freeze(entries.flat() as string[]),
      headers: Object.freeze(headers as Record<string, string>),
      status: 200,
      payload: body,
    })
  }

  return {
    keep(request, reply, payload) {
      if (Buffer.isBuffer(payload)) {
        keepFile(request, reply, payload)
        return payload
      }
      if (typeof payload !== 'string') return payload
      const out = withLinks(request, payload)
      const key = request.answerKey
      if (key !== undefined && reply.statusCode === 200 && request.fault === undefined && payload.startsWith('{"status":200')) {
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8')
        const { store } = boardOf(request)
        const body = Buffer.from(out)
        partsOf(request).answers.set(key, {
          body,
          contentType,
          store: store.answerScope,
          revision: store.answerRevision,
          month: request.answerMonth,
          nextPage: request.nextPage,
          ...headOf(contentType, body),
        })
      }
      return out
    },
  }
}
