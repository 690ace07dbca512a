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
import { boardError, sendError, type HttpStatusPolicy } from './errors.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { requestKey } from './rate-limit.js'
import applications from './routes/applications.js'
import candidates from './routes/candidates.js'
import jobs from './routes/jobs.js'
import marketing from './routes/marketing.js'
import metrics from './routes/metrics.js'
import publicPages from './routes/public.js'
import { baseUrl } from './routes/reply.js'
import timesheets from './routes/timesheets.js'
import { API_PREFIX } from './store/links.js'
import type { ScenarioFile, ServerOptionsInput } from './types.js'
import type { ValidateFunction } from 'ajv'
import { createAjv } from './validation.js'

declare module 'fastify' {
  interface FastifyInstance {
    board: Board
    /** Every route registered, for the auth test and the control API's index. */
    endpoints: ReadonlyArray<{ method: string; url: string }>
  }
  interface FastifyRequest {
    /** The API user the request authenticated as ('' before auth). */
    apiUser: string
    /** The rate-limit window this request opened, if any. */
    limitKey: string | undefined
  }
}

export interface BuildOptions extends ServerOptionsInput {
  /** A scenario given as an object rather than a name or path. */
  scenarioData?: ScenarioFile
}

/** The HTTP status for a JSON error: the body's, or 200 for 404/412 when behaviour.errorHttpStatus is "ok". */
function httpStatusPolicy(board: Board): HttpStatusPolicy {
  return (status) => (board.scenario.behaviour.errorHttpStatus === 'ok' && (status === 404 || status === 412) ? 200 : status)
}

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
  const { scenarioData, ...rest } = input as BuildOptions
  const options = resolveOptions(rest)
  const board = new Board(options, scenarioData)

  const app = Fastify({
    logger: options.logger,
    trustProxy: options.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: true,
    bodyLimit: 1_048_576,
    // the serializer resolves anyOf (next_page) with its own ajv: it must know the spec's formats
    serializerOpts: { ajv: { formats: formatOption() } },
  })
  app.decorate('board', board)
  const endpoints: Array<{ method: string; url: string }> = []
  app.decorate('endpoints', endpoints)
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) endpoints.push({ method, url: route.url })
  })
  app.decorateRequest('apiUser', '')
  app.decorateRequest('limitKey', undefined)

  // query strings and paths are text: coerce them; JSON bodies are validated as sent
  const paramsAjv = createAjv({ coerce: true })
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyValidator(board, schema) : textValidator(paramsAjv.compile(schema), schema),
  )
  const statusPolicy = httpStatusPolicy(board)
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, statusPolicy))

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

  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticate)
      api.addHook('onRequest', async (request, reply) => {
        const key = requestKey(request.apiUser, request.method, request.url)
        const admission = board.limiter.admit(key)
        if (!admission.admitted) return sendError(request, reply, boardError.rateLimited(admission.retryAfter), statusPolicy)
        request.limitKey = key
      })
      api.addHook('onResponse', async (request, reply) => {
        if (request.limitKey !== undefined) board.limiter.settle(request.limitKey, reply.statusCode)
      })
      // records carry links on the store's origin; answer with the request's when they differ
      api.addHook('onSend', async (request, reply, payload) => {
        const from = board.store.links.base
        const to = baseUrl(request)
        if (typeof payload !== 'string' || from === to) return payload
        return payload.replaceAll(`"href":"${from}/`, `"href":"${to}/`)
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
  return app
}
