// Builds the Fastify instance of one fake: validation policy, error answers, the API
// under /api/v1 behind Basic auth and the rate limit, the public job pages, and the
// control API. It never listens: src/fake/server.ts and src/cli/main.ts do.
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { accountUrl, Accounts, type AccountInput } from './accounts.js'
import { Board } from './board.js'
import { boardError, sendError } from '../core/errors.js'
import type { ActivityFile, ProfileFile, ScenarioFile, ServerOptionsInput } from '../core/types.js'
import { loadActivity } from './activity/load.js'
import { checkResponses, openApiRoutes, registerDocument, type ResponseCheck, type ResponseValidators } from './openapi.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { applyProfile, loadProfile, type LoadedProfile } from '../profile/profile.js'
import type { Controller } from './control.js'
import { apiAdmission, settleLimit } from './http/admission.js'
import { type Answers, registerAnswers } from './http/answers.js'
import { type Auth, registerAuth } from './http/auth.js'
import { registerBodies, requireJson } from './http/body.js'
import { lingerOnUnread, registerDrain } from './http/drain.js'
import { withEnvelopeKeys } from './http/envelope.js'
import { answerNodeRefusals, clientErrorHandler, errorPolicy, hostRequired, frameworkErrorHandler, registerErrorAnswers, validationError } from './http/error-style.js'
import { type ArmedFault, faultAnswers } from './http/faults.js'
import { fastPath } from './http/fast-path.js'
import { requestJournal } from './http/journal.js'
import { logMode, type RequestLog } from './http/log.js'
import { documentedErrors } from './http/prefer.js'
import { serializerCompiler } from './http/serializer.js'
import { registerShutdown } from './http/shutdown.js'
import applications from './routes/applications.js'
import candidates from './routes/candidates.js'
import control, { CONTROL_PREFIX } from './routes/control.js'
import { registerHealth } from './routes/health.js'
import jobs from './routes/jobs.js'
import marketing from './routes/marketing.js'
import metrics from './routes/metrics.js'
import publicPages from './routes/public.js'
import { withErrorAnswers } from './routes/schemas.js'
import timesheets from './routes/timesheets.js'
import ui, { UI_PATH } from './ui/routes.js'
import { API_PREFIX } from './store/links.js'
import { definedRoutes, type Endpoint, HANDED_ON, handedOnId, lazyApp } from './lazy.js'

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
  interface FastifyRequest {
    /** The board this request is answered on: its account's (set first thing in onRequest). */
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
    /** Handed to the app built on first use (src/fake/lazy.ts), whose own hooks see it: the fake's onResponse leaves it. */
    handedOn: boolean
  }
  interface FastifyContextConfig {
    /** Error statuses the route documents: what Prefer: code=NNN may ask for. */
    errors?: readonly number[]
    /** The route's 200 answers are kept as bytes (src/fake/http/answers.ts): per revision, or per revision and month. */
    answerCache?: 'revision' | 'month'
    /** A catch-all route of an area built on first use (src/fake/lazy.ts). */
    handedOn?: boolean
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

const underApi = (url: string) => url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`)

/**
 * One fake: its options, its board, the request handling of each concern (src/fake/http/),
 * then the routes. Every request passes one synchronous onRequest path: shutdown, then
 * faults (before auth and the rate limit: they stand for the network and the server
 * failing); under /api/v1 the credentials, Prefer and the rate limit; then the answer cache.
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

  const statusPolicy = errorPolicy(board)
  let auth: Auth | undefined
  const json = logMode(options) === 'json'
  /** What the fake's app and its lazily built one (src/fake/lazy.ts) are both made with. */
  const common = {
    trustProxy: options.trustProxy,
    // the fake answers its own 503 while closing ({status, message}), and lets requests in flight finish
    return503OnClosing: false,
    bodyLimit: 1_048_576,
    frameworkErrors: frameworkErrorHandler(statusPolicy, () => auth),
    schemaErrorFormatter: validationError,
  }
  const app = Fastify({
    ...common,
    logger: json,
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
    // /__mock/accounts/{name}/… is routed to the one set of control routes, acting on that account
    rewriteUrl: accountUrl,
    clientErrorHandler,
  })
  answerNodeRefusals(app.server)
  // Fastify's own listener, so far the only one: the fast path goes in front of it
  const [fastifyHandler] = app.server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>
  const controller = accounts.first.controller
  const endpoints: Endpoint[] = []
  const shutdown = registerShutdown(app, options.shutdownTimeout)
  const journal = requestJournal(board, requestLog)
  const faults = faultAnswers(options.connectionTimeout, shutdown.signal)
  // the control API, its page and the document's routes: built on first use (src/fake/lazy.ts)
  const lazy = lazyApp(async () => {
    const inner = Fastify({
      ...common,
      // one log line per request, the fake's (with the request's id); the built app's errors logged with it
      ...(json ? { loggerInstance: app.log, logController: new LogController({ disableRequestLogging: true }), genReqId: handedOnId } : {}),
    })
    wire(inner, false)
    wireAnswers(inner)
    inner.decorate('swagger', ((swaggerOptions?: { yaml?: boolean }) => app.swagger(swaggerOptions as never)) as FastifyInstance['swagger'])
    await inner.register(openApiRoutes)
    if (options.control) {
      // /__mock/… acts on the first account, /__mock/accounts/{name}/… on that one (accountUrl)
      await inner.register(control, { prefix: CONTROL_PREFIX, ...controlOptions })
      // the page of the fake's day (/__mock/accounts/{name}/ui too): its page is imported on its first request (src/fake/ui/)
      await inner.register(ui, { prefix: UI_PATH, ...uiOptions })
    }
    await inner.ready()
    return inner
  })
  const controlOptions = { accounts, stateBodyLimit: options.stateBodyLimit, ...(options.controlToken ? { token: options.controlToken } : {}) }
  const uiOptions = options.controlToken ? { token: options.controlToken } : {}

  /** The decorations, the route options and the first request hook, on the fake's app (`outer`) and on the one built on first use. */
  function wire(instance: FastifyInstance, outer: boolean): void {
    instance.setSerializerCompiler(serializerCompiler)
    instance.decorate('board', board)
    instance.decorate('accounts', accounts)
    instance.decorate('controller', controller)
    instance.decorate('endpoints', endpoints)
    instance.addHook('onRoute', (route) => {
      // the catch-all routes of the lazily built areas are not listed: the areas' own routes are (definedRoutes)
      if (route.config?.[HANDED_ON] === true) return
      if (outer) for (const method of [route.method].flat()) endpoints.push({ method, url: route.url })
      const method = [route.method].flat()[0] as string
      route.config = { ...route.config, errors: documentedErrors(method, route.schema) }
      // the API's routes describe every error they may answer, for the OpenAPI document
      if (route.url.startsWith(`${API_PREFIX}/`)) route.schema = withErrorAnswers(method, route.schema)
    })
    instance.decorateRequest('board', null as unknown as Board)
    instance.decorateRequest('apiUser', '')
    instance.decorateRequest('limitKey', undefined)
    instance.decorateRequest('windowOpened', undefined)
    instance.decorateRequest('fault', undefined)
    instance.decorateRequest('answerKey', undefined)
    instance.decorateRequest('answerMonth', undefined)
    instance.decorateRequest('nextPage', undefined)
    instance.decorateRequest('handedOn', false)
    // what the journal shows of a request and its answer (src/fake/http/journal.ts)
    instance.decorateRequest('rawBody', undefined)
    instance.decorateRequest('sentPayload', undefined)

    registerBodies(instance, board, routed)
    registerDrain(instance)

    instance.addHook('onRequest', (request, reply, done) => {
      const url = request.url
      // a lazily built area's: its own app answers it, these hooks included (src/fake/lazy.ts)
      if (outer && handedOnArea(url) && request.routeOptions.config[HANDED_ON] === true) {
        request.handedOn = true
        lazy.handOn(request, reply)
        return done()
      }
      // the request's account first: faults, the journal, the windows and the store are its own
      let board = app.board
      // every hook after this one reads request.board: a refusal here is answered on the first account's
      request.board = board
      if (routed) {
        try {
          board = accounts.boardOf(request)
        } catch (error) {
          sendError(request, reply, error, statusPolicy)
          return
        }
        request.board = board
      }
      if (hostRequired(request, reply, statusPolicy)) return
      // the day's events up to now happen before the request is seen (an outage arms its fault)
      board.activity?.catchUp()
      if (shutdown.closing) {
        sendError(request, reply, boardError.shuttingDown(), statusPolicy)
        return
      }
      if (url.startsWith(CONTROL_PREFIX)) return done()
      const fault = board.faults.take(request.method, url)
      // API requests are watched once they miss the answer cache (src/fake/http/answers.ts)
      if (fault !== undefined || !underApi(url)) journal.watchClose(request, reply)
      if (fault === undefined) return done()
      faults.meet(request, reply, fault, done)
    })
  }

  /** The answer's last steps, on both apps: onSend, onResponse, the error and 404 answers. */
  function wireAnswers(instance: FastifyInstance): void {
    // one onSend: the shutdown's Connection: close, the rest of a body answered before it was
    // read (a lingering close), the keys a profile adds to envelopes, links on the request's
    // origin and the answer cache, and a truncate fault
    instance.addHook('onSend', (request, reply, payload, done) => {
      if (shutdown.closing) reply.header('connection', 'close')
      lingerOnUnread(request, reply)
      const sent = faults.truncate(request, reply, answers.keep(request, reply, withEnvelopeKeys(request, reply, payload, board)))
      // the journal holds a reference to the answer as sent, shown when asked for
      request.sentPayload = sent
      done(null, sent)
    })
    instance.addHook('onResponse', (request, reply, done) => {
      // handed on: the built app's own onResponse saw it
      if (request.handedOn) return done()
      settleLimit(request, reply.statusCode)
      // a 429 of the rate limit, a job/add body's 412: the fast path sends it again
      if (front !== undefined && reply.statusCode >= 400) front.keepRefusal(request, reply)
      if (!request.url.startsWith(CONTROL_PREFIX)) journal.record(request, reply.statusCode, undefined, reply)
      requestLog?.(request, reply, reply.statusCode)
      done()
    })
    registerErrorAnswers(instance, statusPolicy, auth as Auth)
  }

  wire(app, true)
  // the day's timer must not outlive the fake; nor the app built on first use
  app.addHook('onClose', async () => {
    for (const built of accounts.builtBoards()) built.activity?.stop()
    await lazy.close()
  })
  auth = await registerAuth(app, board)
  const answers: Answers = registerAnswers(app, board, journal.watchClose, routed)
  // answers already kept as bytes, in front of Fastify; none where Fastify's path does more
  // per request than the fast path could repeat (a request log, a response check, the JSON log)
  const front =
    fast && fastifyHandler !== undefined && requestLog === undefined && !responseCheck && logMode(options) !== 'json' && !options.trustProxy
      ? fastPath({ first: () => app.board, accounts, routed, auth, answers: answers.cache, journal, closing: () => shutdown.closing })
      : undefined
  if (front !== undefined && fastifyHandler !== undefined) {
    app.server.removeListener('request', fastifyHandler)
    app.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!front.answer(request, response, fastifyHandler)) fastifyHandler(request, response)
    })
  }
  wireAnswers(app)
  // last of the onSend hooks: it sees the answer as it leaves
  if (responseCheck) checkResponses(app, responseCheck, responseValidators)

  registerDocument(app)
  // the document's routes, answered by the app built on first use
  handOn(app, OPENAPI_URLS, definedRoutes(openApiRoutes, '', undefined))
  // answered whatever --control says, without the token: the container's health check (routes/health.ts)
  registerHealth(app)
  await app.register(
    async (api) => {
      api.addHook('onRequest', apiAdmission(auth, options.prefer, statusPolicy))
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
  await publicPages(app)
  if (options.control) {
    handOn(app, CONTROL_URLS, [...definedRoutes(control, CONTROL_PREFIX, controlOptions), ...definedRoutes(ui, UI_PATH, uiOptions)])
  }
  return app

  /**
   * An area built on first use: its routes listed in `endpoints` from their definitions, and
   * a catch-all route at each of `urls` for the methods they answer (another method's 404
   * is the fake's own, the same answer).
   */
  function handOn(instance: FastifyInstance, urls: readonly string[], defined: readonly Endpoint[]): void {
    endpoints.push(...defined)
    const method = [...new Set(defined.map((route) => route.method))]
    for (const url of urls) instance.route({ method, url, ...HAND_ON, handler: unreachable })
  }
}

/** The catch-all routes of the areas built on first use (/__mock/health is the fake's own: a static route wins over them). */
const OPENAPI_URLS = ['/openapi.json', '/openapi.yaml', '/docs', '/docs/*']
const CONTROL_URLS = [CONTROL_PREFIX, `${CONTROL_PREFIX}/*`]
const HAND_ON = { config: { [HANDED_ON]: true } }
/** What the onRequest hook hands on never reaches a handler. */
const unreachable = async () => {
  throw new Error('a request handed on reached its catch-all route')
}
/** The URLs a catch-all route may match: only these read the route's config. */
const handedOnArea = (url: string) => url.startsWith(CONTROL_PREFIX) || url.startsWith('/openapi.') || url.startsWith('/docs')
