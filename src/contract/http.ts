// The kit's one way to the service. It keeps the spec's rate limit on the client
// side: each full request (method, URL with its query, credential) is made at most once
// per run and its answer shared by every check that needs it; a 429 is waited out when
// Retry-after fits in --max-wait, else the answer is "unavailable" with the reason (the
// checks that needed it are skipped); the ledger carries windows across runs. Every
// request is logged for the summary and the report.
import { API_PREFIX } from '../../schemas/common.js'
import { Buffer } from 'node:buffer'
import type { KitClock } from './clock.js'
import { ledgerKey, type Ledger } from './ledger.js'
import { RATE_LIMIT_WINDOW_SECONDS, type ContractSettings } from './settings.js'

export { API_PREFIX }

/** Whose credentials a request carries: the ones given, none, or deliberately wrong ones. */
export type Credentials = 'given' | 'none' | 'wrong'

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
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown
}

export type UnavailableCause = 'rate-limited' | 'ledger' | 'network' | 'aborted'

export interface Unavailable {
  readonly kind: 'unavailable'
  readonly method: string
  readonly url: string
  readonly cause: UnavailableCause
  readonly reason: string
}

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

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`
}

/** Whole seconds of a Retry-after header, or undefined when it holds none (HTTP dates are not what the spec says). */
export function retryAfterSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*[0-9]+\s*$/.test(value)) return undefined
  return Number(value.trim())
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
  return cause?.message ?? (error as Error).message ?? String(error)
}

function parseJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8').trim()
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A few requests at a time: quick against a fake, polite against a real service. */
class Slots {
  #free: number
  readonly #waiting: Array<() => void> = []
  constructor(count: number) {
    this.#free = count
  }
  async take(): Promise<void> {
    if (this.#free > 0) {
      this.#free--
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }
  give(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#free++
  }
}

export interface ClientOptions {
  settings: ContractSettings
  clock: KitClock
  ledger: Ledger
  signal: AbortSignal
}

export interface RequestOptions {
  credentials?: Credentials
  body?: unknown
  /** Not cut short when the run is interrupted: cleanup must still delete what the run made. */
  detached?: boolean
}

export class Client {
  readonly baseUrl: string
  readonly origin: string
  readonly #settings: ContractSettings
  readonly #clock: KitClock
  readonly #ledger: Ledger
  readonly #signal: AbortSignal
  readonly #answers = new Map<string, Promise<Outcome>>()
  readonly #slots = new Slots(4)
  readonly log: RequestRecord[] = []

  constructor({ settings, clock, ledger, signal }: ClientOptions) {
    this.baseUrl = settings.baseUrl
    this.origin = new URL(settings.baseUrl).origin
    this.#settings = settings
    this.#clock = clock
    this.#ledger = ledger
    this.#signal = signal
  }

  /** The full URL of an API path, with the query in the spec's form (a space sent as +). */
  api(path: string, query: Record<string, string | number | undefined> = {}): string {
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value))
    const text = search.toString()
    return `${this.baseUrl}${API_PREFIX}${path}${text === '' ? '' : `?${text}`}`
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

  /** A GET, made once per run: later calls share the first one's answer. */
  get(url: string, options: RequestOptions = {}): Promise<Outcome> {
    return this.#once('GET', url, options)
  }

  /** A POST with a JSON body. Writes are made once too: a second identical full request is a bug in the kit. */
  post(url: string, body: unknown, options: Pick<RequestOptions, 'detached'> = {}): Promise<Outcome> {
    const key = this.#key('POST', url, 'given')
    if (this.#answers.has(key)) throw new Error(`jobboard-kit contract: POST ${url} was asked for twice in one run`)
    return this.#once('POST', url, { ...options, body })
  }

  /** A request outside the API (the public job page): no credentials, no rate limit, not shared. */
  async page(url: string): Promise<Outcome> {
    return this.#send('GET', url, {}, 'none', 'page')
  }

  /**
   * The same full request as an earlier one, on purpose: only the 429 check does this.
   * No waiting, no sharing; the answer is whatever comes.
   */
  repeat(url: string): Promise<Outcome> {
    return this.#send('GET', url, {}, 'given', 'repeat')
  }

  #key(method: string, url: string, credentials: Credentials): string {
    return `${credentials} ${method} ${url}`
  }

  #once(method: string, url: string, options: RequestOptions): Promise<Outcome> {
    const credentials = options.credentials ?? 'given'
    const key = this.#key(method, url, credentials)
    let outcome = this.#answers.get(key)
    if (!outcome) {
      outcome = this.#send(method, url, options, credentials, 'shared')
      this.#answers.set(key, outcome)
    }
    return outcome
  }

  #user(credentials: Credentials): string | undefined {
    return credentials === 'given' ? this.#settings.username : credentials === 'wrong' ? WRONG.username : undefined
  }

  /**
   * `shared`: an API request under the limit, waited for and ledgered; `repeat`: the
   * 429 check's second request, ledgered but never waited for; `page`: outside the API.
   */
  async #send(method: string, url: string, options: RequestOptions, credentials: Credentials, mode: 'shared' | 'repeat' | 'page'): Promise<Outcome> {
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
    const maxWaitMs = this.#settings.maxWait * 1000
    const unavailable = (cause: UnavailableCause, reason: string): Unavailable => {
      record.note = reason
      record.outcome = cause
      return { kind: 'unavailable', method, url, cause, reason }
    }

    if (mode === 'shared') {
      const now = this.#clock.now()
      const until = this.#ledger.openUntil(ledgerId, now)
      if (until !== undefined) {
        const wait = until - now
        const since = new Date(until - RATE_LIMIT_WINDOW_SECONDS * 1000).toISOString()
        if (wait > maxWaitMs) {
          return unavailable('ledger', `left out: the ledger says its window is open until ${new Date(until).toISOString()} (made about ${since}), beyond --max-wait ${this.#settings.maxWait} s`)
        }
        if (!(await this.#wait(wait, record, options))) return unavailable('aborted', 'the run was interrupted')
      }
    }

    for (;;) {
      await this.#slots.take()
      let answer: Answer | Unavailable
      try {
        record.attempts++
        record.at = new Date(this.#clock.now()).toISOString()
        answer = await this.#fetch(method, url, options, credentials)
      } finally {
        this.#slots.give()
      }
      if (answer.kind === 'unavailable') return unavailable(answer.cause, answer.reason)
      record.status = answer.status
      if (mode === 'page') return answer
      // every answer but a 429 uses up the window (the spec counts requests, not successes)
      const now = this.#clock.now()
      const retryAfter = answer.status === 429 ? retryAfterSeconds(answer.headers['retry-after']) : undefined
      const opensIn = answer.status === 429 ? (retryAfter ?? RATE_LIMIT_WINDOW_SECONDS) : RATE_LIMIT_WINDOW_SECONDS
      this.#ledger.record(ledgerId, now, now + opensIn * 1000)
      if (answer.status !== 429 || mode === 'repeat') return answer
      if (retryAfter === undefined) return unavailable('rate-limited', 'answered 429 without a Retry-after in seconds')
      if (record.attempts > 1 || retryAfter * 1000 > maxWaitMs) {
        return unavailable(
          'rate-limited',
          record.attempts > 1
            ? `answered 429 again after waiting ${retryAfter} s`
            : `answered 429; Retry-after ${retryAfter} s is beyond --max-wait ${this.#settings.maxWait} s`,
        )
      }
      if (!(await this.#wait(retryAfter * 1000, record, options))) return unavailable('aborted', 'the run was interrupted')
    }
  }

  async #wait(ms: number, record: RequestRecord, options: RequestOptions): Promise<boolean> {
    try {
      await this.#clock.sleep(ms, options.detached ? undefined : this.#signal)
      record.waited += Math.round(ms / 1000)
      return true
    } catch {
      return false
    }
  }

  async #fetch(method: string, url: string, options: RequestOptions, credentials: Credentials): Promise<Answer | Unavailable> {
    const run = options.detached ? undefined : this.#signal
    if (run?.aborted) return { kind: 'unavailable', method, url, cause: 'aborted', reason: 'the run was interrupted' }
    // identity: a download's bytes must be compared with its Content-Length as sent
    const headers: Record<string, string> = { accept: 'application/json, */*', 'accept-encoding': 'identity' }
    const { username, password } = this.#settings
    if (credentials === 'given' && username !== undefined && password !== undefined) headers.authorization = basic(username, password)
    if (credentials === 'wrong') headers.authorization = basic(WRONG.username, WRONG.password)
    let body: string | undefined
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.body)
    }
    const timeout = AbortSignal.timeout(this.#settings.requestTimeout * 1000)
    const signal = run ? AbortSignal.any([run, timeout]) : timeout
    let response: Response
    try {
      response = await fetch(url, { method, headers, body, redirect: 'manual', signal })
    } catch (error) {
      const aborted = run?.aborted === true
      return {
        kind: 'unavailable',
        method,
        url,
        cause: aborted ? 'aborted' : 'network',
        reason: aborted ? 'the run was interrupted' : `no answer: ${describeNetworkError(error)}`,
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
    return {
      kind: 'answer',
      method,
      url,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      bytes,
      truncated,
      json: parseJson(bytes),
    }
  }
}
