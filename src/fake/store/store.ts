// The board: every record of one fake instance, its indexes, and the operations the
// routes and the control API call, in one façade. The constrained values, the metrics and
// the revisions answers are kept by are here; the reads (lists, details, downloads) are
// board-reads.ts, a saved board saved-board.ts, the job lifecycle job-lifecycle.ts, the control
// API's adds adds.ts, who owns what owners.ts, each over the parts the Store holds
// (parts.ts). Writes validate the record against its schema, keep the links between
// records (relation-table.ts) and the metrics in step, and never leave a half-made change
// behind (each builds its records before storing any).
import { application, candidate, marketingRecord, storedFile, storedJob, timesheet } from '../../../schemas/index.js'
import { FIELD_NAMES, sectorDisciplinesOf, UK_LOCATIONS, type FieldName, type FieldValues } from '../../../schemas/values.js'
import type { Clock } from '../../core/clock.js'
import { boardError } from '../../core/errors.js'
import type { DeepReadonly } from '../../core/freeze.js'
import { boardLists, CompiledSchemas, type BoardLists, type LoadedScenario } from '../scenario.js'
import { addMonth, formatTimestamp, monthKey, parseTime } from '../../core/time.js'
import type {
  Application,
  ApplicationSeed,
  Candidate,
  CandidateSeed,
  CandidateUpdate,
  CompactStoreState,
  JobFieldsState,
  JobInput,
  MarketingRecord,
  MarketingSeed,
  ListQuery,
  PredefinedLocation,
  Metric,
  StoreState,
  StoredFile,
  StoredJob,
  Timesheet,
  TimesheetSeed,
} from '../../core/types.js'
import { Validators } from '../../core/validation.js'
import { withExtraFields } from './extra-fields.js'
import { RecordAdds } from './adds.js'
import { Collection } from './collection.js'
import { JobLifecycle, type JobOperation, type JobView } from './job-lifecycle.js'
import type { Page } from './pages.js'
import { SavedBoard } from './saved-board.js'
import { BoardReads, type Download } from './board-reads.js'
import { sharedBoard } from './shared.js'
import { Owners } from './owners.js'
import { DEFAULT_ORIGIN, links as makeLinks, type FileKind, type Links } from './record-links.js'
import { extraMetrics, Metrics } from './metric-counts.js'
import type { BoardParts } from './parts.js'

export type { Page }

export type { ListQuery }

export type { Download }

export type { JobOperation, JobView }

export { boardLists }

export interface GenerateOptions {
  /** Hears the share of the build done (0..1), now and then: for a progress bar. */
  progress?: (share: number) => void
}

/**
 * The compiled validators' key of a frozen set of lists (the shared board's, read by every
 * account over it), made once: its text is long, and a kept string is hashed once. Weak,
 * and a pure function of the frozen lists: no caller sees another's use of it.
 */
const VALIDATORS_KEYS = new WeakMap<BoardLists, string>()

function validatorsKey(lists: BoardLists): string {
  let key = VALIDATORS_KEYS.get(lists)
  if (key === undefined) {
    key = `validators ${JSON.stringify(lists)}`
    if (Object.isFrozen(lists)) VALIDATORS_KEYS.set(lists, key)
  }
  return key
}

export class Store implements BoardParts {
  readonly scenario: LoadedScenario
  /** The constrained values job/fields gives and job/add takes now (changeFieldValues changes them). */
  #lists: BoardLists
  /** Every value the board has listed since it was made: what its records may hold. */
  #known: BoardLists
  #validators: Validators
  #recordValidators: Validators
  readonly #compiled: CompiledSchemas
  /** Bumped when the constrained values change: job/fields answers made before are stale. */
  #fieldsVersion = 0
  readonly locations: readonly DeepReadonly<PredefinedLocation>[]
  /** Links on the store's own origin: the public base URL, or the CLI's default address. */
  readonly links: Links
  readonly clock: Clock

  readonly jobs: Collection<StoredJob>
  readonly candidates: Collection<Candidate>
  readonly applications: Collection<Application>
  readonly timesheets: Collection<Timesheet>
  readonly marketing: Collection<MarketingRecord>
  readonly files: Record<'resume' | 'document', Collection<StoredFile>>
  metrics: Metrics

  /** Who owns what where a record does not say it: the generated relations and the written links. */
  readonly #owners: Owners
  readonly #lifecycle: JobLifecycle
  readonly #adds: RecordAdds
  /** The board saved and restored (saved-board.ts). */
  readonly #saved: SavedBoard
  /** Lists, records by id, downloads (board-reads.ts). */
  readonly #reads: BoardReads
  /** Whether the records lie over a board generated from the scenario and seed (not a restored full state). */
  #generated = false
  /** Records that may be written or deleted over the generated board before a write is refused (the `maxChanges` option). */
  #maxChanges = Number.POSITIVE_INFINITY
  /** The shared generated board under this one (src/fake/store/shared.ts), and the revision at which nothing was written over it yet. */
  #shared: { board: object; revision: number } | undefined

  private constructor(scenario: LoadedScenario, clock: Clock, compiled: CompiledSchemas, lists = boardLists(scenario)) {
    this.scenario = scenario
    this.clock = clock
    this.#lists = lists
    this.#known = this.#lists
    this.#compiled = compiled
    this.locations = scenario.predefinedLocations ?? UK_LOCATIONS
    this.links = makeLinks(scenario.publicBaseUrl ?? DEFAULT_ORIGIN)
    this.#validators = this.#validatorsOf(this.#lists)
    this.#recordValidators = this.#validators
    const since = scenario.behaviour.sinceField
    // records are held to every value ever listed: one made with a value retired since stays as it was
    const v = (schema: object) => () => this.#recordValidators.get(schema)
    // records carry the board's extra fields (behaviour.extraFields), and must: validated like the rest
    const extra = scenario.behaviour.extraFields
    this.jobs = new Collection<StoredJob>('jobs', v(storedJob), (r) => r.created_at)
    this.candidates = new Collection<Candidate>('candidates', v(withExtraFields(candidate, extra.candidate)), (r) => r[since])
    this.applications = new Collection<Application>('applications', v(withExtraFields(application, extra.application)), (r) => r[since])
    this.timesheets = new Collection<Timesheet>('timesheets', v(withExtraFields(timesheet, extra.timesheet)), (r) => r.created_at)
    this.marketing = new Collection<MarketingRecord>('marketing', v(withExtraFields(marketingRecord, extra.marketing)), (r) => r.created_at, 'time')
    this.files = {
      resume: new Collection<StoredFile>('resumes', v(storedFile), (r) => r.created_at),
      document: new Collection<StoredFile>('documents', v(storedFile), (r) => r.created_at),
    }
    this.metrics = new Metrics()
    this.#owners = new Owners(this)
    this.#lifecycle = new JobLifecycle(this)
    this.#adds = new RecordAdds(this, this.#owners, this.#lifecycle)
    this.#saved = new SavedBoard(this, this.#owners, this.#lifecycle, this.#adds)
    this.#reads = new BoardReads(this, this.#owners)
  }

  #validatorsOf(lists: BoardLists): Validators {
    return this.#compiled.get(validatorsKey(lists), () => new Validators(lists))
  }

  get lists(): BoardLists {
    return this.#lists
  }

  /** Validators of inputs (job/add, the adds' seeds), bound to the values listed now. */
  get validators(): Validators {
    return this.#validators
  }

  /** Every value listed since the board was made (current and retired): what records and answers may hold. */
  get knownLists(): BoardLists {
    return this.#known
  }

  /**
   * The constrained values from now on: job/fields lists them and job/add takes only
   * them. Records keep the values they were made with (they are held to every value
   * ever listed), and the journal and rate-limit windows are not touched.
   */
  setFieldValues(values: FieldValues): void {
    const lists: BoardLists = { ...this.#lists, ...values, sector_disciplines: sectorDisciplinesOf(values.job_industry) }
    const union = (a: readonly string[], b: readonly string[]) => [...a, ...b.filter((value) => !a.includes(value))]
    const known = { ...this.#known } as Record<string, readonly string[]>
    for (const name of [...FIELD_NAMES, 'sector_disciplines'] as Array<FieldName | 'sector_disciplines'>) known[name] = union(this.#known[name], lists[name])
    this.#lists = lists
    this.#known = known as BoardLists
    this.#validators = this.#validatorsOf(lists)
    this.#recordValidators = this.#validatorsOf(this.#known)
    for (const collection of [this.jobs, this.candidates, this.applications, this.timesheets, this.marketing, this.files.resume, this.files.document]) {
      collection.forgetValidator()
    }
    this.#fieldsVersion += 1
  }

  /** The values changed at run time, as a saved board keeps them; undefined while they are the scenario's. */
  savedFieldValues(): JobFieldsState | undefined {
    if (this.#fieldsVersion === 0) return undefined
    const pick = (lists: BoardLists, names: readonly string[]) => Object.fromEntries(names.map((name) => [name, [...(lists as Record<string, readonly string[]>)[name] ?? []]]))
    return {
      current: pick(this.#lists, FIELD_NAMES) as JobFieldsState['current'],
      known: pick(this.#known, [...FIELD_NAMES, 'sector_disciplines']) as JobFieldsState['known'],
    }
  }

  /** The values a saved board was changed to at run time, put back before its records are loaded. */
  #restoreFieldValues(saved: JobFieldsState | undefined): void {
    if (saved === undefined) return
    this.setFieldValues(saved.current)
    // every value listed since the board was made, values added and retired again included
    const known = { ...this.#known } as Record<string, readonly string[]>
    for (const [name, values] of Object.entries(saved.known)) known[name] = [...(known[name] ?? []), ...values.filter((value) => !known[name]?.includes(value))]
    this.#known = known as BoardLists
    this.#recordValidators = this.#validatorsOf(this.#known)
  }

  /**
   * A board generated from a scenario and its seed: its relations are drawn (once per
   * process for a scenario and seed: src/fake/store/shared.ts), its records made when a
   * request needs them; this store keeps only what is written over them. `progress`
   * hears the share done (0..1).
   */
  static generate(scenario: LoadedScenario, clock: Clock, compiled = new CompiledSchemas(), options: GenerateOptions = {}): Store {
    const progress = options.progress
    progress?.(0)
    // the end is said once, below, when the store is ready
    const { board, metrics, lists } = sharedBoard(scenario, progress ? (share: number) => progress(Math.min(0.99, share)) : undefined)
    const store = new Store(scenario, clock, compiled, lists)
    store.#owners.setGenerated(board)
    store.#generated = true
    store.jobs.setBase(board.jobs)
    store.candidates.setBase(board.candidates)
    store.applications.setBase(board.applications)
    store.timesheets.setBase(board.timesheets)
    store.marketing.setBase(board.marketing)
    store.files.resume.setBase(board.files.resume)
    store.files.document.setBase(board.files.document)
    // the store's own counts over the generated ones: its writes never reach the shared board's
    store.metrics = new Metrics(metrics)
    store.#lifecycle.startAt(store.jobs.lastId + 1)
    store.#shared = { board, revision: store.revision }
    progress?.(1)
    return store
  }

  /** A board restored from exportState(). */
  static restore(scenario: LoadedScenario, clock: Clock, state: StoreState, compiled = new CompiledSchemas(), fields?: JobFieldsState): Store {
    const store = new Store(scenario, clock, compiled)
    store.#restoreFieldValues(fields)
    store.#saved.load(state)
    return store
  }

  /**
   * A board restored from a compact saved state: generated again from its scenario and
   * seed (unless it was not generated), then its written records laid over it, each
   * validated, and the links they make checked.
   */
  static restoreCompact(scenario: LoadedScenario, clock: Clock, state: CompactStoreState, compiled = new CompiledSchemas(), fields?: JobFieldsState): Store {
    // generated with the scenario's values, as it was; the values changed at run time apply to what was written after
    const store = state.generated ? Store.generate(scenario, clock, compiled) : new Store(scenario, clock, compiled)
    store.#restoreFieldValues(fields)
    store.#saved.layOver(state)
    // its metrics, deleted ids and next job id are the saved board's, written or not: its answers are its own
    store.#shared = undefined
    return store
  }

  /** A copy of the whole board, for saving and for tests to change. */
  exportState(): StoreState {
    return structuredClone(this.stateView())
  }

  /**
   * About how many bytes the full saved state takes, from a sample of each kind's records:
   * cheap where gathering the state is not, so that a board too large to be restored is
   * refused before a minute of work and gigabytes of memory.
   */
  stateBytesEstimate(): number {
    return this.#saved.stateBytesEstimate()
  }

  /** The whole board as exportState() gives it, without copying the records (they are frozen): what GET /__mock/state streams, record by record. */
  stateView(): StoreState {
    return this.#saved.stateView()
  }

  /** What the board holds beyond the one its scenario and seed generate (GET /__mock/state?form=compact); all of it for a board restored from a full state. */
  compactView(): CompactStoreState {
    return this.#saved.compactView(this.#generated)
  }

  /** The current time as a timestamp. */
  now(): string {
    return formatTimestamp(this.clock.now())
  }

  #month = { key: '', from: 0, to: 0 }

  /**
   * The current month key (`YYYY-MM`), which metrics answers depend on. Asked on every
   * metrics request, so the key is kept while the clock stays within its month.
   */
  month(): string {
    const ms = this.clock.now()
    const kept = this.#month
    if (ms >= kept.from && ms < kept.to) return kept.key
    const key = monthKey(ms)
    const from = parseTime(`${key}-01`)
    this.#month = { key, from, to: addMonth(from) }
    return key
  }

  // ---- reads (board-reads.ts) ---------------------------------------------------

  candidateList(query: ListQuery): Page<Candidate> {
    return this.#reads.candidateList(query)
  }

  applicationList(query: ListQuery & { vacancy?: number }): Page<Application> {
    return this.#reads.applicationList(query)
  }

  timesheetList(query: ListQuery): Page<Timesheet> {
    return this.#reads.timesheetList(query)
  }

  marketingList(query: ListQuery): Page<MarketingRecord> {
    return this.#reads.marketingList(query)
  }

  candidate(id: number): Candidate {
    return this.#reads.candidate(id)
  }

  application(id: number): Application {
    return this.#reads.application(id)
  }

  /** A candidate's file, or an application's attachment (kind `attachment`, by application id). */
  download(kind: FileKind | 'attachment', id: number): Download {
    return this.#reads.download(kind, id)
  }

  /**
   * Bumped by every write to the board: an answer built at one revision stays right until
   * the next (with the month too, for metrics). Reads never move it.
   */
  get revision(): number {
    const { jobs, candidates, applications, timesheets, marketing, files } = this
    return (
      this.#fieldsVersion + jobs.version + candidates.version + applications.version + timesheets.version + marketing.version + files.resume.version + files.document.version
    )
  }

  /**
   * What an answer made from this store may be kept for: the shared generated board while
   * nothing is written over it (every store still on it answers the same bytes: every
   * account of a fake on one scenario and seed), else this store alone.
   */
  get answerScope(): object {
    const shared = this.#shared
    return shared !== undefined && shared.revision === this.revision ? shared.board : this
  }

  /** The revision an answer kept for answerScope is checked against: 0 for the shared board, which never changes. */
  get answerRevision(): number {
    const shared = this.#shared
    const revision = this.revision
    return shared !== undefined && shared.revision === revision ? 0 : revision
  }

  #metricsMemo: { revision: number; month: string; metrics: Metrics; answer: Metric[] } | undefined

  /** The metrics/list `metrics`, computed once per revision and month. */
  metricsAnswer(): Metric[] {
    const month = this.month()
    const revision = this.revision
    const memo = this.#metricsMemo
    if (memo?.revision === revision && memo.month === month && memo.metrics === this.metrics) return memo.answer
    const { monthNames, extraMetricLabels } = this.scenario.behaviour
    const answer = [...this.metrics.answer(month, monthNames), ...extraMetrics(extraMetricLabels, month, this.scenario.seed, monthNames)]
    this.#metricsMemo = { revision, month, metrics: this.metrics, answer }
    return answer
  }

  /** The job/fields `data`: the current value of every constrained list. */
  jobFields(): FieldValues {
    return Object.fromEntries(FIELD_NAMES.map((name) => [name, [...this.lists[name]]])) as unknown as FieldValues
  }

  /** Bounds what this board's writes may hold (records written or deleted over the generated ones): past it, a write is refused. */
  limitChanges(max: number): void {
    this.#maxChanges = max
  }

  /**
   * Refuses a write before it changes anything once this board's writes hold its bound of
   * records: memory stays bounded, and the refusal says which bound and how to free it.
   */
  #room(): void {
    const { jobs, candidates, applications, timesheets, marketing, files } = this
    const changes = jobs.changes + candidates.changes + applications.changes + timesheets.changes + marketing.changes + files.resume.changes + files.document.changes
    if (changes < this.#maxChanges) return
    throw boardError.invalidField(
      `The board holds ${changes} records written or deleted since it was made, its bound (maxChanges, --max-changes ${this.#maxChanges}): nothing more is written until a reset (POST /__mock/reset) drops them, or the fake is started with a higher bound.`,
      'maxChanges',
    )
  }

  // ---- jobs (src/fake/store/job-lifecycle.ts) --------------------------------------------------

  /**
   * A job's state now: closed (unpublished) once its closing date passes when it closes
   * automatically, expired once its expiry date passes (docs/behaviour.md).
   */
  jobState(job: StoredJob): StoredJob['state'] {
    return this.#lifecycle.state(job)
  }

  /** The job behind a public page, or undefined for one never made or deleted. */
  jobView(id: number): JobView | undefined {
    return this.#lifecycle.view(id)
  }

  /** job/add and the control API's job add: the input is checked against job/add's schema first. */
  addJob(given: JobInput): StoredJob {
    this.#room()
    return this.#lifecycle.add(given)
  }

  /** close, expire, repost or delete; throws 404 for a job that does not exist (any more). */
  applyJobOperation(operation: JobOperation, id: number, closingDate?: string): StoredJob {
    this.#room()
    return this.#lifecycle.apply(operation, id, closingDate)
  }

  // ---- records added by a test (control API; src/fake/store/adds.ts) ----------------

  addCandidate(input: CandidateSeed = {}): Candidate {
    this.#room()
    return this.#adds.candidate(input)
  }

  updateCandidate(input: CandidateUpdate): Candidate {
    this.#room()
    return this.#adds.updateCandidate(input)
  }

  addApplication(input: ApplicationSeed = {}): Application {
    this.#room()
    return this.#adds.application(input)
  }

  addTimesheet(input: TimesheetSeed = {}): Timesheet {
    this.#room()
    return this.#adds.timesheet(input)
  }

  addMarketing(input: MarketingSeed = {}): MarketingRecord {
    this.#room()
    return this.#adds.marketing(input)
  }
}
