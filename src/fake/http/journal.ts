// The journal of requests a fake answered: what a test asks to see which calls its
// client made (GET /__mock/requests). Bounded twice, newest last: by entries and by the
// characters of their URLs, so 10,000 requests with 16 KiB URLs cannot hold 160 MiB.
// A ring buffer: recording a request costs a slot write, never a shift of the array, and
// its time is formatted only when someone reads the journal.
//
// Every entry gets an id (1, 2, ... since the last clear) that the verdict's findings
// name, and is handed to an observer as it is recorded: the verdict's evaluator
// (src/fake/verdict/evaluator.ts), which judges it once and keeps what its rules need,
// so that the verdict never re-reads the journal and outlives the entries it drops.
//
// Each entry also holds what GET /__mock/requests/{id} shows of the request and its
// answer (Detail): references to what Fastify already had (the request's headers, the
// JSON parser's text, the payload onSend last saw, the answer's headers), never a copy,
// formatted only when someone asks (journal-detail.ts). Bounded again, newest kept:
// headers within MAX_JOURNAL_HEADER_BYTES, bodies within MAX_JOURNAL_BODY_BYTES; an
// entry past either keeps its place in the journal and says what it no longer holds.
// A binary answer (a resume download) is never held: only its size and type are kept.
//
// requestJournal is the request side: each answered request is recorded once it has
// been answered, or when its connection closes short of an answer.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { createHash } from 'node:crypto'
import { FIELD_NAMES, FIELD_OF_LIST } from '../../../schemas/values.js'
import type { Clock } from '../../core/clock.js'
import { formatTimestamp } from '../../core/time.js'
import type { JournalEntry } from '../../core/types.js'
import { API_PREFIX } from '../store/links.js'
import type { Observed } from '../verdict/evaluator.js'
import { isInProcess } from './in-process.js'
import { faultKind } from './faults.js'
import type { RequestLog } from './log.js'

/** Entries the journal holds at most (a ring: the oldest goes first). */
export const JOURNAL_SIZE = 10_000
/** Characters of URLs the journal holds together at most: 8 Mi (about 8 MiB: URLs are one-byte strings). */
export const MAX_JOURNAL_URL_CHARS = 8 * 1024 * 1024

/** Bytes of request and answer bodies the journal holds together at most (its newest entries'): 16 MiB. */
export const MAX_JOURNAL_BODY_BYTES = 16 * 1024 * 1024
/** Bytes of request and answer headers it holds together at most: 8 MiB (a request may carry 16 KiB of them). */
export const MAX_JOURNAL_HEADER_BYTES = 8 * 1024 * 1024
/** What an answer's headers are counted as: the fake's own, a few short lines (counting them would cost a loop per request). */
const ANSWER_HEADER_BYTES = 512

declare module 'fastify' {
  interface FastifyRequest {
    /** A JSON body's text as the parser read it (src/fake/http/body.ts), refused or not: what the journal shows. */
    rawBody: string | undefined
    /** The answer's payload as the app's onSend hook last gave it: what the journal shows. */
    sentPayload: unknown
  }
}

/** An answer's headers as reply.getHeaders() gives them. */
export type AnswerHeaders = Record<string, string | number | string[] | undefined>

/** How an answer's body was held: 'text' (a string, or bytes of a text type), or only its size ('binary', 'stream'), or 'none'. */
export type AnswerHold = 'none' | 'text' | 'binary' | 'stream'

/**
 * What an entry holds of its request and answer beyond the entry's own fields, for
 * GET /__mock/requests/{id}: references, read and formatted only when asked for. Headers
 * and bodies are let go (set undefined, `headersDropped`/`bodiesDropped`) past the bounds.
 */
export interface Detail {
  /** The request's headers as Node parsed them. */
  requestHeaders: IncomingHttpHeaders | undefined
  /** Its Content-Length and Transfer-Encoding as sent (what an unread body was), kept past the headers. */
  readonly requestLength: string | undefined
  readonly requestChunked: boolean
  /** Its Content-Type as sent. */
  readonly requestType: string | undefined
  /** The body as the JSON parser read it (text), else as parsed; undefined when none was read. */
  requestBody: unknown
  /** The answer's headers; undefined when none were sent. */
  answerHeaders: AnswerHeaders | undefined
  readonly answerHold: AnswerHold
  /** The answer's body: held only when text ('text'). */
  answerBody: string | Buffer | undefined
  /** Bytes of a binary or streamed answer (its Content-Length; -1 when unknown). */
  readonly answerBytes: number
  readonly answerType: string | undefined
  readonly headerBytes: number
  readonly bodyBytes: number
  headersDropped: boolean
  bodiesDropped: boolean
}

/** An entry as recorded: its time still epoch milliseconds when it came from a request. */
type Held = Omit<JournalEntry, 'time' | 'id'> & { time: string | number; id?: number; detail?: Detail | undefined }
/** An entry as the journal holds it, id given. */
export type HeldEntry = Held & { id: number }

/** What the journal tells as it records: the facts beside an entry that the entry does not show. */
export interface JournalObserver {
  observe(entry: Observed): void
  clear(): void
}

/** What a rule needs beyond the entry itself. */
export type Facts = Pick<Observed, 'credentials' | 'opened' | 'windowOpened' | 'fieldsRead' | 'staleFields'>

export class Journal {
  readonly #slots: Array<Held | undefined>
  readonly #limit: number
  /** Index of the oldest entry, and how many are held. */
  #head = 0
  #count = 0
  #urlChars = 0
  #nextId = 1
  /** The oldest id whose headers (and bodies) are still held, and their bytes. */
  #headersFrom = 1
  #headerBytes = 0
  #bodiesFrom = 1
  #bodyBytes = 0
  readonly #maxHeaderBytes: number
  readonly #maxBodyBytes: number
  observer: JournalObserver | undefined

  constructor(limit = JOURNAL_SIZE, observer?: JournalObserver, bounds: { headerBytes?: number; bodyBytes?: number } = {}) {
    this.#limit = limit
    // grown as entries come (a ring written in order from slot 0): a board asked once holds one slot, not `limit`
    this.#slots = []
    this.observer = observer
    this.#maxHeaderBytes = bounds.headerBytes ?? MAX_JOURNAL_HEADER_BYTES
    this.#maxBodyBytes = bounds.bodyBytes ?? MAX_JOURNAL_BODY_BYTES
  }

  /** Entries held at most. */
  get limit(): number {
    return this.#limit
  }

  /** Bytes of bodies held together at most (what an entry that lost its bodies says). */
  get maxBodyBytes(): number {
    return this.#maxBodyBytes
  }

  get maxHeaderBytes(): number {
    return this.#maxHeaderBytes
  }

  /** Records an entry; `time` may be epoch milliseconds, formatted when the journal is read. Answers its id. */
  record(given: Held, facts?: Facts): number {
    const id = this.#nextId++
    // the entry is the caller's new object: given its id in place rather than copied
    const entry = given
    entry.id = id
    if (this.#count === this.#limit) this.#dropOldest()
    this.#slots[(this.#head + this.#count) % this.#limit] = entry
    this.#count += 1
    this.#urlChars += entry.url.length
    while (this.#urlChars > MAX_JOURNAL_URL_CHARS && this.#count > 1) this.#dropOldest()
    const detail = entry.detail
    if (detail !== undefined) {
      this.#headerBytes += detail.headerBytes
      this.#bodyBytes += detail.bodyBytes
      if (this.#headerBytes > this.#maxHeaderBytes || this.#bodyBytes > this.#maxBodyBytes) this.#letGo()
    }
    if (this.observer && typeof entry.time === 'number') {
      // one shape for every entry, written out: spreading optional fields costs more than the rules
      this.observer.observe({
        id,
        method: entry.method,
        url: entry.url,
        status: entry.status,
        time: entry.time,
        user: entry.user,
        credentials: facts?.credentials ?? entry.user !== '',
        fault: entry.fault,
        contentType: entry.contentType,
        retryAfter: entry.retryAfter,
        digest: entry.digest,
        nextPage: entry.nextPage,
        opened: facts?.opened,
        windowOpened: facts?.windowOpened,
        fieldsRead: facts?.fieldsRead,
        staleFields: facts?.staleFields,
      })
    }
    return id
  }

  /** Lets the oldest held headers and bodies go until both are within their bounds (bodies never outlive their headers). */
  #letGo(): void {
    while (this.#headerBytes > this.#maxHeaderBytes && this.#headersFrom < this.#nextId) {
      const detail = this.#at(this.#headersFrom)?.detail
      this.#headersFrom += 1
      if (detail === undefined || detail.headersDropped) continue
      this.#headerBytes -= detail.headerBytes
      detail.headersDropped = true
      detail.requestHeaders = undefined
      detail.answerHeaders = undefined
    }
    // the redaction of a body reads the credentials its request's headers gave
    if (this.#bodiesFrom < this.#headersFrom) this.#dropBodies(this.#headersFrom)
    while (this.#bodyBytes > this.#maxBodyBytes && this.#bodiesFrom < this.#nextId) this.#dropBodies(this.#bodiesFrom + 1)
  }

  /** Lets the bodies of the entries before id `until` go. */
  #dropBodies(until: number): void {
    for (; this.#bodiesFrom < until; this.#bodiesFrom++) {
      const detail = this.#at(this.#bodiesFrom)?.detail
      if (detail === undefined || detail.bodiesDropped) continue
      this.#bodyBytes -= detail.bodyBytes
      detail.bodiesDropped = true
      detail.requestBody = undefined
      detail.answerBody = undefined
    }
  }

  /** The entry with id `id`, if the journal holds it. */
  #at(id: number): HeldEntry | undefined {
    const first = this.#nextId - this.#count
    if (id < first || id >= this.#nextId) return undefined
    return this.#slots[(this.#head + id - first) % this.#limit] as HeldEntry
  }

  /** One entry as held, its Detail included (GET /__mock/requests/{id}); undefined when the journal no longer holds it. */
  entry(id: number): Readonly<HeldEntry> | undefined {
    return Number.isSafeInteger(id) ? this.#at(id) : undefined
  }

  #dropOldest(): void {
    const oldest = this.#slots[this.#head] as HeldEntry
    this.#urlChars -= oldest.url.length
    const detail = oldest.detail
    if (detail !== undefined) {
      // what it still held leaves the counts with it
      if (!detail.headersDropped) this.#headerBytes -= detail.headerBytes
      if (!detail.bodiesDropped) this.#bodyBytes -= detail.bodyBytes
    }
    if (this.#headersFrom <= oldest.id) this.#headersFrom = oldest.id + 1
    if (this.#bodiesFrom <= oldest.id) this.#bodiesFrom = oldest.id + 1
    this.#slots[this.#head] = undefined
    this.#head = (this.#head + 1) % this.#limit
    this.#count -= 1
  }

  /** Entries in the order they were answered; with `path`, those whose path is it or lies below it. */
  list(path?: string): JournalEntry[] {
    const prefix = path === undefined ? '' : path.endsWith('/') ? path : `${path}/`
    const out: JournalEntry[] = []
    for (let i = 0; i < this.#count; i++) {
      const held = this.#slots[(this.#head + i) % this.#limit] as Held
      if (path !== undefined) {
        const own = held.url.split('?')[0] as string
        if (own !== path && !own.startsWith(prefix)) continue
      }
      // the list stays light: no headers or bodies in it
      const { detail: _detail, ...fields } = held
      out.push({ ...fields, time: typeof held.time === 'number' ? formatTimestamp(held.time) : held.time } as JournalEntry)
    }
    return out
  }

  /**
   * Up to `limit` entries after the id `after`, oldest first, as held (time in epoch ms when
   * it came from a request): what /__mock/ui reads, a window at a time. Ids run without
   * gaps since the last clear, so the window is found by arithmetic, not by a scan.
   */
  window(after: number, limit: number): { first: number; newest: number; entries: Array<Readonly<HeldEntry>> } {
    const newest = this.#nextId - 1
    const first = newest - this.#count + 1
    const entries: HeldEntry[] = []
    for (let id = Math.max(first, after + 1); id <= newest && entries.length < limit; id++) {
      entries.push(this.#slots[(this.#head + id - first) % this.#limit] as HeldEntry)
    }
    return { first: this.#count === 0 ? 0 : first, newest, entries }
  }

  get size(): number {
    return this.#count
  }

  clear(): void {
    this.#slots.fill(undefined)
    this.#head = 0
    this.#count = 0
    this.#urlChars = 0
    this.#nextId = 1
    this.#headersFrom = 1
    this.#headerBytes = 0
    this.#bodiesFrom = 1
    this.#bodyBytes = 0
    this.observer?.clear()
  }
}

export interface RequestJournal {
  /** Records a request with the status it was answered (0: none), a fault it met and a note. */
  record(request: FastifyRequest, status: number, extra?: string, reply?: FastifyReply): void
  /**
   * Answers cut short, dropped or given up on never reach onResponse: the journal (and
   * the request log) see them when the connection closes. Watched only where that can
   * happen: a fault, a download, a handler at work; not a cached answer sent at once.
   */
  watchClose(request: FastifyRequest, reply: FastifyReply): void
  /**
   * Records a GET the fast path answered with a kept answer (src/fake/http/fast-path.ts):
   * the same entry, detail and facts record() makes of that request through Fastify.
   */
  recordKept(board: JournalBoard, raw: IncomingMessage, user: string, answer: KeptAnswer, limitKey: string | undefined, windowOpened: number | undefined): void
}

/** An answer the fast path sent, as the journal records it. */
export interface KeptAnswer {
  readonly status: number
  /** Its headers as Fastify's reply held them (what the entry's detail shows). */
  readonly headers: AnswerHeaders
  /** The payload as the app's onSend gave it to Fastify: a string or bytes (the entry holds it the same way). */
  readonly payload: string | Buffer
  /** A list page's next_page (the verdict's walks); a 429's Retry-After. */
  readonly nextPage?: boolean | undefined
  readonly retryAfter?: number | undefined
  /** A refused job write: what record() read of its body (the text, its digest, the stale constrained fields). */
  readonly write?: KeptWrite | undefined
}

/** What the journal records of a job write's body, kept with its refusal. */
export interface KeptWrite {
  readonly text: string
  readonly digest: string
  readonly staleFields: Record<string, string> | undefined
}

/** The same, read from a request Fastify refused (the fast path keeps it with the refusal). */
export function keptWrite(request: FastifyRequest, lists: ConstrainedLists): KeptWrite | undefined {
  const url = request.url
  if (request.method !== 'POST' || !JOB_WRITE.test(url) || typeof request.rawBody !== 'string' || request.body === undefined) return undefined
  return { text: request.rawBody, digest: shortDigest(JSON.stringify(request.body) ?? ''), staleFields: url === JOB_ADD ? staleFieldsOf(lists, request.body) : undefined }
}

/** The user name of a Basic Authorization header (never the password), or '' when there is none. */
export function basicUser(header: string | undefined): string {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=_-]{1,4096})\s*$/i.exec(header)
  if (!match) return ''
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return (colon < 0 ? decoded : decoded.slice(0, colon)).slice(0, 256)
}

/** A short digest of a text: what a job write's body and a constrained list are remembered by. */
export const shortDigest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22)
const JOB_WRITE = new RegExp(`^${API_PREFIX}/job/[a-z]+$`)
/** Job write bodies whose digests are kept, by their JSON text: the last 8, of up to 16 Ki characters each. */
const WRITE_DIGESTS = 8
const WRITE_DIGEST_CHARS = 16 * 1024
const JOB_FIELDS = `${API_PREFIX}/job/fields`
const JOB_ADD = `${API_PREFIX}/job/add`

/** Constrained lists by name (job_industry, ...), as a board holds them or a job/fields answer gave them. */
export type ConstrainedLists = Readonly<Record<string, readonly string[]>>

/** A digest of each constrained list, by the job/add field it governs: what a read of job/fields is remembered by. */
export function listDigests(lists: ConstrainedLists): Record<string, string> {
  return Object.fromEntries(FIELD_NAMES.map((name) => [FIELD_OF_LIST[name], shortDigest([...(lists[name] ?? [])].sort().join('\n'))]))
}

/** The constrained fields of a job/add body whose values the lists do not hold, each with the digest of its current list. */
export function staleFieldsOf(lists: ConstrainedLists, body: unknown, digests: Readonly<Record<string, string>> = listDigests(lists)): Record<string, string> | undefined {
  if (body === null || typeof body !== 'object') return undefined
  const stale: Record<string, string> = {}
  for (const name of FIELD_NAMES) {
    const field = FIELD_OF_LIST[name]
    const given = (body as Record<string, unknown>)[field]
    if (typeof given === 'string' && !(lists[name] ?? []).includes(given)) stale[field] = digests[field] as string
  }
  return Object.keys(stale).length > 0 ? stale : undefined
}

/** The lists a walk is made of: the pages whose next_page the journal notes. */
const LIST_PAGE = new RegExp(`^${API_PREFIX}/(candidates|applications|timesheets|marketing)/list(\\?|$)`)
/** An Authorization header that gives Basic credentials (whether they are right is the auth's business). */
export const BASIC_GIVEN = /^Basic\s+\S/i

/** A Content-Type whose bytes are text: what the journal holds of an answer sent as bytes. */
export const TEXT_TYPE = /^\s*(text\/|application\/([\w.+-]*\+)?(json|xml|yaml|javascript|x-www-form-urlencoded)\b)/i

/**
 * The last request body (and answer) text the journal held, given again for one sent again with the
 * same text: a client resending a body (a refused job/add, a retry) sends the same bytes,
 * which the parser makes into a new string each time. Holding the one already held lets the
 * new string die young, where 10,000 entries each holding its own copy are promoted and
 * swept by the old generation's collector. The entry shows the same text either way.
 */
interface HeldText {
  text(given: string | undefined): string | undefined
  /** The same for an answer made as a string (an error's {status, message}: the same refusal, the same text). */
  answer(given: string): string
}

function heldText(): HeldText {
  let lastText = ''
  let lastAnswer = ''
  return {
    text(given) {
      if (given === undefined || given.length === 0) return given
      // lengths first: a differing body is told apart without a comparison of its characters
      if (given.length === lastText.length && given === lastText) return lastText
      lastText = given
      return given
    },
    answer(given) {
      if (given.length === lastAnswer.length && given === lastAnswer) return lastAnswer
      lastAnswer = given
      return given
    },
  }
}

/**
 * What the journal keeps of a request and its answer: references to what Fastify already
 * has, and their sizes (strings counted by length: no byte count is made per request).
 * A binary or streamed answer is kept as its size alone.
 */
function detailOf(request: FastifyRequest, reply: FastifyReply | undefined, headersOf: (reply: FastifyReply) => AnswerHeaders, held: HeldText): Detail {
  const answerHeaders = reply?.raw.headersSent ? headersOf(reply) : undefined
  return detailFrom(request.headers, request.raw.rawHeaders, held.text(request.rawBody) ?? request.body, answerHeaders, request.sentPayload, held)
}

/** The same, from the request's parts (what the fast path has: no Fastify request). */
function detailFrom(headers: IncomingHttpHeaders, raw: readonly string[], requestBody: unknown, answerHeaders: AnswerHeaders | undefined, payload: unknown, held: HeldText): Detail {
  let headerBytes = ANSWER_HEADER_BYTES
  for (let i = 0; i < raw.length; i++) headerBytes += (raw[i] as string).length
  const answerType = answerHeaders?.['content-type'] as string | undefined
  let answerHold: AnswerHold = 'none'
  let answerBody: string | Buffer | undefined
  let answerBytes = 0
  if (typeof payload === 'string') {
    answerHold = 'text'
    answerBody = held.answer(payload)
  } else if (Buffer.isBuffer(payload)) {
    answerBytes = payload.length
    if (answerType !== undefined && TEXT_TYPE.test(answerType)) {
      answerHold = 'text'
      answerBody = payload
    } else answerHold = 'binary'
  } else if (payload !== undefined && payload !== null) {
    // a stream (a large download, a body cut short by a fault): its size only
    answerHold = 'stream'
    const length = Number(answerHeaders?.['content-length'])
    answerBytes = Number.isSafeInteger(length) ? length : -1
  }
  const bodyBytes = (typeof requestBody === 'string' ? requestBody.length : 0) + (answerBody === undefined ? 0 : answerBody.length)
  return {
    requestHeaders: headers,
    requestLength: headers['content-length'],
    requestChunked: headers['transfer-encoding'] !== undefined,
    requestType: headers['content-type'],
    requestBody,
    answerHeaders,
    answerHold,
    answerBody,
    answerBytes,
    answerType,
    headerBytes,
    bodyBytes,
    headersDropped: false,
    bodiesDropped: false,
  }
}

/** What the journal reads of a board on every request (a reset replaces its clock, store and scenario). */
export interface JournalBoard {
  readonly journal: Journal
  readonly clock: Clock
  /** The constrained values job/fields answers now: an object replaced whole when they change, never changed in place. */
  readonly store: { readonly lists: object }
  readonly scenario: { readonly behaviour: { readonly rateLimitCounts: string } }
}

/**
 * The answer's headers, read without a copy: reply.getHeaders() spreads two objects into a
 * third (about 1 µs, a fortieth of a cached answer's whole cost), so the object Fastify
 * wrote the head from (its `fastify.reply.headers` field, found once per app) is held
 * instead. Were a Fastify release to rename it, getHeaders() would be used: slower, the same.
 */
function replyHeaders(): (reply: FastifyReply) => AnswerHeaders {
  let field: symbol | null | undefined
  return (reply) => {
    if (field === undefined) field = Object.getOwnPropertySymbols(reply).find((key) => key.description === 'fastify.reply.headers') ?? null
    const own = field === null ? undefined : (reply as unknown as Record<symbol, unknown>)[field]
    return typeof own === 'object' && own !== null ? (own as AnswerHeaders) : reply.getHeaders()
  }
}

export function requestJournal(fallback: JournalBoard, requestLog: RequestLog | undefined): RequestJournal {
  const answerHeaders = replyHeaders()
  const bodies = heldText()
  // the digests of the job write bodies seen last, by their JSON: a body resent unchanged (what
  // no-unchanged-resend looks for) costs a comparison of texts, not a SHA-256 (nor a hash of the text)
  const writeDigests: Array<{ json: string; digest: string }> = []
  const writeDigest = (json: string): string => {
    if (json.length > WRITE_DIGEST_CHARS) return shortDigest(json)
    for (const kept of writeDigests) if (kept.json.length === json.length && kept.json === json) return kept.digest
    const digest = shortDigest(json)
    if (writeDigests.length >= WRITE_DIGESTS) writeDigests.shift()
    writeDigests.push({ json, digest })
    return digest
  }
  // the digests of each set of constrained lists, made on its first job/fields read or refused
  // job/add rather than on every one (a sort and a SHA-256 per list: more than the rest of the
  // request); a write of the values brings another set, so another entry
  const digestsOf = new WeakMap<object, Readonly<Record<string, string>>>()
  /** A digest of each constrained list as the board holds it now: what job/fields answers. */
  const fieldDigests = (board: JournalBoard): Readonly<Record<string, string>> => {
    const lists = board.store.lists
    let digests = digestsOf.get(lists)
    if (digests === undefined) {
      digests = Object.freeze(listDigests(lists as ConstrainedLists))
      digestsOf.set(lists, digests)
    }
    return digests
  }
  /** The constrained fields of a refused job/add whose values the board does not list now. */
  const staleFields = (board: JournalBoard, body: unknown) => staleFieldsOf(board.store.lists as ConstrainedLists, body, fieldDigests(board))
  const record = (request: FastifyRequest, status: number, extra?: string, reply?: FastifyReply) => {
    // the journal of the request's account (the first's for one refused before onRequest chose one)
    const board: JournalBoard = (request.board as JournalBoard | null) ?? fallback
    const fault = request.fault ? faultKind(request.fault) : undefined
    const note = fault === undefined ? extra : extra === undefined ? fault : `${fault}; ${extra}`
    const header = request.headers.authorization
    // a request answered by a fault never reached the credential check: it keeps the user it was sent as
    const user = request.apiUser || basicUser(header)
    const post = request.method === 'POST'
    const url = request.url
    const mark = url.indexOf('?')
    const path = mark < 0 ? url : url.slice(0, mark)
    const observer = board.journal.observer
    // the entry's fields in one order, the optional ones only when they say something (the journal's JSON leaves them out):
    // set one by one rather than spread from objects made for the purpose, as every request is recorded
    const entry: Parameters<Journal['record']>[0] = { method: request.method, url, status, time: board.clock.now(), user }
    if (note) entry.fault = note
    const contentType = post ? request.headers['content-type'] : undefined
    if (contentType !== undefined) entry.contentType = contentType.slice(0, 200)
    if (status === 429) {
      const retryAfter = Number(reply?.getHeader('retry-after'))
      if (Number.isFinite(retryAfter)) entry.retryAfter = retryAfter
    }
    if (post && JOB_WRITE.test(path) && request.body !== undefined) entry.digest = writeDigest(JSON.stringify(request.body) ?? '')
    // a list page answered 200, for the verdict, which follows walks by it (with the verdict off the journal does not say)
    if (observer !== undefined && request.nextPage !== undefined && status === 200 && request.method === 'GET' && LIST_PAGE.test(url)) entry.nextPage = request.nextPage
    // the time is formatted when the journal is read
    entry.detail = detailOf(request, reply, answerHeaders, bodies)
    board.journal.record(
      entry,
      // one shape, written out: the facts are made for every request while the verdict is on
      observer && {
        credentials: header !== undefined && BASIC_GIVEN.test(header),
        opened: request.limitKey !== undefined && (status < 400 || board.scenario.behaviour.rateLimitCounts === 'all'),
        windowOpened: request.windowOpened,
        fieldsRead: status === 200 && path === JOB_FIELDS ? fieldDigests(board) : undefined,
        staleFields: status === 412 && post && path === JOB_ADD ? staleFields(board, request.body) : undefined,
      },
    )
  }
  const recordKept: RequestJournal['recordKept'] = (board, raw, user, answer, limitKey, windowOpened) => {
    const url = raw.url as string
    const status = answer.status
    const observer = board.journal.observer
    // the same fields, in the same order, as record() sets for this request
    const entry: Parameters<Journal['record']>[0] = { method: raw.method as string, url, status, time: board.clock.now(), user }
    const write = answer.write
    const contentType = write === undefined ? undefined : raw.headers['content-type']
    if (contentType !== undefined) entry.contentType = contentType.slice(0, 200)
    if (answer.retryAfter !== undefined) entry.retryAfter = answer.retryAfter
    if (write !== undefined) entry.digest = write.digest
    if (observer !== undefined && answer.nextPage !== undefined && status === 200 && LIST_PAGE.test(url)) entry.nextPage = answer.nextPage
    entry.detail = detailFrom(raw.headers, raw.rawHeaders, bodies.text(write?.text), answer.headers, answer.payload, bodies)
    const header = raw.headers.authorization
    const mark = url.indexOf('?')
    board.journal.record(
      entry,
      observer && {
        credentials: header !== undefined && BASIC_GIVEN.test(header),
        opened: limitKey !== undefined && (status < 400 || board.scenario.behaviour.rateLimitCounts === 'all'),
        windowOpened,
        fieldsRead: status === 200 && (mark < 0 ? url : url.slice(0, mark)) === JOB_FIELDS ? fieldDigests(board) : undefined,
        staleFields: status === 412 && url === JOB_ADD ? write?.staleFields : undefined,
      },
    )
  }
  return {
    record,
    recordKept,
    watchClose(request, reply) {
      if (isInProcess(request)) return
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished) return
        const status = reply.raw.headersSent ? reply.statusCode : 0
        record(request, status, request.fault ? undefined : 'the client closed the connection', reply)
        requestLog?.(request, reply, status)
      })
    },
  }
}
