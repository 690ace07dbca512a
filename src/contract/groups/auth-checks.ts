// The auth group: "Every operation requires authentication". A request without
// credentials, one with a user the deployment does not know, and one of the known user
// with a wrong password are refused (401 or 403), never answered; so are a detail and a
// download asked without credentials (writes: the jobs group); the account's own
// credentials sent another way than Basic `<username>:<password>` are refused, and with the
// scheme's name in lower case accepted (http.ts AUTH_FORMS). Each spends a full
// request the run needs for nothing else (a spare page, plan.ts SPARE; a listed record
// or file no other check fetches), so that it uses up no window another check needs.
import type { Minimal } from '@tapjs/core'
import { check, endpoint, need, where, type Asserter, type Got } from '../checks.js'
import type { RunContext } from '../context.js'
import { AUTH_FORMS, type AuthForm } from '../request-credentials.js'
import type { Answer } from '../request-outcomes.js'

/** Asserts a refusal (401 or 403); notes what the refusal looked like. */
export function refusedAnswer(a: Asserter, ctx: RunContext, answer: Answer, what: string): void {
  const refused = answer.status === 401 || answer.status === 403
  a.ok(refused, `${where(answer.url)} answered HTTP ${answer.status}`,
    answer.status < 300 ? `${where(answer.url)} answered ${answer.status} to a request ${what}: it was not authenticated` : `${where(answer.url)} answered HTTP ${answer.status} to a request ${what}, not 401 or 403`)
  const challenge = answer.headers['www-authenticate']
  ctx.observations.add({
    topic: 'auth',
    endpoint: 'auth',
    summary: `a request ${what} answers HTTP ${answer.status} ${challenge ? `with WWW-Authenticate: ${challenge}` : 'without WWW-Authenticate'}`,
    details: { status: answer.status, body: answer.json },
  })
}

export function authGroup(root: Minimal, ctx: RunContext): void {
  const requests: Array<[string, string, () => Promise<Got>]> = [
    ['a request without credentials is refused with 401 or 403', 'without credentials', () => ctx.plan.withoutCredentials()],
    ['a request with wrong credentials is refused with 401 or 403', 'with wrong credentials', () => ctx.plan.wrongCredentials()],
    ['a request of the known user with a wrong password is refused with 401 or 403', 'of the known user with a wrong password', () => ctx.plan.wrongPassword()],
    ['a detail asked without credentials is refused with 401 or 403', 'for a detail without credentials', () => ctx.plan.detailWithoutCredentials()],
    ['a download asked without credentials is refused with 401 or 403', 'for a download without credentials', () => ctx.plan.downloadWithoutCredentials()],
  ]
  endpoint(root, 'auth', (t) => {
    for (const [name, what, request] of requests) {
      check(t, name, async (a) => refusedAnswer(a, ctx, need(await request()), what))
    }
    // the given credentials sent another way than the spec's Basic `<username>:<password>`: refused, but the scheme's name in another case
    for (const [form, { words, accepted }] of Object.entries(AUTH_FORMS) as Array<[AuthForm, (typeof AUTH_FORMS)[AuthForm]]>) {
      if (!accepted) {
        check(t, `the credentials sent as ${words} are refused with 401 or 403`, async (a) => refusedAnswer(a, ctx, need(await ctx.plan.authForm(form)), `with the credentials sent as ${words}`))
        continue
      }
      check(t, `the credentials sent with ${words} are accepted`, async (a) => {
        const answer = need(await ctx.plan.authForm(form))
        a.ok(answer.status !== 401 && answer.status !== 403, `${where(answer.url)} answered HTTP ${answer.status}: not refused`, `${where(answer.url)} answered HTTP ${answer.status} to the account's own credentials sent with ${words}: the scheme's name is case-insensitive`)
      })
    }
  })
}
