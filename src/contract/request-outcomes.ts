// What a request of the kit comes back as (src/contract/http.ts's client): an Answer, as it
// came (its bytes, its JSON read leniently, what it breaks of the wire's rules, the start
// of its body redacted for quoting), or Unavailable with why (the rate limit, the ledger,
// the network, a time-out, a 5xx, the run interrupted); the record of each request for the
// summary and the report, and what the run saw, for reading its profile.
import type { Buffer } from 'node:buffer'
import type { Credentials } from './request-credentials.js'
import { delaySeconds, type WireProblem } from './wire.js'

export interface Answer {
  readonly kind: 'answer'
  readonly method: string
  readonly url: string
  readonly status: number
  /** Header names in lower case; a field's lines joined by ", ", as fetch joins them. */
  readonly headers: Readonly<Record<string, string>>
  /** How many field lines each header came on (lower-case names), where they were counted: the wire's one-line rule reads it. */
  readonly lines?: Readonly<Record<string, number>>
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
  /**
   * An answer came but the client could not frame its body by its Content-Length (sent
   * twice, no number, not the bytes that came): what the client said. The checks that
   * needed it are an outage; the every-answer check of Content-Length fails it (RFC 9110 §8.6).
   */
  readonly framing?: string
}

/** How much of an error page a report keeps. */
export const BODY_EXCERPT = 300

/** A Retry-after at most this long is a burst limiter's, not the spec's window: the kit slows down. */
export const SHORT_RETRY_AFTER_SECONDS = 60

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

/** Whole seconds of a Retry-after header (delay-seconds), or undefined when it holds none (HTTP dates are not what the spec says). */
export const retryAfterSeconds = delaySeconds

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

/** The first characters of an answer's body (redacted before it is cut), on one line, for a report. */
export function excerpt(answer: Pick<Answer, 'shown'>): string {
  return answer.shown.replace(/\s+/g, ' ').trim().slice(0, BODY_EXCERPT)
}

