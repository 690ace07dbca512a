// The auth group: a request without credentials and one with wrong credentials are
// refused (401 or 403), never answered 200. Each spends a full request the run needs for
// nothing else (a page past those it reads, plan.ts SPARE), so that it uses up no
// window another check needs.
import type { Minimal } from '@tapjs/core'
import { check, endpoint, need, type Got } from '../checks.js'
import type { RunContext } from '../context.js'

export function authGroup(root: Minimal, ctx: RunContext): void {
  const requests: Array<[string, () => Promise<Got>]> = [
    ['without credentials', () => ctx.plan.withoutCredentials()],
    ['with wrong credentials', () => ctx.plan.wrongCredentials()],
  ]
  endpoint(root, 'auth', (t) => {
    for (const [what, request] of requests) {
      check(t, `a request ${what} is refused with 401 or 403`, async (a) => {
        const answer = need(await request())
        const refused = answer.status === 401 || answer.status === 403
        a.ok(refused, `answered HTTP ${answer.status}`, answer.status === 200 ? `answered 200 to a request ${what}` : `answered HTTP ${answer.status}, not 401 or 403`)
        const challenge = answer.headers['www-authenticate']
        ctx.observations.add({
          topic: 'auth',
          endpoint: 'auth',
          summary: `a request ${what} answers HTTP ${answer.status} ${challenge ? `with WWW-Authenticate: ${challenge}` : 'without WWW-Authenticate'}`,
          details: { status: answer.status, body: answer.json },
        })
      })
    }
  })
}
