// Each wrong example client (examples/wrong/) through the proxy in front of the second
// server fails the rule it breaks, judged from the upstream's own answers (its 429s and
// Retry-after, its 404s, its refusals), and no other; copy-in-step, which needs the
// fake's board, is not exercised behind a proxy: a client whose only fault is its copy
// (stale-copy) passes here, which docs/proxy.md says. No answer of the second server is a
// violation in any of these days.
import t from 'tap'
import type { SyncClient, SyncOptions } from '../../examples/sync-client.js'
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
import { proxiedDay } from '../helpers/proxy-day.js'

const wrong: Array<[string, new (options: SyncOptions) => SyncClient, string[]]> = [
  ['sends downloads without credentials', NoCredentialsClient, ['credentials']],
  ['posts a job as a form', FormPostClient, ['post-json']],
  ['reads job/fields twice in a window', HammerClient, ['one-request-per-window']],
  ['retries a 429 after a fixed pause', RetryEarlyClient, ['retry-after']],
  ['reads only the first page of each list', FirstPageOnlyClient, ['walk-to-last-page']],
  ['takes since from the end of its sync', SinceGapClient, ['since-no-gap']],
  ['resends a refused job unchanged', ResendClient, ['no-unchanged-resend']],
  // style b refuses with HTTP 200 and `status` 412 in the body, which this client takes for a success: it never resends there
  ['resends a refused job unchanged (style b: refused as HTTP 200, so never resent)', ResendClient, []],
  ['downloads every attachment each round', RedownloadClient, ['download-once']],
  ['guesses attachment ids', GuessIdsClient, ['download-listed-ids']],
  ['never replaces a record it holds (copy-in-step, not exercised behind a proxy)', StaleCopyClient, []],
]

for (const style of ['a', 'b'] as const) {
  for (const [what, Client, rules] of wrong) {
    // each resend case is of one style
    if (Client === ResendClient && (rules.length === 0) !== (style === 'b')) continue
    t.test(`style ${style}: a client that ${what} fails ${rules.length === 0 ? 'nothing' : rules.join(' and ')} behind the proxy`, async (t) => {
      const { proxy } = await proxiedDay(t, { style, username: 'u', password: 'p', Client, othersFirst: Client === RetryEarlyClient })
      const verdict = (await (await fetch(`${proxy.url}/__mock/verdict`)).json()) as { outcome: string; rules: Array<{ id: string; outcome: string; findings: Array<{ message: string }> }> }
      const failed = verdict.rules.filter((r) => r.outcome === 'fail')
      t.same(failed.map((r) => r.id), rules, JSON.stringify(failed))
      t.equal(verdict.rules.find((r) => r.id === 'copy-in-step')?.outcome, 'not-exercised')
      t.same(((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: object[] }).violations, [], 'no violation of the upstream')
    })
  }
}
