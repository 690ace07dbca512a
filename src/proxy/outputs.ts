// What the proxy writes when it stops (SIGINT or SIGTERM): the JSON report (--report, its
// schema schemas/proxy.ts's proxyReport), the same as plain text (--report-text) and a
// JUnit file, each in two sections, what staging broke (the violations, rule by rule,
// with the spec's words) and what the client broke (the verdict, as `serve`
// writes it: src/watch/verdict/verdict-outputs.ts). Nothing here holds a credential: violations and
// verdict findings name requests by the journal's redacted URLs.
import { writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Builder } from 'junit-report-builder'
import { wordsText } from '../contract/rules.js'
import { dayFile } from '../watch/ui/routes.js'
import { verdictText } from '../watch/verdict/verdict-outputs.js'
import { ruleById, type RuleId } from '../watch/verdict/client-rules.js'
import type { ProxyReport } from '../core/types.js'
import { NOT_EXERCISED_BEHIND_A_PROXY, type Violation } from './judged-traffic.js'
import type { RunningProxy } from './proxy-server.js'

/** junit-report-builder, loaded on the first JUnit file (CommonJS: its module.exports is the builder). */
const junitBuilder = (): Builder => createRequire(import.meta.url)('junit-report-builder') as Builder

/** Violations by rule, in the order each rule was first broken. */
function byRule(violations: readonly Violation[]): Map<string, Violation[]> {
  const rules = new Map<string, Violation[]>()
  for (const violation of violations) rules.set(violation.rule, [...(rules.get(violation.rule) ?? []), violation])
  return rules
}

/** What a broken rule rests on: the spec's words, or the profile where the spec is silent. */
const basisLines = (violation: Violation | undefined): string[] =>
  violation?.basis === 'profile' ? ["profile: the spec does not say; --profile pins the deployment's own recorded choice"] : (violation?.spec ?? []).map((w) => `spec: ${wordsText(w)}`)

/** Why a rule of the verdict is not exercised behind a proxy, while it is not. */
const notExercisedWhy = (id: string, outcome: string): string | undefined =>
  outcome === 'not-exercised' ? (NOT_EXERCISED_BEHIND_A_PROXY as Record<string, string>)[id] : undefined

/** The JSON report (--report): what staging broke, rule by rule, and what the client broke, each rule with its id and the spec's words. */
export function proxyReport(proxy: Pick<RunningProxy, 'violations' | 'observations' | 'verdict' | 'upstreamRequests' | 'to' | 'droppedViolations'>, now: string): ProxyReport {
  const violations = proxy.violations()
  const verdict = proxy.verdict()
  const rules = [...byRule(violations)].map(([rule, found]) => ({
    rule,
    basis: found[0]?.basis ?? 'spec',
    spec: found[0]?.spec ?? [],
    violations: found.map(({ request, time, method, url, status, message }) => ({ request, time, method, url, status, message })),
  }))
  const named = new Set(verdict.rules.flatMap((rule) => rule.findings.flatMap((finding) => finding.requests)))
  const stagingOutcome = violations.length + proxy.droppedViolations > 0 ? 'fail' : 'pass'
  return {
    kind: 'jobboard-kit proxy report',
    version: 1,
    to: proxy.to,
    writtenAt: now,
    upstreamRequests: proxy.upstreamRequests,
    outcome: stagingOutcome === 'fail' || verdict.outcome === 'fail' ? 'fail' : 'pass',
    staging: {
      outcome: stagingOutcome,
      violations: violations.length + proxy.droppedViolations,
      rules,
      observations: proxy.observations().map(({ topic, endpoint, summary, count, request }) => ({ topic, endpoint, summary, count, request })),
    },
    client: {
      outcome: verdict.outcome,
      rules: verdict.rules.map(({ id, outcome, findings }) => {
        const { sentence, spec } = ruleById(id as RuleId)
        const why = notExercisedWhy(id, outcome)
        return { id, outcome, sentence, spec, findings: findings.map(({ message, requests }) => ({ message, requests: [...requests] })), ...(why === undefined ? {} : { notExercised: why }) }
      }),
      requests: Object.fromEntries(
        [...named].sort((a, b) => a - b).flatMap((id) => {
          const shown = verdict.requests[id]
          return shown === undefined ? [] : [[String(id), { method: shown.method, url: shown.url, time: shown.time }]]
        }),
      ),
    },
  }
}

/** The report as plain text (--report-text): what staging broke, then what the client broke. */
export function proxyReportText(proxy: Pick<RunningProxy, 'violations' | 'verdict' | 'upstreamRequests'>): string {
  const violations = proxy.violations()
  const rules = byRule(violations)
  const answers = new Set(violations.map((v) => v.request)).size
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
  const lines = [`What staging broke: ${rules.size === 0 ? 'nothing' : `${plural(rules.size, 'rule')} in ${plural(answers, 'answer')}`} (${plural(proxy.upstreamRequests, 'request')} passed upstream)`]
  for (const [rule, found] of rules) {
    lines.push(`FAIL ${rule}`)
    lines.push(...basisLines(found[0]).map((line) => `  ${line}`))
    for (const v of found.slice(0, 20)) lines.push(`  - #${v.request} ${v.time} ${v.method} ${v.url} (${v.status}): ${v.message}`)
    if (found.length > 20) lines.push(`  ... and ${found.length - 20} more`)
  }
  const verdict = proxy.verdict()
  lines.push('', `What the client broke: ${verdictText(verdict)}`.trimEnd())
  for (const rule of verdict.rules) {
    const why = notExercisedWhy(rule.id, rule.outcome)
    if (why !== undefined) lines.push(`${rule.id} is not exercised behind this proxy: ${why}`)
  }
  return `${lines.join('\n')}\n`
}

/** JUnit XML: a suite of the rules staging broke, and the verdict's suite (a test case per rule). */
export function proxyJunit(proxy: Pick<RunningProxy, 'violations' | 'verdict'>): string {
  const builder = junitBuilder().newBuilder()
  const staging = builder.testSuite().name('jobboard-kit proxy: what staging broke')
  const rules = byRule(proxy.violations())
  if (rules.size === 0) staging.testCase().className('staging').name('every answer kept the rules it was held to')
  for (const [rule, found] of rules) {
    const account = [...basisLines(found[0]), ...found.slice(0, 50).map((v) => `#${v.request} ${v.method} ${v.url} (${v.status}): ${v.message}`)]
    staging.testCase().className('staging').name(rule).failure(found[0]?.message ?? 'failed', 'violation').stacktrace(account.join('\n'))
  }
  const verdict = proxy.verdict()
  const client = builder.testSuite().name('jobboard-kit proxy: what the client broke')
  for (const rule of verdict.rules) {
    const testCase = client.testCase().className('verdict').name(`${rule.id}: ${ruleById(rule.id as RuleId).sentence}`)
    if (rule.outcome === 'fail') testCase.failure(rule.findings[0]?.message ?? 'failed', 'verdict').stacktrace(rule.findings.map((f) => f.message).join('\n'))
    else if (rule.outcome === 'not-exercised') testCase.skipped()
  }
  return builder.build()
}

/**
 * The proxy's traffic as one HTML file (--html): the page of /__mock/ui with the journal
 * the proxy holds (its newest 10,000 entries) and what staging and the client broke inside,
 * as `serve --verdict-html` writes the fake's day. The page's module is imported only here.
 */
export function proxyHtml(proxy: Pick<RunningProxy, 'journal' | 'view'>, now: string): Promise<string> {
  return dayFile(proxy, (requests) => `Written at ${now} when the proxy stopped: ${requests} requests, the newest the journal held.`)
}

/** The files the proxy writes at shutdown, by flag. */
export interface OutputFiles {
  junit?: string | undefined
  report?: string | undefined
  reportText?: string | undefined
  html?: string | undefined
}

/** Writes the files asked for; answers whether staging broke a rule or the client's verdict failed. */
export async function writeOutputs(proxy: RunningProxy, given: OutputFiles, now: string): Promise<boolean> {
  if (given.html !== undefined) await writeFile(given.html, await proxyHtml(proxy, now))
  if (given.report !== undefined) await writeFile(given.report, `${JSON.stringify(proxyReport(proxy, now), null, 2)}\n`)
  if (given.reportText !== undefined) await writeFile(given.reportText, proxyReportText(proxy))
  if (given.junit !== undefined) await writeFile(given.junit, proxyJunit(proxy))
  return proxy.violations().length > 0 || proxy.verdict().outcome === 'fail'
}
