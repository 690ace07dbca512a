// What a run tells: the --report JSON (checks, observations, every request, the jobs
// made and deleted) and the human summary, which ends with `N passed, N failed, N
// skipped` so that a CI log's last line says how it went.
import type { CreatedJob } from './context.js'
import type { RequestRecord } from './http.js'
import type { Observation } from './observations.js'
import type { ContractSettings } from './settings.js'
import type { CheckResult } from './suite.js'

export interface Tally {
  passed: number
  failed: number
  skipped: number
}

export interface ContractReport {
  kind: 'jobboard-kit contract report'
  version: 1
  baseUrl: string
  username: string | undefined
  groups: readonly string[]
  writes: boolean
  maxWait: number
  ledger: string | undefined
  startedAt: string
  finishedAt: string
  exitCode: number
  reason: string | undefined
  summary: Tally
  checks: CheckResult[]
  observations: Observation[]
  requests: RequestRecord[]
  jobs: { created: CreatedJob[]; deleted: Array<{ id: number; by: string }>; notDeleted: CreatedJob[] }
}

export function tally(results: readonly CheckResult[]): Tally {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip') }
}

export const tallyLine = ({ passed, failed, skipped }: Tally) => `${passed} passed, ${failed} failed, ${skipped} skipped`

export function buildReport(
  settings: ContractSettings,
  parts: { startedAt: number; finishedAt: number; exitCode: number; reason: string | undefined; results: CheckResult[]; observations: Observation[]; requests: RequestRecord[]; jobs: CreatedJob[] },
): ContractReport {
  return {
    kind: 'jobboard-kit contract report',
    version: 1,
    baseUrl: settings.baseUrl,
    username: settings.username,
    groups: settings.groups,
    writes: settings.writes,
    maxWait: settings.maxWait,
    ledger: settings.ledger,
    startedAt: new Date(parts.startedAt).toISOString(),
    finishedAt: new Date(parts.finishedAt).toISOString(),
    exitCode: parts.exitCode,
    reason: parts.reason,
    summary: tally(parts.results),
    checks: parts.results,
    observations: parts.observations,
    requests: parts.requests,
    jobs: {
      created: parts.jobs,
      deleted: parts.jobs.flatMap((job) => (job.deletedBy === undefined ? [] : [{ id: job.id, by: job.deletedBy }])),
      notDeleted: parts.jobs.filter((job) => job.deletedBy === undefined),
    },
  }
}

/** One check as the screen shows it. */
export function checkLines(result: CheckResult): string[] {
  if (result.status === 'pass') return [`  pass  ${result.name}`]
  if (result.status === 'skip') return [`  skip  ${result.name} (${result.reason ?? 'skipped'})`]
  return [`  FAIL  ${result.name}`, ...result.failures.map((failure) => `          - ${failure}`)]
}

/** The end of the human summary: observations, requests, jobs, then the tally line. */
export function closingLines(report: ContractReport): string[] {
  const lines: string[] = ['']
  if (report.observations.length > 0) {
    lines.push(`Observations (${report.observations.length}; they warn, they do not fail):`)
    for (const o of report.observations) lines.push(`  [${o.topic}] ${o.endpoint}: ${o.summary}`)
    lines.push('')
  }
  const sent = report.requests.filter((r) => r.attempts > 0)
  const leftOut = report.requests.filter((r) => r.attempts === 0)
  lines.push(`Requests: ${sent.length} made${leftOut.length > 0 ? `, ${leftOut.length} left out` : ''} (each full request at most once, but for the 429 check's repeat and public job pages)`)
  for (const r of report.requests) {
    const status = r.status === undefined ? '---' : String(r.status)
    const who = !r.url.includes('/api/v1/') ? ' [public page]' : r.credentials === 'given' ? '' : ` [${r.credentials === 'none' ? 'no credentials' : 'wrong credentials'}]`
    const waited = r.waited > 0 ? ` (waited ${r.waited} s)` : ''
    lines.push(`  ${r.method.padEnd(4)} ${status} ${r.url}${who}${waited}${r.note ? ` - ${r.note}` : ''}`)
  }
  if (report.jobs.created.length > 0) {
    lines.push('')
    lines.push(`Jobs created: ${report.jobs.created.map((j) => `${j.id} (${j.reference})`).join(', ')}; deleted: ${report.jobs.deleted.map((j) => j.id).join(', ') || 'none'}`)
    for (const job of report.jobs.notDeleted) lines.push(`  NOT DELETED: job ${job.id} (${job.reference}): ${job.cleanupError ?? 'no delete was tried'}`)
  }
  lines.push('')
  lines.push(tallyLine(report.summary))
  return lines
}
