// The fake's side of the journal: each request a fake answered, handed to its account's
// journal (src/watch/journal.ts) as an exchange, with the facts the verdict needs that only
// the fake knew (the window it opened, the lists job/fields answered). Fastify's path
// records a request once it has been answered, or when its connection closes short of an
// answer (record, watchClose); the fast path records a kept answer it sent (recordKept): the
// same entry, detail and facts. Nothing is copied or formatted on the request's path: the
// exchange holds references to what Fastify already had (the request's headers, the JSON
// parser's text, the payload onSend last saw, the answer's headers).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Clock } from '../../core/clock.js'
import { API_PREFIX } from '../../../schemas/common.js'
import { type AnswerHeaders, type AnswerHold, BASIC_GIVEN, basicUser, type ConstrainedLists, type Detail, type Exchange, listDigests, shortDigest, staleFieldsOf, TEXT_TYPE } from '../../watch/exchange.js'
import type { Journal } from '../../watch/journal.js'
import { isInProcess } from './in-process.js'
import { faultKind } from '../board/armed-faults.js'
import type { RequestLog } from './log.js'

/** What an answer's headers are counted as: the fake's own, a few short lines (counting them would cost a loop per request). */
const ANSWER_HEADER_BYTES = 512

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

const JOB_WRITE = new RegExp(`^${API_PREFIX}/job/[a-z]+$`)
/** Job write bodies whose digests are kept, by their JSON text: the last 8, of up to 16 Ki characters each. */
const WRITE_DIGESTS = 8
const WRITE_DIGEST_CHARS = 16 * 1024
const JOB_FIELDS = `${API_PREFIX}/job/fields`
const JOB_ADD = `${API_PREFIX}/job/add`

/** The lists a walk is made of: the pages whose next_page the journal notes. */
const LIST_PAGE = new RegExp(`^${API_PREFIX}/(candidates|applications|timesheets|marketing)/list(\\?|$)`)

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
    const entry: Exchange = { method: request.method, url, status, time: board.clock.now(), user }
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
    const entry: Exchange = { method: raw.method as string, url, status, time: board.clock.now(), user }
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
