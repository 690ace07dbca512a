// The generated board of a scenario and seed, built once per process and shared read-only
// by every board that starts from it: every account of a fake, every reset, every
// createMockServer of the same scenario and seed. What it holds is a pure function of
// (effective scenario less its credentials, seed): the drawn relations, each kind's base
// list (count, time order, absent ids, late changes, whether times never decrease), a
// bounded cache of records made from them (deep-frozen: the same record wherever it is
// made), the counted metrics as a saved state and the last generated job id. A board
// keeps only what its own requests, control calls, activity and clock changed, over it
// (Collection's overlay and tombstones, its own Metrics, Owners and job lifecycle).
import { UK_LOCATIONS } from '../../../schemas/values.js'
import { deepFreeze } from '../../core/freeze.js'
import { RecentMap } from './recent-map.js'
import { reseedableFaker } from '../../core/random.js'
import { boardLists, type BoardLists, type LoadedScenario } from '../scenario.js'
import { isMonotone, type BaseRecords } from './collection.js'
import type { ExtraFieldRecord } from './extra-fields.js'
import { generateBoard, type GeneratedBoard } from './generate.js'
import { DEFAULT_ORIGIN, links as makeLinks } from './record-links.js'
import { finishRecord } from './maker.js'
import { sameBoardAs } from '../options.js'
import type { Metrics } from './metric-counts.js'

/** Records made from a base and kept for the next board that reads them: the bound on what a kind holds. */
const MADE_CACHE = 4096

/** A generated board as every board over it reads it: nothing in it is ever written. */
export interface SharedBoard {
  /** The text the board is known by: the effective scenario less what only its users differ by. */
  readonly key: string
  readonly board: GeneratedBoard
  /** The counted metrics at generation, never changed: each board's own Metrics reads them until its first change. */
  readonly metrics: Metrics
  /** The constrained lists of the scenario, read by every board over it until it changes its own. */
  readonly lists: BoardLists
}

/** The base of one kind: its records made on demand, deep-frozen and kept (bounded), whether its times never decrease. */
function shared<T extends object>(base: BaseRecords<T>): BaseRecords<T> {
  const made = new Map<number, T>()
  return {
    ...base,
    // a base drawn when asked says it itself: a scan would draw every record's time
    monotone: base.monotone ?? isMonotone(base),
    record: (id) => {
      let record = made.get(id)
      if (record === undefined) {
        record = deepFreeze(base.make(id)) as T
        if (made.size >= MADE_CACHE) made.delete(made.keys().next().value as number)
        made.set(id, record)
      }
      return record
    },
  }
}

/**
 * Each effective scenario's key, made once: every account of one scenario and seed reads
 * the key of the one it differs from only by credentials (sameBoardAs), and a kept string
 * is hashed once. Weak, and a pure function of a frozen scenario, as BUILT below.
 */
const KEYS = new WeakMap<LoadedScenario, string>()

/** What a generated board depends on: the effective scenario, less the credentials and the accounts (an account's own user). */
export function sharedKey(effective: LoadedScenario): string {
  const scenario = sameBoardAs(effective)
  let key = KEYS.get(scenario)
  if (key === undefined) {
    const { credentials: _credentials, accounts: _accounts, accountSeedStep: _step, ...rest } = scenario
    key = JSON.stringify(rest)
    if (Object.isFrozen(scenario)) KEYS.set(scenario, key)
  }
  return key
}

/** Builds the shared generated board of a scenario and seed; `progress` hears the share done (0..1). */
function build(key: string, scenario: LoadedScenario, progress: ((share: number) => void) | undefined): SharedBoard {
  // frozen: every board over the shared one reads these until it changes its own (setFieldValues makes new lists)
  const lists = deepFreeze(boardLists(scenario)) as BoardLists
  const generated = generateBoard(scenario, {
    lists,
    locations: scenario.predefinedLocations ?? UK_LOCATIONS,
    links: makeLinks(scenario.publicBaseUrl ?? DEFAULT_ORIGIN),
    ...(progress ? { progress } : {}),
  })
  const extra = reseedableFaker()
  // the board's extra fields (behaviour.extraFields), each drawn from (seed, kind, id) as the record is made
  const finished = <T extends object>(kind: ExtraFieldRecord, base: BaseRecords<T>): BaseRecords<T> =>
    shared({ ...base, make: (id) => finishRecord(scenario.behaviour, kind, base.make(id), () => extra.seed(scenario.seed, 'extra-fields', kind, id)) })
  const board: GeneratedBoard = {
    ...generated,
    jobs: shared(generated.jobs),
    candidates: finished('candidate', generated.candidates),
    applications: finished('application', generated.applications),
    timesheets: finished('timesheet', generated.timesheets),
    marketing: finished('marketing', generated.marketing),
    files: { resume: shared(generated.files.resume), document: shared(generated.files.document) },
  }
  return { key, board, metrics: generated.metrics, lists }
}

/**
 * The generated boards this process has built, newest last: at most a few, the oldest let
 * go first (the boards over it keep theirs). Why a module-level cache is allowed here,
 * where the rule is no module-level state: what it holds is immutable and a pure function
 * of its key, so no caller can see another's use of it (an answer is the same whether the
 * board was built now or taken from here) other than by being faster; it is bounded; and
 * a process that serves 64 accounts or runs a suite of fakes on one scenario and seed
 * would otherwise build and hold the same board 64 times.
 */
/** Generated boards kept: a few scenarios and seeds in turn (a suite's), never the memory of many large ones. */
const MAX_BUILT = 4
const BUILT = new RecentMap<string, SharedBoard>(MAX_BUILT)

/** The generated board of this scenario and seed: the one built before in this process, or built now. */
export function sharedBoard(scenario: LoadedScenario, progress?: (share: number) => void): SharedBoard {
  const key = sharedKey(scenario)
  const found = BUILT.get(key)
  if (found !== undefined) return found
  const made = build(key, scenario, progress)
  BUILT.set(key, made)
  return made
}
