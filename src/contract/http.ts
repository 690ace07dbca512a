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
import { API_PREFIX } from '../../schemas/common.js'
import { Buffer } from 'node:buffer'
import { setMaxListeners } from 'node:events'
import { Agent, EnvHttpProxyAgent, fetch, type Dispatcher } from 'undici'
import type { KitClock } from './clock.js'
import { ledgerKey, type Ledger } from './ledger.js'
import { redactorOf, type Redactor } from './redact.js'
import type { ContractSettings } from './settings.js'
import { delaySeconds, lenientJson, wireProblems, type WireProblem } from './wire.js'

export { API_PREFIX }

/**
 * What a request's Authorization is: the credentials given, none, deliberately wrong ones,
 * the given user with a wrong password; or the given credentials sent another way than
 * "HTTP Basic authentication with the form `<username>:<password>`" (AUTH_FORMS).
 */
export type Credentials = 'given' | 'none' | 'wrong' | 'wrong-password' | AuthForm

/**
 * The ways the spec's one authentication can be sent otherwise, derived from its sentence
 * ("All endpoints use HTTP Basic authentication with the form `<username>:<password>`."): its
 * scheme (another scheme: a Bearer token of the same credentials, Digest, a value of no
 * scheme at all), its encoding (Basic whose base64 does not decode), its form (Basic of the
 * user and password without the colon), and the case of the scheme's name, which RFC 9110
 * §11.1 makes case-insensitive: `basic` is Basic, and must be accepted. Each header carries
 * the account's own user and password where the form has room for them, so that a
 * deployment that reads them anyway is caught letting them in.
 */
export const AUTH_FORMS = {
  bearer: { words: 'a Bearer token', accepted: false, header: (user: string, password: string) => `Bearer ${b64(`${user}:${password}`)}` },
  digest: {
    words: 'Digest credentials',
    accepted: false,
    header: (user: string) => `Digest username="${user}", realm="jobboard", nonce="0a4f113b", uri="/api/v1", response="6629fae49393a05397450978507c4ef1"`,
  },
  garbage: { words: 'an Authorization of no scheme', accepted: false, header: (user: string, password: string) => `${user}:${password}` },
  'malformed-base64': { words: 'Basic whose base64 does not decode', accepted: false, header: (user: string, password: string) => `Basic ${b64(`${user}:${password}`).replace(/=+$/, '').slice(0, -1)}!*` },
  'no-colon': { words: 'Basic of the user and password without the colon', accepted: false, header: (user: string, password: string) => `Basic ${b64(`${user}${password}`)}` },
  'lower-case-scheme': { words: 'the scheme name in lower case (basic)', accepted: true, header: (user: string, password: string) => `basic ${b64(`${user}:${password}`)}` },
} as const
export type AuthForm = keyof typeof AUTH_FORMS

/** How the summary and the report name what a request carried. */
export const CREDENTIAL_WORDS: Readonly<Record<Exclude<Credentials, 'given'>, string>> = {
  none: 'no credentials',
  wrong: 'wrong credentials',
  'wrong-password': 'wrong password',
  ...(Object.fromEntries(Object.entries(AUTH_FORMS).map(([form, { words }]) => [form, words])) as Record<AuthForm, string>),
}

export interface Answer {
  readonly kind: 'answer'
  readonly method: string
  readonly url: string
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly bytes: Buffer
  /** Why the body ended early (the connection closed before Content-Length bytes came), if it did. */
  readonly truncated: string | undefined
  /**
   * The body parsed as JSON, leniently (decoded as UTF-8 whatever it is, a byte-order
   * mark let go, the first value taken when another follows), or undefined when it holds
   * none; as it came (the checks read it). What the bytes break is in `wire`.
   */
  readonly json: unknown
  /** What the bytes and headers break of RFC 8259 and the header grammars (wire.ts), found once when the answer came. */
  readonly wire: readonly WireProblem[]
  /** The body as text, as it came (the checks read it). */
  readonly text: string
  /** The start of the body as text with the run's secrets redacted: what a message may quote (excerpt). */
  readonly shown: string
}

/** `service`: a 5xx; `network`: no answer (refused, reset); `timeout`: none in time. Service errors all three, not drift. */
export type UnavailableCause = 'rate-limited' | 'ledger' | 'network' | 'timeout' | 'service' | 'aborted'

/** Whether an unavailable answer is the service's error (the checks that needed it are errored) rather than the limit's. */
export const isServiceError = (cause: UnavailableCause) => cause === 'service' || cause === 'network' || cause === 'timeout'

export interface Unavailable {
  readonly kind: 'unavailable'
  readonly method: string
  readonly url: string
  readonly cause: UnavailableCause
  readonly reason: string
  /** The 429 that made it unavailable, when one did: its body and Retry-after are the deployment's choices. */
  readonly limited?: Answer
  /** The 5xx that made it unavailable, when one did (the 429 check tells a limiter answering 5xx from an outage). */
  readonly erred?: Answer
}

/** How much of an error page a report keeps. */
export const BODY_EXCERPT = 300

/** A Retry-after at most this long is a burst limiter's, not the spec's window: the kit slows down. */
export const SHORT_RETRY_AFTER_SECONDS = 60

/** The pause before a GET that met a service error is asked once more. */
export const RETRY_PAUSE_MS = 2000

export type Outcome = Answer | Unavailable

export interface RequestRecord {
  method: string
  url: string
  credentials: Credentials
  /** HTTP status of the last answer, or undefined when none came. */
  status: number | undefined
  at: string
  /** Seconds waited for a rate-limit window before (or between) attempts. */
  waited: number
  /** Left out or given up: why. */
  note: string | undefined
  /** How many times it went over the wire (2 after a waited-out 429). */
  attempts: number
  /** Answered, or why not. */
  outcome: 'answered' | UnavailableCause
}

const WRONG = { username: 'jobboard-kit-contract', password: 'not-the-password' }

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64')
}

function basic(username: string, password: string): string {
  return `Basic ${b64(`${username}:${password}`)}`
}

/** Whole seconds of a Retry-after header (delay-seconds), or undefined when it holds none (HTTP dates are not what the spec says). */
export const retryAfterSeconds = delaySeconds

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
  return cause?.message ?? (error as Error).message ?? String(error)
}

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

/** One outcome the run got (public job pages aside), for reading the deployment's profile afterwards. */
export interface Seen {
  readonly credentials: Credentials
  readonly outcome: Outcome
  /** The clock's time when it came (ms). */
  readonly at: number
  /** The JSON body a POST sent, if any. */
  readonly body: unknown
  /** Its place among the requests as the plan asked them (answers come back in any order). */
  readonly order: number
}

/** How much of a body is redacted for quoting: far more than an excerpt keeps, so whitespace folded away still leaves enough. */
const SHOWN_BYTES = 64 * 1024

/** The first characters of an answer's body (redacted before it is cut), on one line, for a report. */
export function excerpt(answer: Pick<Answer, 'shown'>): string {
  return answer.shown.replace(/\s+/g, ' ').trim().slice(0, BODY_EXCERPT)
}

// the redaction of a run's secrets lives beside the redactor: `record` needs it before undici is loaded
export { redactorOf }

/**
 * How the kit reaches the deployment: straight, or through the proxies the environment
 * names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, with undici's EnvHttpProxyAgent). TLS is
 * verified against the system CAs and NODE_EXTRA_CA_CERTS (Node's default store) unless
 * --insecure says not to.
 */
export function dispatcherOf(settings: Pick<ContractSettings, 'insecure' | 'network'>): Dispatcher {
  const tls = { rejectUnauthorized: !settings.insecure }
  const network = settings.network ?? {}
  if (network.httpsProxy === undefined && network.httpProxy === undefined) return new Agent({ connect: tls })
  // without a proxy variable set, EnvHttpProxyAgent would read the process's own: the settings already did
  const options = { httpsProxy: network.httpsProxy ?? network.httpProxy, httpProxy: network.httpProxy ?? '', noProxy: network.noProxy ?? '', connect: tls, requestTls: tls, proxyTls: tls }
  // undici 6 marks the agent experimental with a process warning: the kit names its proxy itself
  const warn = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const code = (rest[0] as { code?: string } | undefined)?.code
    if (code !== 'UNDICI-EHPA') (warn as (...args: unknown[]) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  try {
    return new EnvHttpProxyAgent(options)
  } finally {
    process.emitWarning = warn
  }
}

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
    // a legal form of the given credentials is the account's request: it spends the account's window
    if (credentials in AUTH_FORMS) return AUTH_FORMS[credentials as AuthForm].accepted ? this.#settings.username : undefined
    return credentials === 'given' || credentials === 'wrong-password' ? this.#settings.username : credentials === 'wrong' ? WRONG.username : undefined
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
    const unavailable = (cause: UnavailableCause, reason: string, limited?: Answer, erred?: Answer): Unavailable => {
      record.note = reason
      record.outcome = cause
      return { kind: 'unavailable', method, url, cause, reason, ...(limited ? { limited } : {}), ...(erred ? { erred } : {}) }
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
        if (serviceError || method !== 'GET' || mode === 'repeat') return unavailable(failure.cause, serviceError ? `${failure.reason} (asked twice)` : failure.reason, undefined, failure.erred)
        serviceError = failure
        if (!(await this.#wait(RETRY_PAUSE_MS, record, options))) return interrupted()
        continue
      }
      const got = answer as Answer
      if (got.status !== 429 || mode === 'page' || mode === 'repeat') return got
      // the retry of a request that met a service error spent its window: the service error is the news
      if (serviceError) return unavailable(serviceError.cause, `${serviceError.reason}; asked again, it answered 429`)
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
    // identity: a download's bytes must be compared with its Content-Length as sent
    this.#sent.add(this.#key(method, url, credentials))
    const headers: Record<string, string> = { accept: 'application/json, */*', 'accept-encoding': 'identity' }
    const { username, password } = this.#settings
    if (credentials === 'given' && username !== undefined && password !== undefined) headers.authorization = basic(username, password)
    if (credentials === 'wrong') headers.authorization = basic(WRONG.username, WRONG.password)
    if (credentials === 'wrong-password' && username !== undefined) headers.authorization = basic(username, password === WRONG.password ? `${WRONG.password}!` : WRONG.password)
    if (credentials in AUTH_FORMS && username !== undefined && password !== undefined) headers.authorization = AUTH_FORMS[credentials as AuthForm].header(username, password)
    let body: string | undefined
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.body)
    } else if (options.contentType !== undefined) headers['content-type'] = options.contentType
    const timeout = AbortSignal.timeout(this.#settings.requestTimeout * 1000)
    const signal = run ? AbortSignal.any([run, timeout]) : timeout
    let response: Awaited<ReturnType<typeof fetch>>
    try {
      response = await fetch(url, { method, headers, body, redirect: 'manual', signal, dispatcher: this.#dispatcher })
    } catch (error) {
      const aborted = run?.aborted === true
      return {
        kind: 'unavailable',
        method,
        url,
        cause: aborted ? 'aborted' : timeout.aborted ? 'timeout' : 'network',
        reason: aborted ? 'the run was interrupted' : timeout.aborted ? `no answer within --request-timeout ${this.#settings.requestTimeout} s` : `no answer: ${describeNetworkError(error)}`,
      }
    }
    const chunks: Uint8Array[] = []
    let truncated: string | undefined
    if (response.body) {
      const reader = response.body.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          chunks.push(value)
        }
      } catch (error) {
        // a body shorter than its Content-Length ends in a closed connection: keep what came
        truncated = describeNetworkError(error)
      }
    }
    const bytes = Buffer.concat(chunks)
    const text = bytes.toString('utf8')
    const status = response.status
    const received = Object.fromEntries(response.headers)
    // the checks read what came; only the quote is redacted, before anything cuts it
    return {
      kind: 'answer',
      method,
      url,
      status,
      headers: received,
      bytes,
      truncated,
      json: lenientJson(bytes),
      // every answer is held to the wire's rules once, here, before any check reads it
      wire: wireProblems({ status, headers: received, bytes, truncated }, this.apiPath(url)),
      text,
      shown: this.#redact.text(text.slice(0, SHOWN_BYTES)),
    }
  }
}
