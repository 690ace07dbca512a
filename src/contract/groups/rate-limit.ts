// The rate-limit group (--only rate-limit): the one place the kit repeats a full request
// on purpose. A cheap read, marked so that it spends no window another check needs, is
// made twice; the second (or already the first, inside a window a previous run opened)
// must answer 429 with Retry-after in whole seconds within the 15-minute window.
import type { Minimal } from '@tapjs/core'
import { check, endpoint, need } from '../checks.js'
import type { RunContext } from '../context.js'
import { retryAfterSeconds } from '../http.js'
import { MARK } from '../plan.js'
import { RATE_LIMIT_WINDOW_SECONDS } from '../settings.js'

export function rateLimitGroup(root: Minimal, ctx: RunContext): void {
  endpoint(root, 'rate limit', (t) => {
    check(t, 'a repeated request within the window answers 429 with Retry-after in seconds', async (a) => {
      const url = ctx.client.api('/metrics/list', { [MARK]: 'rate-limit' })
      const first = need(await ctx.client.repeat(url))
      const answer = first.status === 429 ? first : need(await ctx.client.repeat(url))
      if (!a.ok(answer.status === 429, `the ${answer === first ? 'first' : 'second'} request answers 429`, `the same request made twice answered HTTP ${first.status} then HTTP ${answer.status}, not 429`)) return
      const header = answer.headers['retry-after']
      const seconds = retryAfterSeconds(header)
      a.ok(seconds !== undefined && seconds >= 1 && seconds <= RATE_LIMIT_WINDOW_SECONDS, `Retry-after: ${String(header)}`,
        header === undefined ? 'the 429 has no Retry-after' : `Retry-after ${JSON.stringify(header)} is not a number of seconds from 1 to ${RATE_LIMIT_WINDOW_SECONDS}`)
      ctx.observations.add({ topic: 'rate-limit', endpoint: 'rate limit', summary: `a 429 answers ${answer.headers['content-type'] ?? 'no content type'}: ${answer.bytes.toString('utf8').slice(0, 120)}` })
    })
  })
}
