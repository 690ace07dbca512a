// What a test can do to a running fake: reset it, move its clock, add records, read
// its journal, arm faults, see and clear rate-limit windows, save and restore the
// whole board. One implementation behind both the /__mock routes and the in-process
// API (createMockServer), so the two cannot drift apart.
import { advanceBody, copyBody, faultBody, jobFieldsChange, journalQuery, resetOptions, setClockBody, verdictQuery } from '../../schemas/control.js'
import { FIELD_NAMES, type FieldName, type FieldValues } from '../../schemas/values.js'
import { nextFieldValues } from './job-fields.js'
import { boardState, compactBoardState, jobFieldsState } from '../../schemas/state.js'
import { compactStateWithExtraFields, stateWithExtraFields } from './store/extra-fields.js'
import type { Board, ResetOptions } from './board/board.js'
import { boardError, BoardError, BoardInputError } from '../core/errors.js'
import { inRange, step } from '../core/clock.js'
import type { ActivityStatus } from './activity/play.js'
import type { ArmedFault } from './board/armed-faults.js'
import { type LoadedScenario, parseScenario, ScenarioError } from './scenario.js'
import { boardLists, type Page } from './store/store.js'
import { prototypeKeyPath, prototypeKeyRefusal } from '../core/prototype-keys.js'
import { formatTimestamp, parseTime } from '../core/time.js'
import type {
  Application,
  ApplicationSeed,
  BoardState,
  Candidate,
  CandidateSeed,
  CompactBoardState,
  CopyAnswer,
  CopyBody,
  FaultInput,
  JobFieldsChange,
  JobFieldsState,
  JobInput,
  JournalEntry,
  MarketingRecord,
  MarketingSeed,
  StoredJob,
  Timesheet,
  TimesheetSeed,
} from '../core/types.js'
import { bindFieldValues, createAjv, valueNestsDeeper, Validators } from '../core/validation.js'
import { type CopyTruth, judgeCopy, marketingKey } from '../watch/verdict/copy-oracle.js'
import type { DetailedVerdict } from '../watch/verdict/verdict-types.js'

/**
 * The board as the copy oracle reads it: every record of a list (the store never deletes
 * candidates, applications, timesheets or marketing records), so a record of a copy the
 * board does not hold is extra.
 */
function boardTruth(board: Board): CopyTruth {
  return {
    whole: true,
    name: 'the board',
    now: () => board.clock.now(),
    *records(list) {
      if (list === 'marketing') for (const record of board.store.marketing.values()) yield [marketingKey(record), record]
      else for (const record of board.store[list].values()) yield [record.id, record]
    },
  }
}

/** Headers that frame an HTTP message: a fault setting them would answer with a broken response. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'host'])

/** The largest body a fault may answer with, as JSON text: 1 MiB. */
export const MAX_FAULT_BODY = 1_048_576

/** What a saved board's scenario holds in place of credentials left out of an export. */
export interface ExportOptions {
  /** Include the API credentials (the control API asks for the control token first). */
  credentials?: boolean
  /** `full` (default): every record; `compact`: only what differs from the board the scenario and seed generate. */
  form?: 'full' | 'compact'
}

/** A saved board in either form. */
export type SavedBoard = BoardState | CompactBoardState

/**
 * JSON text of a value in pieces, the same text as JSON.stringify gives: arrays are
 * written 500 items a piece, so a board too large for one string still saves.
 */
function* jsonPieces(value: unknown, depth: number): Generator<string> {
  if (depth === 0 || value === null || typeof value !== 'object') {
    yield JSON.stringify(value)
    return
  }
  if (Array.isArray(value)) {
    yield '['
    for (let i = 0; i < value.length; i += 500) {
      yield `${i === 0 ? '' : ','}${value.slice(i, i + 500).map((item) => JSON.stringify(item)).join(',')}`
    }
    yield ']'
    return
  }
  let first = true
  yield '{'
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue
    yield `${first ? '' : ','}${JSON.stringify(key)}:`
    first = false
    yield* jsonPieces(item, depth - 1)
  }
  yield '}'
}

/** The constrained values job/fields lists now, and those retired since the board was made. */
export interface JobFieldsView {
  data: FieldValues
  retired: { [K in FieldName]: string[] }
}

/** A saved board's jobFields, named as the state names it when refused. */
const savedFieldsOuter = { type: 'object', properties: { jobFields: jobFieldsState } } as const

/** A board's lists with the values a saved board had listed since it was made added: what its records may hold. */
function withKnownValues(lists: ReturnType<typeof boardLists>, fields: JobFieldsState | undefined): ReturnType<typeof boardLists> {
  if (fields === undefined) return lists
  const out = { ...lists } as Record<string, readonly string[]>
  for (const [name, values] of [...Object.entries(fields.current), ...Object.entries(fields.known)]) {
    out[name] = [...(out[name] ?? []), ...values.filter((value) => !out[name]?.includes(value))]
  }
  return out as ReturnType<typeof boardLists>
}

export type RecordKind = 'candidates' | 'applications' | 'timesheets' | 'marketing'

export interface ClockControl {
  /** The current time, `YYYY-MM-DD HH:MM:SS`. */
  now(): string
  /** Moves time by seconds (negative goes back); answers the new time. */
  advance(seconds: number): string
  /** Sets the time (`YYYY-MM-DD HH:MM:SS`); answers it. */
  set(now: string): string
}

/**
 * Every method checks what it is given against the control API's schemas before it
 * changes anything: the same gate for HTTP bodies and in-process calls, refusing with a
 * BoardInputError that names the field.
 */
/**
 * The control API's own schemas (no constrained lists), compiled once per process for every
 * controller: each fake's and each account's compiled them again with an ajv instance of its
 * own on its first control call (a later fake's first reset took 3-4 ms of it). Why at module
 * level: a compiled validator is a pure function of its schema, read-only, called synchronously.
 */
let controlValidators: Validators | undefined

/**
 * A control input with a prototype key anywhere, refused as the body parser refuses one
 * (a 412 naming where): what a caller in process hands over (JSON.parse of a file, which
 * makes `__proto__` an own key) meets the same check as a body sent over HTTP.
 */
function withoutPrototypeKeys<T>(input: T, subject: string, why = 'no field of the control API has that name'): T {
  const path = prototypeKeyPath(input)
  if (path !== undefined) throw boardError.invalidField(prototypeKeyRefusal(subject, path, why), path)
  return input
}

export class Controller {
  readonly #board: () => Board

  constructor(board: () => Board) {
    this.#board = board
  }

  get board(): Board {
    return this.#board()
  }

  #check<T>(schema: object, input: unknown): T {
    controlValidators ??= new Validators({})
    const validate = controlValidators.get(schema)
    if (!validate(input)) throw boardError.invalidInput(validate.errors ?? [], 'body', input)
    return input as T
  }

  reset(options: ResetOptions = {}): { scenario: string; seed: number; now: string } {
    this.#check(resetOptions, withoutPrototypeKeys(options, 'The reset'))
    try {
      // a path may name any .json file on the machine: its refusal says where, not what it holds
      this.board.reset(options, { redact: true })
    } catch (error) {
      if (error instanceof ScenarioError) throw boardError.invalidField(error.message, error.field)
      throw error
    }
    return { scenario: this.board.scenario.name, seed: this.board.scenario.seed, now: this.clock.now() }
  }

  readonly clock: ClockControl = {
    now: () => formatTimestamp(this.board.clock.now()),
    advance: (seconds) => {
      this.#check(advanceBody, { seconds })
      const { activity, clock } = this.board
      if (activity === undefined) clock.advance(seconds)
      // an activity's steps on the way are played each at its own time
      else activity.moveTo(inRange(clock.now() + step(seconds), 'seconds'))
      return this.clock.now()
    },
    set: (now) => {
      this.#check(setClockBody, { now })
      const { activity, clock } = this.board
      if (activity === undefined) clock.set(parseTime(now))
      else activity.moveTo(inRange(parseTime(now), 'now'))
      return this.clock.now()
    },
  }

  addCandidate(seed: CandidateSeed = {}): Candidate {
    return this.board.store.addCandidate(withoutPrototypeKeys(seed, 'The candidate', 'no field of a candidate has that name'))
  }

  addApplication(seed: ApplicationSeed = {}): Application {
    return this.board.store.addApplication(withoutPrototypeKeys(seed, 'The application', 'no field of an application has that name'))
  }

  addTimesheet(seed: TimesheetSeed = {}): Timesheet {
    return this.board.store.addTimesheet(withoutPrototypeKeys(seed, 'The timesheet', 'no field of a timesheet has that name'))
  }

  addMarketing(seed: MarketingSeed = {}): MarketingRecord {
    return this.board.store.addMarketing(withoutPrototypeKeys(seed, 'The marketing record', 'no field of a marketing record has that name'))
  }

  /** A job as job/add makes it, without the rate limit. */
  addJob(input: JobInput): StoredJob {
    return this.board.store.addJob(withoutPrototypeKeys(input, 'The job', 'no field of a job has that name'))
  }

  /** What job/fields lists now, and the values retired since the board was made. */
  jobFields(): JobFieldsView {
    const store = this.board.store
    const data = store.jobFields()
    const retired = Object.fromEntries(
      FIELD_NAMES.map((name) => [name, store.knownLists[name].filter((value) => !store.lists[name].includes(value))]),
    ) as JobFieldsView['retired']
    return { data, retired }
  }

  /**
   * Retires and adds constrained values at run time. The journal, the rate-limit windows
   * and every record stay as they are; job/add refuses a retired value from now on. A
   * value retired that is not listed, added that is, or a list left empty is refused,
   * naming the field, and nothing changes.
   */
  changeJobFields(input: JobFieldsChange): JobFieldsView {
    const change = this.#check<JobFieldsChange>(jobFieldsChange, withoutPrototypeKeys(input, 'The change'))
    const store = this.board.store
    const next = nextFieldValues(store, change)
    store.setFieldValues(next)
    return this.jobFields()
  }

  /** What the activity has played and what is left; undefined when the fake plays none. */
  activity(): ActivityStatus | undefined {
    return this.board.activity?.status()
  }

  requests(path?: string): JournalEntry[] {
    if (path !== undefined) this.#check(journalQuery, { path })
    return this.board.journal.list(path)
  }

  clearRequests(): void {
    this.board.journal.clear()
  }

  /** The verdict on the client's requests since the journal was last emptied; of one API user with `user`. */
  verdict(options: { user?: string } = {}): DetailedVerdict {
    this.#check(verdictQuery, withoutPrototypeKeys(options, 'The verdict query'))
    const evaluator = this.board.verdict
    if (!evaluator) throw boardError.invalidField('The verdict is off: start the fake with the verdict on (--verdict on) to have the client judged.', 'verdict')
    return evaluator.verdict(options.user)
  }

  /** The copy-in-step oracle: a client's copy of lists, judged; the result joins the verdict. Changes nothing on the board. */
  judgeCopy(copy: CopyBody, options: { user?: string } = {}): CopyAnswer {
    this.#check(verdictQuery, withoutPrototypeKeys(options, 'The verdict query'))
    const body = this.#check<CopyBody>(copyBody, withoutPrototypeKeys(copy, 'The copy', 'no field of a copy has that name'))
    return judgeCopy(boardTruth(this.board), this.board.verdict, body, options.user)
  }

  addFault(input: FaultInput): ArmedFault {
    const fault = this.#check<FaultInput>(faultBody, withoutPrototypeKeys(input, 'The fault'))
    for (const name of Object.keys(fault.headers ?? {})) {
      if (FRAMING_HEADERS.has(name.toLowerCase())) {
        throw boardError.invalidField(`The header ${name} (field headers.${name}) frames the HTTP message; a fault may not set it.`, `headers.${name}`)
      }
    }
    if (fault.body !== undefined) {
      let text: string | undefined
      try {
        text = valueNestsDeeper(fault.body) ? undefined : JSON.stringify(fault.body)
      } catch {
        text = undefined
      }
      if (text === undefined || text.length > MAX_FAULT_BODY) {
        throw boardError.invalidField(
          'The body (field body) is invalid: it must be JSON of at most 1 MiB, nested at most 64 levels deep.',
          'body',
        )
      }
      // armed as a copy: a caller changing its object later does not change the fault
      return this.board.faults.add({ ...fault, body: JSON.parse(text) as unknown })
    }
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

  /** The board as a saved state, full or compact; the API credentials only when asked for. */
  exportState(options: ExportOptions & { form: 'compact' }): CompactBoardState
  exportState(options?: ExportOptions & { form?: 'full' }): BoardState
  exportState(options?: ExportOptions): SavedBoard
  exportState(options: ExportOptions = {}): SavedBoard {
    const view = this.#stateView(options)
    return { ...view, store: structuredClone(view.store) } as SavedBoard
  }

  /**
   * The saved state as JSON text in pieces, the same text as JSON.stringify(exportState())
   * gives: a board too large for one string (the large scenario's, about 1.1 GiB) is
   * still saved, and never held twice in memory.
   */
  *exportJson(options: ExportOptions = {}): Generator<string> {
    const { store, ...head } = this.#stateView(options)
    const top = JSON.stringify(head)
    yield `${top.slice(0, -1)},"store":`
    // the store's lists (and the compact form's written lists, a level further down) go piece by piece
    yield* jsonPieces(store, 'written' in store ? 3 : 2)
    yield '}'
  }

  #stateView({ credentials = false, form = 'full' }: ExportOptions): SavedBoard {
    const board = this.board
    const fields = board.store.savedFieldValues()
    const { credentials: secret, ...scenario } = structuredClone(board.scenario) as BoardState['scenario']
    const head = {
      format: 'jobboard-kit/state',
      version: 1,
      scenario: (credentials ? { ...scenario, credentials: secret } : scenario) as BoardState['scenario'],
      clock: { now: this.clock.now() },
      // values changed at run time: what the records may hold, and what job/fields lists
      ...(fields === undefined ? {} : { jobFields: fields }),
    } as const
    return form === 'compact' ? { ...head, form: 'compact', store: board.store.compactView() } : { ...head, store: board.store.stateView() }
  }

  /**
   * Replaces the board with a saved one; a state that does not validate changes nothing.
   * A state saved without credentials keeps the credentials the board has now.
   */
  importState(state: unknown): void {
    const head = state as Partial<BoardState> & { form?: unknown } | null
    if (head === null || typeof head !== 'object' || head.format !== 'jobboard-kit/state') {
      throw boardError.invalidField('The state is invalid: it must be what GET /__mock/state answers (format "jobboard-kit/state").', 'format')
    }
    if (valueNestsDeeper(state)) throw boardError.invalidField('The state is invalid: it nests deeper than 64 levels.', '')
    withoutPrototypeKeys(state, 'The state', 'no field of a saved board has that name')
    const given = head.scenario as Record<string, unknown> | undefined
    const withCredentials =
      given !== null && typeof given === 'object' && !Array.isArray(given) && !('credentials' in given)
        ? { ...given, credentials: structuredClone(this.board.scenario.credentials) }
        : given
    let scenario: LoadedScenario
    try {
      scenario = parseScenario(withCredentials, 'The state\'s scenario', { compiled: this.board.compiled })
    } catch (error) {
      if (error instanceof ScenarioError) throw boardError.invalidField(error.message, `scenario${error.field ? `.${error.field}` : ''}`)
      throw error
    }
    // the values changed at run time, checked first: the records are checked against every value listed
    const fields = (head as { jobFields?: unknown }).jobFields
    if (fields !== undefined) this.#check(savedFieldsOuter, { jobFields: fields })
    // the records are checked against the lists and extra fields of the scenario they were made under
    const lists = withKnownValues(boardLists(scenario), fields as JobFieldsState | undefined)
    const extra = scenario.behaviour.extraFields
    const compact = head.form === 'compact'
    const validate = this.board.compiled.get(`${compact ? 'compact ' : ''}state ${JSON.stringify(lists)} ${JSON.stringify(extra)}`, () =>
      createAjv({ ownSchemas: true, fewCalls: true }).compile(
        bindFieldValues(compact ? compactStateWithExtraFields(compactBoardState, extra) : stateWithExtraFields(boardState, extra), lists),
      ),
    )
    const checked = { ...head, scenario: withCredentials }
    if (!validate(checked)) throw boardError.invalidInput(validate.errors ?? [], 'body', checked, 'The state is invalid: ')
    const valid = checked as SavedBoard
    try {
      this.board.restore(scenario, parseTime(valid.clock.now), valid.store, valid.jobFields)
    } catch (error) {
      // links that do not hold (an application of a candidate that is not there) surface here,
      // and, for a compact state, a scenario whose board cannot be generated (no candidates to apply)
      if (error instanceof ScenarioError) {
        const field = `scenario${error.field ? `.${error.field}` : ''}`
        throw boardError.invalidField(`The state's scenario is invalid (field ${field}): ${error.message}`, field)
      }
      if (error instanceof BoardInputError) throw boardError.invalidField(`The state is invalid: ${error.message}`, error.field)
      if (error instanceof BoardError) throw boardError.invalidField(`The state is invalid: ${error.message}`, 'store')
      throw error
    }
  }
}

export type { Page }
