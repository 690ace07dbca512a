// The write checks' turns (--writes): the kit sends no query parameter the spec does not
// define, and job/add is one full request whatever its body, so the write checks take
// turns (TURNS), each naming the full requests (POST paths) it needs. A run makes the turns
// whose full requests are all free (not made in this run, outside the ledger's window),
// the ones made longest ago first (planWrites), and records in the ledger which it made;
// the rest are "not due this run". rotationOf and rotationLines tell the summary how the
// rotation stands; turnOf which turn a check of the jobs group (groups/jobs-checks.ts) is.
import type { JOB_REQUIRED } from '../../schemas/index.js'
import { caseTurn, REQUEST_CASES, type RequestCase } from './cases.js'
import type { RunContext } from './context.js'

/** The required field the missing-field add leaves out (the type says it is one job/add requires). */
export const MISSING = 'job_title' satisfies (typeof JOB_REQUIRED)[number]

/** A write turn: a check (or a few) that needs the full requests (POST paths) it names, made when they are free. */
export interface Turn {
  readonly name: string
  readonly needs: readonly string[]
  readonly what: string
}

/**
 * The full requests a request case needs: its own POST; the delete of the job an add the
 * spec allows makes; for a repost of a live job, the add that makes it and its delete. A
 * forbidden add needs no delete: when it is wrongly accepted the run fails anyway, and
 * cleanup deletes the job when the delete is free, else leaves it pending.
 */
function needsOf(c: RequestCase): readonly string[] {
  // a case the spec's words leave open may be accepted: its job is deleted in the run
  if (c.operation === 'add') return c.allowed || c.open !== undefined ? ['add', 'delete'] : ['add']
  if (c.operation === 'repost') return c.needsJob ? ['add', 'repost', 'delete'] : ['repost']
  return [c.operation]
}

/** The write checks that take turns across runs, each with the full requests (POST paths) it needs; then one turn per request case. */
export const TURNS: readonly Turn[] = [
  { name: 'lifecycle', needs: ['add', 'close', 'expire', 'repost', 'delete'], what: 'a valid add, then close, expire, repost and delete of that job' },
  { name: 'invalid-salary-unit', needs: ['add'], what: 'the add of an invalid salary_unit' },
  { name: 'missing-field', needs: ['add'], what: `the add of a job without ${MISSING}` },
  { name: 'after-delete', needs: ['close', 'expire', 'repost', 'delete'], what: 'close, expire, repost and delete of a deleted job' },
  // the request matrix's job added with published 0 (src/contract/matrix.ts); its job is deleted by cleanup, so it needs the delete too
  { name: 'unpublished', needs: ['add', 'delete'], what: 'the add of a job with published 0, its public page, and its delete' },
  ...REQUEST_CASES.map((c) => ({ name: caseTurn(c), needs: needsOf(c), what: c.shape })),
]
export type TurnName = string

/** The request case a check (`endpoint: name`) is, if it is one. */
const CASE_OF_CHECK = new Map(REQUEST_CASES.map((c) => [`${c.endpoint}: ${c.name}`, c]))

export const post = (path: string) => `POST /job/${path}`

/**
 * Which turns this run makes: the ones made longest ago (or never) first, each when its
 * full requests are free and no earlier turn of this run takes them. With
 * --rate-limit-window 0 every turn is made, one after another.
 */
export function planWrites(ctx: RunContext): Map<TurnName, { due: boolean; reason: string | undefined }> {
  const { client, ledger, deployment, settings } = ctx
  const last = ledger.writesOf(deployment)
  const taken = new Map<string, string>()
  if (ledger.pendingOf(deployment).length > 0) taken.set('delete', 'the delete of a job a run before left behind')
  const turns = new Map<TurnName, { due: boolean; reason: string | undefined }>()
  const order = [...TURNS].sort((a, b) => (last[a.name] ?? -Infinity) - (last[b.name] ?? -Infinity))
  for (const turn of order) {
    let reason: string | undefined
    if (settings.rateLimitWindow > 0) {
      const spent = turn.needs.find((path) => taken.has(path))
      const closed = turn.needs.find((path) => !client.free('POST', client.api(`/job/${path}`)))
      if (spent) reason = `${post(spent)} is made in this run by ${taken.get(spent)}`
      else if (closed) reason = `${post(closed)} is spent: made within the last ${settings.rateLimitWindow} s (in this run, or by the ledger)`
      else if (!ledger.kept && turn.name !== 'lifecycle') reason = 'write checks that repeat a full request take turns across runs through --ledger'
    }
    if (turn.name === 'after-delete' && reason === undefined && ledger.deletedOf(deployment) === undefined && !turns.get('lifecycle')?.due) {
      reason = 'no job is known deleted yet (the lifecycle turn deletes one)'
    }
    if (reason === undefined) for (const path of turn.needs) taken.set(path, turn.what)
    turns.set(turn.name, { due: reason === undefined, reason: reason === undefined ? undefined : `not due this run: ${reason}` })
  }
  return turns
}

/**
 * How many runs a full pass of every turn takes, from the ledger as it stands: the planner's
 * own choice (the turns made longest ago first, each when no earlier turn of the run takes a
 * full request it needs) played run after run until every turn has had one. One run with
 * --rate-limit-window 0; none can be said without --ledger (turns cannot rotate).
 */
export function passLength(ctx: Pick<RunContext, 'ledger' | 'deployment' | 'settings'>): number | undefined {
  if (ctx.settings.rateLimitWindow === 0) return 1
  if (!ctx.ledger.kept) return undefined
  const last = ctx.ledger.writesOf(ctx.deployment)
  let left = [...TURNS].sort((a, b) => (last[a.name] ?? -Infinity) - (last[b.name] ?? -Infinity))
  let runs = 0
  while (left.length > 0) {
    runs++
    const taken = new Set<string>()
    left = left.filter((turn) => {
      if (turn.needs.some((path) => taken.has(path))) return true
      for (const path of turn.needs) taken.add(path)
      return false
    })
  }
  return runs
}

/** The write turns after a run: how many, a full pass's length at this window, which were made, which are due, and (with --within N) which no run of the last N made. */
export interface Rotation {
  turns: number
  window: number
  /** Runs a full pass takes at this window, as passLength said before the run; undefined without --ledger. */
  passRuns: number | undefined
  made: string[]
  /** The turns this run did not make, the one made longest ago (or never) first. */
  due: string[]
  within?: number
  /** With --within N: the turns no run of the ledger's last N (this one included) made. */
  stale?: string[]
}

export function rotationOf(ctx: Pick<RunContext, 'ledger' | 'deployment' | 'settings'>, startedAt: number, passRuns: number | undefined): Rotation {
  const last = ctx.ledger.writesOf(ctx.deployment)
  const made = TURNS.filter((turn) => (last[turn.name] ?? -Infinity) >= startedAt).map((turn) => turn.name)
  const due = TURNS.filter((turn) => !made.includes(turn.name))
    .sort((a, b) => (last[a.name] ?? -Infinity) - (last[b.name] ?? -Infinity))
    .map((turn) => turn.name)
  const rotation: Rotation = { turns: TURNS.length, window: ctx.settings.rateLimitWindow, passRuns, made, due }
  const within = ctx.settings.within
  if (within === undefined) return rotation
  const runs = ctx.ledger.runsOf(ctx.deployment)
  // the start of the N-th newest run; with fewer runs kept, the first: a turn no kept run made is stale
  const since = runs[Math.max(0, runs.length - within)] ?? startedAt
  return { ...rotation, within, stale: TURNS.filter((turn) => (last[turn.name] ?? -Infinity) < since).map((turn) => turn.name) }
}

/** The lines the summary gives the rotation of the write turns. */
export function rotationLines(rotation: Rotation): string[] {
  const pass =
    rotation.window === 0
      ? 'with --rate-limit-window 0 one run makes them all'
      : rotation.passRuns === undefined
        ? 'without --ledger they cannot take turns: only the lifecycle is made'
        : `at a window of ${rotation.window} s a full pass takes ${rotation.passRuns} run${rotation.passRuns === 1 ? '' : 's'} (each job/add a full request of its own)`
  const named = (names: readonly string[]) => `${names.slice(0, 5).join('; ')}${names.length > 5 ? `; and ${names.length - 5} more` : ''}`
  return [
    `Write turns: ${rotation.turns} (${REQUEST_CASES.length} of them request cases); this run made ${rotation.made.length}; ${pass}`,
    ...(rotation.due.length > 0 ? [`  due next: ${named(rotation.due)}`] : []),
    ...(rotation.stale !== undefined ? [`  not made in the last ${rotation.within} runs: ${rotation.stale.length === 0 ? 'none' : `${rotation.stale.length}: ${named(rotation.stale)}`}`] : []),
  ]
}

/** The checks of each turn, by endpoint and name: a turn counts as made once one of them is. */
export function turnOf(endpointName: string, checkName: string): TurnName | undefined {
  const requestCase = CASE_OF_CHECK.get(`${endpointName}: ${checkName}`)
  if (requestCase !== undefined) return caseTurn(requestCase)
  if (/^(close|expire|repost|delete) of the deleted job is refused$/.test(checkName)) return 'after-delete'
  if (checkName.startsWith('an invalid salary_unit')) return 'invalid-salary-unit'
  if (checkName.startsWith('a job without a required field')) return 'missing-field'
  if (checkName.startsWith('the public page of a job added with published 0')) return 'unpublished'
  if (checkName.startsWith('a write without credentials')) return undefined
  return endpointName.startsWith('job/') ? 'lifecycle' : undefined
}
