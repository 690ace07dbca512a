// The "every answer" checks: every answer the run got, held to the wire's rules (wire.ts)
// after every other group has asked what it needs, so that each answer of the run is
// among them — lists, details, unknown ids, refusals, 429s, the job operations', the public
// job pages (held to what they send of Content-Length alone: outside the API). Each
// rule is one check, and each answer that breaks it one failure naming the request: a
// wire fault fails these checks, and the checks that read the answer go on reading its
// lenient JSON. A download's Content-Length is its own endpoint's check (resources-checks.ts).
import type { Minimal } from '@tapjs/core'
import { check, endpoint, Skip, where, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import { succeeded } from '../records.js'
import type { Answer, Outcome, Unavailable } from '../request-outcomes.js'
import { heldTo, isDownloadPath, type WireRule } from '../wire.js'

/** The endpoint the wire checks are grouped under. */
export const WIRE_ENDPOINT = 'every answer'

/** At most this many failures are listed, then a count. */
const LISTED = 10

/** What every request of the run came back as, the public pages' included. */
const outcomes = (ctx: RunContext): Outcome[] => [...ctx.client.seen.map((s) => s.outcome), ...ctx.client.pages]

/** Every answer the run got, the 429s it waited out and the public pages included (a 5xx is an outage, not an answer to hold to JSON). */
function answers(ctx: RunContext): Answer[] {
  return outcomes(ctx).flatMap((outcome) => (outcome.kind === 'answer' ? [outcome] : outcome.limited ? [outcome.limited] : []))
}

/** The answers that came but whose body the client could not frame by their Content-Length: each breaks the Content-Length rule. */
const unframed = (ctx: RunContext): Unavailable[] => outcomes(ctx).flatMap((outcome) => (outcome.kind === 'unavailable' && outcome.framing !== undefined ? [outcome] : []))

interface WireCheck {
  name: string
  rule: WireRule
  /** The pass message, before the count of answers checked. */
  noun: string
}

export const WIRE_CHECKS: readonly WireCheck[] = [
  { name: 'each JSON body is UTF-8 without a byte-order mark', rule: 'encoding', noun: 'every JSON body is UTF-8 without a byte-order mark' },
  { name: 'each JSON body is exactly one JSON value, with nothing after it but JSON whitespace', rule: 'one-value', noun: 'every JSON body is one JSON value' },
  { name: 'each JSON answer says Content-Type application/json', rule: 'content-type', noun: 'every JSON answer says Content-Type application/json' },
  { name: 'each Content-Length is the number of bytes that came', rule: 'content-length', noun: 'every Content-Length is the length of its body' },
  { name: 'each 429 carries Retry-after as a number of seconds', rule: 'retry-after', noun: 'every 429 carries Retry-after in seconds' },
  { name: 'each 401 carries a WWW-Authenticate challenge for Basic with a quoted realm', rule: 'challenge', noun: 'every 401 carries a Basic challenge with its realm' },
  { name: 'each header the kit reads that is not a list comes on one field line', rule: 'one-line', noun: 'every header that is not a list comes on one field line' },
]

/** Why a rule's check reads no answer of the run. */
const NONE: Partial<Record<WireRule, string>> = {
  'retry-after': 'no request of the run answered 429',
  challenge: 'no request of the run answered 401 (a refusal answered 403 needs no challenge)',
}

/** Whether the check of a rule reads an answer: the rules wire.ts held it to, but a download's Content-Length (its endpoint's own check). */
function applies(rule: WireRule, answer: Answer, path: string | undefined): boolean {
  if (rule === 'content-length' && path !== undefined && isDownloadPath(path) && succeeded(answer)) return false
  return heldTo(answer, path).has(rule)
}

function report(a: Asserter, ctx: RunContext, wire: WireCheck): void {
  const made = answers(ctx).flatMap((answer) => {
    const path = ctx.client.apiPath(answer.url)
    return applies(wire.rule, answer, path) ? [answer] : []
  })
  // an answer whose Content-Length the client could not frame it by (sent twice, no number) is no Answer: said here, by what the client said
  const cut = wire.rule === 'content-length' ? unframed(ctx) : []
  if (made.length + cut.length === 0) throw new Skip(NONE[wire.rule] ?? 'no answer of the run is of this kind')
  const problems = [
    ...made.flatMap((answer) => answer.wire.filter((p) => p.rule === wire.rule).map((p) => `${answer.method} ${where(answer.url)}: ${p.message}`)),
    ...cut.map((u) => `${u.method} ${where(u.url)}: the answer came, but its Content-Length does not frame its body (the HTTP client says: ${u.framing}); RFC 9110 §8.6: one Content-Length, one number, the bytes that come`),
  ]
  const listed = problems.length > LISTED ? [...problems.slice(0, LISTED), `... and ${problems.length - LISTED} more`] : problems
  const checked = made.length + cut.length
  a.none(listed, `${wire.noun} (${checked} answer${checked === 1 ? '' : 's'} checked)`)
}

/**
 * Successes answered with a 2xx other than 200: the spec names the status of a success's
 * JSON body, never its HTTP status, and every 2xx is a success (RFC 9110 §15.3; records.ts
 * succeeded): what the deployment answers is seen, never failed.
 */
function observeSuccessStatuses(ctx: RunContext): void {
  const others = answers(ctx).filter((answer) => succeeded(answer) && answer.status !== 200)
  for (const status of new Set(others.map((answer) => answer.status))) {
    const some = others.filter((answer) => answer.status === status)
    const [first] = some as [Answer]
    ctx.observations.add({
      topic: 'status',
      endpoint: WIRE_ENDPOINT,
      summary: `${some.length} success${some.length === 1 ? '' : 'es'} answered HTTP ${status}, not 200 (any 2xx is a success, RFC 9110 §15.3), e.g. ${first.method} ${where(first.url)}`,
    })
  }
}

export function wireGroup(root: Minimal, ctx: RunContext): void {
  endpoint(root, WIRE_ENDPOINT, (t) => {
    // every group before has asked what it needs: the run's answers are all in
    observeSuccessStatuses(ctx)
    for (const wire of WIRE_CHECKS) check(t, wire.name, async (a) => report(a, ctx, wire))
  })
}
