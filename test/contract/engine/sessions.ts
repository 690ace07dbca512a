// The deviation engine's runs (issue 43 item 3): a deployment (the fake, or the second
// server style a) behind the breaking proxy of helpers.ts, the kit run against it in
// process on a clock that only moves when it sleeps, and the three kinds of run the
// engine records and then deviates:
// - read: one deployment for all, its rate limit off; the whole read-only run recorded,
//   then each group alone answered from the record, to learn which groups ask each
//   exchange. A deviated exchange is asked by a run of those groups only, answered from
//   the record (what it does not hold goes to the deployment, unchanged): the same
//   exchanges, a fraction of the cost.
// - writes: each run a fresh deployment, the kit with --writes --only jobs and a ledger
//   that makes one write turn due (the rotation the ledger gives a nightly run), so that a
//   run makes a handful of writes rather than all 150; TURN_SAMPLE picks the turns, enough
//   for every class of write exchange (engine.test.ts holds it to that).
// - rate-limit: each run a fresh deployment with its own limiter, the kit --only rate-limit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import { LEDGER_KIND } from '../../../schemas/ledger.js'
import { TURNS } from '../../../src/contract/write-turns.js'
import { deploymentKey } from '../../../src/contract/ledger.js'
import type { ContractFlags } from '../../../src/contract/settings.js'
import { board, contract, CREDENTIALS, type KitRun, otherBoard, steppingClock } from '../helpers.js'
import type { Exchange } from '../helpers.js'
import { type Config, type Deviation, type Recorded, Stage, START } from './transcript.js'

export const SERVERS = ['the fake', 'the second server'] as const
export type Server = (typeof SERVERS)[number]

/** The groups of a read-only run, each run alone to learn which exchanges it asks. */
const READ_GROUPS = ['fields', 'candidates', 'applications', 'timesheets', 'marketing', 'metrics', 'auth'] as const


/**
 * The write turns recorded: every turn that is not a request case, and request cases spread
 * over their kinds (an add the spec forbids, one it allows, a repost, a delete), each its own
 * run. Every class of write exchange a full --writes run makes is among them (engine.test.ts).
 */
export const TURN_SAMPLE = [
  'lifecycle',
  'invalid-salary-unit',
  'missing-field',
  'after-delete',
  'unpublished',
  'case job/add featured enum',
  'case job/add free-text fields free-text',
  'case job/repost closing_date optional-absent',
  'case job/repost closing_date type',
  'case job/repost id type',
  'case job/delete id type',
]

/** The job the after-delete turn closes, expires, reposts and deletes again: one the ledger says an earlier run deleted (no job of the board has its id). */
const DELETED_JOB = 999_999

/** How a run is made again: its config and what tells the kit what to ask. */
export interface RunSpec {
  config: Config
  /** Read: the groups (--only); writes: the turn made due. */
  key: string
}

export interface Session {
  server: Server
  config: Config
  /** Every exchange recorded, each with the run that asks it most cheaply. */
  exchanges: Recorded[]
  specOf: Map<string, RunSpec>
  /** Runs a spec with deviations (none: the baseline, kept), `night` days after the first run (the kit's rotations turn with the night). */
  run(spec: RunSpec, deviations?: readonly Deviation[], night?: number): Promise<{ kit: KitRun; stage: Stage }>
  /** Runs a spec against the deployment itself (no record answers), every request sent in a legal variant. */
  vary(spec: RunSpec, variant: (x: Exchange) => Exchange | undefined): Promise<{ kit: KitRun; stage: Stage }>
  /** The runs the session's exchanges come from. */
  specs: RunSpec[]
  baseline(spec: RunSpec, night?: number): Promise<KitRun>
}

const DAY_MS = 86_400_000

const other = { style: 'a' as const, ...CREDENTIALS }

async function deploy(t: Test, server: Server, stage: Stage, limited: boolean): Promise<string> {
  const window = limited ? {} : { rateLimitWindow: 0 }
  const { url } = server === 'the fake' ? await board(t, stage.breakage(), window) : await otherBoard(t, stage.breakage(), { ...other, ...window })
  return url
}

/** A scope for one run's deployment: what board() and otherBoard() tear down, torn down when the run ends. */
function scope(t: Test): { t: Test; close: () => Promise<void> } {
  const closers: Array<() => unknown> = []
  const scoped = { teardown: (close: () => unknown) => void closers.push(close), fail: (message: string) => t.fail(message) } as unknown as Test
  return { t: scoped, close: async () => void (await Promise.all(closers.reverse().map((close) => close()))) }
}

/** Exchanges by name: the order a run's answers came in depends on the network, the engine's spreading of sites must not. */
const byName = (a: Recorded, b: Recorded) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const kit = (flags: ContractFlags, night = 0) => contract(flags, { clock: steppingClock(START + night * DAY_MS) })

/** A session's baselines, made once per spec (`made`: those already run, by the spec's key). */
function memo(make: (spec: RunSpec, night: number) => Promise<KitRun>, made = new Map<string, Promise<KitRun>>()): (spec: RunSpec, night?: number) => Promise<KitRun> {
  return (spec, night = 0) => {
    const key = night === 0 ? spec.key : `${spec.key} night ${night}`
    let run = made.get(key)
    if (run === undefined) {
      run = make(spec, night)
      made.set(key, run)
    }
    return run
  }
}

/** The read-only session: one deployment, the whole run recorded, each group alone replayed. */
export async function readSession(t: Test, server: Server): Promise<Session> {
  const stage = new Stage()
  const url = await deploy(t, server, stage, false)
  const flags = (only?: string): ContractFlags => ({ baseUrl: url, rateLimitWindow: 0, ...(only ? { only } : {}) })
  stage.begin('record')
  await kit(flags())
  const exchanges = [...stage.recorded].sort(byName)
  const groups = new Map<string, string[]>()
  // each group's replay is the baseline of a run of that group: kept, not made again
  const replayed = new Map<string, Promise<KitRun>>()
  for (const group of READ_GROUPS) {
    stage.begin('replay')
    replayed.set(group, Promise.resolve(await kit(flags(group))))
    for (const id of stage.seen.keys()) groups.set(id, [...(groups.get(id) ?? []), group])
  }
  // an exchange no group asks alone is asked by the whole run; one many groups ask, by the cheapest (the first)
  const specOf = new Map(exchanges.map((x) => [x.id, { config: 'read' as const, key: groups.get(x.id)?.[0] ?? '' }]))
  let busy = Promise.resolve()
  const run = (spec: RunSpec, deviations?: readonly Deviation[], variant?: (x: Exchange) => Exchange | undefined, night = 0) => {
    // one run at a time on the one deployment: the stage is the run's
    const next = busy.then(async () => {
      stage.begin(variant ? 'live' : 'replay', deviations, variant)
      return { kit: await kit(flags(spec.key || undefined), night), stage }
    })
    busy = next.then(() => undefined)
    return next
  }
  return {
    server,
    config: 'read',
    exchanges,
    specOf,
    specs: [{ config: 'read', key: '' }],
    run: (spec, deviations, night) => run(spec, deviations, undefined, night),
    vary: (spec, variant) => run(spec, undefined, variant),
    baseline: memo(async (spec, night) => (await run(spec, undefined, undefined, night)).kit, replayed),
  }
}

/** A ledger in which every write turn but `target` was made an hour ago: the run makes `target` first. */
function ledgerFor(dir: string, url: string, target: string): string {
  const file = join(dir, `${new URL(url).port}-${target.replace(/[^a-z0-9]+/gi, '-')}.json`)
  const made = new Date(START - 3_600_000).toISOString()
  const writes = Object.fromEntries(TURNS.filter((turn) => turn.name !== target).map((turn) => [turn.name, made]))
  const deployment = deploymentKey(CREDENTIALS.username, url)
  writeFileSync(file, JSON.stringify({ kind: LEDGER_KIND, version: 1, requests: {}, writes: { [deployment]: writes }, pending: [], deleted: target === 'after-delete' ? { [deployment]: DELETED_JOB } : {}, runs: {} }))
  return file
}

/** A session of fresh deployments, one per run: the writes (a turn each) or the rate-limit group. */
export async function freshSession(t: Test, server: Server, config: 'writes' | 'rate-limit', elsewhere: ReadonlySet<string> = new Set()): Promise<Session> {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-engine-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const once = async (spec: RunSpec, mode: 'record' | 'live', deviations?: readonly Deviation[], variant?: (x: Exchange) => Exchange | undefined) => {
    const stage = new Stage()
    stage.known = known
    // each run's deployment and proxy end with the run
    const own = scope(t)
    try {
      const url = await deploy(own.t, server, stage, config === 'rate-limit')
      stage.begin(mode, deviations, variant)
      const flags: ContractFlags =
        config === 'rate-limit' ? { baseUrl: url, only: 'rate-limit' } : { baseUrl: url, writes: true, only: 'jobs', ledger: ledgerFor(dir, url, spec.key) }
      return { kit: await kit(flags), stage }
    } finally {
      await own.close()
    }
  }
  const known = new Set<string>()
  const specs: RunSpec[] = config === 'rate-limit' ? [{ config, key: 'rate-limit' }] : TURN_SAMPLE.map((key) => ({ config, key }))
  const exchanges: Recorded[] = []
  const specOf = new Map<string, RunSpec>()
  const baselines = new Map<string, KitRun>()
  for (const spec of specs) {
    const { kit: base, stage } = await once(spec, 'record')
    baselines.set(spec.key, base)
    for (const x of stage.recorded) known.add(x.id)
    // an exchange the read-only session holds (job/fields) is deviated there, once
    for (const x of [...stage.recorded].sort(byName).filter((r) => !specOf.has(r.id) && !elsewhere.has(r.id))) {
      exchanges.push(x)
      specOf.set(x.id, spec)
    }
  }
  return {
    server,
    config,
    exchanges,
    specOf,
    specs,
    run: (spec, deviations) => once(spec, 'live', deviations),
    vary: (spec, variant) => once(spec, 'live', undefined, variant),
    baseline: async (spec) => baselines.get(spec.key) as KitRun,
  }
}
