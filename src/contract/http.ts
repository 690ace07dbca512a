// The kit's one way to the service. It keeps the spec's rate limit on the client
// side: each full request (method, URL with its query, credential) is made at most once
// per run (per --rate-limit-window) and its answer shared by every check that needs it;
// a 429 is waited out, as often as it comes, while the waits fit in the run's --max-wait
// budget, else the answer is "unavailable" with the reason (the checks that needed it
// are skipped, and the run is incomplete); a 429 with a short Retry-after (a burst
// limiter) lowers the concurrency and spaces the requests; a 5xx, a reset or a timeout
// is a service error (the checks that needed it are errored), and a GET that met one is
// asked once more after a short pause; the ledger carries windows across runs. Every
// request is logged for the summary and the report.
//
// What a request carries and comes back as: request-credentials.ts, request-outcomes.ts;
// one request over the wire: fetch-answer.ts.
import { API_PREFIX } from '../../schemas/common.js'
import { setMaxListeners } from 'node:events'
import type { Dispatcher } from 'undici'
import type { KitClock } from './kit-clock.js'
import { dispatcherOf, fetchAnswer } from './fetch-answer.js'
import { ledgerKey, type Ledger } from './ledger.js'
import { redactorOf, type Redactor } from './redact.js'
import { authorizationOf, type Credentials, userOf } from './request-credentials.js'
import { excerpt, retryAfterSeconds, SHORT_RETRY_AFTER_SECONDS, type Answer, type Outcome, type RequestRecord, type Seen, type Unavailable, type UnavailableCause } from './request-outcomes.js'
import type { ContractSettings } from './settings.js'

export { API_PREFIX }

/** The pause before a GET that met a service error is asked once more. */
export const RETRY_PAUSE_MS = 2000

/** A few requests at a time: quick against a fake, polite against a real service; fewer after a burst limiter's 429. */
class Slots {
  #limit: number
  #busy = 0
  readonly #waiting: Array<() => void> = []
  constructor(count: number) {
    this.#limit = count
  }
  get limit(): number {
    return this.#limit
  }
  async take(): Promise<void> {
    if (this.#busy < this.#limit) {
      this.#busy++
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }
  give(): void {
    const next = this.#busy <= this.#limit ? this.#waiting.shift() : undefined
    if (next) next()
    else this.#busy--
  }
  halve(): void {
    this.#limit = Math.max(1, Math.floor(this.#limit / 2))
  }
}

// the redaction of a run's secrets lives beside the redactor: `record` needs it before undici is loaded
export { redactorOf }

export interface ClientOptions {
  settings: ContractSettings
  clock: KitClock
  ledger: Ledger
  signal: AbortSignal
  /** What hides the run's secrets in what answers bring back; by default the settings' own. */
  redact?: Redactor
}

export interface RequestOptions {
  credentials?: Credentials
  body?: unknown
  /** Not cut short when the run is interrupted: cleanup must still delete what the run made. */
  detached?: boolean
  /**
   * A Content-Type to send on a GET ("A content-type header on GET requests is ignored"): the
   * same full request for the rate limit as without it, a request of its own for the answers.
   */
  contentType?: string
}

export class Client {
  readonly baseUrl: string
  readonly origin: string
  readonly #settings: ContractSettings
  readonly #clock: KitClock
  readonly #ledger: Ledger
  readonly #redact: Redactor
  readonly #dispatcher: Dispatcher
  /** Aborts with the run: one listener on the caller's signal, however many requests wait. */
  readonly #stop = new AbortController()
  readonly #answers = new Map<string, Promise<Outcome>>()
  /** Full requests that went out in this run (not those an interrupt stopped before they left). */
  readonly #sent = new Set<string>()
  readonly #slots = new Slots(4)
  /** Waits end by then: --max-wait is the budget of the whole run, not of each request. */
  readonly #deadline: number
  /** After a burst limiter's 429: the least time between two requests' starts, and when the next may start. */
  #spacing = 0
  #nextStart = 0
  readonly log: RequestRecord[] = []
  /** Every outcome the run got, in the order they came, with whose credentials and when: what a profile is read from. */
  readonly seen: Seen[] = []
  /** What the pages outside the API the run asked (public job pages) came back as: held to the wire's rules too, not read for a profile. */
  readonly pages: Outcome[] = []
  #started = 0

  /** How the kit slowed down for a burst limiter, if it had to: requests at once, and the least time between two. */
  get pace(): { concurrency: number; spacingMs: number } | undefined {
    return this.#spacing === 0 ? undefined : { concurrency: this.#slots.limit, spacingMs: this.#spacing }
  }

  constructor({ settings, clock, ledger, signal, redact }: ClientOptions) {
    this.#redact = redact ?? redactorOf(settings)
    this.#dispatcher = dispatcherOf(settings)
    this.baseUrl = settings.baseUrl
    this.origin = new URL(settings.baseUrl).origin
    this.#settings = settings
    this.#clock = clock
    this.#ledger = ledger
    this.#deadline = clock.now() + settings.maxWait * 1000
    // every waiting request listens for the stop; their number is the plan's, not a leak
    setMaxListeners(0, this.#stop.signal)
    if (signal.aborted) this.#stop.abort(signal.reason)
    else signal.addEventListener('abort', () => this.#stop.abort(signal.reason), { once: true })
  }

  get #windowMs(): number {
    return this.#settings.rateLimitWindow * 1000
  }

  /** Whether a full request may be asked once per window only (--rate-limit-window above 0): else no request is another's budget. */
  get limited(): boolean {
    return this.#windowMs > 0
  }

  /** The full URL of an API path, with the query in the spec's form (a space sent as +). */
  api(path: string, query: Record<string, string | number | undefined> = {}): string {
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value))
    const text = search.toString()
    return `${this.baseUrl}${API_PREFIX}${path}${text === '' ? '' : `?${text}`}`
  }

  /** The path of a URL under the API root (`/candidates/list`), or undefined when it is not under it. */
  apiPath(url: string): string | undefined {
    try {
      const [root, { origin, pathname }] = [new URL(this.api('')), new URL(url)]
      return origin === root.origin && pathname.startsWith(root.pathname) ? pathname.slice(root.pathname.length) : undefined
    } catch {
      return undefined
    }
  }

  /** Whether a URL is on the base URL's origin: the only place the kit sends credentials. */
  sameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === this.origin
    } catch {
      return false
    }
  }

  /** Whether this full request has been asked for in this run. */
  has(url: string, options: RequestOptions = {}): boolean {
    return this.#answers.has(this.#key('GET', url, options.credentials ?? 'given'))
  }

  /**
   * Whether a full request with the given credentials may be made now without earning a
   * 429: not made yet in this run (unless the window is 0) and outside the ledger's
   * window (or at its end within the --max-wait budget).
   */
  free(method: string, url: string): boolean {
    if (this.#windowMs > 0 && this.#sent.has(this.#key(method, url, 'given'))) return false
    const now = this.#clock.now()
    const until = this.#ledger.openUntil(ledgerKey(this.#user('given'), method, url), now)
    return until === undefined || until <= this.#deadline
  }

  /** A GET, made once per run: later calls share the first one's answer. */
  get(url: string, options: RequestOptions = {}): Promise<Outcome> {
    return this.#once('GET', url, options)
  }

  /**
   * A POST with a JSON body. Writes are made once per window too: a second identical full
   * request is a bug in the kit, unless --rate-limit-window 0 says the deployment has no limit.
   */
  post(url: string, body: unknown, options: Pick<RequestOptions, 'detached' | 'credentials'> = {}): Promise<Outcome> {
    const key = this.#key('POST', url, options.credentials ?? 'given')
    if (this.#answers.has(key)) {
      // one an interrupt stopped before it left may go now (cleanup's delete)
      if (this.#windowMs > 0 && this.#sent.has(key)) throw new Error(`jobboard-kit contract: POST ${url} was asked for twice in one window`)
      const outcome = this.#send('POST', url, { ...options, body }, options.credentials ?? 'given', 'shared')
      this.#answers.set(key, outcome)
      return outcome
    }
    return this.#once('POST', url, { ...options, body })
  }

  /** A request outside the API (the public job page): no credentials, no rate limit, not shared. */
  async page(url: string): Promise<Outcome> {
    return this.#send('GET', url, {}, 'none', 'page')
  }

  /**
   * The same full request as an earlier one, on purpose, or a fresh one right after a
   * 429: only the 429 checks do this. No waiting, no sharing, no second ask after a 5xx;
   * the answer is whatever comes.
   */
  repeat(url: string): Promise<Outcome> {
    return this.#send('GET', url, {}, 'given', 'repeat')
  }

  /** Lets go of the connections the run kept open. */
  async close(): Promise<void> {
    await this.#dispatcher.destroy()
  }

  #key(method: string, url: string, credentials: Credentials): string {
    return `${credentials} ${method} ${url}`
  }

  #once(method: string, url: string, options: RequestOptions): Promise<Outcome> {
    const credentials = options.credentials ?? 'given'
    const key = `${this.#key(method, url, credentials)}${options.contentType === undefined ? '' : ` content-type ${options.contentType}`}`
    let outcome = this.#answers.get(key)
    if (!outcome) {
      outcome = this.#send(method, url, options, credentials, 'shared')
      this.#answers.set(key, outcome)
    }
    return outcome
  }

  #user(credentials: Credentials): string | undefined {
    return userOf(credentials, this.#settings.username)
  }

  /** Whether a wait of `ms` from now ends within the run's --max-wait budget. */
  #affords(ms: number): boolean {
    return this.#clock.now() + ms <= this.#deadline
  }

  /**
   * `shared`: an API request under the limit, waited for and ledgered; `repeat`: the
   * 429 check's second request, ledgered but never waited for; `page`: outside the API.
   */
  async #send(method: string, url: string, options: RequestOptions, credentials: Credentials, mode: 'shared' | 'repeat' | 'page'): Promise<Outcome> {
    const order = this.#started++
    const outcome = await this.#attempt(method, url, options, credentials, mode)
    if (mode !== 'page') this.seen.push({ credentials, outcome, at: this.#clock.now(), body: options.body, order })
    else this.pages.push(outcome)
    return outcome
  }

  async #attempt(method: string, url: string, options: RequestOptions, credentials: Credentials, mode: 'shared' | 'repeat' | 'page'): Promise<Outcome> {
    const record: RequestRecord = {
      method,
      url,
      credentials,
      status: undefined,
      at: new Date(this.#clock.now()).toISOString(),
      waited: 0,
      note: undefined,
      attempts: 0,
      outcome: 'answered',
    }
    this.log.push(record)
    const ledgerId = ledgerKey(this.#user(credentials), method, url)
    const unavailable = (cause: UnavailableCause, reason: string, limited?: Answer, erred?: Answer, framing?: string): Unavailable => {
      record.note = reason
      record.outcome = cause
      return { kind: 'unavailable', method, url, cause, reason, ...(limited ? { limited } : {}), ...(erred ? { erred } : {}), ...(framing === undefined ? {} : { framing }) }
    }
    const interrupted = () => unavailable('aborted', 'the run was interrupted')

    if (mode === 'shared') {
      const now = this.#clock.now()
      const until = this.#ledger.openUntil(ledgerId, now)
      if (until !== undefined) {
        const wait = until - now
        if (!this.#affords(wait)) {
          return unavailable('ledger', `left out: the ledger says its window is open until ${new Date(until).toISOString()}, beyond --max-wait ${this.#settings.maxWait} s`)
        }
        if (!(await this.#wait(wait, record, options))) return interrupted()
      }
    }

    let serviceError: Unavailable | undefined
    for (;;) {
      await this.#slots.take()
      let answer: Answer | Unavailable
      try {
        if (!(await this.#pace(record, options))) return interrupted()
        record.attempts++
        record.at = new Date(this.#clock.now()).toISOString()
        answer = await this.#fetch(method, url, options, credentials)
      } finally {
        this.#slots.give()
      }
      if (answer.kind === 'answer') record.status = answer.status
      if (answer.kind === 'unavailable' && answer.cause === 'aborted') return interrupted()
      if (mode !== 'page' && answer.kind === 'answer') {
        // every answer but a 429 uses up the window (the spec counts requests, not successes), a 5xx too
        const now = this.#clock.now()
        const retryAfter = answer.status === 429 ? retryAfterSeconds(answer.headers['retry-after']) : undefined
        const opensIn = answer.status === 429 ? (retryAfter ?? this.#settings.rateLimitWindow) * 1000 : this.#windowMs
        this.#ledger.record(ledgerId, now, now + opensIn)
      }
      const failure = answer.kind === 'unavailable' ? answer : answer.status >= 500 ? this.#serviceError(answer) : undefined
      if (failure) {
        // a GET is asked once more after a short pause; a write, or the 429 check's own request, is never repeated
        if (serviceError || method !== 'GET' || mode === 'repeat') return unavailable(failure.cause, serviceError ? `${failure.reason} (asked twice)` : failure.reason, undefined, failure.erred, failure.framing)
        serviceError = failure
        if (!(await this.#wait(RETRY_PAUSE_MS, record, options))) return interrupted()
        continue
      }
      const got = answer as Answer
      if (got.status !== 429 || mode === 'page' || mode === 'repeat') return got
      // the retry of a request that met a service error spent its window: the service error is the news
      if (serviceError) return unavailable(serviceError.cause, `${serviceError.reason}; asked again, it answered 429`, undefined, undefined, serviceError.framing)
      const retryAfter = retryAfterSeconds(got.headers['retry-after'])
      if (retryAfter === undefined) return unavailable('rate-limited', 'answered 429 without a Retry-after in seconds', got)
      if (retryAfter <= SHORT_RETRY_AFTER_SECONDS) this.#slowDown(retryAfter)
      if (!this.#affords(retryAfter * 1000)) {
        return unavailable('rate-limited', `answered 429; Retry-after ${retryAfter} s is beyond what is left of --max-wait ${this.#settings.maxWait} s`, got)
      }
      if (!(await this.#wait(retryAfter * 1000, record, options))) return interrupted()
    }
  }

  /** A 5xx as a service error, naming its status and the start of its body. */
  #serviceError(answer: Answer): Unavailable {
    const type = answer.headers['content-type']
    const reason = `answered HTTP ${answer.status}${type ? ` (${type})` : ''}: ${excerpt(answer) || '(empty body)'}`
    return { kind: 'unavailable', method: answer.method, url: answer.url, cause: 'service', reason, erred: answer }
  }

  /** A burst limiter answered: fewer requests at once, and the next ones spaced by its Retry-after. */
  #slowDown(retryAfter: number): void {
    this.#slots.halve()
    this.#spacing = Math.max(this.#spacing, retryAfter * 1000)
  }

  /** Waits until this request may start, when requests are spaced; false when the run was interrupted. */
  async #pace(record: RequestRecord, options: RequestOptions): Promise<boolean> {
    if (this.#spacing === 0) return true
    const now = this.#clock.now()
    const start = Math.max(now, this.#nextStart)
    this.#nextStart = start + this.#spacing
    // past the budget the request goes unspaced: a 429 then says what it must
    return start === now || !this.#affords(start - now) || this.#wait(start - now, record, options)
  }

  async #wait(ms: number, record: RequestRecord, options: RequestOptions): Promise<boolean> {
    try {
      await this.#clock.sleep(ms, options.detached ? undefined : this.#stop.signal)
      record.waited += Math.round(ms / 1000)
      return true
    } catch {
      return false
    }
  }

  async #fetch(method: string, url: string, options: RequestOptions, credentials: Credentials): Promise<Answer | Unavailable> {
    const run = options.detached ? undefined : this.#stop.signal
    if (run?.aborted) return { kind: 'unavailable', method, url, cause: 'aborted', reason: 'the run was interrupted' }
    this.#sent.add(this.#key(method, url, credentials))
    const request = { method, url, authorization: authorizationOf(credentials, this.#settings), body: options.body, contentType: options.contentType, run }
    return fetchAnswer(request, { dispatcher: this.#dispatcher, requestTimeout: this.#settings.requestTimeout, redact: this.#redact, apiPath: (path) => this.apiPath(path) })
  }
}
