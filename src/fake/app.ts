// Builds the Fastify instance of one fake: its boards and accounts, its journal, faults,
// shutdown and kept answers, the fast path in front of its server, and its control API
// (built on first use); its routes are the app of its shape's (src/fake/shared-app.ts).
// Where a request comes in (its listener, or an inject through the instance's router, which
// holds no route of the fake's) it is entered (src/fake/http/request-context.ts) and sent to the one
// app that answers it: the fast path, the app built on first use for the control API, its
// page and the document, or the shared app. It never listens: src/fake/server.ts and
// src/cli/main.ts do.
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { channel } from 'node:diagnostics_channel'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyRequest } from 'fastify'
import { Accounts, type AccountInput } from './accounts.js'
import { Board } from './board/board.js'
import type { ActivityFile, ProfileFile, ScenarioFile, ServerOptionsInput } from '../core/types.js'
import { loadActivity } from './activity/load.js'
import { checkResponses, openApiRoutes, type ResponseCheck, type ResponseValidators } from './openapi-document.js'
import { accountUrl, enter, type FakeParts, fakeOf } from './http/request-context.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { applyProfile, loadProfile, type LoadedProfile } from '../profile/deployment-profile.js'
import type { Controller } from './control-api.js'
import { answerNodeRefusals, clientErrorHandler } from './http/error-style.js'
import { faultAnswers } from './http/fault-answers.js'
import { fastPath } from './http/fast-path.js'
import { requestJournal } from './http/request-journal.js'
import { logMode, type RequestLog } from './http/log.js'
import { registerShutdown } from './http/shutdown.js'
import control from './routes/control-routes.js'
import { CONTROL_PREFIX } from '../../schemas/common.js'
import ui, { UI_PATH } from '../watch/ui/routes.js'
import { pageSource } from './board-view.js'
import { type Endpoint, handedOnId, lazyApp } from './lazy.js'
import { routeOptions, sharedApp, wire, wireAnswers } from './shared-app.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The first account's board (the only one's, on a fake given no accounts). */
    board: Board
    /** The accounts this fake serves, each a board of its own (src/fake/accounts.ts). */
    accounts: Accounts
    /** What the control API does to the first account, callable in-process. */
    controller: Controller
    /** Every route registered, for the auth test and the control API's index. */
    endpoints: ReadonlyArray<{ method: string; url: string }>
  }
}

export interface BuildOptions extends Omit<ServerOptionsInput, 'profile'> {
  /** A scenario given as an object rather than a name or path. */
  scenarioData?: ScenarioFile
  /** An activity given as an object rather than a name or path (option activity). */
  activityData?: ActivityFile
  /** Holds every API answer against the OpenAPI document and reports those it does not describe (the test suite's check). */
  checkResponses?: ResponseCheck
  /** The check's compiled validators, shared by the fakes a test process builds (each compiles only what none before it did). */
  responseValidators?: ResponseValidators
  /** A deployment profile, by path or as an object: its points set the knobs not given here. */
  profile?: string | ProfileFile | LoadedProfile
  /** Called once per answered (or abandoned) request: the pretty request log. */
  requestLog?: RequestLog
  /** The accounts to serve, each a board of its own picked by the request's user name; default: one, `default`, with the scenario's users. */
  accounts?: readonly AccountInput[]
  /**
   * Answers kept as bytes are sent in front of Fastify (src/fake/http/fast-path.ts); default
   * true. The same bytes either way: false is the switch the tests compare them by.
   */
  fastPath?: boolean
}

/**
 * One fake: its options, its boards and its own state (FakeParts), on a Fastify app of its
 * own that holds no routes: the server, inject and close. Each request is tagged with the
 * fake's parts and handed to the app of the fake's shape (src/fake/shared-app.ts), made
 * once per process and shared by every fake of that shape: its routes, hooks, validation
 * and error answers read the request's fake from the tag.
 */
export async function buildApp(input: BuildOptions | ResolvedOptions = {}): Promise<FastifyInstance> {
  const { scenarioData, activityData, checkResponses: responseCheck, responseValidators, profile, requestLog, accounts: declared, fastPath: fast = true, ...rest } = input as BuildOptions
  const options = resolveOptions(profile === undefined ? rest : applyProfile(rest, loadProfile(profile)).options)
  const day = activityData ?? options.activity
  // checked whole against each board's values as it is built: a bad file is refused at start (by the first)
  const accounts = new Accounts(
    options,
    declared,
    scenarioData ?? options.scenario,
    () => new Board(options, scenarioData),
    (built) => {
      if (day !== undefined) built.play(loadActivity(day, built.store.validators))
    },
  )
  // the first board is built now: the routes' serializers and the OpenAPI document read it
  const board = accounts.first.board
  const routed = accounts.declared
  const json = logMode(options) === 'json'

  const app = Fastify({
    logger: json,
    // a JSON log's request lines are those of the app that answers (it has the fake's logger): one per request
    ...(json ? { disableRequestLogging: true } : {}),
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    requestTimeout: options.requestTimeout,
    connectionTimeout: options.connectionTimeout,
    // Node looks for late requests every connectionsCheckingInterval (30 s by default): a
    // shorter requestTimeout is checked often enough to hold
    // a missing Host is answered by the app in {status, message}, not by Node's bare 400
    http:
      options.requestTimeout > 0
        ? {
            requireHostHeader: false,
            connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(options.requestTimeout / 4))),
            headersTimeout: Math.min(60_000, options.requestTimeout),
          }
        : { requireHostHeader: false },
    clientErrorHandler,
    // what this app's router holds no route for (every request, until a caller adds routes to
    // it; an inject too) goes on as it came, raw: this app makes no request of its own for it
    routerOptions: {
      defaultRoute: (raw: IncomingMessage, response: ServerResponse) => route(raw, response),
      onBadUrl: (_path: string, raw: IncomingMessage, response: ServerResponse) => route(raw, response),
    },
    // any other refusal of its router (a parameter too long for a route a caller added): the app that answers meets the same
    frameworkErrors: (_error, request, reply) => {
      reply.hijack()
      route(request.raw, reply.raw)
    },
  })
  answerNodeRefusals(app.server)
  // Fastify's own listener, so far the only one: the fake's goes in its place
  const [fastifyHandler] = app.server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>
  // a JSON log's request ids, one sequence for the apps that answer the fake's requests
  const ids = requestIds()
  const shared = await sharedApp({
    options,
    board,
    validators: responseValidators,
    checked: responseCheck !== undefined,
    ...(json ? { log: { logger: app.log, genReqId: ids } } : {}),
  })
  const shutdown = registerShutdown(app, options.shutdownTimeout)
  const journal = requestJournal(board, requestLog)
  const controller = accounts.first.controller
  // the control API, its page and the document's routes: built on first use (src/fake/lazy.ts)
  const lazy = lazyApp(async () => {
    const inner = Fastify({
      ...shared.common,
      // /__mock/accounts/{name}/… is routed to the one set of control routes (one the shared app handed on comes rewritten)
      rewriteUrl: (raw) => (handedOnId(raw) === undefined ? accountUrl(raw) : (raw.url ?? '/')),
      // one log line per request, with the fake's ids (one the shared app handed on was logged there, under its id)
      ...(json
        ? {
            loggerInstance: app.log,
            logController: new LogController({ disableRequestLogging: (request: FastifyRequest | IncomingMessage) => handedOnId('raw' in request ? request.raw : request) !== undefined }),
            genReqId: (raw: IncomingMessage) => handedOnId(raw) ?? ids(raw),
          }
        : {}),
    })
    decorate(inner)
    wire(inner, { board, statusPolicy: shared.statusPolicy })
    wireAnswers(inner, { answers: shared.answers, statusPolicy: shared.statusPolicy, auth: shared.auth })
    await inner.register(openApiRoutes)
    if (options.control) {
      // /__mock/… acts on the first account, /__mock/accounts/{name}/… on that one (accountUrl)
      await inner.register(control, { prefix: CONTROL_PREFIX, accounts, stateBodyLimit: options.stateBodyLimit, ...(options.controlToken ? { token: options.controlToken } : {}) })
      // the page of the fake's day (/__mock/accounts/{name}/ui too): the watching layer's, src/watch/ui/, over this fake's accounts: src/fake/board-view.ts
      await inner.register(ui, { prefix: UI_PATH, source: pageSource(accounts), ...(options.controlToken ? { token: options.controlToken } : {}) })
    }
    await inner.ready()
    return inner
  })
  const parts: FakeParts = {
    board,
    accounts,
    routed,
    journal,
    faults: faultAnswers(options.connectionTimeout, shutdown.signal),
    shutdown,
    lazy,
    answers: shared.kept,
    front: undefined,
    requestLog,
    report: responseCheck,
  }
  /**
   * A request of this fake, entered, to the one app that answers it: the app built on first
   * use for its areas, else the shared app of its shape (told on the channel, when someone
   * listens).
   */
  const route = (raw: IncomingMessage, response: ServerResponse) => {
    enter(raw, parts)
    if (ROUTED.hasSubscribers) ROUTED.publish({ app, request: raw })
    if (shared.areaOf(raw)) lazy.route(raw, response)
    else shared.routing(raw, response)
  }

  /** The fake's decorations, on its app and on the one built on first use. */
  function decorate(instance: FastifyInstance): void {
    instance.decorate('board', board)
    instance.decorate('accounts', accounts)
    instance.decorate('controller', controller)
    instance.decorate('endpoints', endpoints)
    instance.decorate('swagger', shared.swagger)
  }
  // the routes of the fake's shape, and any a caller adds to this app
  const endpoints: Endpoint[] = [...shared.endpoints]
  decorate(app)
  // A request no route of this app answers (every one of the fake's routes) goes on through
  // the router's default route; one a caller added a route for is this app's own: the same
  // hooks then answer it as the fake's own routes (an override; not in the OpenAPI document).
  // They are added with the first such route: until then this app has no hook at all
  let ownRoutes = false
  app.addHook('onRoute', (route) => {
    if (ownRoutes) return
    ownRoutes = true
    // an inject of such a route comes here first: entered before any hook reads it
    app.addHook('onRequest', (request, _reply, done) => {
      enter(request.raw, parts)
      done()
    })
    // Fastify gives a route the hooks its context has once the registering plugin is done: these included
    wire(app, { board, statusPolicy: shared.statusPolicy, endpoints })
    wireAnswers(app, { answers: shared.answers, statusPolicy: shared.statusPolicy, auth: shared.auth, notFound: false })
    if (responseCheck !== undefined) checkResponses(app, fakeOf, responseValidators)
    // what wire's onRoute does for the routes after this one
    routeOptions(route, endpoints)
  })
  // the day's timer must not outlive the fake; nor the app built on first use
  app.addHook('onClose', async () => {
    for (const built of accounts.builtBoards()) built.activity?.stop()
    await lazy.close()
  })
  // answers already kept as bytes, in front of Fastify; none where Fastify's path does more
  // per request than the fast path could repeat (a request log, a response check, the JSON log)
  const front =
    fast && requestLog === undefined && !responseCheck && !json && !options.trustProxy
      ? fastPath({ routed, auth: shared.auth, answers: parts.answers, journal, closing: () => shutdown.closing })
      : undefined
  parts.front = front
  if (fastifyHandler !== undefined) {
    // a request goes to the app that answers it at once, or through this app's router when a caller added routes to it
    const next = (raw: IncomingMessage, response: ServerResponse) => (ownRoutes ? fastifyHandler(raw, response) : route(raw, response))
    app.server.removeListener('request', fastifyHandler)
    app.server.prependListener(
      'request',
      front === undefined
        ? next
        : (raw: IncomingMessage, response: ServerResponse) => {
            enter(raw, parts)
            if (!front.answer(raw, response, next)) next(raw, response)
          },
    )
  }
  return app
}

/** Request ids as Fastify makes them (`req-1`, `req-2`, … in base 36), one sequence for the apps of a fake's JSON log. */
function requestIds(): (raw: IncomingMessage) => string {
  let next = 0
  return () => {
    next = (next + 1) & 0x7fffffff
    return `req-${next.toString(36)}`
  }
}

/**
 * Every request a fake hands to its routes (the fake's shared app: src/fake/shared-app.ts),
 * as `{ app, request }`: what the fast path did not answer. Published only while someone
 * subscribes (node:diagnostics_channel): the tests see by it which path answered.
 */
export const ROUTED_CHANNEL = 'jobboard-kit:fake:routed'
const ROUTED = channel(ROUTED_CHANNEL)
