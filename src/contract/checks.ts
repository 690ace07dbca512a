// How a check is written: a named tap subtest whose body asserts through a small
// asserter. A check that cannot be made (its answer was rate limited, left out by the
// ledger, or depends on one that failed) throws Skip before asserting anything and is
// reported as skipped with the reason, never as passed or failed.
import type { Minimal } from '@tapjs/core'
import { API_PREFIX } from '../../schemas/common.js'
import type { Answer, Outcome } from './http.js'

export class Skip extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(reason)
    this.name = 'Skip'
    this.reason = reason
  }
}

/** An answer the plan did not ask for, and why (e.g. "one page holds every record"). */
export interface NotMade {
  readonly kind: 'not-made'
  readonly reason: string
}

export const notMade = (reason: string): NotMade => ({ kind: 'not-made', reason })

export type Got = Outcome | NotMade

/** Where a URL points, relative to the API root when it is on it: for messages. */
export function where(url: string): string {
  const at = url.indexOf('/api/v1/')
  return at < 0 ? url : url.slice(at + API_PREFIX.length)
}

/** The answer, or a Skip naming why there is none. */
export function need(got: Got): Answer {
  if (got.kind === 'answer') return got
  if (got.kind === 'not-made') throw new Skip(got.reason)
  throw new Skip(`${got.method} ${where(got.url)}: ${got.reason}`)
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

export function check(t: Minimal, name: string, body: (a: Asserter) => unknown): void {
  void t.test(name, async (sub: Minimal) => {
    let count = 0
    const pass = (message: string) => {
      count++
      sub.pass(message, QUIET)
    }
    const fail = (message: string) => {
      count++
      sub.fail(message, QUIET)
    }
    const asserter: Asserter = {
      pass,
      fail,
      ok: (condition, message, failure) => {
        if (condition) pass(message)
        else fail(failure ?? `not: ${message}`)
        return condition
      },
      none: (problems, message) => {
        if (problems.length === 0) pass(message)
        for (const problem of problems) fail(problem)
        return problems.length === 0
      },
    }
    try {
      await body(asserter)
    } catch (error) {
      if (error instanceof Skip && count === 0) return sub.plan(0, error.reason)
      fail(error instanceof Skip ? `could not finish: ${error.reason}` : `the check itself broke: ${(error as Error).stack ?? String(error)}`)
    }
    if (count === 0) sub.plan(0, 'nothing to check')
  })
}

/** A top-level test for one endpoint, holding its checks. */
export function endpoint(root: Minimal, name: string, body: (t: Minimal) => void): void {
  void root.test(name, async (t: Minimal) => {
    body(t)
  })
}
