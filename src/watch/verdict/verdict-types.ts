// The verdict's shapes: a journal entry as the evaluator is fed it (its time still epoch
// milliseconds, and the facts its source knew when it answered), the settings of the board
// the rules read, and a verdict (each rule's outcome and findings, and for the readable
// account the requests they name). The package's face exports the verdict's.
import type { RuleId } from './client-rules.js'

/** A journal entry as the evaluator sees it: its time still epoch milliseconds, and the facts the fake knew when it answered. */
export interface Observed {
  id: number
  method: string
  url: string
  status: number
  time: number
  user: string
  /** Whether the request carried an `Authorization: Basic ...` header. */
  credentials: boolean
  fault?: string | undefined
  contentType?: string | undefined
  retryAfter?: number | undefined
  digest?: string | undefined
  /** A list page: whether it gave a next page. */
  nextPage?: boolean | undefined
  /** The request opened a rate-limit window that stayed open. */
  opened?: boolean | undefined
  /** A 429: when the window that refused it opened. */
  windowOpened?: number | undefined
  /** A job/fields read: a digest of each constrained list as answered. */
  fieldsRead?: Readonly<Record<string, string>> | undefined
  /** A refused job write: the constrained fields whose values were not current, and a digest of the current values. */
  staleFields?: Readonly<Record<string, string>> | undefined
}

/** The board's settings the rules read, asked at each entry (a reset may change them). */
export interface VerdictContext {
  /** The rate-limit window in seconds; 0 when the limit is off. */
  windowSeconds(): number
  /** The board's time (epoch ms): when the journal was emptied. */
  now(): number
  /** Board seconds per real second (a sped-up clock scales Retry-after down by it); 1 by default. */
  speed?(): number
}

export interface Finding {
  message: string
  /** Journal ids of the offending requests. */
  requests: number[]
}

/** A request a finding names, as the readable account shows it. */
export interface Shown {
  id: number
  method: string
  url: string
  time: string
}

export type RuleOutcome = 'pass' | 'fail' | 'not-exercised'

export interface RuleVerdict {
  id: RuleId
  outcome: RuleOutcome
  findings: Finding[]
}

export interface Verdict {
  status: 200
  outcome: 'pass' | 'fail'
  rules: RuleVerdict[]
}

/** A verdict with the requests its findings name (method, URL, time), for the readable account. */
export interface DetailedVerdict extends Verdict {
  requests: Record<number, Shown>
}
