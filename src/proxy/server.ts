// `jobboard-kit proxy`: a pass-through in front of a deployment that checks every answer
// against the contract kit's rules and judges the client by the verdict the fake holds its
// clients to, at no cost in requests (docs/proxy.md). One node:http server: a request
// under /__mock goes to a small Fastify app (the proxy's own routes and the page of
// src/watch/ui) and never upstream; every other request goes upstream as sent
// (forward.ts). Each is then handed to the watching layer as an exchange (src/watch/: the
// journal, with the fake's bounds and redaction when shown, and through it the verdict's
// evaluator, fed what the answers said: no board behind it; the copy oracle judges a
// client's copy against the records that passed through, copy.ts), and its answer held to
// the contract kit's checks of one answer (src/contract/answer.ts).
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { copyBody, verdictQuery } from '../../schemas/control.js'
import { createHash, timingSafeEqual } from 'node:crypto'
import { Agent as HttpAgent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { API_PREFIX } from '../../schemas/common.js'
import { FIELD_NAMES } from '../../schemas/values.js'
import { BoardError, boardError, OptionsError } from '../core/errors.js'
import { Validators } from '../core/validation.js'
import type { CopyBody } from '../core/types.js'
import { createClock } from '../core/clock.js'
import { formatTimestamp } from '../core/time.js'
import { AnswerChecks } from '../contract/answer.js'
import { findFieldLists } from '../contract/field-lists.js'
import { wordsText } from '../contract/rules.js'
import { isDownloadPath, lenientJson } from '../contract/wire.js'
import { entryDetail } from '../watch/journal-detail.js'
import { HEALTH_PATH, registerHealth } from '../watch/health.js'
import { COPY_BODY_LIMIT, judgeCopy } from '../watch/verdict/copy.js'
import { BASIC_GIVEN, basicUser, type ConstrainedLists, type Detail, listDigests, shortDigest, staleFieldsOf, TEXT_TYPE } from '../watch/exchange.js'
import { JOURNAL_SIZE, Journal } from '../watch/journal.js'
import ui, { UI_PATH, verdictView } from '../watch/ui/routes.js'
import { VerdictEvaluator } from '../watch/verdict/evaluator.js'
import { LIST_PATHS, type ListName } from '../watch/verdict/list-urls.js'
import type { DetailedVerdict } from '../watch/verdict/verdict-types.js'
import { verdictJson } from '../watch/verdict/account.js'
import { type LoadedProfile, loadProfile } from '../profile/profile.js'
import { LIST_OF_PATH, PassedRecords } from './copy.js'
import { AnswerMemo } from './answer-memo.js'
import { forward, type Passed, type Upstream } from './forward.js'
import { linkRewriter } from './links.js'
import { profilePoints } from './profile-points.js'
import { accountLines, ProxyRecording, type RecordingAccount } from './recording.js'

export interface ProxyOptions {
  /** The deployment's {base_url}. */
  to: string
  host?: string
  port?: number
  control?: boolean
  controlToken?: string
  keepLinks?: boolean
  upstreamTimeout?: number
  checkBytes?: number
  log?: 'pretty' | 'json' | 'off'
  /** A deployment profile (a path, or one loaded): its points one answer shows are held to it (profile-points.ts). */
  profile?: string | LoadedProfile
  /** Writes what passed through as a scenario the fake loads, at close (recording.ts). */
  record?: string
}

/** Where the proxy writes as it works: a line per request (--log), a line per violation. */
export interface ProxyHooks {
  /** The request log (stdout). */
  write?: (line: string) => void
  /** A violation, as it happens (stderr). */
  warn?: (line: string) => void
  /** The clock's time in epoch ms (a test's); the machine's by default. */
  now?: () => number
}

/** A rule the upstream broke in one answer. */
export interface Violation {
  /** The journal id of the request. */
  request: number
  method: string
  /** The request's path and query as the client sent it, credentials cut. */
  url: string
  status: number
  /** The rule's id: the contract kit's check that fails for it (`candidates/list: the first page fits the candidate list schema`). */
  rule: string
  message: string
  /** The spec's words the rule rests on (or the RFC section); none for a profile point. */
  spec: string[]
  /** What the rule rests on: the spec's words, or (--profile) the deployment's own recorded choice where the spec is silent. */
  basis: 'spec' | 'profile'
  time: string
}

export interface Observation {
  topic: string
  endpoint: string
  summary: string
  /** How many answers showed it, and the first request that did. */
  count: number
  request: number
}

/** Why a rule of the client verdict may be left not exercised behind a proxy (said while it is). */
export const NOT_EXERCISED_BEHIND_A_PROXY = {
  'copy-in-step':
    "A proxy does not know the board: it judges a client's copy handed to POST /__mock/verdict/copy against the newest version of each record that passed through it, and a record that never passed is not judged; no copy was handed, or none of its records passed through.",
} as const

export interface RunningProxy {
  /** The listening URL, once listening. */
  readonly url: string
  listen(): Promise<string>
  close(): Promise<void>
  readonly journal: Journal
  violations(): Violation[]
  observations(): Observation[]
  verdict(): DetailedVerdict
  /** What the page of /__mock/ui shows beside the journal: the verdict, what staging broke above it, the clock (`/__mock/ui/board`). */
  view(): object
  /** Requests sent upstream so far. */
  readonly upstreamRequests: number
  /** The deployment it stands in front of: --to's base URL (which carries no credentials). */
  readonly to: string
  /** Violations found and not kept, past MAX_VIOLATIONS. */
  readonly droppedViolations: number
  /** What --record wrote at close (undefined before, or without --record). */
  readonly recorded: RecordingAccount | undefined
}

/** What a profile point's violation rests on, in words. */
const PROFILE_BASIS = 'profile: the spec does not say; --profile pins the deployment\'s own recorded choice'

/** Violations and observations kept at most; past it the newest are counted, not kept. */
export const MAX_VIOLATIONS = 10_000
export const MAX_OBSERVATIONS = 1_000
/** Full URLs whose last answer is remembered per proxy (what a 429 is judged by); past it the oldest tenth goes. */
const MAX_WINDOWS = 100_000
/** The window the spec gives a full URL: "Each endpoint may be requested once per 15 minutes". */
const SPEC_WINDOW_SECONDS = 900

/** A --to, --host or token the proxy cannot start with: a usage error (one line, exit 2). */
export class ProxyError extends OptionsError {
  override name = 'ProxyError'
}

const LOOPBACK = /^(127\.[0-9.]+|::1|localhost|\[::1\])$/i
const JOB_WRITE = /^\/api\/v1\/job\/(add|close|expire|repost|delete)$/
const LIST_PAGE = new Set<string>(Object.values(LIST_PATHS))

/** The upstream a --to URL names, refused in one line when it is none. */
export function upstreamOf(to: string): Upstream {
  if (!/^https?:\/\//i.test(to) || !URL.canParse(to)) throw new ProxyError(`--to ${JSON.stringify(to)} is not an http(s) URL: give the deployment's base URL, such as https://staging.example.com`)
  const url = new URL(to)
  if (url.username !== '' || url.password !== '') throw new ProxyError('--to carries credentials: give the bare base URL; the client sends its own credentials, which the proxy passes on')
  if (url.search !== '' || url.hash !== '') throw new ProxyError(`--to ${JSON.stringify(`${url.origin}${url.pathname}`)}… carries a query or a fragment: give the base URL alone`)
  const https = url.protocol === 'https:'
  const basePath = url.pathname.replace(/\/+$/, '')
  return {
    protocol: https ? 'https:' : 'http:',
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
    host: url.host,
    basePath,
    base: `${url.origin}${basePath}`,
    agent: https ? new HttpsAgent({ keepAlive: true, maxSockets: 256 }) : new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  }
}

/**
 * An answer's body as the checks read it (lenientJson), from the text the link rewrite
 * decoded when there is one: one decode and one parse for the rewrite, the checks and the
 * wire rule, not three decodes and two parses. `strict` when JSON.parse read that text
 * whole and the bytes start with no byte-order mark: the wire rule has nothing to find.
 */
function readJson(bytes: Buffer, text: string | undefined): { json: unknown; strict: boolean } {
  if (text !== undefined && !(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    try {
      return { json: JSON.parse(text) as unknown, strict: true }
    } catch {
      // not one JSON value: lenientJson reads what it can, the wire rule says what is wrong
    }
  }
  return { json: lenientJson(bytes), strict: false }
}

/** A job write's effective status: a deployment may answer a refusal as HTTP 200 with `status` 412 in the body. */
function effectiveStatus(status: number, path: string, body: unknown): number {
  if (status !== 200 || !JOB_WRITE.test(path) || body === null || typeof body !== 'object') return status
  const said = (body as { status?: unknown }).status
  return Number.isInteger(said) && (said as number) >= 100 && (said as number) <= 599 ? (said as number) : status
}

export function createProxy(options: ProxyOptions, hooks: ProxyHooks = {}): RunningProxy {
  const upstream = upstreamOf(options.to)
  const host = options.host ?? '127.0.0.1'
  const control = options.control ?? true
  if (control && options.controlToken === undefined && !LOOPBACK.test(host)) {
    throw new ProxyError(`--host ${host} is not loopback: give --control-token (the /__mock routes show the traffic), or --control off`)
  }
  const timeoutMs = options.upstreamTimeout ?? 30_000
  const holdBytes = options.checkBytes ?? 8 * 1024 * 1024
  const links = options.keepLinks ? undefined : linkRewriter(upstream.base)
  const realClock = hooks.now === undefined ? createClock('real', 0) : undefined
  const now = hooks.now ?? (() => (realClock as { now(): number }).now())
  const checks = new AnswerChecks(upstream.base)
  /** What the proxy made of each distinct answer, used again when it comes again (answer-memo.ts). */
  const memo = new AnswerMemo()
  const loaded = options.profile === undefined ? undefined : loadProfile(options.profile)
  const points = loaded === undefined ? undefined : profilePoints(loaded, `${upstream.base}${API_PREFIX}`)
  const recording = options.record === undefined ? undefined : new ProxyRecording(options.record, upstream.base)
  let recorded: RecordingAccount | undefined
  const evaluator = new VerdictEvaluator({ windowSeconds: () => SPEC_WINDOW_SECONDS, now })
  /** The copy oracle's truth: the newest version of each record that passed through, per credential. */
  const passedRecords = new PassedRecords(now)
  const journal = new Journal(JOURNAL_SIZE, evaluator)
  let violations: Violation[] = []
  let droppedViolations = 0
  const observations = new Map<string, Observation>()
  /** When each full URL (by user) was last answered below 400: what a 429 of the upstream is judged by. */
  const answered = new Map<string, number>()
  /** The constrained lists the last job/fields answer gave: what a refused job/add is judged by. */
  let lastFields: ConstrainedLists | undefined
  let sentUpstream = 0
  let url = ''

  const record = (request: IncomingMessage, passed: Passed, started: number): void => {
    const method = request.method ?? 'GET'
    const clientUrl = request.url ?? '/'
    const path = clientUrl.split('?', 1)[0] as string
    const time = now()
    const authorization = request.headers.authorization
    const user = basicUser(authorization)
    const contentType = request.headers['content-type']
    const requestText = passed.requestBody?.toString('utf8')
    const notes = [...passed.notes]
    let requestJson: unknown
    if (requestText !== undefined && contentType !== undefined && /json/i.test(contentType)) {
      try {
        requestJson = JSON.parse(requestText)
      } catch {
        notes.push('malformed request: its body is not JSON though its Content-Type says so; forwarded as sent, the upstream answered')
      }
    }
    try {
      decodeURIComponent(clientUrl)
    } catch {
      notes.push('malformed request: its URL holds a % that starts no escape; forwarded as sent, the upstream answered')
    }
    // what the proxy made of this answer before, or a place to keep what it makes of it now: a whole answer only
    const kept = passed.fault === undefined && passed.truncated === undefined ? passed.kept : undefined
    if (kept !== undefined) kept.read ??= readJson(kept.bytes, passed.text)
    const { json: answerJson, strict } = kept?.read ?? (passed.bytes !== undefined && passed.fault === undefined ? readJson(passed.bytes, passed.text) : { json: undefined, strict: false })
    const status = effectiveStatus(passed.status, path, answerJson)
    if (status !== passed.status) notes.push(`answered HTTP ${passed.status} with status ${status} in its body: judged as ${status}`)
    const fault = passed.fault !== undefined ? notes.join('; ') : passed.truncated !== undefined ? [passed.truncated, ...notes].join('; ') : notes.length > 0 ? notes.join('; ') : undefined
    const retryAfter = passed.status === 429 ? Number(passed.headers['retry-after']) : Number.NaN
    const isList = method === 'GET' && LIST_PAGE.has(path)
    if (isList && status === 200 && passed.fault === undefined && passed.truncated === undefined) passedRecords.seen(LIST_OF_PATH.get(path) as ListName, user, answerJson)
    const nextPage = isList && status === 200 && answerJson !== null && typeof answerJson === 'object' ? typeof (answerJson as { next_page?: unknown }).next_page === 'string' && (answerJson as { next_page: string }).next_page !== '' : undefined
    const write = method === 'POST' && JOB_WRITE.test(path) && requestText !== undefined
    const answerType = passed.headers['content-type']
    const sent = passed.sent ?? passed.bytes
    const held = sent !== undefined && (answerType === undefined || TEXT_TYPE.test(answerType))
    let headerBytes = 512
    for (const part of request.rawHeaders) headerBytes += part.length
    const detail: Detail = {
      requestHeaders: request.headers,
      requestLength: request.headers['content-length'],
      requestChunked: request.headers['transfer-encoding'] !== undefined,
      requestType: contentType,
      requestBody: requestText,
      answerHeaders: passed.sentHeaders ?? (passed.fault === undefined ? undefined : passed.headers),
      answerHold: passed.status === 0 ? 'none' : held ? 'text' : sent !== undefined ? 'binary' : 'stream',
      answerBody: held ? sent : undefined,
      answerBytes: sent?.length ?? passed.received,
      answerType,
      headerBytes,
      bodyBytes: (requestText?.length ?? 0) + (held ? (sent as Buffer).length : 0),
      headersDropped: false,
      bodiesDropped: false,
    }
    // the verdict: what the upstream's answers said stands for what the fake's board knows
    const key = `${user} ${method} ${clientUrl}`
    const windowOpened = passed.status === 429 ? answered.get(key) : undefined
    const opened = passed.fault === undefined && passed.status > 0 && passed.status < 400
    if (opened) {
      answered.delete(key)
      answered.set(key, time)
      if (answered.size > MAX_WINDOWS) for (const old of [...answered.keys()].slice(0, MAX_WINDOWS / 10)) answered.delete(old)
    }
    let fieldsRead: Record<string, string> | undefined
    if (method === 'GET' && path === '/api/v1/job/fields' && status === 200) {
      const found = findFieldLists(answerJson)
      if (found) {
        const lists = Object.fromEntries(FIELD_NAMES.flatMap((name) => (Array.isArray(found.lists[name]) ? [[name, (found.lists[name] as unknown[]).filter((v): v is string => typeof v === 'string')]] : [])))
        lastFields = lists
        fieldsRead = listDigests(lists)
      }
    }
    const stale = status === 412 && method === 'POST' && path === '/api/v1/job/add' && lastFields !== undefined ? staleFieldsOf(lastFields, requestJson) : undefined
    // the exchange, into the journal and through it to the verdict (src/watch/exchange.ts)
    const id = journal.record(
      {
        method,
        url: clientUrl,
        status: passed.status,
        time,
        user,
        ...(fault === undefined ? {} : { fault: fault.slice(0, 500) }),
        ...(method === 'POST' && contentType !== undefined ? { contentType: contentType.slice(0, 200) } : {}),
        ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
        ...(write ? { digest: shortDigest(requestJson === undefined ? (requestText as string) : (JSON.stringify(requestJson) ?? '')) } : {}),
        ...(nextPage === undefined ? {} : { nextPage }),
        detail,
      },
      {
        credentials: authorization !== undefined && BASIC_GIVEN.test(authorization),
        opened,
        windowOpened,
        fieldsRead,
        staleFields: stale,
        // judged as the body said (a job write's 412 sent as HTTP 200); a note (a malformed request, a bound) is no fault: only an answer the upstream or the proxy spoiled is
        judged: { status, fault: passed.fault !== undefined || passed.truncated !== undefined ? fault : undefined },
      },
    )
    // the answer against the contract kit's rules of one answer
    if (passed.fault === undefined && passed.status > 0) {
      const seen = {
        method,
        url: `${upstream.basePath}${clientUrl}`,
        status: passed.status,
        headers: passed.headers,
        bytes: passed.bytes ?? passed.head ?? Buffer.alloc(0),
        received: passed.received,
        truncated: passed.truncated,
        complete: passed.bytes !== undefined && passed.truncated === undefined,
        client: user,
        ...(passed.bytes === undefined ? {} : { json: answerJson }),
        ...(strict ? { strictJson: true } : {}),
      }
      // the rules across answers see every answer; one answer's own rules, each distinct answer once (under one binding of job/fields' values)
      const across = checks.judgeAcross(seen)
      if (kept !== undefined && kept.judged?.binding !== checks.binding) kept.judged = { binding: checks.binding, judgement: checks.judgeAlone(seen) }
      const alone = kept?.judged?.judgement ?? checks.judgeAlone(seen)
      const judged = across.violations.length + across.observations.length === 0 ? alone : { violations: [...alone.violations, ...across.violations], observations: [...alone.observations, ...across.observations] }
      let shownUrl: string | undefined
      for (const problem of judged.violations) {
        shownUrl ??= entryDetail(journal, journal.entry(id) as NonNullable<ReturnType<Journal['entry']>>).url
        const spec = problem.citation.kind === 'spec' ? [...problem.citation.words] : []
        // one line: the spec's first words, the rest counted (GET /__mock/violations gives them all)
        const cited = spec.length <= 3 ? spec.map(wordsText).join('; ') : `${spec.slice(0, 3).map(wordsText).join('; ')}; and ${spec.length - 3} more`
        keep({ request: id, method, url: shownUrl, status: passed.status, rule: problem.check, message: problem.message, spec, basis: 'spec', time: formatTimestamp(time) }, `spec: ${cited}`)
      }
      const apiPath = checks.apiPath(`${upstream.basePath}${path}`)
      if (points !== undefined && apiPath !== undefined) {
        const shown = () =>
          points({ method, url: `${upstream.base}${clientUrl}`, status: passed.status, headers: passed.headers, bytes: passed.bytes ?? passed.head ?? Buffer.alloc(0), body: answerJson, truncated: passed.truncated, credentials: authorization !== undefined, at: time })
        if (kept !== undefined) kept.points ??= shown()
        for (const problem of kept?.points ?? shown()) {
          shownUrl ??= journalUrl(id)
          keep({ request: id, method, url: shownUrl, status: passed.status, rule: problem.check, message: problem.message, spec: [], basis: 'profile', time: formatTimestamp(time) }, PROFILE_BASIS)
        }
      }
      if (recording !== undefined && method === 'GET' && status === 200 && passed.truncated === undefined && answerJson !== undefined && apiPath !== undefined) {
        recording.seen({ apiPath, query: clientUrl.slice(path.length + 1), json: answerJson, authorization })
      }
      for (const seen of judged.observations) {
        const name = `${seen.topic}\n${seen.endpoint}\n${seen.summary}`
        const known = observations.get(name)
        if (known) known.count += 1
        else if (observations.size < MAX_OBSERVATIONS) observations.set(name, { ...seen, count: 1, request: id })
      }
    }
    if (options.log === 'pretty' || options.log === 'json') {
      const ms = Math.max(0, time - started)
      const line =
        options.log === 'json'
          ? JSON.stringify({ time: formatTimestamp(time), id, method, url: journalUrl(id), status: passed.status, ms, ...(fault === undefined ? {} : { note: fault }) })
          : `${formatTimestamp(time)} ${method} ${journalUrl(id)} ${passed.status === 0 ? '---' : passed.status} ${ms} ms${fault === undefined ? '' : `  ← ${fault}`}`
      hooks.write?.(`${line}\n`)
    }
  }
  /** Keeps a violation (past the bound, counts it) and logs it in one line as it happens. */
  const keep = (violation: Violation, basis: string) => {
    if (violations.length < MAX_VIOLATIONS) violations.push(violation)
    else droppedViolations += 1
    hooks.warn?.(`jobboard-kit proxy: violation #${violation.request} ${violation.method} ${violation.url} ${violation.status}: ${violation.rule}: ${violation.message} (${basis})\n`)
  }
  /** An entry's URL as shown: the credentials it may hold cut (journal-detail.ts). */
  const journalUrl = (id: number) => {
    const held = journal.entry(id)
    return held === undefined ? '' : entryDetail(journal, held).url
  }

  const passThrough = (request: IncomingMessage, response: ServerResponse) => {
    const started = now()
    const path = (request.url ?? '/').split('?', 1)[0] as string
    const apiPath = checks.apiPath(`${upstream.basePath}${path}`)
    forward(request, response, {
      upstream,
      links,
      timeoutMs,
      holdBytes,
      download: apiPath !== undefined && isDownloadPath(apiPath),
      memo,
      sent: () => {
        sentUpstream += 1
      },
      done: (passed) => {
        try {
          record(request, passed, started)
        } catch (error) {
          hooks.warn?.(`jobboard-kit proxy: could not record ${request.method} ${path}: ${String(error)}\n`)
        }
      },
    })
  }

  const clear = () => {
    // the verdict with it
    journal.clear()
    violations = []
    droppedViolations = 0
    observations.clear()
    answered.clear()
    passedRecords.clear()
  }
  const verdict = () => evaluator.verdict()

  const app: FastifyInstance = Fastify({
    serverFactory: (handler) =>
      createServer((request, response) => {
        const url = request.url ?? '/'
        // the proxy's own routes never go upstream, whatever they are
        if (url === '/__mock' || url.startsWith('/__mock/') || url.startsWith('/__mock?')) handler(request, response)
        else passThrough(request, response)
      }),
  })
  app.setErrorHandler((error: Error & { status?: number; statusCode?: number }, _request, reply) => {
    const status = error instanceof BoardError ? error.status : (error.statusCode ?? 500)
    reply.status(status).send({ status, message: status >= 500 ? 'The proxy could not answer this /__mock request.' : error.message })
  })
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ status: 404, message: `The proxy has no route ${request.method} ${request.url.split('?', 1)[0]}: its /__mock routes are violations, verdict, requests, ui and health (docs/proxy.md). A /__mock request never goes upstream.` })
  })
  const expected = options.controlToken === undefined ? undefined : createHash('sha256').update(`Bearer ${options.controlToken}`).digest()
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    // the health check is answered whatever --control says, without the token (src/watch/health.ts)
    if (request.routeOptions.url === HEALTH_PATH) return
    if (!control) return reply.status(404).send({ status: 404, message: 'The /__mock routes are off on this proxy (--control off). A /__mock request never goes upstream.' })
    if (request.url.startsWith(`${UI_PATH}`) || expected === undefined) return
    if (!timingSafeEqual(createHash('sha256').update(request.headers.authorization ?? '').digest(), expected)) {
      return reply.status(401).send({ status: 401, message: 'The /__mock routes need the control token: send Authorization: Bearer <--control-token>.' })
    }
  }
  app.addHook('onRequest', guard)
  registerHealth(app)
  /** What /__mock/ui/board answers on a proxy: what staging broke above the client's verdict, no board. */
  const view = () => {
    const shown = verdictView(verdict())
    // what staging broke, beside what the client broke: one row per rule broken, its findings the answers that broke it
    const byRule = new Map<string, Violation[]>()
    for (const violation of violations) byRule.set(violation.rule, [...(byRule.get(violation.rule) ?? []), violation])
    const staging = [...byRule].map(([rule, found]) => ({
      id: `staging: ${rule}`,
      sentence: found[0]?.basis === 'profile' ? "The upstream answers as its profile records (--profile; the spec does not say)." : `The upstream answers as the spec says: ${(found[0]?.spec ?? []).slice(0, 2).map(wordsText).join(' ')}${(found[0]?.spec.length ?? 0) > 2 ? ` (and ${(found[0]?.spec.length ?? 0) - 2} more of its words: GET /__mock/violations)` : ''}`,
      outcome: 'fail',
      findings: found.slice(0, 50).map((v) => ({ message: `${v.method} ${v.url}: ${v.message}`, requests: [v.request] })),
    }))
    return {
      status: 200,
      proxy: { to: upstream.base, upstreamRequests: sentUpstream, violations: violations.length + droppedViolations },
      clock: { now: now(), mode: 'real', speed: 1 },
      window: SPEC_WINDOW_SECONDS,
      verdict: { outcome: shown.outcome === 'pass' && staging.length === 0 ? 'pass' : 'fail', rules: [...staging, ...shown.rules] },
    }
  }
  const proxyVerdict = () => {
    const judged = verdictJson(verdict())
    const idle = Object.entries(NOT_EXERCISED_BEHIND_A_PROXY).filter(([id]) => judged.rules.find((rule) => rule.id === id)?.outcome === 'not-exercised')
    return idle.length === 0 ? judged : { ...judged, notExercised: Object.fromEntries(idle) }
  }
  app.get('/__mock/violations', async () => ({
    status: 200,
    total: violations.length + droppedViolations,
    violations,
    ...(droppedViolations > 0 ? { dropped: droppedViolations } : {}),
    observations: [...observations.values()],
  }))
  app.get('/__mock/verdict', async () => proxyVerdict())
  // the fake's own oracle (src/watch/verdict/copy.ts) and its checks of the body, judging against what passed through
  const validators = new Validators({})
  const checked = <T>(schema: object, input: unknown, part: 'body' | 'querystring'): T => {
    const validate = validators.get(schema)
    if (!validate(input)) throw boardError.invalidInput(validate.errors ?? [], part, input)
    return input as T
  }
  app.post('/__mock/verdict/copy', { bodyLimit: COPY_BODY_LIMIT }, async (request) => {
    const { user } = checked<{ user?: string }>(verdictQuery, request.query, 'querystring')
    return judgeCopy(passedRecords, evaluator, checked<CopyBody>(copyBody, request.body, 'body'), user)
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
    clear()
    return { status: 200, message: 'The journal, the verdict and the violations are empty.' }
  })
  const pageSource = { journal, view, base: UI_PATH }
  void app.register(ui, {
    prefix: UI_PATH,
    ...(options.controlToken ? { token: options.controlToken } : {}),
    source: () => pageSource,
  })

  return {
    get url() {
      return url
    },
    get journal() {
      return journal
    },
    get upstreamRequests() {
      return sentUpstream
    },
    get to() {
      return upstream.base
    },
    get droppedViolations() {
      return droppedViolations
    },
    get recorded() {
      return recorded
    },
    async listen() {
      await app.listen({ host, port: options.port ?? 4010 })
      const address = (app.server as Server).address()
      const port = typeof address === 'object' && address !== null ? address.port : options.port
      url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
      return url
    },
    async close() {
      if (recording !== undefined && recorded === undefined) {
        // what passed through, as a scenario: the profile's points, where one is given, name the deployment's choices
        recorded = recording.write(now(), (loaded?.points ?? {}) as Record<string, { value?: unknown } | undefined>)
        const { out, loss } = accountLines(recorded)
        hooks.write?.(out)
        if (loss !== undefined) hooks.warn?.(loss)
      }
      ;(app.server as Server).closeAllConnections?.()
      await app.close()
      upstream.agent.destroy()
    },
    violations: () => [...violations],
    observations: () => [...observations.values()],
    verdict,
    view,
  }
}
