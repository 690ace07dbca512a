// One contract run, start to end: read job/fields first (and stop with exit 2 when the
// host cannot be reached or refuses the credentials), bind its values, fetch what the
// selected groups need, run the tap suite, delete what the run made, save the ledger,
// write --report and --junit, print the summary, and say the exit code and why.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { realKitClock, type KitClock } from './clock.js'
import { RunContext } from './context.js'
import { where, type Got } from './checks.js'
import { adoptFieldValues, type FieldLists } from './groups/fields.js'
import { cleanup } from './groups/jobs.js'
import { Client } from './http.js'
import { junitXml } from './junit.js'
import { Ledger } from './ledger.js'
import { buildReport, checkLines, closingLines, tally, type ContractReport } from './report.js'
import { UsageError, type ContractSettings } from './settings.js'
import { runSuite, type CheckResult } from './suite.js'

export interface Output {
  write(text: string): unknown
}

export interface RunIO {
  stdout: Output
  stderr: Output
  /** The wall clock; a test may give one that runs faster. */
  clock?: KitClock
  /** Aborted on SIGINT or SIGTERM: the run stops asking, cleans up and ends with exit 2. */
  signal?: AbortSignal
}

export type ExitCode = 0 | 1 | 2

export interface RunResult {
  exitCode: ExitCode
  /** The one-line reason of a run that does not exit 0. */
  reason: string | undefined
  report: ContractReport | undefined
}

/** Why the run cannot go on after job/fields, if it cannot. */
function preflightProblem(got: Got, settings: ContractSettings): string | undefined {
  if (got.kind === 'unavailable' && got.cause === 'network') return `cannot reach ${settings.baseUrl}: ${got.reason.replace(/^no answer: /, '')}`
  if (got.kind === 'unavailable' && got.cause === 'aborted') return 'interrupted before the first answer'
  if (got.kind !== 'answer') return undefined
  if (got.status === 401 || got.status === 403) {
    return settings.username === undefined
      ? `the service asks for credentials (HTTP ${got.status}): give --username and --password, or JOBBOARD_USERNAME and JOBBOARD_PASSWORD`
      : `the service refused the credentials of ${settings.username} (HTTP ${got.status})`
  }
  if (got.status === 404 && got.json === undefined) {
    return `GET ${where(got.url)} answered 404 without JSON: is ${settings.baseUrl} the base URL of the API (without /api/v1)?`
  }
  return undefined
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

export async function runContract(settings: ContractSettings, io: RunIO): Promise<RunResult> {
  const clock = io.clock ?? realKitClock()
  const signal = io.signal ?? new AbortController().signal
  const startedAt = clock.now()
  let ledger: Ledger
  try {
    ledger = settings.ledger === undefined ? Ledger.none() : Ledger.load(settings.ledger)
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 2, reason: error.message, report: undefined }
    throw error
  }
  const client = new Client({ settings, clock, ledger, signal })
  const ctx = new RunContext(settings, client, clock)
  const credentials = settings.username === undefined ? 'without credentials' : `as ${settings.username}`
  io.stdout.write(`jobboard-kit contract: ${settings.baseUrl} ${credentials}, ${settings.writes ? 'with writes' : 'read-only'}; groups ${settings.groups.join(', ')}\n`)

  const results: CheckResult[] = []
  let stop: string | undefined
  try {
    const fields = await ctx.plan.fields()
    stop = preflightProblem(fields, settings)
    if (stop === undefined) {
      let found: FieldLists | undefined
      if (fields.kind === 'answer') found = adoptFieldValues(ctx, fields)
      else ctx.observations.add({ topic: 'job-fields', endpoint: 'job/fields', summary: `no answer (${fields.reason}): the spec's constrained values are used` })
      await ctx.plan.prefetch()
      let shown: string | undefined
      await runSuite(ctx, () => found, (result) => {
        results.push(result)
        if (result.endpoint !== shown) io.stdout.write(`\n${result.endpoint}\n`)
        shown = result.endpoint
        io.stdout.write(`${checkLines(result).join('\n')}\n`)
      })
    }
  } finally {
    // whatever happened, what the run made goes, and the windows it opened are remembered
    if (ctx.jobs.length > 0) await cleanup(ctx)
    ledger.save(clock.now())
  }

  const limited = client.log.filter((r) => r.status === 429)
  if (limited.length > 0) {
    const bare = limited.filter((r) => r.note?.includes('without a Retry-after')).length
    ctx.observations.add({
      topic: 'rate-limit',
      endpoint: 'rate limit',
      summary: `${limited.length} requests answered 429${bare > 0 ? `, ${bare} of them without a Retry-after in seconds` : ''}`,
      details: limited.map((r) => ({ method: r.method, url: r.url, note: r.note })),
    })
  }
  const { failed } = tally(results)
  const unreached = client.log.filter((r) => r.outcome === 'network')
  // the auth checks' refusals answer whatever the limit: they alone do not make a run that checked something
  const answered = client.log.some((r) => r.outcome === 'answered' && r.status !== 429 && r.status !== 401 && r.status !== 403)
  const kept = ctx.jobs.filter((job) => job.deletedBy === undefined)
  let exitCode: ExitCode = 0
  let reason: string | undefined
  if (stop !== undefined) [exitCode, reason] = [2, stop]
  else if (signal.aborted) [exitCode, reason] = [2, `interrupted (${String(signal.reason)})`]
  else if (unreached.length > 0) [exitCode, reason] = [2, `${unreached.length} requests got no answer, e.g. ${unreached[0]?.method} ${unreached[0]?.url}: ${unreached[0]?.note}`]
  else if (failed > 0) [exitCode, reason] = [1, `${failed} check${failed === 1 ? '' : 's'} failed`]
  else if (!answered) [exitCode, reason] = [1, 'no request got an answer other than 429 or an auth refusal (rate limited, or left out by the ledger): nothing was checked']
  if (kept.length > 0) {
    const left = `jobs the run made could not be deleted: ${kept.map((j) => j.id).join(', ')}`
    ;[exitCode, reason] = exitCode === 0 ? [1, left] : [exitCode, `${reason}; ${left}`]
  }

  const report = buildReport(settings, {
    startedAt,
    finishedAt: clock.now(),
    exitCode,
    reason,
    results,
    observations: ctx.observations.list(),
    requests: client.log,
    jobs: ctx.jobs,
  })
  if (settings.report !== undefined) writeFile(settings.report, `${JSON.stringify(report, null, 2)}\n`)
  if (settings.junit !== undefined) writeFile(settings.junit, junitXml(results, `jobboard-kit contract ${settings.baseUrl}`))
  io.stdout.write(`${closingLines(report).join('\n')}\n`)
  return { exitCode, reason, report }
}
