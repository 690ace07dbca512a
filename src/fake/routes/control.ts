// The control API under /__mock: JSON in and out, outside the API's Basic auth and
// rate limit, behind a bearer token when one is set. Each route is one Controller call.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import { timingSafeEqual, createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import {
  advanceBody,
  applicationSeed,
  candidateSeed,
  faultBody,
  jobInput,
  jobFieldsChange,
  journalQuery,
  marketingSeed,
  resetBody,
  serverOptions,
  setClockBody,
  stateQuery,
  timesheetSeed,
} from '../../../schemas/index.js'
import type { Controller } from '../control.js'
import { BoardError, boardError } from '../../core/errors.js'
import type { ApplicationSeed, CandidateSeed, FaultInput, JobFieldsChange, JobInput, MarketingSeed, ResetBody, TimesheetSeed } from '../../core/types.js'

export const CONTROL_PREFIX = '/__mock'
const STATE_BODY_LIMIT_MAX = serverOptions.properties.stateBodyLimit.maximum

const digest = (text: string) => createHash('sha256').update(text).digest()

export interface ControlOptions {
  controller: Controller
  token?: string
  /** Bytes PUT /state may read (options.stateBodyLimit). */
  stateBodyLimit: number
}

export default async function control(app: FastifyInstance, { controller, token, stateBodyLimit }: ControlOptions): Promise<void> {
  if (token !== undefined) {
    const expected = digest(`Bearer ${token}`)
    app.addHook('onRequest', async (request) => {
      if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) throw boardError.controlToken()
    })
  }

  // a POST without a body (fetch(url, {method: 'POST'})) means "no settings"
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {}
  })

  const ok = <T extends object>(fields: T) => ({ status: 200, ...fields })

  // an index of both APIs, read off the routes themselves
  const index = (prefix: string) => app.endpoints.filter((e) => e.url.startsWith(prefix) && e.method !== 'HEAD').map((e) => `${e.method} ${e.url}`)
  app.get('/', async () => ok({ control: index(CONTROL_PREFIX), api: index('/api/') }))

  app.post<{ Body: ResetBody }>('/reset', { schema: { body: resetBody } }, async (request) => ok(controller.reset(request.body ?? {})))

  const clock = () => ok({ now: controller.clock.now(), mode: controller.board.clock.mode })
  app.get('/clock', async () => clock())
  app.post<{ Body: { seconds: number } }>('/clock/advance', { schema: { body: advanceBody } }, async (request) => {
    controller.clock.advance(request.body.seconds)
    return clock()
  })
  app.post<{ Body: { now: string } }>('/clock/set', { schema: { body: setClockBody } }, async (request) => {
    controller.clock.set(request.body.now)
    return clock()
  })

  const created = <T extends object>(data: T, id?: number) => ({ status: 201, ...(id === undefined ? {} : { id }), data })
  // one route per kind of record: its seed schema and the controller's add
  const adds: Array<[string, object, (body: never) => object & { id?: number }]> = [
    ['/candidates', candidateSeed, (seed: CandidateSeed) => controller.addCandidate(seed)],
    ['/applications', applicationSeed, (seed: ApplicationSeed) => controller.addApplication(seed)],
    ['/timesheets', timesheetSeed, (seed: TimesheetSeed) => controller.addTimesheet(seed)],
    ['/marketing', marketingSeed, (seed: MarketingSeed) => controller.addMarketing(seed)],
    ['/jobs', jobInput, (input: JobInput) => controller.addJob(input)],
  ]
  for (const [path, body, add] of adds) {
    app.post(path, { schema: { body } }, async (request, reply) => {
      const record = add(request.body as never)
      return reply.code(201).send(created(record, record.id))
    })
  }

  // the constrained values, changed at run time without touching the journal, the windows or the records
  app.get('/job-fields', async () => ok(controller.jobFields()))
  app.post<{ Body: JobFieldsChange }>('/job-fields', { schema: { body: jobFieldsChange } }, async (request) => ok(controller.changeJobFields(request.body)))

  app.get('/activity', async () => {
    const status = controller.activity()
    if (status === undefined) throw new BoardError('NOT_FOUND', 'No activity is playing: start the fake with --activity NAME (or the activity option).')
    return ok(status)
  })

  const listing = <T>(data: T[]) => ok({ total: data.length, data })
  app.get<{ Querystring: { path?: string } }>(
    '/requests',
    { schema: { querystring: journalQuery } },
    async (request) => listing(controller.requests(request.query.path)),
  )
  app.delete('/requests', async () => {
    controller.clearRequests()
    return ok({ message: 'The journal is empty.' })
  })

  app.get('/faults', async () => listing(controller.faults()))
  app.post<{ Body: FaultInput }>('/faults', { schema: { body: faultBody } }, async (request, reply) => {
    const fault = controller.addFault(request.body)
    return reply.code(201).send(created(fault, fault.id))
  })
  app.delete('/faults', async () => {
    controller.clearFaults()
    return ok({ message: 'No fault is armed.' })
  })

  app.get('/rate-limits', async () => listing(controller.rateLimits()))
  app.delete('/rate-limits', async () => {
    controller.clearRateLimits()
    return ok({ message: 'Every rate-limit window is closed.' })
  })

  app.get('/openapi.json', async () => app.swagger())
  app.get('/openapi.yaml', async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })))

  // the API password is a secret even on loopback: only a caller holding the control token gets it
  app.get<{ Querystring: { credentials?: boolean; form?: 'full' | 'compact' } }>('/state', { schema: { querystring: stateQuery } }, async (request, reply) => {
    if (request.query.credentials && token === undefined) {
      throw boardError.controlForbidden('Credentials are exported only to a caller with the control token: start the fake with --control-token.')
    }
    // streamed: a large board's state does not fit in one string
    const pieces = controller.exportJson({ credentials: request.query.credentials === true, form: request.query.form ?? 'full' })
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
    controller.importState(request.body)
    return ok({ message: 'The board has been restored.', now: controller.clock.now() })
  })
}
