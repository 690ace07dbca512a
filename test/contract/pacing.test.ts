// Rate limit: pace, don't give up. Behind a burst limiter that lets one request a second
// through (429 with Retry-after: 1 for the rest), a run with --max-wait 120 slows down and
// checks everything; without a budget to wait it is incomplete (exit 3). The kit's clock
// is a virtual one the limiter shares, so the run takes no wall time for its waits, but
// goes through the kit's real pacing.
import t from 'tap'
import type { Exchange } from './helpers.js'
import { board, contract, jsonReply, steppingClock } from './helpers.js'

/** Lets one request a second through, by the given clock; the rest get 429 with Retry-after: 1. */
function burstLimiter(clock: { now(): number }) {
  let last = Number.NEGATIVE_INFINITY
  const refused: string[] = []
  return {
    refused,
    answer: (x: Exchange) => {
      const now = clock.now()
      if (now - last >= 1000) {
        last = now
        return undefined
      }
      refused.push(x.url)
      return jsonReply(429, { status: 429, message: 'Slow down.' }, { 'retry-after': '1' })
    },
  }
}

t.test('a burst-limited server gives a complete run with --max-wait 120', async (t) => {
  const clock = steppingClock()
  const limiter = burstLimiter(clock)
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
  process.on('warning', onWarning)
  t.teardown(() => void process.off('warning', onWarning))
  const { url } = await board(t, { answer: limiter.answer }, { rateLimitWindow: 0 })
  const started = clock.now()
  const run = await contract({ baseUrl: url, maxWait: 120 }, { clock })
  t.ok(limiter.refused.length > 0, `the limiter refused ${limiter.refused.length} requests`)
  t.equal(run.exitCode, 0, run.reason ?? 'complete')
  const { checked, planned } = run.report.summary
  t.equal(checked, planned, `checked ${checked} of ${planned} planned`)
  t.match(run.output, new RegExp(`checked ${planned} of ${planned} planned\\n$`))
  t.ok(run.report.requests.some((r) => r.attempts > 2), 'a request was waited for more than once when it had to be')
  t.ok(run.report.observations.some((o) => o.topic === 'rate-limit' && /went down to 1 request at a time, 1 s apart/.test(o.summary)), 'it slowed down to one request a second, and says so')
  t.ok(clock.now() - started <= 120_000, `the waits fit in the budget: ${(clock.now() - started) / 1000} s`)
  t.same(warnings.filter((w) => /MaxListeners/.test(w)), [], 'no MaxListeners warning')
})

t.test('without --max-wait the same server gives an incomplete run (exit 3), not a green one', async (t) => {
  const clock = steppingClock()
  const limiter = burstLimiter(clock)
  const { url } = await board(t, { answer: limiter.answer }, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url }, { clock })
  t.equal(run.exitCode, 3)
  t.match(run.reason, /^incomplete: checked \d+ of \d+ planned/)
  t.match(run.reason, /not made \(rate limited, left out by the ledger/)
  t.ok(run.report.summary.checked < run.report.summary.planned)
  const unmade = run.report.checks.filter((c) => c.status === 'skip' && c.skip === 'unavailable')
  t.match(unmade[0]?.reason, /Retry-after 1 s is beyond what is left of --max-wait 0 s/)
})
