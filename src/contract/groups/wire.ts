// The "every answer" checks: every answer the run got, held to the wire's rules (wire.ts)
// after every other group has asked what it needs, so that each answer of the run is
// among them — lists, details, unknown ids, refusals, 429s, the job operations'. Each
// rule is one check, and each answer that breaks it one failure naming the request: a
// wire fault fails these checks, and the checks that read the answer go on reading its
// lenient JSON. A download's Content-Length is its own endpoint's check (resources.ts).
import type { Minimal } from '@tapjs/core'
import { check, endpoint, Skip, where, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import type { Answer } from '../http.js'
import { claimsJson, isDownloadPath, type WireRule } from '../wire.js'

/** The endpoint the wire checks are grouped under. */
export const WIRE_ENDPOINT = 'every answer'

/** At most this many failures are listed, then a count. */
const LISTED = 10

/** Every answer the run got, the 429s it waited out included (a 5xx is an outage, not an answer to hold to JSON). */
function answers(ctx: RunContext): Answer[] {
  return ctx.client.seen.flatMap(({ outcome }) => (outcome.kind === 'answer' ? [outcome] : outcome.limited ? [outcome.limited] : []))
}

interface WireCheck {
  name: string
  rule: WireRule
  /** The answers the rule applies to, for the pass message and for skipping when none did. */
  applies: (answer: Answer, path: string | undefined) => boolean
  /** The pass message, before the count of answers checked. */
  noun: string
}

/** An answer wire.ts holds to RFC 8259: a JSON endpoint's 200 or 412, or any answer of the API that claims JSON. */
const isJsonAnswer = (answer: Answer, path: string | undefined) =>
  path !== undefined && answer.truncated === undefined && ((!isDownloadPath(path) && (answer.status === 200 || answer.status === 412)) || claimsJson(answer.headers['content-type']))

export const WIRE_CHECKS: readonly WireCheck[] = [
  { name: 'each JSON body is UTF-8 without a byte-order mark', rule: 'encoding', applies: isJsonAnswer, noun: 'every JSON body is UTF-8 without a byte-order mark' },
  { name: 'each JSON body is exactly one JSON value, with nothing after it but JSON whitespace', rule: 'one-value', applies: isJsonAnswer, noun: 'every JSON body is one JSON value' },
  {
    name: 'each JSON answer says Content-Type application/json',
    rule: 'content-type',
    applies: (answer, path) => path !== undefined && !isDownloadPath(path) && (answer.status === 200 || answer.status === 412),
    noun: 'every JSON answer says Content-Type application/json',
  },
  {
    name: 'each Content-Length is the number of bytes that came',
    rule: 'content-length',
    // a download's is its own endpoint's check
    applies: (answer, path) => answer.headers['content-length'] !== undefined && !(path !== undefined && isDownloadPath(path) && answer.status === 200),
    noun: 'every Content-Length is the length of its body',
  },
  { name: 'each 429 carries Retry-after as a number of seconds', rule: 'retry-after', applies: (answer) => answer.status === 429, noun: 'every 429 carries Retry-after in seconds' },
]

function report(a: Asserter, ctx: RunContext, wire: WireCheck): void {
  const made = answers(ctx).flatMap((answer) => {
    const path = ctx.client.apiPath(answer.url)
    return wire.applies(answer, path) ? [answer] : []
  })
  if (made.length === 0) throw new Skip(wire.rule === 'retry-after' ? 'no request of the run answered 429' : 'no answer of the run is of this kind')
  const problems = made.flatMap((answer) => answer.wire.filter((p) => p.rule === wire.rule).map((p) => `${answer.method} ${where(answer.url)}: ${p.message}`))
  const listed = problems.length > LISTED ? [...problems.slice(0, LISTED), `... and ${problems.length - LISTED} more`] : problems
  a.none(listed, `${wire.noun} (${made.length} answer${made.length === 1 ? '' : 's'} checked)`)
}

export function wireGroup(root: Minimal, ctx: RunContext): void {
  endpoint(root, WIRE_ENDPOINT, (t) => {
    for (const wire of WIRE_CHECKS) check(t, wire.name, async (a) => report(a, ctx, wire))
  })
}
