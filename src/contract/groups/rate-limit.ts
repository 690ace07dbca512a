// The rate-limit group (--only rate-limit): the one place the kit repeats a full request
// on purpose. A page of a list that the run reads for nothing else (plan.ts SPARE) is
// asked twice; the second (or already the first, inside a window a previous run opened)
// must answer 429 with Retry-after in whole seconds within the window. With
// --rate-limit-window 0 the deployment is said to have no limit: nothing to check.
import type { Minimal } from '@tapjs/core'
import { check, endpoint, need, Skip } from '../checks.js'
import type { RunContext } from '../context.js'
import { excerpt, retryAfterSeconds } from '../http.js'

export function rateLimitGroup(root: Minimal, ctx: RunContext): void {
  endpoint(root, 'rate limit', (t) => {
    check(t, 'a repeated request within the window answers 429 with Retry-after in seconds', async (a) => {
      const window = ctx.settings.rateLimitWindow
      if (window === 0) throw new Skip('--rate-limit-window 0: the deployment is said to have no rate limit')
      const url = ctx.plan.spare('rateLimit')
      const first = need(await ctx.client.repeat(url))
      const answer = first.status === 429 ? first : need(await ctx.client.repeat(url))
      if (!a.ok(answer.status === 429, `the ${answer === first ? 'first' : 'second'} request answers 429`, `the same request made twice answered HTTP ${first.status} then HTTP ${answer.status}, not 429`)) return
      const header = answer.headers['retry-after']
      const seconds = retryAfterSeconds(header)
      a.ok(seconds !== undefined && seconds >= 1 && seconds <= window, `Retry-after: ${String(header)}`,
        header === undefined ? 'the 429 has no Retry-after' : `Retry-after ${JSON.stringify(header)} is not a number of seconds from 1 to ${window}`)
      ctx.observations.add({ topic: 'rate-limit', endpoint: 'rate limit', summary: `a 429 answers ${answer.headers['content-type'] ?? 'no content type'}: ${excerpt(answer).slice(0, 120)}` })
    })
  })
}
