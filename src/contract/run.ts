// One contract run, start to end: read job/fields first (and stop with exit 2 when the
// host cannot be reached or refuses the credentials), bind its values, delete the jobs
// an earlier run left behind and plan this run's write turns, fetch what the selected
// groups need, run the tap suite, delete what the run made (or leave it pending in the
// ledger), save the ledger, write --write-profile, --report and --junit, print the
// summary, and say the exit code and why: 0 complete and conforming, 1 a check failed
// or a job is left behind, 2 usage, unreachable host, refused credentials or
// interrupted, 3 incomplete.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { PACKAGE_VERSION } from '../core/paths.js'
import { loadProfile, ProfileError, profileValues, type LoadedProfile } from '../profile/deployment-profile.js'
import { readProfile } from './point-recorders.js'
import { mergeProfile } from './profile-merge.js'
import { dirname } from 'node:path'
import { realKitClock, type KitClock } from './kit-clock.js'
import { RunContext } from './context.js'
import { where, type Got } from './checks.js'
import type { FieldLists } from './field-lists.js'
import { adoptFieldValues } from './groups/fields-checks.js'
import { cleanup, deletePending } from './job-cleanup.js'
import { passLength, planWrites, rotationOf, turnOf, type Rotation } from './write-turns.js'
import { observeMalformedSince, observeOrder } from './groups/lists-checks.js'
import { observeWalkOrder } from './groups/walk-checks.js'
import { observeUnknownIds } from './groups/resources-checks.js'
import { Client, redactorOf } from './http.js'
import { redacting, type Redactor } from './redact.js'
import { LISTS } from './lists.js'
import { junitXml } from './junit.js'
import { incomplete, matrixOf } from './matrix.js'
import { Ledger } from './ledger.js'
import { buildReport, checkLines, closingLines, coverage, tally, type ContractReport } from './report.js'
import { UsageError, type ContractSettings } from './settings.js'
import { runSuite, type CheckResult } from './suite.js'
import type { WalkEntry } from './walk.js'

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

export type ExitCode = 0 | 1 | 2 | 3

export interface RunResult {
  exitCode: ExitCode
  /** The one-line reason of a run that does not exit 0. */
  reason: string | undefined
  report: ContractReport | undefined
}

/** Why the run cannot go on after job/fields, if it cannot. */
function preflightProblem(got: Got, settings: ContractSettings): string | undefined {
  // a connection the service reset, or an answer that came but could not be read (a broken Content-Length: HPE_*, UND_ERR_RES_*), is an
  // outage (errored checks, exit 3: the run goes on and says so); one never made is an unreachable host
  if (got.kind === 'unavailable' && got.cause === 'network' && !/ECONNRESET|UND_ERR_SOCKET|other side closed|socket hang up|EPIPE|HPE_|UND_ERR_RES_/i.test(got.reason)) {
    const why = got.reason.replace(/^no answer: /, '').replace(/ \(asked twice\)$/, '')
    // a certificate the kit does not trust: say what to do about it
    const tls = /CERT|SELF_SIGNED|certificate|UNABLE_TO_VERIFY|ERR_TLS/i.test(why)
    const proxy = settings.network?.httpsProxy ?? settings.network?.httpProxy
    return `cannot reach ${settings.baseUrl}${proxy ? ' through the proxy' : ''}: ${tls ? `its TLS certificate is not trusted (${why}): give the CA that signed it in NODE_EXTRA_CA_CERTS, or --insecure for a test deployment` : why}`
  }
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

/** Why a run is incomplete: how much it checked, and the first check of each kind it could not make. */
function incompleteReason(results: readonly CheckResult[], checked: number, planned: number, made: number, minimum: number): string {
  const errored = results.filter((r) => r.status === 'error')
  const unmade = results.filter((r) => r.status === 'skip' && r.skip === 'unavailable')
  const parts = [
    errored.length > 0 ? `${errored.length} errored (the service erred), e.g. ${errored[0]?.endpoint}: ${errored[0]?.reason}` : '',
    unmade.length > 0 ? `${unmade.length} not made (rate limited, left out by the ledger, or needing an answer not got), e.g. ${unmade[0]?.endpoint}: ${unmade[0]?.reason}` : '',
  ].filter((part) => part !== '')
  return `incomplete: checked ${checked} of ${planned} planned (${Math.floor(made)}%, below --min-coverage ${minimum}%); ${parts.join('; ')}`
}

/** Writes the deployment's profile merged with the earlier file, and says what changed; a problem, if the write failed. */
function writeProfile(ctx: RunContext, path: string, prior: LoadedProfile | undefined, out: Output, redact: Redactor): string | undefined {
  let merged: ReturnType<typeof mergeProfile>
  try {
    merged = mergeProfile(prior, readProfile(ctx), { origin: ctx.settings.baseUrl, recordedAt: ctx.clock.now(), kitVersion: PACKAGE_VERSION })
    // the keys are the schema's names (a point's `date`), which a short password of the same word must not rewrite
    writeFile(path, `${JSON.stringify(redact.values(merged.profile), null, 2)}\n`)
  } catch (error) {
    return `the profile was not written to ${path}: ${(error as Error).message}`
  }
  const points = Object.values(merged.profile.points as Record<string, { value?: unknown; seen: string }>)
  const recorded = points.filter((p) => p.value !== undefined)
  const lines = [
    '',
    `Profile ${path}: ${recorded.length} of ${points.length} points recorded (${recorded.filter((p) => p.seen === 'directly').length} seen directly, ${recorded.filter((p) => p.seen === 'inferred').length} inferred)${prior ? ', merged with the earlier file' : ''}`,
    ...(prior && prior.deployment.origin !== ctx.settings.baseUrl ? [`  deployment: the file was recorded from ${prior.deployment.origin}, this run asked ${ctx.settings.baseUrl}`] : []),
    ...merged.changes.map((change) => `  changed: ${change}`),
    ...merged.moved.map((move) => `  moved with the records (held to its kind, not a change): ${move}`),
    ...merged.filled.map((fill) => `  filled: ${fill}`),
    ...merged.notSeen.map((point) => `  not seen: ${point}`),
  ]
  if (prior && merged.changes.length === 0) lines.push('  no recorded point changed')
  out.write(`${lines.join('\n')}\n`)
  return undefined
}

export async function runContract(settings: ContractSettings, given: RunIO): Promise<RunResult> {
  // no secret in any output: every writer, file and returned message goes through one redaction
  const redact = redactorOf(settings)
  const io = { ...given, stdout: redacting(given.stdout, redact), stderr: redacting(given.stderr, redact) }
  const result = await run(settings, io, redact)
  return { exitCode: result.exitCode, reason: result.reason === undefined ? undefined : redact.text(result.reason), report: redact.deep(result.report) }
}

async function run(settings: ContractSettings, io: RunIO, redact: Redactor): Promise<RunResult> {
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
  let profiles: { checked: LoadedProfile | undefined; prior: LoadedProfile | undefined }
  try {
    profiles = {
      checked: settings.profile === undefined ? undefined : loadProfile(settings.profile),
      // an earlier night's file: merged into, so it must be a profile (never overwritten when it is not)
      prior: settings.writeProfile !== undefined && existsSync(settings.writeProfile) ? loadProfile(settings.writeProfile) : undefined,
    }
  } catch (error) {
    if (error instanceof ProfileError) return { exitCode: 2, reason: error.message, report: undefined }
    throw error
  }
  const client = new Client({ settings, clock, ledger, signal, redact })
  const ctx = new RunContext(settings, client, clock, ledger)
  ctx.profile = profiles.checked
  const known = profiles.checked ?? profiles.prior
  ctx.known = known === undefined ? {} : profileValues(known)
  if (settings.insecure) io.stderr.write('jobboard-kit contract: --insecure: TLS certificates are not verified; use it against a test deployment only\n')
  const credentials = settings.username === undefined ? 'without credentials' : `as ${settings.username}`
  io.stdout.write(`jobboard-kit contract: ${settings.baseUrl} ${credentials}, ${settings.writes ? 'with writes' : 'read-only'}; groups ${settings.groups.join(', ')}\n`)

  const results: CheckResult[] = []
  let stop: string | undefined
  // the write turns' rotation: a full pass's length as the ledger stood before this run
  const rotating = settings.writes && settings.groups.includes('jobs')
  let passRuns: number | undefined
  /** Which walks of the lists this run read in full, and which in part (src/contract/walk.ts). */
  let walks: WalkEntry[] = []
  try {
    const fields = await ctx.plan.fields()
    stop = preflightProblem(fields, settings)
    if (stop === undefined) {
      let found: FieldLists | undefined
      if (fields.kind === 'answer') found = adoptFieldValues(ctx, fields)
      else ctx.observations.add({ topic: 'job-fields', endpoint: 'job/fields', summary: `no answer (${fields.reason}): the spec's constrained values are used` })
      if (settings.groups.includes('jobs')) {
        await deletePending(ctx)
        ctx.turns = planWrites(ctx)
        passRuns = passLength(ctx)
      }
      await ctx.plan.prefetch()
      walks = await ctx.plan.walkEntries()
      // what the spec leaves open about refusals is seen, not checked
      await observeUnknownIds(ctx)
      for (const list of LISTS.filter((l) => settings.groups.includes(l.group))) {
        await observeMalformedSince(ctx, list)
        await observeOrder(ctx, list)
        await observeWalkOrder(ctx, list)
      }
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
    // a turn counts as made once one of its checks was made; the others come round first next time
    for (const result of results) {
      const turn = settings.writes && (result.status === 'pass' || result.status === 'fail') ? turnOf(result.endpoint, result.name) : undefined
      if (turn !== undefined) ledger.wrote(ctx.deployment, turn, clock.now())
    }
    if (rotating && stop === undefined) ledger.ran(ctx.deployment, startedAt)
    // a walk read in full, every page answered, waits its turn behind those walked in full longer ago
    for (const walk of walks) if (walk.full && walk.complete) ledger.walked(ctx.deployment, walk.id, startedAt)
    // the links read in turn: the next run takes those after the last each rotation took
    for (const [rotation, last] of ctx.plan.tookInTurn) ledger.tookInTurn(ctx.deployment, rotation, last)
    ledger.save(clock.now(), redact)
    await client.close().catch(() => undefined)
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
  if (client.pace) {
    ctx.observations.add({
      topic: 'rate-limit',
      endpoint: 'rate limit',
      summary: `a burst limiter (429 with a short Retry-after): the kit went down to ${client.pace.concurrency} request${client.pace.concurrency === 1 ? '' : 's'} at a time, ${client.pace.spacingMs / 1000} s apart`,
    })
  }
  const counts = tally(results)
  const pending = ledger.pendingOf(ctx.deployment)
  const made = coverage(counts)
  let exitCode: ExitCode = 0
  let reason: string | undefined
  if (stop !== undefined) [exitCode, reason] = [2, stop]
  else if (signal.aborted) [exitCode, reason] = [2, `interrupted (${String(signal.reason)})`]
  else if (counts.failed > 0) [exitCode, reason] = [1, `${counts.failed} check${counts.failed === 1 ? '' : 's'} failed`]
  else if (made < settings.minCoverage) [exitCode, reason] = [3, incompleteReason(results, counts.checked, counts.planned, made, settings.minCoverage)]
  else if (settings.requireComplete && counts.checked < counts.planned) {
    ;[exitCode, reason] = [3, `incomplete (--require-complete): ${incompleteReason(results, counts.checked, counts.planned, made, settings.minCoverage).replace(/^incomplete: /, '').replace(/, below --min-coverage \d+%/, '')}`]
  }
  // --require-complete: a cell of the request matrix not reached (or left by a 429 or an outage) is incomplete too
  const matrix = matrixOf(results, settings.writes, ctx.formsTried, settings.groups, walks)
  const unreached = matrix.filter(incomplete)
  if (settings.requireComplete && exitCode === 0 && unreached.length > 0) {
    ;[exitCode, reason] = [3, `incomplete (--require-complete): ${unreached.length} cell${unreached.length === 1 ? '' : 's'} of the request matrix not reached, e.g. ${unreached[0]?.id}${unreached[0]?.reason ? `: ${unreached[0].reason}` : ` (${unreached[0]?.status})`}`]
  }
  const rotation: Rotation | undefined = rotating && stop === undefined ? rotationOf(ctx, startedAt, passRuns) : undefined
  if (settings.requireComplete && exitCode === 0 && rotation?.stale !== undefined && rotation.stale.length > 0) {
    ;[exitCode, reason] = [3, `incomplete (--require-complete --within ${rotation.within}): ${rotation.stale.length} write check${rotation.stale.length === 1 ? ' was' : 's were'} not made in the ledger's last ${rotation.within} runs, e.g. ${rotation.stale[0]}`]
  }
  if (pending.length > 0) {
    const left = `jobs left on the service, pending deletion by the next run: ${pending.map((j) => `job ${j.id} (${j.reference}): ${j.why}`).join('; ')}`
    ;[exitCode, reason] = exitCode === 0 || exitCode === 3 ? [1, reason === undefined ? left : `${left}; ${reason}`] : [exitCode, `${reason}; ${left}`]
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
    pending,
    formsTried: ctx.formsTried,
    rotation,
    walks,
  })
  if (settings.writeProfile !== undefined && stop === undefined) {
    const problem = writeProfile(ctx, settings.writeProfile, profiles.prior, io.stdout, redact)
    if (problem !== undefined) [exitCode, reason] = [exitCode === 0 || exitCode === 3 ? 2 : exitCode, reason === undefined ? problem : `${reason}; ${problem}`]
    report.exitCode = exitCode
    report.reason = reason
  }
  if (settings.report !== undefined) writeFile(settings.report, `${JSON.stringify(redact.deep(report), null, 2)}\n`)
  if (settings.junit !== undefined) writeFile(settings.junit, junitXml(redact.deep(results), `jobboard-kit contract ${settings.baseUrl}`, redact.deep(report.observations), redact.deep(report.matrix)))
  io.stdout.write(`${closingLines(report).join('\n')}\n`)
  return { exitCode, reason, report }
}
