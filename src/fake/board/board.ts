// Everything one fake instance holds that a reset replaces: the effective scenario,
// the clock, the store, the rate-limit windows, the journal and the armed faults. The
// app reads it through this object on every request, so /__mock/reset can swap it
// without rebuilding routes.
import { credentialChecker } from './credentials.js'
import { createClock, type Clock } from '../../core/clock.js'
import type { LoadedActivity } from '../activity/load.js'
import { ActivityPlayer } from '../activity/play.js'
import { Faults } from './armed-faults.js'
import { Journal, JOURNAL_SIZE } from '../../watch/journal.js'
import { VerdictEvaluator } from '../../watch/verdict/evaluator.js'
import { effectiveScenario, type ResolvedOptions } from '../options.js'
import { RateLimiter } from './windows.js'
import { sharedSchemas, loadScenario, ScenarioError, type LoadedScenario, type LoadPolicy } from '../scenario.js'
import { BoardError } from '../../core/errors.js'
import { isDeepStrictEqual } from 'node:util'
import { publishedProgress } from '../store/progress.js'
import { Store } from '../store/store.js'
import { parseTime } from '../../core/time.js'
import type { CompactStoreState, JobFieldsState, ScenarioFile, StoreState } from '../../core/types.js'

export interface ResetOptions {
  /** Another scenario, by name, path or as an object; default: the current one. */
  scenario?: string | ScenarioFile
  /** Another seed; default: the options' or the scenario's. */
  seed?: number
}

export class Board {
  readonly options: ResolvedOptions
  /** The account this board is (src/fake/accounts.ts): `default` on a fake given no accounts. */
  readonly account: string
  #source: string | ScenarioFile
  #seed: number | undefined
  scenario!: LoadedScenario
  clock!: Clock
  store!: Store
  limiter!: RateLimiter
  checkCredentials!: (username: string, password: string) => boolean
  readonly journal: Journal
  /** Judges the client's requests as the journal records them (undefined with the verdict off). */
  readonly verdict: VerdictEvaluator | undefined
  readonly faults = new Faults()
  /** The extra record fields the routes' serializers were built with: a later board must keep them. */
  #extraFields: LoadedScenario['behaviour']['extraFields'] | undefined
  /** Compiled scenario and state schemas, so that resets and restores do not compile them again. */
  readonly compiled = sharedSchemas()
  /** The activity this fake plays (--activity): each reset plays it again from the new board's start. */
  #day: LoadedActivity | undefined
  /** The activity playing on this board, if any. */
  activity: ActivityPlayer | undefined

  /**
   * `loaded`: the scenario `scenario` names, loaded already (its accounts left out): the
   * fake's accounts load each scenario once, not once per account.
   */
  constructor(options: ResolvedOptions, scenario?: string | ScenarioFile, account = 'default', loaded?: LoadedScenario) {
    this.options = options
    this.account = account
    this.verdict = options.verdict ? new VerdictEvaluator({ windowSeconds: () => this.scenario.rateLimitWindow, now: () => this.clock.now(), speed: () => this.clock.speed }) : undefined
    this.journal = new Journal(JOURNAL_SIZE, this.verdict)
    this.#source = scenario ?? options.scenario
    this.#seed = options.seed
    this.#build(this.#source, this.#seed, loaded ?? loadScenario(this.#source, { compiled: this.compiled }))
  }

  /**
   * A fresh board: store, clock and rate-limit windows, from the current or a given
   * scenario and seed. A scenario that cannot be built throws a ScenarioError naming the
   * field, and leaves the board as it was.
   */
  reset({ scenario, seed }: ResetOptions = {}, policy: LoadPolicy = {}): void {
    const source = scenario ?? this.#source
    const nextSeed = seed ?? (scenario === undefined ? this.#seed : this.options.seed)
    this.#build(source, nextSeed, loadScenario(source, { compiled: this.compiled, ...policy }))
  }

  /** A fresh board from a loaded scenario and a seed: built (over the shared generated board) before anything is replaced. */
  #build(source: string | ScenarioFile, nextSeed: number | undefined, loaded: LoadedScenario): void {
    // the options themselves when the seed is theirs (an account's board, a plain reset): their key is then made once (options.ts)
    const effective = effectiveScenario(loaded, nextSeed === this.options.seed ? this.options : ({ ...this.options, seed: nextSeed } as ResolvedOptions))
    const changed = this.#otherExtraFields(effective)
    if (changed) throw new ScenarioError(changed)
    let clock: Clock
    let store: Store
    try {
      clock = this.#newClock(effective)
      // build before replacing anything: a scenario that fails to load leaves the board as it was
      const progress = publishedProgress(effective.name)
      store = Store.generate(effective, clock, this.compiled, progress ? { progress } : {})
    } catch (error) {
      if (error instanceof ScenarioError) throw error
      // pinned records that collide (two candidates with one e-mail, a clock out of range)
      const field = (error as { field?: unknown }).field
      throw new ScenarioError(`Scenario "${effective.name}" cannot be built: ${(error as Error).message}`, typeof field === 'string' ? field : '')
    }
    this.#install(source, nextSeed, effective, clock, store)
  }

  /** Replaces the board with one restored from a saved state, full or compact (which has `written`). */
  restore(scenario: LoadedScenario, now: number, state: StoreState | CompactStoreState, fields?: JobFieldsState): void {
    const changed = this.#otherExtraFields(scenario)
    if (changed) throw new BoardError('INVALID_FIELD', changed)
    const clock = this.#newClock(scenario)
    clock.set(now)
    // faults and held delays of the board being replaced end with it
    this.faults.clear()
    // a reset after this rebuilds the restored board's own scenario, not the one before it
    const store =
      'written' in state ? Store.restoreCompact(scenario, clock, state, this.compiled, fields) : Store.restore(scenario, clock, state, this.compiled, fields)
    // a restored board is another day's: the activity stops (a reset plays it again)
    this.#install(structuredClone(scenario) as ScenarioFile, scenario.seed, scenario, clock, store, { playDay: false })
  }

  /** Plays an activity on this board from now, and again from the start of each board a reset makes. */
  play(day: LoadedActivity): void {
    this.#day = day
    this.#startDay()
  }

  #startDay(): void {
    this.activity?.stop()
    this.activity = this.#day && new ActivityPlayer(this.#day, this)
  }

  /** Why a board with this scenario cannot replace the current one, if it cannot. */
  #otherExtraFields(scenario: LoadedScenario): string | undefined {
    this.#extraFields ??= scenario.behaviour.extraFields
    if (isDeepStrictEqual(scenario.behaviour.extraFields, this.#extraFields)) return undefined
    return `Scenario "${scenario.name}" gives other extra record fields (behaviour.extraFields) than this fake was started with; start a new fake to change them.`
  }

  #newClock(scenario: LoadedScenario): Clock {
    const start = parseTime(scenario.now)
    const clock = createClock(this.options.clock, start, this.options.clockSpeed)
    if (this.options.clock === 'real' && this.options.now !== undefined) clock.set(start)
    return clock
  }

  #install(source: string | ScenarioFile, seed: number | undefined, scenario: LoadedScenario, clock: Clock, store: Store, { playDay = true } = {}): void {
    store.limitChanges(this.options.maxChanges)
    this.#source = source
    this.#seed = seed
    this.scenario = scenario
    this.clock = clock
    this.store = store
    this.limiter = new RateLimiter(clock, scenario.rateLimitWindow, scenario.behaviour.rateLimitCounts, this.options.rateLimitMaxWindows)
    this.checkCredentials = credentialChecker(scenario.credentials)
    this.journal.clear()
    this.faults.clear()
    this.activity?.stop()
    this.activity = undefined
    if (playDay) this.#startDay()
  }
}
