// What a run tells: the --report JSON (checks, observations, every request, the jobs
// made and deleted) and the human summary, which ends with `N passed, N failed, N
// skipped, N errored; checked K of P planned` so that a CI log's last line says how it
// went and how much of the deployment it looked at. Planned: every check but those that
// do not apply to what the deployment holds and the write checks not due this run.
import type { CreatedJob } from './context.js'
import { CREDENTIAL_WORDS } from './request-credentials.js'
import type { RequestRecord } from './request-outcomes.js'
import { rotationLines, type Rotation } from './write-turns.js'
import type { PendingJob } from './ledger.js'
import type { Observation } from './observations.js'
import { citationLines } from './citations.js'
import type { ContractSettings } from './settings.js'
import type { CheckResult } from './suite.js'
import { matrixLines, matrixOf, type MatrixEntry } from './matrix.js'
import { walkLines, type WalkEntry } from './walk.js'

export interface Tally {
  passed: number
  failed: number
  skipped: number
  errored: number
  /** Checks made: passed or failed. */
  checked: number
  /** Checks the run meant to make: made, errored, or left unmade by a 429 or the ledger. */
  planned: number
}

/** What a group of checks did: checked, did not apply, not due, and left unmade with why. */
export interface GroupCoverage {
  group: string
  checked: number
  notApplicable: number
  notDue: number
  /** Checks planned and not made, by why: 429, ledger, outage, live board, an answer not got. */
  unmade: Record<string, number>
}

/** The group (as --only names them) an endpoint's checks belong to. */
export function groupOf(endpoint: string): string {
  if (endpoint === 'job/fields') return 'fields'
  if (endpoint === 'rate limit') return 'rate-limit'
  if (endpoint === 'auth' || endpoint === 'profile') return endpoint
  if (endpoint.startsWith('job/')) return 'jobs'
  if (endpoint.startsWith('candidates/timesheets/') || endpoint.startsWith('timesheets/')) return 'timesheets'
  return endpoint.split('/')[0] as string
}

/** Why a planned check was not made, in a word a reader can act on. */
export function unmadeBecause(result: CheckResult): string {
  if (result.status === 'error') return 'outage'
  const reason = result.reason ?? ''
  if (/the board changed during the run/.test(reason)) return 'live board'
  if (/ledger/.test(reason)) return 'ledger'
  if (/--max-wait|429/.test(reason)) return '429'
  return 'an answer not got'
}

export function coverageByGroup(results: readonly CheckResult[]): GroupCoverage[] {
  const groups = new Map<string, GroupCoverage>()
  for (const result of results) {
    const group = groupOf(result.endpoint)
    const entry = groups.get(group) ?? { group, checked: 0, notApplicable: 0, notDue: 0, unmade: {} }
    groups.set(group, entry)
    if (result.status === 'pass' || result.status === 'fail') entry.checked++
    else if (result.status === 'skip' && result.skip === 'not-applicable') entry.notApplicable++
    else if (result.status === 'skip' && result.skip === 'not-due') entry.notDue++
    else {
      const why = unmadeBecause(result)
      entry.unmade[why] = (entry.unmade[why] ?? 0) + 1
    }
  }
  return [...groups.values()]
}

/** One line per group: a thin green run and a full one read differently. */
export function coverageLines(coverage: readonly GroupCoverage[]): string[] {
  const width = Math.max(...coverage.map((c) => c.group.length), 5)
  return [
    'Coverage (per group: checked; skipped as not applying or not due; left unmade, and why):',
    ...coverage.map((c) => {
      const unmade = Object.entries(c.unmade)
      const left = unmade.reduce((n, [, count]) => n + count, 0)
      const parts = [
        `${c.checked} checked`,
        ...(c.notApplicable > 0 ? [`${c.notApplicable} do not apply`] : []),
        ...(c.notDue > 0 ? [`${c.notDue} not due`] : []),
        ...(left > 0 ? [`${left} left unmade (${unmade.map(([why, count]) => `${why}: ${count}`).join(', ')})`] : []),
      ]
      return `  ${c.group.padEnd(width)}  ${parts.join('; ')}`
    }),
  ]
}

export interface ContractReport {
  kind: 'jobboard-kit contract report'
  version: 1
  baseUrl: string
  username: string | undefined
  groups: readonly string[]
  writes: boolean
  maxWait: number
  rateLimitWindow: number
  minCoverage: number
  ledger: string | undefined
  startedAt: string
  finishedAt: string
  exitCode: number
  reason: string | undefined
  summary: Tally
  /** Per group: what was checked, skipped as not applying, and left unmade and why. */
  coverage: GroupCoverage[]
  checks: CheckResult[]
  observations: Observation[]
  requests: RequestRecord[]
  jobs: { created: CreatedJob[]; deleted: Array<{ id: number; by: string }>; notDeleted: CreatedJob[]; pending: PendingJob[] }
  /** Every cell of the request matrix (src/contract/matrix.ts) and what became of it. */
  matrix: MatrixEntry[]
  /** The write turns (--writes): a full pass's length at this window, what this run made, what is due. */
  rotation?: Rotation
  /** Each list and filter read by next_page from page 1 (src/contract/walk.ts): which were walked in full this run, which in part. */
  walks: WalkEntry[]
}

export function tally(results: readonly CheckResult[]): Tally {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  const [passed, failed, skipped, errored] = [count('pass'), count('fail'), count('skip'), count('error')]
  const unmade = results.filter((r) => r.status === 'skip' && r.skip === 'unavailable').length
  return { passed, failed, skipped, errored, checked: passed + failed, planned: passed + failed + errored + unmade }
}

export const tallyLine = ({ passed, failed, skipped, errored, checked, planned }: Tally) =>
  `${passed} passed, ${failed} failed, ${skipped} skipped, ${errored} errored; checked ${checked} of ${planned} planned`

/** The share of the planned checks made, in percent (100 when nothing was planned). */
export const coverage = ({ checked, planned }: Tally) => (planned === 0 ? 100 : (checked * 100) / planned)

export function buildReport(
  settings: ContractSettings,
  parts: {
    startedAt: number
    finishedAt: number
    exitCode: number
    reason: string | undefined
    results: CheckResult[]
    observations: Observation[]
    requests: RequestRecord[]
    jobs: CreatedJob[]
    pending: PendingJob[]
    /** The ids of the constrained-field forms this run's valid add tried. */
    formsTried?: readonly string[]
    rotation?: Rotation
    walks?: WalkEntry[]
  },
): ContractReport {
  return {
    kind: 'jobboard-kit contract report',
    version: 1,
    baseUrl: settings.baseUrl,
    username: settings.username,
    groups: settings.groups,
    writes: settings.writes,
    maxWait: settings.maxWait,
    rateLimitWindow: settings.rateLimitWindow,
    minCoverage: settings.minCoverage,
    ledger: settings.ledger,
    startedAt: new Date(parts.startedAt).toISOString(),
    finishedAt: new Date(parts.finishedAt).toISOString(),
    exitCode: parts.exitCode,
    reason: parts.reason,
    summary: tally(parts.results),
    coverage: coverageByGroup(parts.results),
    checks: parts.results,
    observations: parts.observations,
    requests: parts.requests,
    jobs: {
      created: parts.jobs,
      deleted: parts.jobs.flatMap((job) => (job.deletedBy === undefined ? [] : [{ id: job.id, by: job.deletedBy }])),
      notDeleted: parts.jobs.filter((job) => job.deletedBy === undefined),
      pending: parts.pending,
    },
    matrix: matrixOf(parts.results, settings.writes, parts.formsTried, settings.groups, parts.walks),
    ...(parts.rotation === undefined ? {} : { rotation: parts.rotation }),
    walks: parts.walks ?? [],
  }
}

/**
 * One check as the screen shows it. A failing check says, on the lines after, the spec's
 * words it fails for (src/contract/rules.ts), then what it found.
 */
export function checkLines(result: CheckResult): string[] {
  if (result.status === 'pass') return [`  pass  ${result.name}`]
  if (result.status === 'skip') return [`  skip  ${result.name} (${result.reason ?? 'skipped'})`]
  if (result.status === 'error') return [`  ERROR ${result.name}`, `          - ${result.reason ?? 'the service erred'}`]
  const cited = citationLines(`${result.endpoint}: ${result.name}`, undefined, result.failures, 'count').map((line) => `          ${line}`)
  return [`  FAIL  ${result.name}`, ...cited, ...result.failures.map((failure) => `          - ${failure}`)]
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
  lines.push(`Requests: ${sent.length} made${leftOut.length > 0 ? `, ${leftOut.length} left out` : ''} (each full request at most once per window, but for the 429 check's repeat, a GET asked again after a service error, and public job pages)`)
  for (const r of report.requests) {
    const status = r.status === undefined ? '---' : String(r.status)
    const who = !r.url.includes('/api/v1/') ? ' [public page]' : r.credentials === 'given' ? '' : ` [${CREDENTIAL_WORDS[r.credentials]}]`
    const waited = r.waited > 0 ? ` (waited ${r.waited} s)` : ''
    lines.push(`  ${r.method.padEnd(4)} ${status} ${r.url}${who}${waited}${r.note ? ` - ${r.note}` : ''}`)
  }
  if (report.jobs.created.length > 0) {
    lines.push('')
    lines.push(`Jobs created: ${report.jobs.created.map((j) => `${j.id} (${j.reference})`).join(', ')}; deleted: ${report.jobs.deleted.map((j) => j.id).join(', ') || 'none'}`)
    for (const job of report.jobs.notDeleted) lines.push(`  NOT DELETED: job ${job.id} (${job.reference}): ${job.cleanupError ?? 'no delete was tried'}`)
  }
  if (report.jobs.pending.length > 0) {
    lines.push('')
    lines.push(`Jobs pending deletion (in the ledger; the next run deletes them first): ${report.jobs.pending.map((j) => `${j.id} (${j.reference})`).join(', ')}`)
  }
  if (report.coverage.length > 0) lines.push('', ...coverageLines(report.coverage))
  if (report.matrix.length > 0) lines.push('', ...matrixLines(report.matrix))
  if (report.walks.length > 0) lines.push('', ...walkLines(report.walks))
  if (report.rotation !== undefined) lines.push('', ...rotationLines(report.rotation))
  lines.push('')
  lines.push(tallyLine(report.summary))
  return lines
}
