// What a request to a fake is, resolved once. Where a request comes in (the fake's
// listener, or an inject: src/fake/app.ts) it is entered (`enter`): a context on the raw
// request, under one symbol, names the fake it came to; its account's board is looked up
// once (`boardOf`) and the board's day caught up once (`catchUp`), by the fast path or by the
// first hook, whichever reads it first, and every later reader (the other hooks, the app
// built on first use) reads the same. Every field and symbol a request carries is declared
// here: the context, the account a control path names, and the fields each request concern
// notes on Fastify's request for the next (the user, the window, the fault, the kept answer,
// what the journal's entry will show), and the routes' config the hooks read.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { Accounts } from '../accounts.js'
import type { Board } from '../board/board.js'
import type { ArmedFault } from '../board/armed-faults.js'
import type { AnswerCache } from './answers.js'
import type { FaultAnswers } from './fault-answers.js'
import type { RequestJournal } from './request-journal.js'
import type { RequestLog } from './log.js'
import type { Shutdown } from './shutdown.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The board this request is answered on: its account's (set first thing in onRequest, from the context). */
    board: Board
    /** The API user the request authenticated as ('' before auth). */
    apiUser: string
    /** The rate-limit window this request opened, if any. */
    limitKey: string | undefined
    /** A request refused by the rate limit: when the window that refused it opened (epoch ms). */
    windowOpened: number | undefined
    /** The fault this request met, if any. */
    fault: ArmedFault | undefined
    /** Where this request's answer is kept once made, when its route's answers are cached and it missed. */
    answerKey: string | undefined
    /** The month that answer depends on, if it does. */
    answerMonth: string | undefined
    /** A list page: whether it gave a next_page URL (the verdict follows walks by it); set by pageAnswer, or by the answer cache on a hit. */
    nextPage: boolean | undefined
    /** Handed to the app built on first use by the shared app (a lazily built area's URL spelled with escapes): its own hooks see it, the shared app's onResponse leaves it. */
    handedOn: boolean
    /** A JSON body's text as the parser read it (src/fake/http/body.ts), refused or not: what the journal shows. */
    rawBody: string | undefined
    /** The answer's payload as the app's onSend hook last gave it: what the journal shows. */
    sentPayload: unknown
  }
  interface FastifyContextConfig {
    /** Error statuses the route documents: what Prefer: code=NNN may ask for. */
    errors?: readonly number[]
    /** The route's 200 answers are kept as bytes (src/fake/http/answers.ts): per revision, or per revision and month. */
    answerCache?: 'revision' | 'month'
    /** A download route: its whole files are kept once sent, for the fast path (fast-path.ts). */
    keptFile?: boolean
    /** A catch-all route of an area built on first use (src/fake/lazy.ts). */
    handedOn?: boolean
  }
}

/** Where an answer the OpenAPI document does not describe is reported (the suite's response check, src/fake/openapi-document.ts). */
export type ResponseCheck = (problem: string) => void

/** The fake's control routes, its page and the document's routes: an app built on first use (src/fake/lazy.ts). */
export interface LazyApp {
  /** Answers a raw request of its areas (built now if it is not): the fake sends it here instead of to the shared app. */
  route(raw: IncomingMessage, response: ServerResponse): void
  /** Takes a request the shared app routed to an area's catch-all (its URL spelled with escapes): the shared app's reply is hijacked, its hooks stop here. */
  handOn(request: FastifyRequest, reply: FastifyReply): void
  /** Closes the built app, if it was built. */
  close(): Promise<void>
}

/** What the fake's hooks ask of the fast path in front of its server (src/fake/http/fast-path.ts). */
export interface KeptRefusals {
  /** After Fastify answered a refusal (its onResponse): keeps a 429 of the rate limit, or a job/add body's 412, for the fast path. */
  keepRefusal(request: FastifyRequest, reply: FastifyReply): void
}

/** One fake's own state: what the hooks read of the fake a request came to (every app serves the fakes of its shape). */
export interface FakeParts {
  /** The first account's board (the fake's app.board): every request's on a fake of no declared accounts. */
  readonly board: Board
  readonly accounts: Accounts
  /** Whether the fake serves declared accounts, each request on its user's board. */
  readonly routed: boolean
  readonly journal: RequestJournal
  readonly faults: FaultAnswers
  readonly shutdown: Shutdown
  readonly lazy: LazyApp
  /** The fake's kept answers (the fast path's too). */
  readonly answers: AnswerCache
  /** The fast path in front of the fake's server, once it has one: it keeps refusals Fastify sent. */
  front: KeptRefusals | undefined
  readonly requestLog: RequestLog | undefined
  /** Where answers the document does not describe are reported; none: they are not checked. */
  readonly report: ResponseCheck | undefined
}

/** A request as the fake resolved it: made once where it came in, read by the fast path and every hook. */
export interface RequestContext {
  /** The fake it came to. */
  readonly fake: FakeParts
  /** Its account's board, once looked up (boardOf). */
  board: Board | undefined
  /** Whether its board's day was caught up for it (catchUp). */
  caughtUp: boolean
  /** The account its path names (/__mock/accounts/{name}/…), once accountUrl read it. */
  named: string | undefined
  /** The id the shared app gave it when it handed it on (LazyApp.handOn): the built app's log lines carry it. */
  outerId: string | undefined
}

const CONTEXT = Symbol('jobboard-kit request')
type Entered = IncomingMessage & { [CONTEXT]?: RequestContext }

/** Enters a raw request into a fake: its context, made once (a request entered already keeps its own). */
export function enter(raw: IncomingMessage, fake: FakeParts): RequestContext {
  const entered = raw as Entered
  let context = entered[CONTEXT]
  if (context === undefined) {
    context = { fake, board: undefined, caughtUp: false, named: undefined, outerId: undefined }
    entered[CONTEXT] = context
  }
  return context
}

/** The context of a raw request the fake entered. */
export const contextOf = (raw: IncomingMessage): RequestContext => (raw as Entered)[CONTEXT] as RequestContext

/** The fake a request came to. */
export const fakeOf = (request: FastifyRequest): FakeParts => contextOf(request.raw).fake

/**
 * The board a request is answered on, looked up once: its Basic user's account's on a fake
 * of declared accounts (accounts.boardOf), else the first's. Throws what building an
 * account's board on first use threw; the next reader looks again.
 */
export function boardOf(raw: { readonly headers: IncomingHttpHeaders }, context: RequestContext): Board {
  let board = context.board
  if (board === undefined) {
    const fake = context.fake
    board = fake.routed ? fake.accounts.boardOf(raw) : fake.board
    context.board = board
  }
  return board
}

/** The day's events up to now happen before the request is seen (an outage arms its fault): once a request. */
export function catchUp(context: RequestContext, board: Board): void {
  if (context.caughtUp) return
  context.caughtUp = true
  board.activity?.catchUp()
}

/** Where the control routes of one account are: /__mock/accounts/{name}/… */
const ACCOUNT_PATH = '/__mock/accounts/'

/**
 * Fastify's rewriteUrl: /__mock/accounts/{name}/rest is routed as /__mock/rest, the name
 * kept in the request's context, so that one set of control routes serves every account
 * (a second set would cost every fake its start-up time). Any other URL is left as it is.
 */
export function accountUrl(raw: IncomingMessage): string {
  const url = raw.url ?? '/'
  if (!url.startsWith(ACCOUNT_PATH)) return url
  const rest = url.slice(ACCOUNT_PATH.length)
  const end = rest.search(/[/?]/)
  const name = end < 0 ? rest : rest.slice(0, end)
  if (name === '') return url
  const context = (raw as Entered)[CONTEXT]
  if (context !== undefined) context.named = name
  const after = end < 0 ? '' : rest.slice(end)
  return `/__mock${after}`
}

/** The account a control request's path named (/__mock/accounts/{name}/…), if it named one. */
export const namedAccount = (request: FastifyRequest): string | undefined => (request.raw as Entered)[CONTEXT]?.named
