// The rate-limit group (--only rate-limit): the one place the kit repeats a full request
// on purpose. A page of a list that the run reads for nothing else (plan.ts SPARE) is
// asked twice; the second (or already the first, inside a window a previous run opened)
// must answer 429 with Retry-after in whole seconds within the window. Right after it,
// fresh full requests that differ in one part only (another page, a since, another
// download) must not be limited: the spec counts each full request. A repeated request
// answered with a 5xx carrying Retry-after while the fresh ones answer is a limiter
// breaking the 429 rule (a failure), not an outage. With --rate-limit-window 0 the
// deployment is said to have no limit: nothing to check.
import type { Minimal } from '@tapjs/core'
import { check, endpoint, need, Skip, where } from '../checks.js'
import type { RunContext } from '../context.js'
import { excerpt, retryAfterSeconds, type Outcome } from '../request-outcomes.js'

interface Probe {
  /** The repeated request's last outcome: a 429, or what came instead. */
  repeated: Outcome
  /** Whether the repeat's answer came on the first ask (a window a previous run opened). */
  atOnce: boolean
  first: Outcome
  fresh: Array<{ what: string; url: string; got: Outcome }>
}

export function rateLimitGroup(root: Minimal, ctx: RunContext): void {
  let probe: Promise<Probe> | undefined
  const window = ctx.settings.rateLimitWindow
  const run = () => {
    probe ??= (async () => {
      const url = ctx.plan.spare('rateLimit')
      const first = await ctx.client.repeat(url)
      const limited = first.kind === 'answer' && first.status === 429
      const repeated = limited ? first : await ctx.client.repeat(url)
      const fresh = []
      for (const { what, url: freshUrl } of await ctx.plan.freshUrls()) fresh.push({ what, url: freshUrl, got: await ctx.client.repeat(freshUrl) })
      return { repeated, atOnce: limited, first, fresh }
    })()
    return probe
  }
  endpoint(root, 'rate limit', (t) => {
    check(t, 'a repeated request within the window answers 429 with Retry-after in seconds', async (a) => {
      if (window === 0) throw new Skip('--rate-limit-window 0: the deployment is said to have no rate limit')
      const { repeated, first, fresh, atOnce } = await run()
      if (repeated.kind === 'unavailable' && repeated.erred) {
        const header = repeated.erred.headers['retry-after']
        const answered = fresh.filter((f) => f.got.kind === 'answer' && f.got.status < 500)
        // a 5xx that says when to come back, for the repeated request only: the limiter's answer, in the wrong status
        if (header !== undefined && answered.length > 0) {
          return a.fail(`the same request made twice answered HTTP ${repeated.erred.status} with Retry-after ${JSON.stringify(header)}, not 429, while ${answered.map((f) => `${f.what} (${where(f.url)})`).join(' and ')} answered: the limit answers a 5xx`)
        }
      }
      const answer = need(repeated)
      const said = first.kind === 'answer' ? `HTTP ${first.status}` : first.reason
      if (!a.ok(answer.status === 429, `the ${atOnce ? 'first' : 'second'} request answers 429`, `the same request made twice answered ${said} then HTTP ${answer.status}, not 429`)) return
      const header = answer.headers['retry-after']
      const seconds = retryAfterSeconds(header)
      a.ok(seconds !== undefined && seconds >= 1 && seconds <= window, `Retry-after: ${String(header)}`,
        header === undefined ? 'the 429 has no Retry-after' : `Retry-after ${JSON.stringify(header)} is not a number of seconds from 1 to ${window}`)
      ctx.observations.add({ topic: 'rate-limit', endpoint: 'rate limit', summary: `a 429 answers ${answer.headers['content-type'] ?? 'no content type'}: ${excerpt(answer).slice(0, 120)}` })
    })
    check(t, 'fresh full requests (another page, a since, another download) are not limited by the 429 of another', async (a) => {
      if (window === 0) throw new Skip('--rate-limit-window 0: the deployment is said to have no rate limit')
      const { repeated, fresh } = await run()
      if (repeated.kind !== 'answer' || repeated.status !== 429) throw new Skip('the repeated request did not answer 429 (see the check before): nothing to tell fresh requests from', repeated.kind === 'answer' ? 'not-applicable' : 'error')
      for (const { what, url, got } of fresh) {
        const answer = need(got)
        a.ok(answer.status !== 429, `${what} (${where(url)}) answers HTTP ${answer.status}`,
          `${what} (${where(url)}) answered 429 right after the 429 of ${where(repeated.url)}: the limit is not kept per full request`)
      }
    })
  })
}
