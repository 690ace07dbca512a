// Each wrong example client (examples/wrong/) through the proxy in front of the second
// server, in both of its styles, fails the rule it breaks, judged from the upstream's own
// answers (its 429s and Retry-after, its 404s, its refusals, a refusal answered HTTP 200
// with `status` 412 in the body), and no other; the correct client fails none. Each
// client's copy is handed to the proxy's POST /__mock/verdict/copy, as to the fake's, and
// judged against the records that passed through: stale-copy's fails copy-in-step. No
// answer of the second server is a violation in any of these days.
import t from 'tap'
import { SyncClient, type SyncOptions } from '../../examples/sync-client.js'
import { FirstPageOnlyClient } from '../../examples/wrong/first-page-only.js'
import { FormPostClient } from '../../examples/wrong/form-post.js'
import { GuessIdsClient } from '../../examples/wrong/guess-ids.js'
import { HammerClient } from '../../examples/wrong/hammer.js'
import { NoCredentialsClient } from '../../examples/wrong/no-credentials.js'
import { RedownloadClient } from '../../examples/wrong/redownload.js'
import { ResendClient } from '../../examples/wrong/resend.js'
import { RetryEarlyClient } from '../../examples/wrong/retry-early.js'
import { SinceGapClient } from '../../examples/wrong/since-gap.js'
import { StaleCopyClient } from '../../examples/wrong/stale-copy.js'
import { proxyReport } from '../../src/proxy/outputs.js'
import { proxiedDay } from '../helpers/proxy-day.js'

const wrong: Array<[string, new (options: SyncOptions) => SyncClient, string[]]> = [
  ['sends downloads without credentials', NoCredentialsClient, ['credentials']],
  ['posts a job as a form', FormPostClient, ['post-json']],
  ['reads job/fields twice in a window', HammerClient, ['one-request-per-window']],
  ['retries a 429 after a fixed pause', RetryEarlyClient, ['retry-after']],
  ['reads only the first page of each list', FirstPageOnlyClient, ['walk-to-last-page']],
  ['takes since from the end of its sync', SinceGapClient, ['since-no-gap']],
  ['resends a refused job unchanged', ResendClient, ['no-unchanged-resend']],
  ['downloads every attachment each round', RedownloadClient, ['download-once']],
  ['guesses attachment ids', GuessIdsClient, ['download-listed-ids']],
  ['never replaces a record it holds', StaleCopyClient, ['copy-in-step']],
  ['keeps every rule', SyncClient, []],
]

for (const style of ['a', 'b'] as const) {
  for (const [what, Client, rules] of wrong) {
    t.test(`style ${style}: a client that ${what} fails ${rules.length === 0 ? 'nothing' : rules.join(' and ')} behind the proxy`, async (t) => {
      const { proxy, client } = await proxiedDay(t, { style, username: 'u', password: 'p', Client, othersFirst: Client === RetryEarlyClient, rounds: 4 })
      const copied = await fetch(`${proxy.url}/__mock/verdict/copy`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(client.copy()) })
      t.equal(copied.status, 200, 'the proxy takes the copy as the fake does')
      const verdict = (await (await fetch(`${proxy.url}/__mock/verdict`)).json()) as { outcome: string; rules: Array<{ id: string; outcome: string; findings: Array<{ message: string }> }> }
      const failed = verdict.rules.filter((r) => r.outcome === 'fail')
      t.same(failed.map((r) => r.id), rules, JSON.stringify(failed))
      if (!rules.includes('copy-in-step')) t.equal(verdict.rules.find((r) => r.id === 'copy-in-step')?.outcome, 'pass', 'the copy is judged against what passed through')
      t.same(((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: object[] }).violations, [], 'no violation of the upstream')
      // the JSON report (--report) says the same, each request a finding names shown in it
      const report = proxyReport(proxy, '2026-11-28 15:09:23')
      t.same(report.client.rules.filter((r) => r.outcome === 'fail').map((r) => r.id), rules, 'the JSON report fails the same rules')
      const named = report.client.rules.flatMap((r) => r.findings.flatMap((f) => f.requests))
      t.ok(named.length >= rules.length, 'its findings name requests')
      const shown = Object.keys(report.client.requests).map(Number)
      t.ok(rules.length === 0 || shown.length > 0, 'shown with their method, URL and time')
      t.same(shown.filter((id) => !named.includes(id)), [], 'and no request no finding names')
    })
  }
}
