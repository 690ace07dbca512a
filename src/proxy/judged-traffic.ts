// What the proxy makes of the traffic that passes through it, judged both ways: each
// request and its answer handed to the watching layer as an exchange (src/watch/: the
// journal, with the fake's bounds and redaction when shown, and through it the verdict's
// evaluator, fed what the upstream's answers said: no board behind it; the copy oracle's
// truth, the records that passed through, passed-records.ts), and the answer held to the contract
// kit's checks of one answer (src/contract/answer.ts) and to a profile's points: the
// violations of the upstream and its observations. proxy-server.ts hands it each exchange and
// serves what it holds.
import type { IncomingMessage } from 'node:http'
import { FIELD_NAMES } from '../../schemas/values.js'
import { formatTimestamp } from '../core/time.js'
import type { AnswerChecks } from '../contract/answer.js'
import { findFieldLists } from '../contract/field-lists.js'
import { wordsText } from '../contract/rules.js'
import { lenientJson } from '../contract/wire.js'
import { succeeded } from '../contract/records.js'
import { BASIC_GIVEN, basicUser, type ConstrainedLists, type Detail, listDigests, shortDigest, staleFieldsOf, TEXT_TYPE } from '../watch/exchange.js'
import { entryDetail } from '../watch/journal-detail.js'
import { JOURNAL_SIZE, Journal } from '../watch/journal.js'
import { verdictView } from '../watch/ui/routes.js'
import { VerdictEvaluator } from '../watch/verdict/evaluator.js'
import { LIST_PATHS, type ListName } from '../watch/verdict/list-urls.js'
import type { DetailedVerdict } from '../watch/verdict/verdict-types.js'
import { LIST_OF_PATH, PassedRecords } from './passed-records.js'
import type { Passed, Upstream } from './forward.js'
import type { profilePoints } from './profile-points.js'
import type { ProxyRecording } from './recording.js'

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

/** What a profile point's violation rests on, in words. */
const PROFILE_BASIS = 'profile: the spec does not say; --profile pins the deployment\'s own recorded choice'

/** Violations and observations kept at most; past it the newest are counted, not kept. */
export const MAX_VIOLATIONS = 10_000
export const MAX_OBSERVATIONS = 1_000
/** Full URLs whose last answer is remembered per proxy (what a 429 is judged by); past it the oldest tenth goes. */
const MAX_WINDOWS = 100_000
/** The window the spec gives a full URL: "Each endpoint may be requested once per 15 minutes". */
const SPEC_WINDOW_SECONDS = 900

const JOB_WRITE = /^\/api\/v1\/job\/(add|close|expire|repost|delete)$/
const LIST_PAGE = new Set<string>(Object.values(LIST_PATHS))

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

/** A job write's effective status: a deployment may answer a refusal as an HTTP success (2xx) with `status` 412 in the body. */
function effectiveStatus(status: number, path: string, body: unknown): number {
  if (!succeeded({ status }) || !JOB_WRITE.test(path) || body === null || typeof body !== 'object') return status
  const said = (body as { status?: unknown }).status
  return Number.isInteger(said) && (said as number) >= 100 && (said as number) <= 599 ? (said as number) : status
}

/** What the traffic is judged with: the upstream, the kit's checks, a profile's points, --record, the clock, and where to log. */
export interface TrafficOptions {
  upstream: Pick<Upstream, 'base' | 'basePath'>
  checks: AnswerChecks
  /** --profile's points one answer shows (profile-points.ts). */
  points: ReturnType<typeof profilePoints> | undefined
  recording: ProxyRecording | undefined
  now: () => number
  /** --log: a line per request. */
  log: 'pretty' | 'json' | 'off' | undefined
  /** The request log (stdout). */
  write: ((line: string) => void) | undefined
  /** A violation, as it happens (stderr). */
  warn: ((line: string) => void) | undefined
}

export class JudgedTraffic {
  readonly #upstream: TrafficOptions['upstream']
  readonly #checks: AnswerChecks
  readonly #points: TrafficOptions['points']
  readonly #recording: ProxyRecording | undefined
  readonly #now: () => number
  readonly #log: TrafficOptions['log']
  readonly #write: TrafficOptions['write']
  readonly #warn: TrafficOptions['warn']
  readonly evaluator: VerdictEvaluator
  /** The copy oracle's truth: the newest version of each record that passed through, per credential. */
  readonly passedRecords: PassedRecords
  readonly journal: Journal
  #violations: Violation[] = []
  #dropped = 0
  readonly #observations = new Map<string, Observation>()
  /** When each full URL (by user) was last answered below 400: what a 429 of the upstream is judged by. */
  readonly #answered = new Map<string, number>()
  /** The constrained lists the last job/fields answer gave: what a refused job/add is judged by. */
  #lastFields: ConstrainedLists | undefined
  /** The last Authorization header and its user: a client sends the same one each time, read (base64) once. */
  #lastAuthorization: string | undefined
  #lastUser = ''

  constructor(options: TrafficOptions) {
    this.#upstream = options.upstream
    this.#checks = options.checks
    this.#points = options.points
    this.#recording = options.recording
    this.#now = options.now
    this.#log = options.log
    this.#write = options.write
    this.#warn = options.warn
    this.evaluator = new VerdictEvaluator({ windowSeconds: () => SPEC_WINDOW_SECONDS, now: options.now })
    this.passedRecords = new PassedRecords(options.now)
    this.journal = new Journal(JOURNAL_SIZE, this.evaluator)
  }

  /** The violations kept (at most MAX_VIOLATIONS). */
  violations(): Violation[] {
    return [...this.#violations]
  }

  /** Violations found and not kept, past MAX_VIOLATIONS. */
  get droppedViolations(): number {
    return this.#dropped
  }

  observations(): Observation[] {
    return [...this.#observations.values()]
  }

  verdict(): DetailedVerdict {
    return this.evaluator.verdict()
  }

  /** Empties the journal (the verdict with it), the violations and observations, and what they were judged by. */
  clear(): void {
    this.journal.clear()
    this.#violations = []
    this.#dropped = 0
    this.#observations.clear()
    this.#answered.clear()
    this.passedRecords.clear()
  }

  /** One request and its answer: an exchange to the journal (and the verdict), the answer held to the kit's checks of one answer and to the profile, kept for --record, logged. */
  record(request: IncomingMessage, passed: Passed, started: number): void {
    const method = request.method ?? 'GET'
    const clientUrl = request.url ?? '/'
    const path = clientUrl.split('?', 1)[0] as string
    const time = this.#now()
    const authorization = request.headers.authorization
    if (authorization !== this.#lastAuthorization) {
      this.#lastAuthorization = authorization
      this.#lastUser = basicUser(authorization)
    }
    const user = this.#lastUser
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
    if (isList && succeeded({ status }) && passed.fault === undefined && passed.truncated === undefined) this.passedRecords.seen(LIST_OF_PATH.get(path) as ListName, user, answerJson)
    const nextPage = isList && succeeded({ status }) && answerJson !== null && typeof answerJson === 'object' ? typeof (answerJson as { next_page?: unknown }).next_page === 'string' && (answerJson as { next_page: string }).next_page !== '' : undefined
    const write = method === 'POST' && JOB_WRITE.test(path) && requestText !== undefined
    const answerType = passed.headers['content-type']
    const sent = passed.sent ?? passed.bytes
    const held = sent !== undefined && (answerType === undefined || TEXT_TYPE.test(answerType))
    const sentBytes = passed.sent !== undefined ? passed.sentBytes : (passed.bytes?.length ?? 0)
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
      answerBytes: sent === undefined ? passed.received : sentBytes,
      answerType,
      headerBytes,
      bodyBytes: (requestText?.length ?? 0) + (held ? sentBytes : 0),
      headersDropped: false,
      bodiesDropped: false,
    }
    // the verdict: what the upstream's answers said stands for what the fake's board knows
    const key = `${user} ${method} ${clientUrl}`
    const windowOpened = passed.status === 429 ? this.#answered.get(key) : undefined
    const opened = passed.fault === undefined && passed.status > 0 && passed.status < 400
    if (opened) {
      this.#answered.delete(key)
      this.#answered.set(key, time)
      if (this.#answered.size > MAX_WINDOWS) for (const old of [...this.#answered.keys()].slice(0, MAX_WINDOWS / 10)) this.#answered.delete(old)
    }
    let fieldsRead: Record<string, string> | undefined
    if (method === 'GET' && path === '/api/v1/job/fields' && succeeded({ status })) {
      const found = findFieldLists(answerJson)
      if (found) {
        const lists = Object.fromEntries(FIELD_NAMES.flatMap((name) => (Array.isArray(found.lists[name]) ? [[name, (found.lists[name] as unknown[]).filter((v): v is string => typeof v === 'string')]] : [])))
        this.#lastFields = lists
        fieldsRead = listDigests(lists)
      }
    }
    const stale = status === 412 && method === 'POST' && path === '/api/v1/job/add' && this.#lastFields !== undefined ? staleFieldsOf(this.#lastFields, requestJson) : undefined
    // the exchange, into the journal and through it to the verdict (src/watch/exchange.ts)
    const id = this.journal.record(
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
        url: `${this.#upstream.basePath}${clientUrl}`,
        status: passed.status,
        headers: passed.headers,
        ...(passed.lines === undefined ? {} : { lines: passed.lines }),
        bytes: passed.bytes ?? passed.head ?? Buffer.alloc(0),
        received: passed.received,
        truncated: passed.truncated,
        complete: passed.bytes !== undefined && passed.truncated === undefined,
        client: user,
        ...(passed.bytes === undefined ? {} : { json: answerJson }),
        ...(strict ? { strictJson: true } : {}),
      }
      // the rules across answers see every answer; one answer's own rules, each distinct answer once (under one binding of job/fields' values)
      const across = this.#checks.judgeAcross(seen)
      if (kept !== undefined && kept.judged?.binding !== this.#checks.binding) kept.judged = { binding: this.#checks.binding, judgement: this.#checks.judgeAlone(seen) }
      const alone = kept?.judged?.judgement ?? this.#checks.judgeAlone(seen)
      const judged = across.violations.length + across.observations.length === 0 ? alone : { violations: [...alone.violations, ...across.violations], observations: [...alone.observations, ...across.observations] }
      let shownUrl: string | undefined
      for (const problem of judged.violations) {
        shownUrl ??= entryDetail(this.journal, this.journal.entry(id) as NonNullable<ReturnType<Journal['entry']>>).url
        const spec = problem.citation.kind === 'spec' ? [...problem.citation.words] : []
        // one line: the spec's first words, the rest counted (GET /__mock/violations gives them all)
        const cited = spec.length <= 3 ? spec.map(wordsText).join('; ') : `${spec.slice(0, 3).map(wordsText).join('; ')}; and ${spec.length - 3} more`
        this.#keep({ request: id, method, url: shownUrl, status: passed.status, rule: problem.check, message: problem.message, spec, basis: 'spec', time: formatTimestamp(time) }, `spec: ${cited}`)
      }
      const apiPath = this.#checks.apiPath(`${this.#upstream.basePath}${path}`)
      const points = this.#points
      if (points !== undefined && apiPath !== undefined) {
        const shown = () =>
          points({ method, url: `${this.#upstream.base}${clientUrl}`, status: passed.status, headers: passed.headers, bytes: passed.bytes ?? passed.head ?? Buffer.alloc(0), body: answerJson, truncated: passed.truncated, credentials: authorization !== undefined, at: time })
        if (kept !== undefined) kept.points ??= shown()
        for (const problem of kept?.points ?? shown()) {
          shownUrl ??= this.journalUrl(id)
          this.#keep({ request: id, method, url: shownUrl, status: passed.status, rule: problem.check, message: problem.message, spec: [], basis: 'profile', time: formatTimestamp(time) }, PROFILE_BASIS)
        }
      }
      if (this.#recording !== undefined && method === 'GET' && succeeded({ status }) && passed.truncated === undefined && answerJson !== undefined && apiPath !== undefined) {
        this.#recording.seen({ apiPath, query: clientUrl.slice(path.length + 1), json: answerJson, authorization })
      }
      for (const seen of judged.observations) {
        const name = `${seen.topic}\n${seen.endpoint}\n${seen.summary}`
        const known = this.#observations.get(name)
        if (known) known.count += 1
        else if (this.#observations.size < MAX_OBSERVATIONS) this.#observations.set(name, { ...seen, count: 1, request: id })
      }
    }
    if (this.#log === 'pretty' || this.#log === 'json') {
      const ms = Math.max(0, time - started)
      const line =
        this.#log === 'json'
          ? JSON.stringify({ time: formatTimestamp(time), id, method, url: this.journalUrl(id), status: passed.status, ms, ...(fault === undefined ? {} : { note: fault }) })
          : `${formatTimestamp(time)} ${method} ${this.journalUrl(id)} ${passed.status === 0 ? '---' : passed.status} ${ms} ms${fault === undefined ? '' : `  ← ${fault}`}`
      this.#write?.(`${line}\n`)
    }
  }

  /** Keeps a violation (past the bound, counts it) and logs it in one line as it happens. */
  #keep(violation: Violation, basis: string): void {
    if (this.#violations.length < MAX_VIOLATIONS) this.#violations.push(violation)
    else this.#dropped += 1
    this.#warn?.(`jobboard-kit proxy: violation #${violation.request} ${violation.method} ${violation.url} ${violation.status}: ${violation.rule}: ${violation.message} (${basis})\n`)
  }

  /** An entry's URL as shown: the credentials it may hold cut (journal-detail.ts). */
  journalUrl(id: number): string {
    const held = this.journal.entry(id)
    return held === undefined ? '' : entryDetail(this.journal, held).url
  }

  /** What /__mock/ui/board answers on a proxy: what staging broke above the client's verdict, no board. */
  view(upstreamRequests: number) {
    const shown = verdictView(this.verdict())
    // what staging broke, beside what the client broke: one row per rule broken, its findings the answers that broke it
    const byRule = new Map<string, Violation[]>()
    for (const violation of this.#violations) byRule.set(violation.rule, [...(byRule.get(violation.rule) ?? []), violation])
    const staging = [...byRule].map(([rule, found]) => ({
      id: `staging: ${rule}`,
      sentence: found[0]?.basis === 'profile' ? "The upstream answers as its profile records (--profile; the spec does not say)." : `The upstream answers as the spec says: ${(found[0]?.spec ?? []).slice(0, 2).map(wordsText).join(' ')}${(found[0]?.spec.length ?? 0) > 2 ? ` (and ${(found[0]?.spec.length ?? 0) - 2} more of its words: GET /__mock/violations)` : ''}`,
      outcome: 'fail',
      findings: found.slice(0, 50).map((v) => ({ message: `${v.method} ${v.url}: ${v.message}`, requests: [v.request] })),
    }))
    return {
      status: 200,
      proxy: { to: this.#upstream.base, upstreamRequests, violations: this.#violations.length + this.#dropped },
      clock: { now: this.#now(), mode: 'real', speed: 1 },
      window: SPEC_WINDOW_SECONDS,
      verdict: { outcome: shown.outcome === 'pass' && staging.length === 0 ? 'pass' : 'fail', rules: [...staging, ...shown.rules] },
    }
  }
}
