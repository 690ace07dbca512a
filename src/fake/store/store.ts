// The board: every record of one fake instance, its indexes, and the operations the
// routes and the control API call, in one façade. Reads (lists, details, downloads,
// metrics, a saved board) are here; the job lifecycle is src/fake/store/jobs.ts, the control
// API's adds src/fake/store/adds.ts, who owns what src/fake/store/owners.ts. Writes validate the
// record against its schema, keep the links between records (src/fake/store/relation-table.ts)
// and the metrics in step, and never leave a half-made change behind (each builds its
// records before storing any).
import { application, candidate, marketingRecord, storedFile, storedJob, timesheet } from '../../../schemas/index.js'
import { FIELD_NAMES, sectorDisciplinesOf, UK_LOCATIONS, type FieldName, type FieldValues } from '../../../schemas/values.js'
import type { Clock } from '../../core/clock.js'
import { boardError } from '../../core/errors.js'
import { createFaker, hash32 } from '../../core/random.js'
import { filePieces } from './files.js'
import type { DeepReadonly } from '../../core/freeze.js'
import { boardLists, CompiledSchemas, type BoardLists, type LoadedScenario } from '../scenario.js'
import { addMonth, formatTimestamp, monthKey, parseTime, sinceToTimestamp } from '../../core/time.js'
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
import { withExtraFields, type ExtraFieldRecord } from './extra-fields.js'
import { RecordAdds } from './adds.js'
import { Collection, type IdList } from './collection.js'
import { checkLinks, type LinkScope } from './integrity.js'
import { JobLifecycle, type JobOperation, type JobView } from './jobs.js'
import { oldestFirst, pageOf, type Page } from './pages.js'
import { sharedBoard } from './shared.js'
import { finishRecord } from './maker.js'
import { Owners } from './owners.js'
import { DEFAULT_ORIGIN, links as makeLinks, type FileKind, type Links } from './links.js'
import { RELATION_LIST, type BoardRecords, type CollectionName } from './relation-table.js'
import { extraMetrics, Metrics } from './metrics.js'
import type { BoardParts } from './parts.js'

export type { Page }

export type { ListQuery }

/** A file to download: its original name and size, and its content on demand, in pieces. */
export interface Download {
  filename: string
  size: number
  /** What the bytes are a pure function of (seed, kind, id, name, size, label, time), as text: the same text, the same bytes. */
  identity: string
  chunks(): Iterable<Buffer>
}

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
    store.#load(state)
    store.#lifecycle.markDeleted(state.deletedJobs)
    store.#lifecycle.startAt(state.nextJobId)
    store.#adds.resume(state.adds)
    checkLinks(store.#linked(), store.#owners)
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
    store.#layOver(state)
    // its metrics, deleted ids and next job id are the saved board's, written or not: its answers are its own
    store.#shared = undefined
    return store
  }

  /** A copy of the whole board, for saving and for tests to change. */
  exportState(): StoreState {
    return structuredClone(this.stateView())
  }

  /**
   * About how many bytes the full saved state takes, from a sample of each kind's records
   * (a few, spread over the ids): cheap where gathering the state is not, so that a board
   * too large to be restored is refused before a minute of work and gigabytes of memory.
   */
  stateBytesEstimate(): number {
    const SAMPLE = 16
    const kinds: Array<Pick<Collection<object>, 'all' | 'get'>> = [this.jobs, this.candidates, this.applications, this.timesheets, this.files.resume, this.files.document, this.marketing]
    let bytes = 0
    for (const kind of kinds) {
      const ids = kind.all()
      const n = ids.length
      const picks = Math.min(SAMPLE, n)
      let size = 0
      for (let i = 0; i < picks; i++) {
        const at = Math.floor((i * n) / picks)
        const [id] = ids.slice(at, at + 1)
        size += JSON.stringify(id === undefined ? null : (kind.get(id) ?? null)).length + 1
      }
      if (picks > 0) bytes += (size / picks) * n
    }
    return Math.round(bytes)
  }

  /**
   * The whole board as exportState() gives it, without copying the records (they are
   * frozen): what GET /__mock/state streams, record by record.
   */
  stateView(): StoreState {
    return {
      jobs: [...this.jobs.values()],
      deletedJobs: this.#lifecycle.deletedIds(),
      nextJobId: this.#lifecycle.nextId,
      candidates: [...this.candidates.values()],
      applications: [...this.applications.values()].map((record) => this.#applicationEntry(record)),
      timesheets: [...this.timesheets.values()],
      files: [...this.files.resume.values(), ...this.files.document.values()],
      marketing: [...this.marketing.values()],
      metrics: this.metrics.export(),
      adds: this.#adds.count,
    }
  }

  /**
   * What the board holds beyond the one its scenario and seed generate, without copying
   * the records (they are frozen): GET /__mock/state?form=compact. A board restored from
   * a full state has no generated one under it, so all of it is written.
   */
  compactView(): CompactStoreState {
    const records = <T extends object>(collection: Collection<T>) => collection.written().map(([, record]) => record)
    return {
      generated: this.#generated,
      written: {
        jobs: records(this.jobs),
        candidates: records(this.candidates),
        applications: records(this.applications).map((record) => this.#applicationEntry(record)),
        timesheets: records(this.timesheets),
        files: [...records(this.files.resume), ...records(this.files.document)],
        marketing: this.marketing.written().map(([id, record]) => ({ id, record })),
      },
      deleted: { jobs: this.jobs.deletedIds() },
      deletedJobs: this.#lifecycle.deletedIds(),
      nextJobId: this.#lifecycle.nextId,
      metrics: this.metrics.export(),
      adds: this.#adds.count,
    }
  }

  /** A saved application: the record with its candidate and attachment size, which it does not show. */
  #applicationEntry(record: Application): StoreState['applications'][number] {
    const size = this.#owners.attachmentSize(record.id)
    return { candidate_id: this.#owners.applicantOf(record.id) as number, ...(size !== undefined ? { attachment_filesize: size } : {}), record }
  }

  /** A compact saved board's written records and deletions laid over this one; a refusal names the field. */
  #layOver(state: CompactStoreState): void {
    const { written } = state
    const deletedJobs = new Set(state.deletedJobs)
    state.deleted.jobs.forEach((id, i) => {
      const field = `store.deleted.jobs[${i}]`
      if (!this.jobs.isGenerated(id)) {
        throw boardError.invalidField(`The deleted job ${id} (field ${field}) is not a job this scenario and seed generate (or it is listed twice).`, field)
      }
      if (!deletedJobs.has(id)) throw boardError.invalidField(`The deleted job ${id} (field ${field}) is not in deletedJobs.`, field)
      this.jobs.delete(id)
    })
    const faker = this.#loadFaker()
    const finish = <T extends object>(kind: ExtraFieldRecord, record: T) => finishRecord(this.scenario.behaviour, kind, record, faker)
    /** Each written record with the field a refusal names, by collection, for the link check. */
    const laid: { [C in CollectionName]: Array<readonly [string, BoardRecords[C]]> } = {
      jobs: [],
      candidates: [],
      applications: [],
      timesheets: [],
      resumes: [],
      documents: [],
      marketing: [],
    }
    const ids = new Map<CollectionName, Set<number>>()
    const lay = <C extends CollectionName>(name: C, collection: Collection<BoardRecords[C]>, field: string, id: number, record: BoardRecords[C]) => {
      const seen = ids.get(name) ?? new Set<number>()
      ids.set(name, seen)
      if (seen.has(id)) throw boardError.invalidField(`The record (field ${field}) has the id ${id} of a record written before it.`, field)
      seen.add(id)
      laid[name].push([field, collection.lay(id, record)])
    }
    for (const [i, job] of written.jobs.entries()) lay('jobs', this.jobs, `store.written.jobs[${i}]`, job.id, job)
    this.#lifecycle.startAt(this.jobs.lastId + 1)
    written.candidates.forEach((c, i) => {
      lay('candidates', this.candidates, `store.written.candidates[${i}]`, c.id, finish('candidate', c))
      this.#owners.noteCandidate(this.candidates.get(c.id) as Candidate)
    })
    written.applications.forEach((a, i) => {
      // the generated index of a job's applications (vacancy filter) keeps the job an application was generated for
      const job = this.applications.generated(a.record.id)?.vacancy.id
      const field = `store.written.applications[${i}].record.vacancy.id`
      if (job !== undefined && job !== a.record.vacancy.id) {
        throw boardError.invalidField(`Application ${a.record.id} (field ${field}) was made for job ${job}; written over, it must keep that job.`, field)
      }
      lay('applications', this.applications, `store.written.applications[${i}]`, a.record.id, finish('application', a.record))
      this.#owners.noteApplication(a.record, a.candidate_id, a.attachment_filesize)
    })
    for (const [i, t] of written.timesheets.entries()) lay('timesheets', this.timesheets, `store.written.timesheets[${i}]`, t.id, finish('timesheet', t))
    written.files.forEach((f, i) => {
      const kind = f.kind === 'timesheet' ? undefined : f.kind
      const field = `store.written.files[${i}]`
      if (kind === undefined) throw boardError.invalidField(`The file (field ${field}.kind) is a timesheet: timesheets are saved under store.written.timesheets.`, `${field}.kind`)
      lay(kind === 'resume' ? 'resumes' : 'documents', this.files[kind], field, f.id, f)
    })
    for (const [i, { id, record }] of written.marketing.entries()) lay('marketing', this.marketing, `store.written.marketing[${i}]`, id, finish('marketing', record))
    this.metrics = Metrics.import(state.metrics)
    this.#lifecycle.markDeleted(state.deletedJobs)
    this.#lifecycle.startAt(state.nextJobId)
    this.#adds.resume(state.adds)
    checkLinks(this.#linked(), this.#owners, this.#writtenScope(laid))
  }

  #linked() {
    const { jobs, candidates, applications, timesheets, files, marketing } = this
    return { jobs, candidates, applications, timesheets, resumes: files.resume, documents: files.document, marketing }
  }

  /**
   * The records a compact board's links are checked on: its written ones, and the
   * generated owners of records written over generated ones (each must still list only
   * what is theirs). The generated board keeps its links by construction.
   */
  #writtenScope(laid: { [C in CollectionName]: Array<readonly [string, BoardRecords[C]]> }): LinkScope {
    const records = this.#linked()
    const candidates = new Map<number, readonly [string, Candidate]>(laid.candidates.map(([field, c]) => [c.id, [field, c]] as const))
    const generatedLookup = { applicantOf: (id: number) => this.#owners.generatedApplicantOf(id) }
    for (const [, relation] of RELATION_LIST) {
      if (relation.owner !== 'candidates' || !relation.mirror?.link) continue
      const collection = records[relation.child] as Collection<BoardRecords[CollectionName]>
      for (const [field, child] of laid[relation.child]) {
        const under = collection.generated((child as { id: number }).id)
        const owner = under === undefined ? undefined : relation.ownerOf(under as never, generatedLookup)
        const found = owner === undefined || candidates.has(owner) ? undefined : this.candidates.get(owner)
        if (found) candidates.set(found.id, [field, found])
      }
    }
    return {
      children: (name) => laid[name],
      candidates: () => candidates.values(),
    }
  }

  /** One faker for the extra fields of a whole board being loaded, made only if needed. */
  #loadFaker(): () => ReturnType<typeof createFaker> {
    let faker: ReturnType<typeof createFaker> | undefined
    return () => (faker ??= createFaker(hash32(this.scenario.seed, 'extra-fields')))
  }

  /** A saved board's records, all written: each validated as it is stored. */
  #load(data: StoreState): void {
    const faker = this.#loadFaker()
    const finish = <T extends object>(kind: ExtraFieldRecord, record: T) => finishRecord(this.scenario.behaviour, kind, record, faker)
    this.jobs.load(data.jobs.map((j) => [j.id, j] as const))
    this.#lifecycle.startAt(this.jobs.lastId + 1)
    this.candidates.load(data.candidates.map((c) => [c.id, finish('candidate', c)] as const))
    for (const c of data.candidates) this.#owners.noteCandidate(c)
    this.applications.load(data.applications.map(({ record }) => [record.id, finish('application', record)] as const))
    for (const a of data.applications) this.#owners.noteApplication(a.record, a.candidate_id, a.attachment_filesize)
    const resumes = data.files.filter((f) => f.kind === 'resume')
    const documents = data.files.filter((f) => f.kind === 'document')
    this.files.resume.load(resumes.map((f) => [f.id, f] as const))
    this.files.document.load(documents.map((f) => [f.id, f] as const))
    this.timesheets.load(data.timesheets.map((t) => [t.id, finish('timesheet', t)] as const))
    this.marketing.load(data.marketing.map((m, i) => [i + 1, finish('marketing', m)] as const))
    this.metrics = Metrics.import(data.metrics)
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

  // ---- reads -------------------------------------------------------------------

  #ids<T extends object>(collection: Collection<T>, since: string | undefined): IdList {
    return since === undefined ? collection.all() : collection.since(sinceToTimestamp(since))
  }

  /** A list's ids in the board's order: newest first, or oldest first (applications keep the spec's order). */
  #ordered(ids: IdList): IdList {
    return this.scenario.behaviour.listOrder === 'oldest-first' ? oldestFirst(ids) : ids
  }

  candidateList({ since, page = 1 }: ListQuery): Page<Candidate> {
    const ids = this.#ordered(this.#ids(this.candidates, since))
    const size = this.scenario.behaviour.pageCandidates ? this.scenario.pageSize : Math.max(1, ids.length)
    return pageOf(ids, page, size, (id) => this.candidates.get(id) as Candidate)
  }

  applicationList({ since, vacancy, page = 1 }: ListQuery & { vacancy?: number }): Page<Application> {
    let ids: IdList
    if (vacancy === undefined) ids = this.#ids(this.applications, since)
    else {
      const from = since === undefined ? Number.NEGATIVE_INFINITY : parseTime(sinceToTimestamp(since))
      const all = this.#owners.applicationsOf(vacancy)
      const matching: number[] = []
      for (let i = all.length - 1; i >= 0; i--) {
        const id = all[i] as number
        if (this.applications.sinceMsOf(id) >= from) matching.push(id)
      }
      ids = matching
    }
    return pageOf(ids, page, this.scenario.pageSize, (id) => this.applications.get(id) as Application)
  }

  timesheetList({ since, page = 1 }: ListQuery): Page<Timesheet> {
    return pageOf(this.#ordered(this.#ids(this.timesheets, since)), page, this.scenario.pageSize, (id) => this.timesheets.get(id) as Timesheet)
  }

  marketingList({ since, page = 1 }: ListQuery): Page<MarketingRecord> {
    return pageOf(this.#ordered(this.#ids(this.marketing, since)), page, this.scenario.pageSize, (id) => this.marketing.get(id) as MarketingRecord)
  }

  candidate(id: number): Candidate {
    const found = this.candidates.get(id)
    if (!found) throw boardError.notFound('Candidate', id)
    return found
  }

  application(id: number): Application {
    const found = this.applications.get(id)
    if (!found) throw boardError.notFound('Application', id)
    return found
  }

  /** A candidate's file, or an application's attachment (kind `attachment`, by application id). */
  download(kind: FileKind | 'attachment', id: number): Download {
    const seed = this.scenario.seed
    // the file names its record in its one line of text, so a client that opens it can tell
    const make = (filename: string, size: number, key: string, label: string, createdAt: string): Download => {
      const spec = { seed, key, id, filename, size, label: `${label}: ${filename}`, createdAt }
      return { filename, size, identity: JSON.stringify(spec), chunks: () => filePieces(spec) }
    }
    if (kind === 'attachment') {
      const found = this.applications.get(id)
      if (!found) throw boardError.notFound('Application attachment', id)
      const size = this.#owners.attachmentSize(id) ?? 3_000 + (hash32(seed, 'attachment-size', id) % 397_000)
      return make(found.applicant.attachment.filename, size, 'attachment', `Attachment of application ${id} by ${found.applicant.name}`, found.created_at)
    }
    if (kind === 'timesheet') {
      const found = this.timesheets.get(id)
      if (!found) throw boardError.notFound('Timesheet', id)
      return make(found.attachment.filename, found.attachment.filesize, 'timesheet', `Timesheet ${id} of ${found.candidate.name}`, found.created_at)
    }
    const found = this.files[kind].get(id)
    if (!found) throw boardError.notFound(kind === 'resume' ? 'Resume' : 'Document', id)
    const owner = this.candidates.get(found.candidate_id)?.name ?? `candidate ${found.candidate_id}`
    return make(found.filename, found.filesize, kind, `${kind === 'resume' ? 'Resume' : 'Document'} ${id} of ${owner}`, found.created_at)
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

  // ---- jobs (src/fake/store/jobs.ts) --------------------------------------------------

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
