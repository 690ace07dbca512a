// The verdict for people and for CI: a plain-text account (what `jobboard-kit verdict`
// prints, the request log shows, and assertVerdict fails with), a JUnit file (one test
// case per rule), and the JSON answer without the account's request details.
import { createRequire } from 'node:module'
import type { Builder } from 'junit-report-builder'
import type { DetailedVerdict, Verdict } from './verdict-types.js'
import { type RuleId, ruleById } from './client-rules.js'

/**
 * junit-report-builder, loaded on the first JUnit file: it brings lodash and takes about
 * 12 ms to load, which a fake's start must not pay (docs/architecture.md, start-up).
 * The package is CommonJS: its module.exports is the builder its types call the default export.
 */
const junitBuilder = (): Builder => createRequire(import.meta.url)('junit-report-builder') as Builder

/** The verdict as GET /__mock/verdict answers it. */
export function verdictJson(verdict: DetailedVerdict | Verdict): Verdict {
  return { status: 200, outcome: verdict.outcome, rules: verdict.rules }
}

/** One failed rule's account: its sentence, the spec line, each finding with the requests it names, what to do instead. */
function ruleAccount(verdict: DetailedVerdict, id: RuleId, findings: DetailedVerdict['rules'][number]['findings']): string[] {
  const rule = ruleById(id)
  const lines = [`FAIL ${rule.id}: ${rule.sentence}`, `  spec: ${rule.spec}`]
  for (const finding of findings) {
    lines.push(`  - ${finding.message}`)
    for (const request of finding.requests) {
      const shown = verdict.requests[request]
      lines.push(shown ? `      #${request} ${shown.time} ${shown.method} ${shown.url}` : `      #${request} (no longer in the journal)`)
    }
  }
  lines.push(`  instead: ${rule.instead}`)
  return lines
}

/** The readable account: the outcome, each failed rule in full, then the rules kept and those not exercised. */
export function verdictText(verdict: DetailedVerdict): string {
  const failed = verdict.rules.filter((rule) => rule.outcome === 'fail')
  const passed = verdict.rules.filter((rule) => rule.outcome === 'pass').map((rule) => rule.id)
  const idle = verdict.rules.filter((rule) => rule.outcome === 'not-exercised').map((rule) => rule.id)
  const lines = [
    `Verdict: ${verdict.outcome.toUpperCase()} (${failed.length} failed, ${passed.length} passed, ${idle.length} not exercised)`,
    ...failed.flatMap((rule) => ruleAccount(verdict, rule.id as RuleId, rule.findings)),
  ]
  if (passed.length > 0) lines.push(`pass: ${passed.join(', ')}`)
  if (idle.length > 0) lines.push(`not exercised: ${idle.join(', ')}`)
  return `${lines.join('\n')}\n`
}

/** JUnit XML: a suite `jobboard-kit verdict`, a test case per rule; a failed rule a <failure>, one not exercised <skipped>. */
export function verdictJunit(verdict: DetailedVerdict): string {
  const builder = junitBuilder().newBuilder()
  const suite = builder.testSuite().name('jobboard-kit verdict')
  for (const rule of verdict.rules) {
    const testCase = suite.testCase().className('verdict').name(`${rule.id}: ${ruleById(rule.id as RuleId).sentence}`)
    if (rule.outcome === 'fail') {
      const account = ruleAccount(verdict, rule.id as RuleId, rule.findings)
      testCase.failure(rule.findings[0]?.message ?? 'failed', 'verdict').stacktrace(account.join('\n'))
    } else if (rule.outcome === 'not-exercised') testCase.skipped()
  }
  return builder.build()
}
