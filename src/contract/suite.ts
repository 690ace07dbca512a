// The tap suite: one top-level test per endpoint, one subtest per check, run in
// process on a standalone @tapjs/core test (not tap's root singleton, which would take
// over the process's stdout and exit code). The TAP it writes is read back with
// tap-parser, the parser tap's own reporters use, into the results the summary, the
// JUnit file and the report are made from.
import { Minimal } from '@tapjs/core'
import { Parser, type Result } from 'tap-parser'
import { decodeSkip, type SkipKind } from './checks.js'
import type { RunContext } from './context.js'
import { applicationsGroup } from './groups/applications-checks.js'
import { authGroup } from './groups/auth-checks.js'
import { candidatesGroup } from './groups/candidates-checks.js'
import type { FieldLists } from './field-lists.js'
import { fieldsGroup } from './groups/fields-checks.js'
import { jobsGroup } from './groups/jobs-checks.js'
import { marketingGroup } from './groups/marketing-checks.js'
import { metricsGroup } from './groups/metrics-checks.js'
import { rateLimitGroup } from './groups/rate-limit-checks.js'
import { timesheetsGroup } from './groups/timesheets-checks.js'
import { wireGroup } from './groups/wire-checks.js'
import { profileGroup } from './groups/profile-checks.js'
import { citationOf } from './rules.js'
import type { Group } from './settings.js'

/**
 * `error`: the service erred on an answer the check needed (5xx, no answer, timeout);
 * `skip`: not made, for the reason its `skip` kind says.
 */
export type CheckStatus = 'pass' | 'fail' | 'skip' | 'error'

export interface CheckResult {
  /** The endpoint the check is grouped under (the top-level tap test). */
  endpoint: string
  /** The check's name (the tap subtest). */
  name: string
  status: CheckStatus
  /** Why it was skipped: rate limited or left out by the ledger (`unavailable`), not applicable, or not due this run. */
  skip: Exclude<SkipKind, 'error'> | undefined
  /** Why it was skipped or errored. */
  reason: string | undefined
  /** Milliseconds it took, waits included. */
  ms: number
  /** What it found wrong, one sentence each. */
  failures: string[]
  /** What it found right. */
  passes: string[]
}

/** The groups in the order they run: job/fields first (its values are bound into the rest), writes and the 429 check last. */
const REGISTER: ReadonlyArray<[Group, (root: Minimal, ctx: RunContext, found: () => FieldLists | undefined) => void]> = [
  ['fields', fieldsGroup],
  ['candidates', candidatesGroup],
  ['applications', applicationsGroup],
  ['timesheets', timesheetsGroup],
  ['marketing', marketingGroup],
  ['metrics', metricsGroup],
  ['auth', authGroup],
  ['jobs', jobsGroup],
  ['rate-limit', rateLimitGroup],
]

/** Turns the TAP of the run into check results, calling back as each check ends. */
function collect(parser: Parser, onResult: (result: CheckResult) => void): void {
  parser.on('child', (endpointParser: Parser) => {
    const endpoint = endpointParser.name
    const asserts = new Map<string, { passes: string[]; failures: string[] }>()
    endpointParser.on('child', (checkParser: Parser) => {
      const found = { passes: [] as string[], failures: [] as string[] }
      asserts.set(checkParser.name, found)
      checkParser.on('assert', (result: Result) => (result.ok ? found.passes : found.failures).push(result.name))
    })
    endpointParser.on('assert', (result: Result) => {
      const found = asserts.get(result.name) ?? { passes: [], failures: [] }
      const ms = result.time ?? 0
      if (result.skip) {
        const { kind, reason } = decodeSkip(typeof result.skip === 'string' && result.skip !== '' ? result.skip : 'skipped')
        const status: CheckStatus = kind === 'error' ? 'error' : 'skip'
        onResult({ endpoint, name: result.name, status, skip: kind === 'error' ? undefined : kind, reason, ms, failures: [], passes: [] })
        return
      }
      onResult({ endpoint, name: result.name, status: result.ok ? 'pass' : 'fail', skip: undefined, reason: undefined, ms, failures: found.failures, passes: found.passes })
    })
  })
}

/**
 * A failed check that no sentence of the spec (nor of an RFC) backs may not fail a run:
 * what it found is an observation, and the check is left as not applicable to failing.
 */
function unbacked(ctx: RunContext, result: CheckResult): CheckResult {
  if (result.status !== 'fail') return result
  const citation = citationOf(`${result.endpoint}: ${result.name}`)
  if (citation.kind !== 'observation') return result
  ctx.observations.add({ topic: 'unbacked', endpoint: result.endpoint, summary: `${result.name}: not so (${result.failures.length} found; no sentence of the spec says it must be)`, details: { failures: result.failures, why: citation.why } })
  const reason = `an observation, never a failure: ${citation.why}; what it found is under Observations`
  return { ...result, status: 'skip', skip: 'not-applicable', reason, failures: [] }
}

export interface SuiteRun {
  results: CheckResult[]
  /** The run's TAP, as tap wrote it. */
  tap: string
}

export async function runSuite(ctx: RunContext, found: () => FieldLists | undefined, onResult: (result: CheckResult) => void = () => {}): Promise<SuiteRun> {
  const root = new Minimal({ name: 'jobboard-kit contract' })
  const parser = new Parser()
  const results: CheckResult[] = []
  collect(parser, (made) => {
    const result = unbacked(ctx, made)
    results.push(result)
    onResult(result)
  })
  let tap = ''
  root.on('data', (chunk: string | Buffer) => {
    tap += String(chunk)
    parser.write(String(chunk))
  })
  const ended = new Promise<void>((resolve) => root.on('end', () => resolve()))
  for (const [group, register] of REGISTER) if (ctx.settings.groups.includes(group)) register(root, ctx, found)
  // after every group: each answer the run got is held to the wire's rules (RFC 8259, the header grammars)
  wireGroup(root, ctx)
  // last: the profile's points are read from what every group before got
  if (ctx.profile) profileGroup(root, ctx, ctx.profile)
  root.end()
  await ended
  parser.end()
  return { results, tap }
}
