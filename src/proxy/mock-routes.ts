// The proxy's own routes, under /__mock (docs/proxy.md): what the upstream broke
// (violations, observations), the client's verdict and its copy judged, the journal and
// its entries, the page of src/watch/ui, and the health check. A /__mock request never
// goes upstream. Behind the control token when one is set (the page's data routes ask for
// it themselves); off with --control off, but for the health check.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createHash, timingSafeEqual } from 'node:crypto'
import { copyBody, verdictQuery } from '../../schemas/control.js'
import { BoardError, boardError } from '../core/errors.js'
import type { CopyBody } from '../core/types.js'
import { Validators } from '../core/validation.js'
import { HEALTH_PATH, registerHealth } from '../watch/health-route.js'
import { entryDetail } from '../watch/journal-detail.js'
import ui, { UI_PATH } from '../watch/ui/routes.js'
import { verdictJson } from '../watch/verdict/verdict-outputs.js'
import { COPY_BODY_LIMIT, judgeCopy } from '../watch/verdict/copy-oracle.js'
import { type JudgedTraffic, NOT_EXERCISED_BEHIND_A_PROXY } from './judged-traffic.js'

export interface MockRouteOptions {
  /** --control: the routes answer (the health check answers whatever it says). */
  control: boolean
  /** --control-token: the routes ask for it, the page's own parts excepted. */
  controlToken: string | undefined
  /** What /__mock/ui/board answers. */
  view: () => object
}

export function registerMockRoutes(app: FastifyInstance, traffic: JudgedTraffic, { control, controlToken, view }: MockRouteOptions): void {
  const journal = traffic.journal
  app.setErrorHandler((error: Error & { status?: number; statusCode?: number }, _request, reply) => {
    const status = error instanceof BoardError ? error.status : (error.statusCode ?? 500)
    reply.status(status).send({ status, message: status >= 500 ? 'The proxy could not answer this /__mock request.' : error.message })
  })
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ status: 404, message: `The proxy has no route ${request.method} ${request.url.split('?', 1)[0]}: its /__mock routes are violations, verdict, requests, ui and health (docs/proxy.md). A /__mock request never goes upstream.` })
  })
  const expected = controlToken === undefined ? undefined : createHash('sha256').update(`Bearer ${controlToken}`).digest()
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    // the health check is answered whatever --control says, without the token (src/watch/health-route.ts)
    if (request.routeOptions.url === HEALTH_PATH) return
    if (!control) return reply.status(404).send({ status: 404, message: 'The /__mock routes are off on this proxy (--control off). A /__mock request never goes upstream.' })
    if (request.url.startsWith(`${UI_PATH}`) || expected === undefined) return
    if (!timingSafeEqual(createHash('sha256').update(request.headers.authorization ?? '').digest(), expected)) {
      return reply.status(401).send({ status: 401, message: 'The /__mock routes need the control token: send Authorization: Bearer <--control-token>.' })
    }
  }
  app.addHook('onRequest', guard)
  registerHealth(app)
  const proxyVerdict = () => {
    const judged = verdictJson(traffic.verdict())
    const idle = Object.entries(NOT_EXERCISED_BEHIND_A_PROXY).filter(([id]) => judged.rules.find((rule) => rule.id === id)?.outcome === 'not-exercised')
    return idle.length === 0 ? judged : { ...judged, notExercised: Object.fromEntries(idle) }
  }
  app.get('/__mock/violations', async () => {
    const violations = traffic.violations()
    const dropped = traffic.droppedViolations
    return { status: 200, total: violations.length + dropped, violations, ...(dropped > 0 ? { dropped } : {}), observations: traffic.observations() }
  })
  app.get('/__mock/verdict', async () => proxyVerdict())
  // the fake's own oracle (src/watch/verdict/copy-oracle.ts) and its checks of the body, judging against what passed through
  const validators = new Validators({})
  const checked = <T>(schema: object, input: unknown, part: 'body' | 'querystring'): T => {
    const validate = validators.get(schema)
    if (!validate(input)) throw boardError.invalidInput(validate.errors ?? [], part, input)
    return input as T
  }
  app.post('/__mock/verdict/copy', { bodyLimit: COPY_BODY_LIMIT }, async (request) => {
    const { user } = checked<{ user?: string }>(verdictQuery, request.query, 'querystring')
    return judgeCopy(traffic.passedRecords, traffic.evaluator, checked<CopyBody>(copyBody, request.body, 'body'), user)
  })
  app.get<{ Querystring: { path?: string } }>('/__mock/requests', async (request) => {
    const data = journal.list(typeof request.query.path === 'string' ? request.query.path : undefined)
    return { status: 200, total: data.length, data }
  })
  app.get<{ Params: { id: string } }>('/__mock/requests/:id', async (request) => {
    const given = request.params.id
    const held = /^[0-9]{1,15}$/.test(given) ? journal.entry(Number(given)) : undefined
    if (held === undefined) throw new BoardError('NOT_FOUND', `The journal holds no request ${given.slice(0, 40)}: it keeps its newest requests (${journal.limit.toLocaleString('en-US')} at most) since it was last emptied.`)
    return { status: 200, entry: entryDetail(journal, held) }
  })
  app.delete('/__mock/requests', async () => {
    traffic.clear()
    return { status: 200, message: 'The journal, the verdict and the violations are empty.' }
  })
  const pageSource = { journal, view, base: UI_PATH }
  void app.register(ui, {
    prefix: UI_PATH,
    ...(controlToken ? { token: controlToken } : {}),
    source: () => pageSource,
  })
}
