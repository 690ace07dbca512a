// How a check is written: a named tap subtest whose body asserts through a small
// asserter. A check that cannot be made throws Skip, and says why, in one of four ways
// (SKIP_KINDS): its answer was rate limited or left out by the ledger (planned, not
// made: the run is incomplete), the service erred (5xx, no answer, timeout: errored,
// also incomplete), the check does not apply to what the deployment holds (not
// planned), or it is a write check whose turn is another run (not due, not planned).
// Assertions are held until the body ends, so that a check cut short by an outage is
// errored, not passed on half its assertions.
import type { Minimal } from '@tapjs/core'
import { API_PREFIX } from '../../schemas/common.js'
import { isServiceError, type Answer, type Outcome } from './request-outcomes.js'

/** Why a check was not made; `unavailable` and `error` count as planned (the run is incomplete). */
export const SKIP_KINDS = ['unavailable', 'error', 'not-applicable', 'not-due'] as const
export type SkipKind = (typeof SKIP_KINDS)[number]

export class Skip extends Error {
  readonly reason: string
  readonly kind: SkipKind
  constructor(reason: string, kind: SkipKind = 'not-applicable') {
    super(reason)
    this.name = 'Skip'
    this.reason = reason
    this.kind = kind
  }
}

/** A skip's reason as it travels through TAP: `[kind] reason` on one line. */
export const encodeSkip = (skip: Skip) => `[${skip.kind}] ${skip.reason.replace(/\s*\n\s*/g, ' ')}`

export function decodeSkip(text: string): { kind: SkipKind; reason: string } {
  const found = /^\[([a-z-]+)\] ([\s\S]*)$/.exec(text)
  const kind = SKIP_KINDS.find((k) => k === found?.[1])
  return kind && found ? { kind, reason: found[2] as string } : { kind: 'not-applicable', reason: text }
}

/** An answer the plan did not ask for, and why (e.g. "one page holds every record"). */
export interface NotMade {
  readonly kind: 'not-made'
  readonly reason: string
  /** `not-applicable` unless the plan could not ask because an earlier answer was unavailable. */
  readonly skip: SkipKind
}

export const notMade = (reason: string, skip: SkipKind = 'not-applicable'): NotMade => ({ kind: 'not-made', reason, skip })

export type Got = Outcome | NotMade

/** Where a URL points, relative to the API root when it is on it: for messages. */
/** At most ten problems, then a count: a board broken everywhere is said in a few lines. */
export const fewProblems = (problems: readonly string[]): readonly string[] => (problems.length > 10 ? [...problems.slice(0, 10), `... and ${problems.length - 10} more`] : problems)

export function where(url: string): string {
  const at = url.indexOf('/api/v1/')
  return at < 0 ? url : url.slice(at + API_PREFIX.length)
}

/** The answer, or a Skip naming why there is none (errored when the service erred). */
export function need(got: Got): Answer {
  if (got.kind === 'answer') return got
  if (got.kind === 'not-made') throw new Skip(got.reason, got.skip)
  throw new Skip(`${got.method} ${where(got.url)}: ${got.reason}`, isServiceError(got.cause) ? 'error' : 'unavailable')
}

export interface Asserter {
  pass(message: string): void
  fail(message: string): void
  /** A pass or a fail, by the condition; the failure message defaults to the pass one with "not:". */
  ok(condition: boolean, message: string, failure?: string): boolean
  /** Every problem as a failure, or one pass when there are none. */
  none(problems: readonly string[], message: string): boolean
}

// no source excerpt or stack: a contract failure is about the service, not the kit's code
const QUIET = { at: null, diagnostic: false } as const
// nor a place in the kit's code for its subtests: tap captured and parsed a stack for each (a twentieth
// of a run's CPU). A new object each time: tap keeps a subtest's options as its own and adds to them
const nowhere = () => ({ at: null })

export function check(t: Minimal, name: string, body: (a: Asserter) => unknown): void {
  void t.test(name, nowhere(), async (sub: Minimal) => {
    const held: Array<{ ok: boolean; message: string }> = []
    const asserter: Asserter = {
      pass: (message) => void held.push({ ok: true, message }),
      fail: (message) => void held.push({ ok: false, message }),
      ok: (condition, message, failure) => {
        held.push(condition ? { ok: true, message } : { ok: false, message: failure ?? `not: ${message}` })
        return condition
      },
      none: (problems, message) => {
        if (problems.length === 0) held.push({ ok: true, message })
        for (const problem of problems) held.push({ ok: false, message: problem })
        return problems.length === 0
      },
    }
    let skip: Skip | undefined
    try {
      await body(asserter)
    } catch (error) {
      if (error instanceof Skip) skip = error
      else held.push({ ok: false, message: `the check itself broke: ${(error as Error).stack ?? String(error)}` })
    }
    // a check cut short by an answer it could not get was not made, whatever it asserted before
    const cut = skip !== undefined && (held.length === 0 || skip.kind === 'error' || skip.kind === 'unavailable')
    if (skip && cut && !held.some((h) => !h.ok)) return sub.plan(0, encodeSkip(skip))
    if (skip) held.push({ ok: false, message: `could not finish: ${skip.reason}` })
    for (const { ok, message } of held) {
      if (ok) sub.pass(message, QUIET)
      else sub.fail(message, QUIET)
    }
    if (held.length === 0) sub.plan(0, encodeSkip(new Skip('nothing to check')))
  })
}

/** A top-level test for one endpoint, holding its checks. */
export function endpoint(root: Minimal, name: string, body: (t: Minimal) => void): void {
  void root.test(name, nowhere(), async (t: Minimal) => {
    body(t)
  })
}
