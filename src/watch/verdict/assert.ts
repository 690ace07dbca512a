// assertVerdict: the verdict as a test assertion, for node:test, tap, vitest or any
// runner that counts a thrown error as a failure. It fails with the readable account
// (rule, sentence, the offending requests as method + URL + time, what to do instead).
import { AssertionError } from 'node:assert'
import { verdictText } from './verdict-outputs.js'
import type { DetailedVerdict } from './verdict-types.js'

/** Anything that can give a verdict: the fake object (createMockServer) or a function. */
export type VerdictSource = { verdict(options?: { user?: string }): DetailedVerdict } | (() => DetailedVerdict)

/** A test context with `fail` (tap's t, node:test's t.assert via assert): a failure is reported there rather than thrown. */
interface Failing {
  fail(message: string): unknown
}

const verdictOf = (source: VerdictSource, user?: string): DetailedVerdict =>
  typeof source === 'function' ? source() : source.verdict(user === undefined ? {} : { user })

/**
 * Fails unless every rule passes or was not exercised. `assertVerdict(server)` throws an
 * AssertionError; `assertVerdict(t, server)` reports through `t.fail` when the context
 * has one (tap), else throws. Answers the verdict.
 */
export function assertVerdict(first: VerdictSource | Failing, second?: VerdictSource | { user?: string }, third: { user?: string } = {}): DetailedVerdict {
  const hasSource = (value: unknown): value is VerdictSource =>
    typeof value === 'function' || (typeof value === 'object' && value !== null && typeof (value as { verdict?: unknown }).verdict === 'function')
  const [context, source, options] = hasSource(first) ? [undefined, first, (second ?? {}) as { user?: string }] : [first, second as VerdictSource, third]
  const verdict = verdictOf(source, options.user)
  if (verdict.outcome === 'pass') return verdict
  const message = `The fake's verdict on the client is fail:\n${verdictText(verdict)}`
  if (context && typeof context.fail === 'function') context.fail(message)
  else throw new AssertionError({ message, actual: verdict.outcome, expected: 'pass', operator: 'assertVerdict' })
  return verdict
}
