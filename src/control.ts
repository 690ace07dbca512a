// What a test can do to a running fake: reset it, move its clock, add records, read
// its journal, arm faults, see and clear rate-limit windows, save and restore the
// whole board. One implementation behind both the /__mock routes and the in-process
// API (createMockServer), so the two cannot drift apart.
import { jobInput as boardJobInput } from '../schemas/job.js'
import { boardState } from '../schemas/state.js'
import { stateWithExtraFields } from './extra-fields.js'
import type { Board, ResetOptions } from './board.js'
import { boardError, BoardError } from './errors.js'
import type { ArmedFault } from './faults.js'
import { parseScenario, ScenarioError } from './scenario.js'
import { boardLists, type Page } from './store/store.js'
import { formatTimestamp, parseTime } from './time.js'
import type {
  Application,
  ApplicationSeed,
  BoardState,
  Candidate,
  CandidateSeed,
  FaultInput,
  JobInput,
  JournalEntry,
  MarketingRecord,
  MarketingSeed,
  StoredJob,
  Timesheet,
  TimesheetSeed,
} from './types.js'
import { bindFieldValues, createAjv, explain } from './validation.js'

export type RecordKind = 'candidates' | 'applications' | 'timesheets' | 'marketing'

export interface ClockControl {
  /** The current time, `YYYY-MM-DD HH:MM:SS`. */
  now(): string
  /** Moves time by seconds (negative goes back); answers the new time. */
  advance(seconds: number): string
  /** Sets the time (`YYYY-MM-DD HH:MM:SS`); answers it. */
  set(now: string): string
}

export class Controller {
  readonly #board: () => Board

  constructor(board: () => Board) {
    this.#board = board
  }

  get board(): Board {
    return this.#board()
  }

  reset(options: ResetOptions = {}): { scenario: string; seed: number; now: string } {
    try {
      this.board.reset(options)
    } catch (error) {
      if (error instanceof ScenarioError) throw boardError.invalidField(error.message)
      throw error
    }
    return { scenario: this.board.scenario.name, seed: this.board.scenario.seed, now: this.clock.now() }
  }

  readonly clock: ClockControl = {
    now: () => formatTimestamp(this.board.clock.now()),
    advance: (seconds) => {
      this.board.clock.advance(seconds)
      return this.clock.now()
    },
    set: (now) => {
      this.board.clock.set(parseTime(now))
      return this.clock.now()
    },
  }

  addCandidate(seed: CandidateSeed = {}): Candidate {
    return this.board.store.addCandidate(seed)
  }

  addApplication(seed: ApplicationSeed = {}): Application {
    return this.board.store.addApplication(seed)
  }

  addTimesheet(seed: TimesheetSeed = {}): Timesheet {
    return this.board.store.addTimesheet(seed)
  }

  addMarketing(seed: MarketingSeed = {}): MarketingRecord {
    return this.board.store.addMarketing(seed)
  }

  /** A job as job/add makes it, without the rate limit. */
  addJob(input: JobInput): StoredJob {
    const validate = this.board.store.validators.get(boardJobInput)
    if (!validate(input)) throw boardError.invalidField(explain(validate.errors ?? [], 'body', input))
    return this.board.store.addJob(input)
  }

  requests(path?: string): JournalEntry[] {
    return this.board.journal.list(path)
  }

  clearRequests(): void {
    this.board.journal.clear()
  }

  addFault(fault: FaultInput): ArmedFault {
    return this.board.faults.add(fault)
  }

  faults(): ArmedFault[] {
    return this.board.faults.list()
  }

  clearFaults(): void {
    this.board.faults.clear()
  }

  /** The rate-limit windows open now: user, method, URL and seconds left. */
  rateLimits(): Array<{ user: string; method: string; url: string; secondsLeft: number }> {
    return this.board.limiter.open().map(({ key, secondsLeft }) => {
      const [user = '', method = '', url = ''] = key.split('\u0000')
      return { user, method, url, secondsLeft }
    })
  }

  clearRateLimits(): void {
    this.board.limiter.clear()
  }

  exportState(): BoardState {
    const board = this.board
    return {
      format: 'jobboard-kit/state',
      version: 1,
      scenario: structuredClone(board.scenario) as BoardState['scenario'],
      clock: { now: this.clock.now() },
      store: board.store.exportState(),
    }
  }

  /** Replaces the board with a saved one; a state that does not validate changes nothing. */
  importState(state: unknown): void {
    const head = state as Partial<BoardState> | null
    if (head === null || typeof head !== 'object' || head.format !== 'jobboard-kit/state') {
      throw boardError.invalidField('The state is invalid: it must be what GET /__mock/state answers (format "jobboard-kit/state").')
    }
    let scenario
    try {
      scenario = parseScenario(head.scenario, 'The state\'s scenario')
    } catch (error) {
      if (error instanceof ScenarioError) throw boardError.invalidField(error.message)
      throw error
    }
    // the records are checked against the lists and extra fields of the scenario they were made under
    const schema = stateWithExtraFields(boardState, scenario.behaviour.extraFields)
    const validate = createAjv().compile(bindFieldValues(schema, boardLists(scenario)))
    if (!validate(state)) throw boardError.invalidField(`The state is invalid: ${explain(validate.errors ?? [], 'body', state)}`)
    const valid = state as BoardState
    try {
      this.board.restore(scenario, parseTime(valid.clock.now), valid.store)
    } catch (error) {
      // links that do not hold (an application of a candidate that is not there) surface here
      if (error instanceof BoardError) throw boardError.invalidField(`The state is invalid: ${error.message}`)
      throw error
    }
  }
}

export type { Page }
