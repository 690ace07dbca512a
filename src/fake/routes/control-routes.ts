// The control API under /__mock: JSON in and out, outside the API's Basic auth and
// rate limit, behind a bearer token when one is set. Each route is one Controller call.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import { timingSafeEqual, createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import {
  advanceBody,
  applicationSeed,
  candidateSeed,
  copyAnswer,
  copyBody,
  faultBody,
  jobInput,
  jobFieldsChange,
  journalEntryAnswer,
  journalQuery,
  marketingSeed,
  resetBody,
  serverOptions,
  setClockBody,
  stateQuery,
  timesheetSeed,
  verdictAnswer,
  verdictQuery,
} from '../../../schemas/index.js'
import { CONTROL_PREFIX } from '../../../schemas/common.js'
import type { Accounts } from '../accounts.js'
import { namedAccount } from '../http/request-context.js'
import type { Controller } from '../control-api.js'
import { BoardError, boardError } from '../../core/errors.js'
import type { ApplicationSeed, CandidateSeed, CopyBody, FaultInput, JobFieldsChange, JobInput, MarketingSeed, ResetBody, TimesheetSeed } from '../../core/types.js'
import { verdictJson } from '../../watch/verdict/verdict-outputs.js'
import { entryDetail } from '../../watch/journal-detail.js'
import { COPY_BODY_LIMIT } from '../../watch/verdict/copy-oracle.js'

const STATE_BODY_LIMIT_MAX = serverOptions.properties.stateBodyLimit.maximum

const digest = (text: string) => createHash('sha256').update(text).digest()

export interface ControlOptions {
  /** The accounts served: the routes act on the one the path names (`/__mock/accounts/{name}/…`), else on the first. */
  accounts: Accounts
  token?: string
  /** Bytes PUT /state may read (options.stateBodyLimit). */
  stateBodyLimit: number
}

/** The account a control route's path names, if it names one (/__mock/accounts/{name}/…, routed here by accountUrl). */
const named = namedAccount

export default async function control(app: FastifyInstance, { accounts, token, stateBodyLimit }: ControlOptions): Promise<void> {
  if (token !== undefined) {
    const expected = digest(`Bearer ${token}`)
    app.addHook('onRequest', async (request) => {
      if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) throw boardError.controlToken()
    })
  }
  // after the token: the account the path names, or a 404 naming it; its board, built now if it was not
  app.addHook('onRequest', (request, _reply, done) => {
    const name = named(request)
    if (name === undefined) return done()
    try {
      request.board = accounts.require(name).board
    } catch (error) {
      return done(error as Error)
    }
    done()
  })
  /** The controller a route acts through: the named account's, else the first's. */
  const own = (request: FastifyRequest): Controller => {
    const name = named(request)
    return name === undefined ? accounts.first.controller : accounts.require(name).controller
  }
  /** The verdict's: with accounts, `?user=` names an account on the routes that name none. */
  const judged = (request: FastifyRequest<{ Querystring: { user?: string } }>): Controller => {
    const user = request.query.user
    const account = accounts.declared && named(request) === undefined && user !== undefined ? accounts.get(user) : undefined
    return account?.controller ?? own(request)
  }

  // a POST without a body (fetch(url, {method: 'POST'})) means "no settings"
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {}
  })

  const ok = <T extends object>(fields: T) => ({ status: 200, ...fields })

  // an index of both APIs, read off the routes themselves
  const index = (prefix: string) => app.endpoints.filter((e) => e.url.startsWith(prefix) && e.method !== 'HEAD').map((e) => `${e.method} ${e.url}`)
  app.get('/', async () => ok({ control: index(CONTROL_PREFIX), api: index('/api/') }))

  // the accounts served, by name, and whether each one's board is built yet (never a password)
  app.get('/accounts', async () => {
    const data = accounts.list().map((account) => ({ name: account.name, built: account.built }))
    return ok({ total: data.length, data })
  })

  app.post<{ Body: ResetBody }>('/reset', { schema: { body: resetBody } }, async (request) => ok(own(request).reset(request.body ?? {})))

  const clock = (controller: Controller) => ok({ now: controller.clock.now(), mode: controller.board.clock.mode })
  app.get('/clock', async (request) => clock(own(request)))
  app.post<{ Body: { seconds: number } }>('/clock/advance', { schema: { body: advanceBody } }, async (request) => {
    const controller = own(request)
    controller.clock.advance(request.body.seconds)
    return clock(controller)
  })
  app.post<{ Body: { now: string } }>('/clock/set', { schema: { body: setClockBody } }, async (request) => {
    const controller = own(request)
    controller.clock.set(request.body.now)
    return clock(controller)
  })

  const created = <T extends object>(data: T, id?: number) => ({ status: 201, ...(id === undefined ? {} : { id }), data })
  // one route per kind of record: its seed schema and the controller's add
  const adds: Array<[string, object, (controller: Controller, body: never) => object & { id?: number }]> = [
    ['/candidates', candidateSeed, (controller, seed: CandidateSeed) => controller.addCandidate(seed)],
    ['/applications', applicationSeed, (controller, seed: ApplicationSeed) => controller.addApplication(seed)],
    ['/timesheets', timesheetSeed, (controller, seed: TimesheetSeed) => controller.addTimesheet(seed)],
    ['/marketing', marketingSeed, (controller, seed: MarketingSeed) => controller.addMarketing(seed)],
    ['/jobs', jobInput, (controller, input: JobInput) => controller.addJob(input)],
  ]
  for (const [path, body, add] of adds) {
    app.post(path, { schema: { body } }, async (request, reply) => {
      const record = add(own(request), request.body as never)
      return reply.code(201).send(created(record, record.id))
    })
  }

  // the constrained values, changed at run time without touching the journal, the windows or the records
  app.get('/job-fields', async (request) => ok(own(request).jobFields()))
  app.post<{ Body: JobFieldsChange }>('/job-fields', { schema: { body: jobFieldsChange } }, async (request) => ok(own(request).changeJobFields(request.body)))

  app.get('/activity', async (request) => {
    const status = own(request).activity()
    if (status === undefined) throw new BoardError('NOT_FOUND', 'No activity is playing: start the fake with --activity NAME (or the activity option).')
    return ok(status)
  })

  const listing = <T>(data: T[]) => ok({ total: data.length, data })
  app.get<{ Querystring: { path?: string } }>(
    '/requests',
    { schema: { querystring: journalQuery } },
    async (request) => listing(own(request).requests(request.query.path)),
  )
  // one entry with its request and answer (headers, bodies capped, credentials redacted); the list above stays light
  app.get<{ Params: { id: string } }>('/requests/:id', { schema: { response: { 200: journalEntryAnswer } } }, async (request) => {
    const given = request.params.id
    if (!/^[0-9]{1,15}$/.test(given)) throw new BoardError('BAD_REQUEST', `A journal id is a number such as 12 (GET /__mock/requests lists them); "${given.slice(0, 40)}" is not one.`)
    const journal = own(request).board.journal
    const held = journal.entry(Number(given))
    if (held === undefined) {
      throw new BoardError('NOT_FOUND', `The journal holds no request ${given}: it keeps its newest requests (${journal.limit.toLocaleString('en-US')} at most) since it was last emptied.`)
    }
    return { status: 200, entry: entryDetail(journal, held) }
  })
  app.delete('/requests', async (request) => {
    own(request).clearRequests()
    return ok({ message: 'The journal is empty.' })
  })

  app.get<{ Querystring: { user?: string } }>(
    '/verdict',
    { schema: { querystring: verdictQuery, response: { 200: verdictAnswer } } },
    async (request) => verdictJson(judged(request).verdict(request.query)),
  )
  app.post<{ Body: CopyBody; Querystring: { user?: string } }>(
    '/verdict/copy',
    { bodyLimit: COPY_BODY_LIMIT, schema: { querystring: verdictQuery, body: copyBody, response: { 200: copyAnswer } } },
    async (request) => judged(request).judgeCopy(request.body, request.query),
  )

  app.get('/faults', async (request) => listing(own(request).faults()))
  app.post<{ Body: FaultInput }>('/faults', { schema: { body: faultBody } }, async (request, reply) => {
    const fault = own(request).addFault(request.body)
    return reply.code(201).send(created(fault, fault.id))
  })
  app.delete('/faults', async (request) => {
    own(request).clearFaults()
    return ok({ message: 'No fault is armed.' })
  })

  app.get('/rate-limits', async (request) => listing(own(request).rateLimits()))
  app.delete('/rate-limits', async (request) => {
    own(request).clearRateLimits()
    return ok({ message: 'Every rate-limit window is closed.' })
  })

  app.get('/openapi.json', async () => app.swagger())
  app.get('/openapi.yaml', async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })))

  // the API password is a secret even on loopback: only a caller holding the control token gets it
  app.get<{ Querystring: { credentials?: boolean; form?: 'full' | 'compact' } }>('/state', { schema: { querystring: stateQuery } }, async (request, reply) => {
    if (request.query.credentials && token === undefined) {
      throw boardError.controlForbidden('Credentials are exported only to a caller with the control token: start the fake with --control-token.')
    }
    const form = request.query.form ?? 'full'
    // a full state no PUT can take back is refused before it is gathered (the large board's: 1.1 GiB, minutes)
    const controller = own(request)
    const estimate = form === 'full' ? controller.board.store.stateBytesEstimate() : 0
    if (estimate > STATE_BODY_LIMIT_MAX) throw boardError.fullStateTooLarge(estimate, STATE_BODY_LIMIT_MAX)
    // streamed: a large board's state does not fit in one string
    const pieces = controller.exportJson({ credentials: request.query.credentials === true, form })
    return reply.type('application/json; charset=utf-8').send(Readable.from(pieces, { objectMode: false }))
  })
  // Fastify refuses a body whose Content-Length is over the limit before reading any of
  // it, and stops reading a chunked one at the limit: a saved board never costs more
  // memory than the limit. The refusal says the limit and how to get past it.
  const stateTooLarge = (error: FastifyError, request: FastifyRequest) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error
    const length = Number(request.headers['content-length'])
    throw boardError.stateTooLarge(stateBodyLimit, STATE_BODY_LIMIT_MAX, Number.isSafeInteger(length) && length > stateBodyLimit ? length : undefined)
  }
  app.put('/state', { bodyLimit: stateBodyLimit, errorHandler: stateTooLarge }, async (request) => {
    const controller = own(request)
    controller.importState(request.body)
    return ok({ message: 'The board has been restored.', now: controller.clock.now() })
  })
}
