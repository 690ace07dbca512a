// Builds the Fastify instance of one fake: validation policy, error answers, the API
// under /api/v1 behind Basic auth and the rate limit, the public job pages, and the
// control API. It never listens: src/server.ts and src/cli.ts do.
import basicAuth from '@fastify/basic-auth'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchemaValidationError } from 'fastify'
import type { FastifyValidationResult } from 'fastify/types/schema.js'
import { formatOption } from '../schemas/formats.js'
import { jobIdBody, jobIdFieldBody, jobInput, jobInputLenient } from '../schemas/job.js'
import { REALM } from './auth.js'
import { Board } from './board.js'
import { BoardError, boardError, BoardInputError, clientErrorResponse, sendError } from './errors.js'
import { errorPolicy } from './error-style.js'
import { logMode, type RequestLog } from './log.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { Controller } from './control.js'
import type { ArmedFault } from './faults.js'
import { checkResponses, registerOpenApi, type ResponseCheck } from './openapi.js'
import { documentedErrors, parsePrefer, preferredError } from './prefer.js'
import { requestKey } from './rate-limit.js'
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
import type { ProfileFile, ScenarioFile, ServerOptionsInput } from './types.js'
import { applyProfile, loadProfile, type LoadedProfile } from './profile.js'
import type { ValidateFunction } from 'ajv'
import { createAjv, MAX_JSON_DEPTH, textNestsDeeper } from './validation.js'
import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { formatTimestamp } from './time.js'

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
  }
  interface FastifyContextConfig {
    /** Error statuses the route documents: what Prefer: code=NNN may ask for. */
    errors?: number[]
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
function textValidator(board: Board, coercing: ValidateFunction, schema: object): FastifyValidationResult {
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {}
  const integers = Object.keys(properties).filter((key) => properties[key]?.type === 'integer')
  const validate = (data: Record<string, unknown>): boolean => {
    const bad = integers.filter((key) => typeof data?.[key] === 'string' && !/^-?[0-9]+$/.test(data[key] as string))
    if (bad.length > 0) {
      validate.errors = bad.map((key) => ({ keyword: 'type', instancePath: `/${key}`, schemaPath: `#/properties/${key}/type`, params: { type: 'integer' }, message: 'must be integer' }))
      return false
    }
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
    // the serializer resolves anyOf (next_page) with its own ajv: it must know the spec's formats
    serializerOpts: { ajv: { formats: formatOption() } },
  })
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

  // query strings and paths are text: coerce them; JSON bodies are validated as sent
  const paramsAjv = createAjv({ coerce: true })
  app.setValidatorCompiler(({ schema, httpPart, url }) =>
    httpPart === 'body' ? bodyValidator(board, schema, url) : textValidator(board, paramsAjv.compile(schema), schema),
  )
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, statusPolicy))
  // JSON is the only body the API and the control API take
  app.removeContentTypeParser('text/plain')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson)

  // shutdown: new requests get a 503 at once, those in flight finish (held delays are
  // released), and after shutdownTimeout the connections still open are closed
  let shuttingDown = false
  app.addHook('onRequest', async (request, reply) => {
    if (shuttingDown) return sendError(request, reply, boardError.shuttingDown(), statusPolicy)
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    if (shuttingDown) reply.header('connection', 'close')
    return payload
  })
  app.addHook('preClose', async () => {
    shuttingDown = true
    closing.abort()
    if (options.shutdownTimeout > 0) setTimeout(() => app.server.closeAllConnections(), options.shutdownTimeout).unref()
  })

  // records carry links on the store's origin; answer with the request's when they differ.
  // A saved board keeps the store's own links, so that it restores anywhere.
  app.addHook('onSend', async (request, _reply, payload) => {
    const from = board.store.links.base
    const to = baseUrl(request)
    if (typeof payload !== 'string' || from === to || request.url.startsWith(`${CONTROL_PREFIX}/state`)) return payload
    return payload.replaceAll(`"href":"${from}/`, `"href":"${to}/`)
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
    const note = [fault, extra].filter(Boolean).join('; ')
    board.journal.record({
      method: request.method,
      url: request.url,
      status,
      time: formatTimestamp(board.clock.now()),
      user: request.apiUser,
      ...(note ? { fault: note } : {}),
    })
  }
  // faults come first, before auth and the rate limit: they stand for the network and the server failing
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(CONTROL_PREFIX)) return
    if (!isInProcess(request)) {
      // answers cut short, dropped or given up on never reach onResponse: the journal sees them here
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished) return
        const status = reply.raw.headersSent ? reply.statusCode : 0
        journal(request, status, request.fault ? undefined : 'the client closed the connection')
        requestLog?.(request, reply, status)
      })
    }
    const fault = board.faults.take(request.method, request.url)
    if (!fault) return
    request.fault = fault
    if (fault.delayMs) await hold(request, fault.delayMs)
    if (fault.drop) {
      if (!isInProcess(request)) {
        reply.hijack()
        request.raw.socket.destroy()
        return reply
      }
      // in-process there is no connection to drop: say so, and let interceptBoard turn it into a network error
      return reply
        .code(502)
        .header('x-jobboard-kit-fault', 'drop')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ status: 502, message: 'The connection was dropped (an armed fault).' }))
    }
    if (fault.status !== undefined) {
      const body = fault.body ?? { status: fault.status, message: `An armed fault answered ${fault.status}.` }
      return reply
        .code(fault.status)
        .headers(fault.headers ?? {})
        .type(typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8')
        .send(typeof body === 'string' ? body : JSON.stringify(body))
    }
  })
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.fault?.truncate || payload === null || payload === undefined) return payload
    if (isInProcess(request)) {
      reply.header('x-jobboard-kit-fault', 'truncate')
      return payload
    }
    // a download's stream already carries its Content-Length; a body in memory gets one here
    if (payload instanceof Readable) return cutShort(payload, Number(reply.getHeader('content-length') ?? 0))
    const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload))
    reply.header('content-length', String(bytes.length))
    return cutShort(bytes, bytes.length)
  })
  // last of the onSend hooks: it sees the answer as it leaves
  if (responseCheck) checkResponses(app, responseCheck)
  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith(CONTROL_PREFIX)) journal(request, reply.statusCode)
    requestLog?.(request, reply, reply.statusCode)
  })

  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    await new Promise<void>((resolve, reject) => app.basicAuth(request, reply, (error?: Error) => (error ? reject(error) : resolve())))
  }
  authenticateFirst = authenticate
  await app.register(basicAuth, {
    authenticate: { realm: REALM },
    validate: async (username: string, password: string, request: FastifyRequest) => {
      if (!board.checkCredentials(username, password)) throw boardError.unauthorized(REALM, 'Wrong user name or password.')
      request.apiUser = username
    },
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
      api.addHook('onRequest', authenticate)
      // the spec: POST bodies are JSON sent as application/json; a body in another type (or none) is refused as such
      api.addHook('preValidation', async (request) => {
        if (request.method === 'POST' && !/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
          throw new BoardError('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON, sent with Content-Type: application/json.')
        }
      })
      if (options.prefer) {
        api.addHook('onRequest', async (request) => {
          const preference = parsePrefer(request.headers.prefer)
          if (!preference) return
          const window = board.scenario.rateLimitWindow || 900
          throw preferredError(preference, request.routeOptions.config.errors ?? [], window, `${request.method} ${request.routeOptions.url}`)
        })
      }
      api.addHook('onRequest', async (request, reply) => {
        const key = requestKey(request.apiUser, request.method, request.url)
        const admission = board.limiter.admit(key)
        if (!admission.admitted) return sendError(request, reply, boardError.rateLimited(admission.retryAfter), statusPolicy)
        request.limitKey = key
      })
      api.addHook('onResponse', async (request, reply) => {
        if (request.limitKey !== undefined) board.limiter.settle(request.limitKey, reply.statusCode)
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
