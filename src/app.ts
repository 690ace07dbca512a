// Builds the Fastify instance of one fake: validation policy, error answers, the API
// under /api/v1 behind Basic auth and the rate limit, the public job pages, and the
// control API. It never listens: src/server.ts and src/cli.ts do.
import basicAuth from '@fastify/basic-auth'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchemaValidationError } from 'fastify'
import type { FastifyValidationResult } from 'fastify/types/schema.js'
import { jobIdBody, jobIdFieldBody, jobInput, jobInputLenient } from '../schemas/job.js'
import { REALM } from './http/auth.js'
import { Board } from './board.js'
import { BoardError, boardError, BoardInputError, clientErrorResponse, sendError } from './core/errors.js'
import { errorPolicy } from './http/error-style.js'
import { logMode, type RequestLog } from './http/log.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { Controller } from './control.js'
import type { ArmedFault } from './http/faults.js'
import { checkResponses, registerOpenApi, type ResponseCheck } from './openapi.js'
import { AnswerCache } from './http/answers.js'
import { serializerCompiler } from './http/serializer.js'
import { documentedErrors, parsePrefer, preferredError } from './http/prefer.js'
import { requestKey } from './http/rate-limit.js'
import control, { CONTROL_PREFIX } from './routes/control.js'
import applications from './routes/applications.js'
import candidates from './routes/candidates.js'
import jobs from './routes/jobs.js'
import marketing from './routes/marketing.js'
import metrics from './routes/metrics.js'
import publicPages from './routes/public.js'
import { baseUrl, isInProcess } from './routes/reply.js'
import { withErrorAnswers } from './routes/schemas.js'
import timesheets from './routes/timesheets.js'
import { API_PREFIX } from './store/links.js'
import type { ProfileFile, ScenarioFile, ServerOptionsInput } from './core/types.js'
import { applyProfile, loadProfile, type LoadedProfile } from './profile.js'
import type { Ajv, ValidateFunction } from 'ajv'
import { compileSchema, createAjv, MAX_JSON_DEPTH, TEXT_POLICY, textNestsDeeper } from './core/validation.js'
import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'

declare module 'fastify' {
  interface FastifyInstance {
    board: Board
    /** What the control API does, callable in-process. */
    controller: Controller
    /** Every route registered, for the auth test and the control API's index. */
    endpoints: ReadonlyArray<{ method: string; url: string }>
  }
  interface FastifyRequest {
    /** The API user the request authenticated as ('' before auth). */
    apiUser: string
    /** The rate-limit window this request opened, if any. */
    limitKey: string | undefined
    /** The fault this request met, if any. */
    fault: ArmedFault | undefined
    /** Where this request's answer is kept once made, when its route's answers are cached and it missed. */
    answerKey: string | undefined
    /** The month that answer depends on, if it does. */
    answerMonth: string | undefined
  }
  interface FastifyContextConfig {
    /** Error statuses the route documents: what Prefer: code=NNN may ask for. */
    errors?: number[]
    /** The route's 200 answers are kept as bytes (src/http/answers.ts): per revision, or per revision and month. */
    answerCache?: 'revision' | 'month'
  }
}

export interface BuildOptions extends Omit<ServerOptionsInput, 'profile'> {
  /** A scenario given as an object rather than a name or path. */
  scenarioData?: ScenarioFile
  /** Holds every API answer against the OpenAPI document and reports those it does not describe (the test suite's check). */
  checkResponses?: ResponseCheck
  /** A deployment profile, by path or as an object: its points set the knobs not given here. */
  profile?: string | ProfileFile | LoadedProfile
  /** Called once per answered (or abandoned) request: the pretty request log. */
  requestLog?: RequestLog
}

/** The first half of a body (a string, bytes or a download's stream), then a failure, so the connection closes short of Content-Length. */
function cutShort(body: Buffer | Readable, length: number): Readable {
  const half = Math.floor(length / 2)
  return Readable.from(
    (async function* () {
      let sent = 0
      for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
        const piece = (chunk as Buffer).subarray(0, half - sent)
        sent += piece.length
        if (piece.length > 0) yield piece
        if (sent >= half) break
      }
      await new Promise((resolve) => setImmediate(resolve))
      throw new Error('body cut short by a fault')
    })(),
    { objectMode: false },
  )
}

const faultKind = (fault: ArmedFault) =>
  fault.drop ? 'drop' : fault.truncate ? 'truncate' : fault.status !== undefined ? `status ${fault.status}` : `delay ${fault.delayMs ?? 0} ms`

/**
 * Body validators look the board up on every call: a reset may bring other constrained
 * values (job/fields) or another unknown-field policy without rebuilding the routes.
 */
function bodyValidator(board: Board, schema: object, url: string): FastifyValidationResult {
  const closeOrExpire = schema === jobIdBody && /\/job\/(close|expire)$/.test(url)
  const validate = (data: unknown): boolean | { value: unknown } => {
    if (closeOrExpire && board.scenario.behaviour.closeExpireIdField === 'job_id') {
      // behaviour.closeExpireIdField: the deployment's {job_id} becomes the {id} the route reads
      const check = board.store.validators.get(jobIdFieldBody)
      const ok = check(data)
      validate.errors = check.errors as FastifySchemaValidationError[] | null | undefined
      return ok ? { value: { id: (data as { job_id: number }).job_id } } : false
    }
    const lenient = schema === jobInput && board.scenario.behaviour.unknownJobFields === 'ignore'
    const check = board.store.validators.get(lenient ? jobInputLenient : schema)
    const ok = check(data)
    validate.errors = check.errors as FastifySchemaValidationError[] | null | undefined
    if (!ok) return false
    if (!lenient) return true
    const known = Object.keys(jobInput.properties)
    return { value: Object.fromEntries(Object.entries(data as object).filter(([key]) => known.includes(key))) }
  }
  validate.errors = null as FastifySchemaValidationError[] | null | undefined
  return validate as FastifyValidationResult
}

/** Keys a JSON body may not hold: they would reach an object's prototype if merged into one. */
const POISON = /__proto__|constructor|\\u/
const refusePoison = (key: string, value: unknown) => {
  if (key === '__proto__' || (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype'))) {
    throw new BoardInputError(key, `The body holds the key ${key}, which is refused: no field of the API or the control API has that name.`)
  }
  return value
}

/**
 * The one JSON body parser: malformed text is a 400, a prototype key or nesting deeper
 * than MAX_JSON_DEPTH a 412 naming it; "not valid JSON" is said only of text that is not.
 */
function parseJson(_request: FastifyRequest, text: string | Buffer, done: (error: Error | null, body?: unknown) => void): void {
  const body = typeof text === 'string' ? text : text.toString('utf8')
  if (body.trim().length === 0) {
    done(new BoardError('MALFORMED_BODY', 'The body is empty; a JSON object is required.'))
    return
  }
  let parsed: unknown
  try {
    parsed = POISON.test(body) ? JSON.parse(body, refusePoison) : JSON.parse(body)
  } catch (error) {
    done(error instanceof BoardInputError ? error : new BoardError('MALFORMED_BODY', 'The body is not valid JSON.'))
    return
  }
  if (textNestsDeeper(body)) {
    done(new BoardInputError('', `The body nests deeper than ${MAX_JSON_DEPTH} levels; no input of the fake does.`))
    return
  }
  done(null, parsed)
}

/** Sends `{status, message}` for a framework error raised before routing, checking credentials first under /api/v1. */
type Authenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/**
 * ajv's coercion reads integers the way Number() does ("1e3", "0x10", " 7"); a query or
 * path integer must be written in plain digits, so those are refused first.
 */
function textValidator(board: Board, compile: () => ValidateFunction, schema: object): FastifyValidationResult {
  // compiled on the route's first request: most routes of a fake never see one
  let compiled: ValidateFunction | undefined
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {}
  const integers = Object.keys(properties).filter((key) => properties[key]?.type === 'integer')
  const validate = (data: Record<string, unknown>): boolean => {
    const bad = integers.filter((key) => typeof data?.[key] === 'string' && !/^-?[0-9]+$/.test(data[key] as string))
    if (bad.length > 0) {
      validate.errors = bad.map((key) => ({ keyword: 'type', instancePath: `/${key}`, schemaPath: `#/properties/${key}/type`, params: { type: 'integer' }, message: 'must be integer' }))
      return false
    }
    compiled ??= compile()
    const coercing = compiled
    let ok = coercing(data)
    // behaviour.malformedSince "ignore": a since that alone is wrong is dropped, and the whole list answered
    if (!ok && board.scenario.behaviour.malformedSince === 'ignore' && coercing.errors?.every((e) => e.instancePath === '/since')) {
      delete data.since
      ok = coercing(data)
    }
    validate.errors = coercing.errors as FastifySchemaValidationError[] | null | undefined
    return ok
  }
  validate.errors = null as FastifySchemaValidationError[] | null | undefined
  return validate as FastifyValidationResult
}

export async function buildApp(input: BuildOptions | ResolvedOptions = {}): Promise<FastifyInstance> {
  const { scenarioData, checkResponses: responseCheck, profile, requestLog, ...rest } = input as BuildOptions
  const options = resolveOptions(profile === undefined ? rest : applyProfile(rest, loadProfile(profile)).options)
  const board = new Board(options, scenarioData)

  // framework errors met before routing (a % that escapes nothing, an over-long id) answer
  // through the one error handler too, after the credentials under /api/v1
  let authenticateFirst: Authenticate | undefined
  const statusPolicy = errorPolicy(board)
  const app = Fastify({
    logger: logMode(options) === 'json',
    trustProxy: options.trustProxy,
    // the fake answers its own 503 while closing ({status, message}), and lets requests in flight finish
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    requestTimeout: options.requestTimeout,
    connectionTimeout: options.connectionTimeout,
    // Node looks for late requests every connectionsCheckingInterval (30 s by default): a
    // shorter requestTimeout is checked often enough to hold
    http:
      options.requestTimeout > 0
        ? {
            connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(options.requestTimeout / 4))),
            headersTimeout: Math.min(60_000, options.requestTimeout),
          }
        : null,
    bodyLimit: 1_048_576,
    frameworkErrors: (error, request, reply) => {
      const underApi = request.url === API_PREFIX || request.url.startsWith(`${API_PREFIX}/`)
      const check = underApi && authenticateFirst ? authenticateFirst(request, reply) : Promise.resolve()
      check.then(
        () => sendError(request, reply, error, statusPolicy),
        (refusal: unknown) => sendError(request, reply, refusal, statusPolicy),
      )
    },
    // what Node's parser refuses (a 16 KiB header, a body that never ends) never reaches Fastify
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
      if (socket.writable && !pending?.headersSent) socket.end(clientErrorResponse(error))
      else socket.destroy()
    },
  })
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('board', board)
  const controller = new Controller(() => app.board)
  app.decorate('controller', controller)
  const endpoints: Array<{ method: string; url: string }> = []
  app.decorate('endpoints', endpoints)
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) endpoints.push({ method, url: route.url })
    const method = [route.method].flat()[0] as string
    route.config = { ...route.config, errors: documentedErrors(method, route.schema) }
    // the API's routes describe every error they may answer, for the OpenAPI document
    if (route.url.startsWith(`${API_PREFIX}/`)) route.schema = withErrorAnswers(method, route.schema)
  })
  app.decorateRequest('apiUser', '')
  app.decorateRequest('limitKey', undefined)
  app.decorateRequest('fault', undefined)
  app.decorateRequest('answerKey', undefined)
  app.decorateRequest('answerMonth', undefined)

  // query strings and paths are text: coerce them; JSON bodies are validated as sent
  // one instance for the routes whose schemas were not precompiled, made when the first is needed
  let paramsAjv: Ajv | undefined
  app.setValidatorCompiler(({ schema, httpPart, url }) =>
    httpPart === 'body' ? bodyValidator(board, schema, url) : textValidator(board, () => compileSchema(TEXT_POLICY, schema, () => (paramsAjv ??= createAjv(TEXT_POLICY))), schema),
  )
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, statusPolicy))
  // JSON is the only body the API and the control API take
  app.removeContentTypeParser('text/plain')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson)

  // shutdown: new requests get a 503 at once, those in flight finish (held delays are
  // released), and after shutdownTimeout the connections still open are closed
  let shuttingDown = false
  app.addHook('preClose', async () => {
    shuttingDown = true
    closing.abort()
    if (options.shutdownTimeout > 0) setTimeout(() => app.server.closeAllConnections(), options.shutdownTimeout).unref()
  })

  // a delay fault must not keep a closed fake's process alive
  const closing = new AbortController()
  app.addHook('onClose', async () => closing.abort())
  /** Waits out a delay fault, or less: clearing the faults, a reset or close() releases it. */
  const hold = async (request: FastifyRequest, ms: number) => {
    // the socket's silence timeout must not cut a delay the test asked for
    if (!isInProcess(request) && options.connectionTimeout > 0) request.raw.socket.setTimeout(ms + options.connectionTimeout)
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([closing.signal, board.faults.released]), ref: false })
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error
    }
  }

  const journal = (request: FastifyRequest, status: number, extra?: string) => {
    const fault = request.fault ? faultKind(request.fault) : undefined
    const note = fault === undefined ? extra : extra === undefined ? fault : `${fault}; ${extra}`
    // the time is formatted when the journal is read
    board.journal.record({
      method: request.method,
      url: request.url,
      status,
      time: board.clock.now(),
      user: request.apiUser,
      ...(note ? { fault: note } : {}),
    })
  }
  /**
   * Answers cut short, dropped or given up on never reach onResponse: the journal sees
   * them when the connection closes. Watched only where that can happen: a fault, a
   * download, a handler at work; not a cached answer sent at once.
   */
  const watchClose = (request: FastifyRequest, reply: FastifyReply) => {
    if (isInProcess(request)) return
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished) return
      const status = reply.raw.headersSent ? reply.statusCode : 0
      journal(request, status, request.fault ? undefined : 'the client closed the connection')
      requestLog?.(request, reply, status)
    })
  }
  const underApi = (url: string) => url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`)

  /** What an armed fault does instead of (or before) the answer. */
  const applyFault = (request: FastifyRequest, reply: FastifyReply, fault: ArmedFault, done: () => void) => {
    if (fault.drop) {
      if (!isInProcess(request)) {
        reply.hijack()
        request.raw.socket.destroy()
        return
      }
      // in-process there is no connection to drop: say so, and let interceptBoard turn it into a network error
      reply
        .code(502)
        .header('x-jobboard-kit-fault', 'drop')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ status: 502, message: 'The connection was dropped (an armed fault).' }))
      return
    }
    if (fault.status !== undefined) {
      const body = fault.body ?? { status: fault.status, message: `An armed fault answered ${fault.status}.` }
      reply
        .code(fault.status)
        .headers(fault.headers ?? {})
        .type(typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8')
        .send(typeof body === 'string' ? body : JSON.stringify(body))
      return
    }
    done()
  }

  // One synchronous path before routing work: shutdown, then faults (before auth and the
  // rate limit: they stand for the network and the server failing). Only a delay waits.
  app.addHook('onRequest', (request, reply, done) => {
    if (shuttingDown) {
      sendError(request, reply, boardError.shuttingDown(), statusPolicy)
      return
    }
    const url = request.url
    if (url.startsWith(CONTROL_PREFIX)) return done()
    const fault = board.faults.take(request.method, url)
    // API requests are watched once they miss the answer cache (below)
    if (fault !== undefined || !underApi(url)) watchClose(request, reply)
    if (fault === undefined) return done()
    request.fault = fault
    if (!fault.delayMs) return applyFault(request, reply, fault, done)
    hold(request, fault.delayMs).then(
      () => applyFault(request, reply, fault, done),
      (error: Error) => done(error),
    )
  })

  // records carry links on the store's origin; answer with the request's when they differ.
  // A saved board keeps the store's own links, so that it restores anywhere.
  const withLinks = (request: FastifyRequest, text: string): string => {
    const from = board.store.links.base
    const to = baseUrl(request)
    if (from === to || request.url.startsWith(`${CONTROL_PREFIX}/state`)) return text
    return text.replaceAll(`"href":"${from}/`, `"href":"${to}/`)
  }
  const answers = new AnswerCache()
  // one onSend: the shutdown's Connection: close, links on the request's origin (once per
  // cached answer), filling the answer cache, and a truncate fault
  app.addHook('onSend', (request, reply, payload, done) => {
    if (shuttingDown) reply.header('connection', 'close')
    let out = payload
    if (typeof payload === 'string') {
      out = withLinks(request, payload)
      const key = request.answerKey
      if (key !== undefined && reply.statusCode === 200 && request.fault === undefined && payload.startsWith('{"status":200')) {
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8')
        answers.set(key, { body: Buffer.from(out as string), contentType, store: board.store, revision: board.store.revision, month: request.answerMonth })
      }
    }
    if (!request.fault?.truncate || out === null || out === undefined) return done(null, out)
    if (isInProcess(request)) {
      reply.header('x-jobboard-kit-fault', 'truncate')
      return done(null, out)
    }
    // a download's stream already carries its Content-Length; a body in memory gets one here
    if (out instanceof Readable) return done(null, cutShort(out, Number(reply.getHeader('content-length') ?? 0)))
    const bytes = Buffer.isBuffer(out) ? out : Buffer.from(String(out))
    reply.header('content-length', String(bytes.length))
    done(null, cutShort(bytes, bytes.length))
  })
  // last of the onSend hooks: it sees the answer as it leaves
  if (responseCheck) checkResponses(app, responseCheck)
  app.addHook('onResponse', (request, reply, done) => {
    if (request.limitKey !== undefined) board.limiter.settle(request.limitKey, reply.statusCode)
    if (!request.url.startsWith(CONTROL_PREFIX)) journal(request, reply.statusCode)
    requestLog?.(request, reply, reply.statusCode)
    done()
  })

  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    await new Promise<void>((resolve, reject) => app.basicAuth(request, reply, (error?: Error) => (error ? reject(error) : resolve())))
  }
  authenticateFirst = authenticate
  await app.register(basicAuth, {
    authenticate: { realm: REALM },
    validate: (username: string, password: string, request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (!board.checkCredentials(username, password)) return done(boardError.unauthorized(REALM, 'Wrong user name or password.'))
      request.apiUser = username
      done()
    },
  })
  // Authorization headers already accepted, per credential set: a known header skips the
  // decoding and the constant-time comparison; an unknown one is checked in full.
  let knownFor = board.checkCredentials
  const known = new Map<string, string>()
  const knownUser = (header: string | undefined): string | undefined => {
    if (knownFor !== board.checkCredentials) {
      known.clear()
      knownFor = board.checkCredentials
    }
    return header === undefined ? undefined : known.get(header)
  }
  const rememberUser = (header: string | undefined, user: string) => {
    if (header === undefined || knownFor !== board.checkCredentials) return
    if (known.size >= 1_000) known.clear()
    known.set(header, user)
  }

  /** After the credentials: Prefer, then the rate limit; a refusal answers at once. */
  const admitted = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (options.prefer && request.headers.prefer !== undefined) {
      const preference = parsePrefer(request.headers.prefer)
      if (preference) {
        const window = board.scenario.rateLimitWindow || 900
        return done(preferredError(preference, request.routeOptions.config.errors ?? [], window, `${request.method} ${request.routeOptions.url}`))
      }
    }
    if (board.limiter.enabled) {
      const key = requestKey(request.apiUser, request.method, request.url)
      const admission = board.limiter.admit(key)
      if (!admission.admitted) {
        sendError(request, reply, boardError.rateLimited(admission.retryAfter), statusPolicy)
        return
      }
      request.limitKey = key
    }
    done()
  }

  /** The route-level end of the API's onRequest path: a cached answer, or on to the handler. */
  const answerFrom = (mode: 'revision' | 'month' | undefined) => (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (mode !== undefined && request.method === 'GET') {
      const store = board.store
      const month = mode === 'month' ? store.now().slice(0, 7) : undefined
      const key = `${baseUrl(request)} ${request.url}`
      const hit = answers.get(key, store, month)
      if (hit !== undefined) {
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
    route.onRequest = [...own, answerFrom(route.config?.answerCache)] as typeof route.onRequest
  })

  app.setNotFoundHandler(
    {
      // the whole API is behind auth, paths that answer nothing included
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (request.url.startsWith(`${API_PREFIX}/`) || request.url === API_PREFIX) await authenticate(request, reply)
      },
    },
    async (request, reply) => sendError(request, reply, boardError.noRoute(request.method, request.url), statusPolicy),
  )

  await registerOpenApi(app)
  await app.register(
    async (api) => {
      // credentials (remembered per Authorization header), Prefer and the rate limit, in one
      // synchronous hook; the route's own hook (answerFrom) may then answer from the cache
      api.addHook('onRequest', (request, reply, done) => {
        const header = request.headers.authorization
        const user = knownUser(header)
        if (user !== undefined) {
          request.apiUser = user
          return admitted(request, reply, done)
        }
        app.basicAuth(request, reply, (error?: Error) => {
          if (error) return done(error)
          rememberUser(header, request.apiUser)
          admitted(request, reply, done)
        })
      })
      // the spec: POST bodies are JSON sent as application/json; a body in another type (or none) is refused as such
      api.addHook('preValidation', (request, _reply, done) => {
        if (request.method === 'POST' && !/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
          return done(new BoardError('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON, sent with Content-Type: application/json.'))
        }
        done()
      })
      await api.register(candidates)
      await api.register(applications)
      await api.register(timesheets)
      await api.register(marketing)
      await api.register(metrics)
      await api.register(jobs)
    },
    { prefix: API_PREFIX },
  )
  await app.register(publicPages)
  if (options.control) {
    await app.register(control, {
      prefix: CONTROL_PREFIX,
      controller,
      stateBodyLimit: options.stateBodyLimit,
      ...(options.controlToken ? { token: options.controlToken } : {}),
    })
  }
  return app
}
