// Builds the Fastify instance of one fake: validation policy, error answers, the API
// under /api/v1 behind Basic auth and the rate limit, the public job pages, and the
// control API. It never listens: src/server.ts and src/cli.ts do.
import basicAuth from '@fastify/basic-auth'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchemaValidationError } from 'fastify'
import type { FastifyValidationResult } from 'fastify/types/schema.js'
import { formatOption } from '../schemas/formats.js'
import { jobInput, jobInputLenient } from '../schemas/job.js'
import { REALM } from './auth.js'
import { Board } from './board.js'
import { BoardError, boardError, sendError, type HttpStatusPolicy } from './errors.js'
import { logMode, type RequestLog } from './log.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { Controller } from './control.js'
import type { ArmedFault } from './faults.js'
import { registerOpenApi } from './openapi.js'
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
import timesheets from './routes/timesheets.js'
import { API_PREFIX } from './store/links.js'
import type { ScenarioFile, ServerOptionsInput } from './types.js'
import type { ValidateFunction } from 'ajv'
import { createAjv } from './validation.js'
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

export interface BuildOptions extends ServerOptionsInput {
  /** A scenario given as an object rather than a name or path. */
  scenarioData?: ScenarioFile
  /** Called once per answered (or abandoned) request: the pretty request log. */
  requestLog?: RequestLog
}

/** The HTTP status for a JSON error: the body's, or 200 for 404/412 when behaviour.errorHttpStatus is "ok". */
function httpStatusPolicy(board: Board): HttpStatusPolicy {
  return (status, request) =>
    board.scenario.behaviour.errorHttpStatus === 'ok' && (status === 404 || status === 412) && request.url.startsWith(`${API_PREFIX}/`)
      ? 200
      : status
}

/** A stream of the first half of a body that then fails, so the connection closes short of Content-Length. */
function cutShort(bytes: Buffer): Readable {
  let sent = false
  return new Readable({
    read() {
      if (sent) return
      sent = true
      this.push(bytes.subarray(0, Math.floor(bytes.length / 2)))
      setImmediate(() => this.destroy(new Error('body cut short by a fault')))
    },
  })
}

const faultKind = (fault: ArmedFault) =>
  fault.drop ? 'drop' : fault.truncate ? 'truncate' : fault.status !== undefined ? `status ${fault.status}` : `delay ${fault.delayMs ?? 0} ms`

/**
 * Body validators look the board up on every call: a reset may bring other constrained
 * values (job/fields) or another unknown-field policy without rebuilding the routes.
 */
function bodyValidator(board: Board, schema: object): FastifyValidationResult {
  const validate = (data: unknown): boolean | { value: unknown } => {
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

/**
 * ajv's coercion reads integers the way Number() does ("1e3", "0x10", " 7"); a query or
 * path integer must be written in plain digits, so those are refused first.
 */
function textValidator(coercing: ValidateFunction, schema: object): FastifyValidationResult {
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {}
  const integers = Object.keys(properties).filter((key) => properties[key]?.type === 'integer')
  const validate = (data: Record<string, unknown>): boolean => {
    const bad = integers.filter((key) => typeof data?.[key] === 'string' && !/^-?[0-9]+$/.test(data[key] as string))
    if (bad.length > 0) {
      validate.errors = bad.map((key) => ({ keyword: 'type', instancePath: `/${key}`, schemaPath: `#/properties/${key}/type`, params: { type: 'integer' }, message: 'must be integer' }))
      return false
    }
    const ok = coercing(data)
    validate.errors = coercing.errors as FastifySchemaValidationError[] | null | undefined
    return ok
  }
  validate.errors = null as FastifySchemaValidationError[] | null | undefined
  return validate as FastifyValidationResult
}

export async function buildApp(input: BuildOptions | ResolvedOptions = {}): Promise<FastifyInstance> {
  const { scenarioData, requestLog, ...rest } = input as BuildOptions
  const options = resolveOptions(rest)
  const board = new Board(options, scenarioData)

  const app = Fastify({
    logger: logMode(options) === 'json',
    trustProxy: options.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: true,
    bodyLimit: 1_048_576,
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
    route.config = { ...route.config, errors: documentedErrors([route.method].flat()[0] as string, route.schema) }
  })
  app.decorateRequest('apiUser', '')
  app.decorateRequest('limitKey', undefined)
  app.decorateRequest('fault', undefined)

  // query strings and paths are text: coerce them; JSON bodies are validated as sent
  const paramsAjv = createAjv({ coerce: true })
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyValidator(board, schema) : textValidator(paramsAjv.compile(schema), schema),
  )
  const statusPolicy = httpStatusPolicy(board)
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, statusPolicy))
  // JSON is the only body the API and the control API take
  app.removeContentTypeParser('text/plain')

  // records carry links on the store's origin; answer with the request's when they differ.
  // A saved board keeps the store's own links, so that it restores anywhere.
  app.addHook('onSend', async (request, reply, payload) => {
    const from = board.store.links.base
    const to = baseUrl(request)
    if (typeof payload !== 'string' || from === to || request.url.startsWith(`${CONTROL_PREFIX}/state`)) return payload
    return payload.replaceAll(`"href":"${from}/`, `"href":"${to}/`)
  })

  // a delay fault must not keep a closed fake's process alive
  const closing = new AbortController()
  app.addHook('onClose', async () => closing.abort())

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
    if (fault.delayMs) await sleep(fault.delayMs, undefined, { signal: closing.signal, ref: false })
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
    const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload))
    reply.header('content-length', String(bytes.length))
    if (!isInProcess(request)) return cutShort(bytes)
    reply.header('x-jobboard-kit-fault', 'truncate')
    return payload
  })
  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith(CONTROL_PREFIX)) journal(request, reply.statusCode)
    requestLog?.(request, reply, reply.statusCode)
  })

  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    await new Promise<void>((resolve, reject) => app.basicAuth(request, reply, (error?: Error) => (error ? reject(error) : resolve())))
  }
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
  if (options.control) await app.register(control, { prefix: CONTROL_PREFIX, controller, ...(options.controlToken ? { token: options.controlToken } : {}) })
  return app
}
