// The Fastify app that holds a fake's routes, hooks, validation, serialization and error
// answers: made once per process for each shape of fake (its effective scenario and the
// options that change what the routes are), and shared by every fake of that shape. A fake
// (src/fake/app.ts) keeps only its own state, its FakeParts (its boards, journal, faults,
// shutdown, kept answers, the app of its control routes), and its own small Fastify app
// (the server, inject, close): each request it gets is entered (its context names the fake:
// src/fake/http/request-context.ts) and handed to the shared app's routing, whose every hook reads
// the request's fake and board from its context.
// Registering some 40 routes is most of what a Fastify app costs to make (a later fake of
// the same shape paid it again: 14 ms to its first answer); a fake now costs its own state.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Accounts } from './accounts.js'
import type { Board } from './board/board.js'
import { boardError } from '../core/errors.js'
import { checkResponses, openApiRoutes, registerDocument, type ResponseValidators } from './openapi-document.js'
import type { ResolvedOptions } from './options.js'
import { apiAdmission, settleLimit } from './http/admission.js'
import { AnswerCache, type Answers, registerAnswers } from './http/answers.js'
import { type Auth, registerAuth } from './http/basic-auth.js'
import { registerBodies, requireJson } from './http/body.js'
import { lingerOnUnread, registerDrain } from './http/drain.js'
import { withEnvelopeKeys } from './http/envelope.js'
import { sendError, type ErrorPolicy } from './http/error-answer.js'
import { errorPolicy, frameworkErrorHandler, hostRequired, registerErrorAnswers, validationError } from './http/error-style.js'
import { accountUrl, boardOf, catchUp, contextOf, fakeOf } from './http/request-context.js'
import { documentedErrors } from './http/prefer.js'
import { serializerCompiler } from './http/serializer.js'
import applications from './routes/application-routes.js'
import candidates from './routes/candidate-routes.js'
import control from './routes/control-routes.js'
import { API_PREFIX, CONTROL_PREFIX } from '../../schemas/common.js'
import { HEALTH_PATH, registerHealth } from '../watch/health-route.js'
import jobs from './routes/job-routes.js'
import marketing from './routes/marketing-routes.js'
import metrics from './routes/metric-routes.js'
import publicPages from './routes/job-pages.js'
import { withErrorAnswers } from './routes/schemas.js'
import { RecentMap } from './store/recent-map.js'
import { sharedKey } from './store/shared.js'
import timesheets from './routes/timesheet-routes.js'
import ui, { UI_PATH, type UiOptions } from '../watch/ui/routes.js'
import { definedRoutes, type Endpoint, HANDED_ON } from './lazy.js'

/** What the shared app gives each fake of its shape. */
export interface SharedApp {
  /** Answers a raw request the fake entered (src/fake/http/request-context.ts): Fastify's routing, with the fake's rewriteUrl. */
  readonly routing: (raw: IncomingMessage, response: ServerResponse) => void
  /**
   * Whether a raw request is one of the areas built on first use (the control API, its page,
   * the document's routes), as this app's router would route it to an area's catch-all: the
   * fake sends it straight to its app built on first use (src/fake/lazy.ts).
   */
  readonly areaOf: (raw: IncomingMessage) => boolean
  /** Every route a fake of this shape answers: the app's own, and those of the areas built on first use. */
  readonly endpoints: readonly Endpoint[]
  readonly auth: Auth
  /** The onSend's link rewrite and answer keeping, the same on the app built on first use. */
  readonly answers: Answers
  /**
   * The answers kept, for every fake of the shape: an answer is kept for the store it was
   * made from (AnswerCache.owner), and every store still on a shared generated board answers
   * its bytes, whichever fake it is in (as every account of a fake on it did).
   */
  readonly kept: AnswerCache
  readonly statusPolicy: ErrorPolicy
  /** Fastify's options of an app of this shape: the app built on first use is made with them too. */
  readonly common: ReturnType<typeof commonOptions>
  /** The OpenAPI document of the routes. */
  readonly swagger: FastifyInstance['swagger']
}

/** What a shape of fake is made of: the options of the fake, less those of its server and its own state. */
export interface Shape {
  readonly options: ResolvedOptions
  /** The first fake's first board: the routes' schemas and the document read its scenario (the same for every fake of the shape). */
  readonly board: Board
  /** The response check's compiled validators, when the fakes' answers are checked. */
  readonly validators: ResponseValidators | undefined
  readonly checked: boolean
  /** The JSON logger of the fake (the app of a JSON-logging fake is its own), and the ids of its request lines (its app built on first use takes from the same). */
  readonly log?: { readonly logger: FastifyInstance['log']; readonly genReqId: (raw: IncomingMessage) => string }
}

/** Fastify's options for the shared app and for a fake's built-on-first-use app. */
function commonOptions(options: ResolvedOptions, statusPolicy: ErrorPolicy, auth: () => Auth | undefined) {
  const handler = frameworkErrorHandler(statusPolicy, auth)
  return {
    trustProxy: options.trustProxy,
    // the fake answers its own 503 while closing ({status, message}), and lets requests in flight finish
    return503OnClosing: false,
    bodyLimit: 1_048_576,
    // met before onRequest chose the request's board: the fake's first account's, as onRequest would
    frameworkErrors: (error: Parameters<typeof handler>[0], request: FastifyRequest, reply: FastifyReply) => {
      request.board = fakeOf(request).board
      handler(error, request, reply)
    },
    schemaErrorFormatter: validationError,
  }
}

/** What every route of the fake is given as it is registered (wire's onRoute): its documented errors, and its listing in `endpoints`. */
export function routeOptions(route: RouteOptions, endpoints: Endpoint[] | undefined): void {
  // the catch-all routes of the lazily built areas are not listed: the areas' own routes are (definedRoutes)
  if (route.config?.[HANDED_ON] === true) return
  if (endpoints !== undefined) for (const method of [route.method].flat()) endpoints.push({ method, url: route.url })
  const method = [route.method].flat()[0] as string
  route.config = { ...route.config, errors: documentedErrors(method, route.schema) }
  // the API's routes describe every error they may answer, for the OpenAPI document
  if (route.url.startsWith(`${API_PREFIX}/`)) route.schema = withErrorAnswers(method, route.schema)
}

const underApi = (url: string) => url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`)

/** How `wire` wires an app. */
export interface WireOptions {
  /** The board the app is made with: the body validators are compiled for its scenario. */
  readonly board: Board
  readonly statusPolicy: ErrorPolicy
  /** Where the routes registered are listed (the shared app's `endpoints`, a fake's own app's); none: unlisted (the app built on first use, whose routes are listed unbuilt). */
  readonly endpoints?: Endpoint[] | undefined
  /** The app has the areas' catch-all routes (the shared app), whose requests it hands on to the fake's app built on first use. */
  readonly handsOn?: boolean
}

/**
 * The decorations, the route options, the body parser and validators and the first
 * request hook, on the shared app, on a fake's app built on first use and on a fake's own
 * app (the routes a caller adds to it). Every request passes one synchronous onRequest
 * path: an area's catch-all hands it on, then its account's board (looked up once: the
 * fast path may have), the Host, its day caught up (once), shutdown, then faults (before
 * auth and the rate limit: they stand for the network and the server failing).
 */
export function wire(instance: FastifyInstance, { board, statusPolicy, endpoints, handsOn = false }: WireOptions): void {
  instance.setSerializerCompiler(serializerCompiler)
  instance.addHook('onRoute', (route) => routeOptions(route, endpoints))
  instance.decorateRequest('board', null as unknown as Board)
  instance.decorateRequest('apiUser', '')
  instance.decorateRequest('limitKey', undefined)
  instance.decorateRequest('windowOpened', undefined)
  instance.decorateRequest('fault', undefined)
  instance.decorateRequest('answerKey', undefined)
  instance.decorateRequest('answerMonth', undefined)
  instance.decorateRequest('nextPage', undefined)
  instance.decorateRequest('handedOn', false)
  // what the journal shows of a request and its answer (src/fake/http/request-journal.ts, src/watch/journal.ts)
  instance.decorateRequest('rawBody', undefined)
  instance.decorateRequest('sentPayload', undefined)

  // validators read the board of each request: the fakes of a shape (and a fake's accounts) each have their own
  registerBodies(instance, board)
  registerDrain(instance)

  instance.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw
    const context = contextOf(raw)
    const fake = context.fake
    const url = request.url
    // an area's catch-all, met by a URL spelled with escapes (the fake sends the others straight there): the app built on first use answers it, its own hooks included
    if (handsOn && mayBeArea(url) && request.routeOptions.config[HANDED_ON] === true) {
      request.handedOn = true
      fake.lazy.handOn(request, reply)
      return done()
    }
    // every hook after this one reads request.board: a refusal here is answered on the first account's
    request.board = fake.board
    // the request's account first: faults, the journal, the windows and the store are its own
    let board: Board
    try {
      board = boardOf(raw, context)
    } catch (error) {
      sendError(request, reply, error, statusPolicy)
      return
    }
    request.board = board
    if (hostRequired(request, reply, statusPolicy)) return
    catchUp(context, board)
    if (fake.shutdown.closing) {
      sendError(request, reply, boardError.shuttingDown(), statusPolicy)
      return
    }
    if (url.startsWith(CONTROL_PREFIX)) return done()
    const fault = board.faults.take(request.method, url)
    // API requests are watched once they miss the answer cache (src/fake/http/answers.ts)
    if (fault !== undefined || !underApi(url)) fake.journal.watchClose(request, reply)
    if (fault === undefined) return done()
    fake.faults.meet(request, reply, fault, done)
  })
}

/** How `wireAnswers` wires an app. */
export interface AnswerOptions {
  /** The onSend's link rewrite and answer keeping (the shared app's). */
  readonly answers: Answers
  readonly statusPolicy: ErrorPolicy
  readonly auth: Auth
  /** The app answers the 404 of paths no route answers (not a fake's own app: the shared app does). */
  readonly notFound?: boolean
}

/**
 * The answer's last steps, on the shared app, a fake's app built on first use and the
 * fake's own app (the routes a caller adds to it): onSend, onResponse, the error answers,
 * and the 404 of paths no route answers.
 */
export function wireAnswers(instance: FastifyInstance, { answers, statusPolicy, auth, notFound = true }: AnswerOptions): void {
  // one onSend: the shutdown's Connection: close, the rest of a body answered before it was
  // read (a lingering close), the keys a profile adds to envelopes, links on the request's
  // origin and the answer cache, and a truncate fault
  instance.addHook('onSend', (request, reply, payload, done) => {
    const fake = fakeOf(request)
    if (fake.shutdown.closing) reply.header('connection', 'close')
    lingerOnUnread(request, reply)
    const sent = fake.faults.truncate(request, reply, answers.keep(request, reply, withEnvelopeKeys(request, reply, payload, fake.board)))
    // the journal holds a reference to the answer as sent, shown when asked for
    request.sentPayload = sent
    done(null, sent)
  })
  instance.addHook('onResponse', (request, reply, done) => {
    // handed on: the built app's own onResponse saw it
    if (request.handedOn) return done()
    const fake = fakeOf(request)
    settleLimit(request, reply.statusCode)
    // a 429 of the rate limit, a job/add body's 412: the fast path sends it again
    if (fake.front !== undefined && reply.statusCode >= 400) fake.front.keepRefusal(request, reply)
    if (!request.url.startsWith(CONTROL_PREFIX)) fake.journal.record(request, reply.statusCode, undefined, reply)
    fake.requestLog?.(request, reply, reply.statusCode)
    done()
  })
  registerErrorAnswers(instance, statusPolicy, auth, notFound)
}

/** Builds the app of one shape of fake: its routes, ready. */
async function build(shape: Shape): Promise<SharedApp> {
  const { options, board } = shape
  const statusPolicy = errorPolicy(board)
  let auth: Auth | undefined
  const common = commonOptions(options, statusPolicy, () => auth)
  const app = Fastify({
    ...common,
    // a JSON-logging fake's app is its own: its request lines carry its own request ids
    ...(shape.log === undefined ? {} : { loggerInstance: shape.log.logger, genReqId: shape.log.genReqId }),
    // /__mock/accounts/{name}/… is routed to the one set of control routes, acting on that account
    rewriteUrl: accountUrl,
  })
  const endpoints: Endpoint[] = []
  // the routes' schemas and the document read the scenario of the board the app is decorated with
  app.decorate('board', board)
  app.decorate('endpoints', endpoints)
  wire(app, { board, statusPolicy, endpoints, handsOn: true })
  auth = await registerAuth(app, board)
  const answers = registerAnswers(app, fakeOf)
  wireAnswers(app, { answers, statusPolicy, auth })
  // last of the onSend hooks: it sees the answer as it leaves
  if (shape.checked) checkResponses(app, fakeOf, shape.validators)

  registerDocument(app)
  // the document's routes, answered by the fake's app built on first use
  const documentMethods = handOn(app, endpoints, OPENAPI_URLS, definedRoutes(openApiRoutes, '', undefined))
  // answered whatever --control says, without the token: the container's health check (src/watch/health-route.ts)
  registerHealth(app)
  const admission = apiAdmission(auth, options.prefer, statusPolicy)
  await app.register(
    async (api) => {
      api.addHook('onRequest', admission)
      // asked of the routes that take a body (the API's POSTs) and no others: a GET then passes
      // no preValidation stage at all (a hook runner and its closure less on every read)
      api.addHook('onRoute', (route) => {
        if (![route.method].flat().includes('POST')) return
        route.preValidation = [requireJson, ...(route.preValidation === undefined ? [] : [route.preValidation].flat())]
      })
      // each a function of routes, hooks of none: called on this context, not registered as a
      // plugin of its own (a context each cost a fake's start some 0.1 ms)
      for (const routes of [candidates, applications, timesheets, marketing, metrics, jobs]) await routes(api)
    },
    { prefix: API_PREFIX },
  )
  await publicPages(app, (request) => fakeOf(request).board)
  let controlMethods: ReadonlySet<string> = new Set()
  if (options.control) {
    // the routes as the control plugins register them: their options change nothing of which
    const controlOptions = { accounts: undefined as unknown as Accounts, stateBodyLimit: options.stateBodyLimit }
    controlMethods = handOn(app, endpoints, CONTROL_URLS, [...definedRoutes(control, CONTROL_PREFIX, controlOptions), ...definedRoutes(ui, UI_PATH, { source: undefined as unknown as UiOptions['source'] })])
  }
  await app.ready()
  return {
    routing: app.routing,
    areaOf: areas(controlMethods, documentMethods),
    endpoints,
    auth,
    answers,
    kept: new AnswerCache(),
    statusPolicy,
    common,
    swagger: ((swaggerOptions?: { yaml?: boolean }) => app.swagger(swaggerOptions as never)) as FastifyInstance['swagger'],
  }
}

/**
 * An area built on first use: its routes listed in `endpoints` from their definitions, and
 * a catch-all route at each of `urls` for the methods they answer (another method's 404
 * is the fake's own, the same answer). Answers those methods.
 */
function handOn(instance: FastifyInstance, endpoints: Endpoint[], urls: readonly string[], defined: readonly Endpoint[]): ReadonlySet<string> {
  endpoints.push(...defined)
  const method = [...new Set(defined.map((route) => route.method))]
  for (const url of urls) instance.route({ method, url, ...HAND_ON, handler: unreachable })
  return new Set(method)
}

/**
 * Which raw requests the catch-all routes would take, as the router matches them: a path (as
 * accountUrl rewrites it) of /__mock, below it but /__mock/health's GET and HEAD (a route of
 * this app's own), or of the document's URLs, for a method its area answers. A path holding
 * an escape is left to the router, which decodes it (to an area's catch-all, which hands it
 * on, or to a route of this app's own).
 */
function areas(control: ReadonlySet<string>, document: ReadonlySet<string>): (raw: IncomingMessage) => boolean {
  return (raw) => {
    const given = raw.url ?? '/'
    const method = raw.method ?? 'GET'
    if (given.startsWith(CONTROL_PREFIX)) {
      if (!control.has(method)) return false
      const path = pathOf(accountUrl(raw))
      if (path.includes('%') || (path === HEALTH_PATH && (method === 'GET' || method === 'HEAD'))) return false
      return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
    }
    if (!(given.startsWith('/openapi.') || given.startsWith('/docs')) || !document.has(method)) return false
    const path = pathOf(given)
    if (path.includes('%')) return false
    return path === '/openapi.json' || path === '/openapi.yaml' || path === '/docs' || path.startsWith('/docs/')
  }
}

/** A URL's path, as the router reads it: up to its query or fragment. */
function pathOf(url: string): string {
  const end = url.search(/[?#]/)
  return end < 0 ? url : url.slice(0, end)
}

/** The catch-all routes of the areas built on first use (/__mock/health is the fake's own: a static route wins over them). */
const OPENAPI_URLS = ['/openapi.json', '/openapi.yaml', '/docs', '/docs/*']
const CONTROL_URLS = [CONTROL_PREFIX, `${CONTROL_PREFIX}/*`]
const HAND_ON = { config: { [HANDED_ON]: true } }
/** What the onRequest hook hands on never reaches a handler. */
const unreachable = async () => {
  throw new Error('a request handed on reached its catch-all route')
}
/**
 * The URLs a catch-all route may match: only these read the route's config. The fake sends
 * the plainly spelled ones straight to its app built on first use (areaOf): the shared app
 * meets those whose path holds an escape, which its router decodes (`/__m%6Fck/reset`).
 */
const mayBeArea = (url: string) => {
  const percent = url.indexOf('%')
  if (percent >= 0) {
    const mark = url.indexOf('?')
    if (mark < 0 || percent < mark) return true
  }
  return url.startsWith(CONTROL_PREFIX) || url.startsWith('/openapi.') || url.startsWith('/docs')
}

/** Shapes whose app is kept, per process, per owner of validators (docs/architecture.md, "Per-process caches"). */
const KEPT_SHAPES = 16

/**
 * The apps made, per process: by the response check's validators (a fake checked with
 * validators of its own has an app of its own), then by shape, the least recently used let
 * go first (a fake holds its app whether or not it is still kept here). Why module-level,
 * where the rule is no module-level state: an app holds no fake's state (every hook reads
 * the request's fake, FakeParts), and it is a pure function of its key (its kept answers
 * are kept per store, as every store on a shared board answers alike), so no fake can see
 * another's use of it other than by being faster; and a suite that makes a fake per test
 * would otherwise register the same routes each time.
 */
const UNCHECKED = {}
const APPS = new WeakMap<object, RecentMap<string, Promise<SharedApp>>>()

/**
 * The text a shape is known by: the effective scenario less its credentials (the routes'
 * schemas, the document and the error answers read its behaviour) and the options the app
 * reads as it is made (build, commonOptions). Every other option is each fake's: its
 * boards, clock, journal and server read them.
 */
function shapeKey(shape: Shape): string {
  const { trustProxy, prefer, control } = shape.options
  return `${sharedKey(shape.board.scenario)}\u0000${JSON.stringify([trustProxy, prefer, control])}`
}

/** The app of a fake's shape: made now, or the one a fake of the same shape made before in this process. */
export function sharedApp(shape: Shape): Promise<SharedApp> {
  // a JSON-logging fake's app logs with its logger, and a check with validators of its own is its own: not shared
  if (shape.log !== undefined || (shape.checked && shape.validators === undefined)) return build(shape)
  const owner = shape.checked ? (shape.validators as object) : UNCHECKED
  let apps = APPS.get(owner)
  if (apps === undefined) {
    apps = new RecentMap(KEPT_SHAPES)
    APPS.set(owner, apps)
  }
  const key = shapeKey(shape)
  const found = apps.get(key)
  if (found !== undefined) return found
  const kept = apps
  const made = build(shape)
  // a failed build is not kept: the next fake of the shape tries again
  made.catch(() => kept.delete(key))
  apps.set(key, made)
  return made
}
