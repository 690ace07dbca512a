// The board: every record of one fake instance, its indexes, and the operations the
// routes and the control API call. Reads page from indexes; writes validate the record
// against its schema, keep the links between records and the metrics in step, and
// never leave a half-made change behind (each builds its records before storing any).
import {
  application,
  applicationSeed,
  candidate,
  candidateSeed,
  id as idSchema,
  jobInput,
  marketingRecord,
  marketingSeed,
  storedFile,
  storedJob,
  timesheet,
  timesheetSeed,
} from '../../schemas/index.js'
import { FIELD_NAMES, MARKETING_ACTIONS, splitIndustry, UK_LOCATIONS, type FieldValues } from '../../schemas/values.js'
import type { Clock } from '../core/clock.js'
import { BoardError, boardError } from '../core/errors.js'
import { createFaker, hash32, reseedableFaker } from '../core/random.js'
import { filePieces } from './files.js'
import type { DeepReadonly } from '../core/freeze.js'
import { boardLists, CompiledSchemas, type LoadedScenario } from '../scenario.js'
import { addMonth, formatMinute, formatTimestamp, monthOfTimestamp, parseTime, sinceToTimestamp, styledMonth } from '../core/time.js'
import type {
  Application,
  ApplicationSeed,
  Candidate,
  CandidateSeed,
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
} from '../core/types.js'
import { Validators } from '../core/validation.js'
import { extraValues, withExtraFields, type ExtraFieldRecord } from '../extra-fields.js'
import { Collection, type BaseRecords, type IdList } from './collection.js'
import { checkLinks } from './integrity.js'
import { oldestFirst, pageOf, type Page } from './pages.js'
import { generateBoard, RecordMaker, type BoardLists, type CandidateBase, type GeneratedBoard } from './generate.js'
import type { MakerContext } from './maker.js'
import { idsOf } from './relations.js'
import { DEFAULT_ORIGIN, links as makeLinks, type FileKind, type Links } from './links.js'
import { COUNTED_METRICS, Metrics } from './metrics.js'
import { applicationEntry, consentEntryOf, fileEntry, optedIn, timesheetEntry, vacancyOf } from './views.js'

const [APPROVED, REVOKED] = MARKETING_ACTIONS
const MAX_ID = idSchema.maximum

export type { Page }

export type { ListQuery }

/** A file to download: its original name and size, and its content on demand, in pieces. */
export interface Download {
  filename: string
  size: number
  chunks(): Iterable<Buffer>
}

export type JobOperation = 'close' | 'expire' | 'repost' | 'delete'

/** What a job page shows: the job and its state at the store's current time. */
export interface JobView {
  job: StoredJob
  state: StoredJob['state']
}

export { boardLists }

export interface GenerateOptions {
  /** Hears the share of the build done (0..1), now and then: for a progress bar. */
  progress?: (share: number) => void
}

export class Store {
  readonly scenario: LoadedScenario
  readonly lists: BoardLists
  readonly locations: readonly DeepReadonly<PredefinedLocation>[]
  /** Links on the store's own origin: the public base URL, or the CLI's default address. */
  readonly links: Links
  readonly clock: Clock
  readonly validators: Validators

  readonly jobs: Collection<StoredJob>
  readonly candidates: Collection<Candidate>
  readonly applications: Collection<Application>
  readonly timesheets: Collection<Timesheet>
  readonly marketing: Collection<MarketingRecord>
  readonly files: Record<'resume' | 'document', Collection<StoredFile>>
  metrics: Metrics

  /** The generated board under the written records, if this board was generated. */
  #generated: GeneratedBoard | undefined
  /** The candidate of each written application, by application id. */
  readonly #applicationCandidate = new Map<number, number>()
  /** Written applications by job, ascending. */
  readonly #applicationsByJob = new Map<number, number[]>()
  readonly #attachmentSizes = new Map<number, number>()
  /** E-mails of written candidates; a generated e-mail names its candidate (GeneratedBoard.emailOwner). */
  readonly #candidateByEmail = new Map<string, number>()
  readonly #deletedJobs = new Set<number>()
  #nextJobId = 1
  #adds = 0

  private constructor(scenario: LoadedScenario, clock: Clock, compiled: CompiledSchemas) {
    this.scenario = scenario
    this.clock = clock
    this.lists = boardLists(scenario)
    this.locations = scenario.predefinedLocations ?? UK_LOCATIONS
    this.links = makeLinks(scenario.publicBaseUrl ?? DEFAULT_ORIGIN)
    const lists = this.lists
    this.validators = compiled.get(`validators ${JSON.stringify(lists)}`, () => new Validators(lists))
    const since = scenario.behaviour.sinceField
    const v = (schema: object) => this.validators.get(schema)
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
  }

  /**
   * A board generated from a scenario and its seed: its relations are drawn now, its
   * records made when a request needs them. `progress` hears the share done (0..1).
   */
  static generate(scenario: LoadedScenario, clock: Clock, compiled = new CompiledSchemas(), options: GenerateOptions = {}): Store {
    const store = new Store(scenario, clock, compiled)
    const progress = options.progress
    progress?.(0)
    const board = generateBoard(scenario, {
      lists: store.lists,
      locations: store.locations,
      links: store.links,
      // the end is said once, below, when the store is ready
      ...(progress ? { progress: (share: number) => progress(Math.min(0.99, share)) } : {}),
    })
    store.#generated = board
    const extra = reseedableFaker()
    const finished = <T extends object>(kind: ExtraFieldRecord, base: BaseRecords<T>): BaseRecords<T> => ({
      ...base,
      make: (id) => store.#finish(kind, base.make(id), () => extra.seed(scenario.seed, 'extra-fields', kind, id)),
    })
    store.jobs.setBase(board.jobs)
    store.candidates.setBase(finished('candidate', board.candidates))
    store.applications.setBase(finished('application', board.applications))
    store.timesheets.setBase(finished('timesheet', board.timesheets))
    store.marketing.setBase(finished('marketing', board.marketing))
    store.files.resume.setBase(board.files.resume)
    store.files.document.setBase(board.files.document)
    for (const [id, size] of board.relations.applications.attachmentSizes) store.#attachmentSizes.set(id, size)
    store.metrics = board.metrics
    store.#nextJobId = store.jobs.lastId + 1
    progress?.(1)
    return store
  }

  /** A board restored from exportState(). */
  static restore(scenario: LoadedScenario, clock: Clock, state: StoreState, compiled = new CompiledSchemas()): Store {
    const store = new Store(scenario, clock, compiled)
    store.#load(state)
    for (const id of state.deletedJobs) store.#deletedJobs.add(id)
    store.#nextJobId = Math.max(store.#nextJobId, state.nextJobId)
    store.#adds = state.adds
    const { candidates, applications, timesheets, files, marketing } = store
    checkLinks({ candidates, applications, timesheets, files, marketing, ownerOf: (id) => store.#ownerOf(id) })
    return store
  }

  /** A copy of the whole board, for saving and for tests to change. */
  exportState(): StoreState {
    return structuredClone(this.stateView())
  }

  /**
   * The whole board as exportState() gives it, without copying the records (they are
   * frozen): what GET /__mock/state streams, record by record.
   */
  stateView(): StoreState {
    return {
      jobs: [...this.jobs.values()],
      deletedJobs: [...this.#deletedJobs].sort((a, b) => a - b),
      nextJobId: this.#nextJobId,
      candidates: [...this.candidates.values()],
      applications: [...this.applications.values()].map((record) => ({
        candidate_id: this.#ownerOf(record.id) as number,
        ...(this.#attachmentSizes.has(record.id) ? { attachment_filesize: this.#attachmentSizes.get(record.id) as number } : {}),
        record,
      })),
      timesheets: [...this.timesheets.values()],
      files: [...this.files.resume.values(), ...this.files.document.values()],
      marketing: [...this.marketing.values()],
      metrics: this.metrics.export(),
      adds: this.#adds,
    }
  }

  /** The candidate who made an application. */
  #ownerOf(applicationId: number): number | undefined {
    const written = this.#applicationCandidate.get(applicationId)
    if (written !== undefined) return written
    const generated = this.#generated?.relations.applications
    return generated && applicationId <= generated.count && this.applications.has(applicationId) ? generated.candidate[applicationId - 1] : undefined
  }

  /** The candidate with this e-mail, if any. */
  #emailOwner(email: string): number | undefined {
    const written = this.#candidateByEmail.get(email)
    if (written !== undefined) return written
    const generated = this.#generated?.emailOwner(email)
    return generated !== undefined && this.candidates.get(generated)?.email === email ? generated : undefined
  }

  #makerContext(faker: ReturnType<typeof createFaker>): MakerContext {
    return { faker, lists: this.lists, locations: this.locations, links: this.links, mix: this.scenario.mix }
  }

  /**
   * A record as this board writes it: with its extra fields (made from `faker` where it
   * lacks them) and, for a candidate, its month name in the board's style.
   */
  #finish<T extends object>(kind: ExtraFieldRecord, record: T, faker: () => ReturnType<typeof createFaker>): T {
    const fields = this.scenario.behaviour.extraFields[kind]
    const style = this.scenario.behaviour.monthNames
    const name = 'available_from_month' in record ? (record.available_from_month as string) : undefined
    const month = name !== undefined && styledMonth(name, style) !== name ? { available_from_month: styledMonth(name, style) } : {}
    const extra = fields && Object.keys(fields).some((name) => !(name in record)) ? extraValues(record, fields, faker()) : {}
    return Object.keys(month).length + Object.keys(extra).length === 0 ? record : { ...record, ...month, ...extra }
  }

  /** One faker for the extra fields of a whole board being loaded, made only if needed. */
  #loadFaker(): () => ReturnType<typeof createFaker> {
    let faker: ReturnType<typeof createFaker> | undefined
    return () => (faker ??= createFaker(hash32(this.scenario.seed, 'extra-fields')))
  }

  /** The faker for the extra fields of the record being added now (after #maker() counted the add). */
  #addFaker(): () => ReturnType<typeof createFaker> {
    return () => createFaker(hash32(this.scenario.seed, 'extra-fields', this.#adds))
  }

  /** A saved board's records, all written: each validated as it is stored. */
  #load(data: StoreState): void {
    const faker = this.#loadFaker()
    this.jobs.load(data.jobs.map((j) => [j.id, j] as const))
    this.#nextJobId = this.jobs.lastId + 1
    this.candidates.load(data.candidates.map((c) => [c.id, this.#finish('candidate', c, faker)] as const))
    for (const c of data.candidates) this.#candidateByEmail.set(c.email, c.id)
    this.applications.load(data.applications.map(({ record }) => [record.id, this.#finish('application', record, faker)] as const))
    for (const a of data.applications) {
      this.#applicationCandidate.set(a.record.id, a.candidate_id)
      if (a.attachment_filesize !== undefined) this.#attachmentSizes.set(a.record.id, a.attachment_filesize)
    }
    for (const a of this.applications.values()) this.#indexApplication(a)
    const resumes = data.files.filter((f) => f.kind === 'resume')
    const documents = data.files.filter((f) => f.kind === 'document')
    this.files.resume.load(resumes.map((f) => [f.id, f] as const))
    this.files.document.load(documents.map((f) => [f.id, f] as const))
    this.timesheets.load(data.timesheets.map((t) => [t.id, this.#finish('timesheet', t, faker)] as const))
    this.marketing.load(data.marketing.map((m, i) => [i + 1, this.#finish('marketing', m, faker)] as const))
    this.metrics = Metrics.import(data.metrics)
  }

  #indexApplication(a: Application): void {
    let ids = this.#applicationsByJob.get(a.vacancy.id)
    if (!ids) {
      ids = []
      this.#applicationsByJob.set(a.vacancy.id, ids)
    }
    ids.push(a.id)
  }

  /** The current time as a timestamp. */
  now(): string {
    return formatTimestamp(this.clock.now())
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
      const generated = this.#generated?.relations.jobApplications
      const written = this.#applicationsByJob.get(vacancy) ?? []
      const all = generated ? [...idsOf(generated, vacancy)] : []
      if (written.length > 0) all.push(...written.filter((id) => !all.includes(id)))
      if (written.length > 0) all.sort((a, b) => a - b)
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
    const make = (filename: string, size: number, key: string, label: string, createdAt: string): Download => ({
      filename,
      size,
      chunks: () => filePieces({ seed, key, id, filename, size, label: `${label}: ${filename}`, createdAt }),
    })
    if (kind === 'attachment') {
      const found = this.applications.get(id)
      if (!found) throw boardError.notFound('Application attachment', id)
      const size = this.#attachmentSizes.get(id) ?? 3_000 + (hash32(seed, 'attachment-size', id) % 397_000)
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
    return jobs.version + candidates.version + applications.version + timesheets.version + marketing.version + files.resume.version + files.document.version
  }

  #metricsMemo: { revision: number; month: string; metrics: Metrics; answer: Metric[] } | undefined

  /** The metrics/list `metrics`, computed once per revision and month. */
  metricsAnswer(): Metric[] {
    const month = monthOfTimestamp(this.now())
    const revision = this.revision
    const memo = this.#metricsMemo
    if (memo?.revision === revision && memo.month === month && memo.metrics === this.metrics) return memo.answer
    const answer = this.metrics.answer(month, this.scenario.behaviour.monthNames)
    this.#metricsMemo = { revision, month, metrics: this.metrics, answer }
    return answer
  }

  /** The job/fields `data`: the current value of every constrained list. */
  jobFields(): FieldValues {
    return Object.fromEntries(FIELD_NAMES.map((name) => [name, [...this.lists[name]]])) as unknown as FieldValues
  }

  // ---- jobs --------------------------------------------------------------------

  /**
   * A job's state now: closed (unpublished) once its closing date passes when it closes
   * automatically, expired once its expiry date passes (docs/behaviour.md).
   */
  jobState(job: StoredJob): StoredJob['state'] {
    const now = this.now()
    if (job.state === 'unpublished') return 'unpublished'
    if (job.close_automatically === 1 && job.closing_date !== undefined && `${job.closing_date}:00` <= now) return 'unpublished'
    if (job.state === 'expired') return 'expired'
    if (job.expiry_date !== undefined && `${job.expiry_date}:00` <= now) return 'expired'
    return 'published'
  }

  /** The job behind a public page, or undefined for one never made or deleted. */
  jobView(id: number): JobView | undefined {
    const job = this.jobs.get(id)
    return job && { job, state: this.jobState(job) }
  }

  #liveJob(id: number): StoredJob {
    const job = this.jobs.get(id)
    if (job) return job
    if (this.#deletedJobs.has(id)) throw new BoardError('NOT_FOUND', `Job ${id} has been deleted.`)
    throw boardError.notFound('Job', id)
  }

  /** job/add and the control API's job add: the input is checked against job/add's schema first. */
  addJob(given: JobInput): StoredJob {
    const input = this.#check<JobInput>(jobInput, given)
    const now = this.now()
    const id = this.#nextJobId
    const { sector, subSector } = splitIndustry(input.job_industry, this.lists.job_industry)
    const place = this.locations.find((l) => l.name === input.job_location)
    const job = this.jobs.insert(id, {
      ...input,
      ...(input.job_latitude === undefined && place ? { job_latitude: place.latitude, job_longitude: place.longitude } : {}),
      id,
      sector,
      sub_sector: subSector ?? '',
      state: input.published === 1 ? 'published' : 'unpublished',
      created_at: now,
      updated_at: now,
    })
    this.#nextJobId = id + 1
    this.metrics.add(COUNTED_METRICS.jobs, monthOfTimestamp(now))
    this.metrics.add('Job submissions', monthOfTimestamp(now))
    return job
  }

  /** close, expire, repost or delete; throws 404 for a job that does not exist (any more). */
  applyJobOperation(operation: JobOperation, id: number, closingDate?: string): StoredJob {
    const job = this.#liveJob(id)
    const now = this.now()
    const state = this.jobState(job)
    switch (operation) {
      case 'delete':
        this.jobs.delete(id)
        this.#deletedJobs.add(id)
        return job
      case 'close':
        return this.jobs.replace(id, { ...job, published: 0, state: 'unpublished', updated_at: now })
      case 'expire':
        // a closed job stays closed: expiring it does not bring its page back
        if (state === 'unpublished') return this.jobs.replace(id, { ...job, updated_at: now })
        return this.jobs.replace(id, { ...job, state: 'expired', expiry_date: formatMinute(this.clock.now()), updated_at: now })
      case 'repost': {
        const closing = closingDate ?? formatMinute(addMonth(this.clock.now(), 1))
        const expiry = closingDate ?? formatMinute(addMonth(this.clock.now(), 1))
        return this.jobs.replace(id, { ...job, published: 1, state: 'published', closing_date: closing, expiry_date: expiry, updated_at: now })
      }
    }
  }

  // ---- records added by a test (control API) ----------------------------------

  /**
   * The gate of every add: the input must fit its schema (with this board's lists)
   * before anything is made, or a BoardInputError names the field and nothing changes.
   */
  #check<T>(schema: object, input: unknown): T {
    const validate = this.validators.get(schema)
    if (!validate(input)) throw boardError.invalidInput(validate.errors ?? [], 'body', input)
    // the timestamp format reads any year; a record before the epoch would stretch the metrics back centuries
    const created = (input as { created_at?: string }).created_at
    if (created !== undefined && parseTime(created) < 0) {
      throw boardError.invalidField(`The created at (field created_at) is invalid: "${created}" lies before 1970.`, 'created_at')
    }
    return input as T
  }

  /**
   * A record maker whose faker is seeded by the number of adds, so an imported board goes
   * on the same way. The count moves only when an add succeeds (#added), so a refused add
   * leaves the saved board as it was.
   */
  #maker(): RecordMaker {
    return new RecordMaker(this.#makerContext(createFaker(hash32(this.scenario.seed, 'add', this.#adds + 1))))
  }

  #added<T>(record: T): T {
    this.#adds += 1
    return record
  }

  #candidateOrThrow(id: number | undefined, maker: RecordMaker): Candidate {
    if (id !== undefined) {
      const found = this.candidates.get(id)
      if (!found) throw boardError.controlConflict(`Candidate ${id} does not exist.`, 'candidate_id')
      return found
    }
    if (this.candidates.size === 0) throw boardError.controlConflict('The board has no candidate yet: add one first.', 'candidate_id')
    const at = maker.int(0, this.candidates.size - 1)
    return this.candidates.get(this.candidates.all().slice(at, at + 1)[0] as number) as Candidate
  }

  /** The id a new record gets: the one asked for if free, else the next after the highest. */
  #newId(collection: Pick<Collection<object>, 'has' | 'lastId'>, asked: number | undefined, what: string): number {
    if (asked !== undefined) {
      if (collection.has(asked)) throw boardError.controlConflict(`${what} ${asked} exists already.`, 'id')
      return asked
    }
    const next = collection.lastId + 1
    if (next > MAX_ID) throw boardError.controlConflict(`No ${what.toLowerCase()} id is left after ${collection.lastId}.`, 'id')
    return next
  }

  #touch(c: Candidate, change: Partial<Candidate>): Candidate {
    return this.candidates.replace(c.id, { ...c, ...change, updated_at: this.now() })
  }

  addCandidate(input: CandidateSeed = {}): Candidate {
    const seed = this.#check<CandidateSeed>(candidateSeed, input)
    const maker = this.#maker()
    const { resumes = [], documents = [], ...fields } = seed
    const id = this.#newId(this.candidates, fields.id, 'Candidate')
    const createdMs = fields.created_at ? parseTime(fields.created_at) : this.clock.now()
    const base: CandidateBase = maker.candidate(id, createdMs, this.clock.now(), fields)
    if (this.#emailOwner(base.email) !== undefined) throw boardError.controlConflict(`A candidate with e-mail ${base.email} exists already.`, 'email')
    const made = (kind: 'resume' | 'document', seeds: typeof resumes) =>
      seeds.map((s, i) => maker.file(kind, this.#newId(this.files[kind], undefined, 'File') + i, base, createdMs, s))
    const newResumes = made('resume', resumes)
    const newDocuments = made('document', documents)
    const record: Candidate = {
      ...base,
      timesheets: [],
      resumes: newResumes.reverse().map((f) => fileEntry(f, this.links)),
      documents: newDocuments.reverse().map((f) => fileEntry(f, this.links)),
      applications: [],
      consent: [],
      marketing_opted_in: 0,
    }
    const stored = this.candidates.insert(record.id, this.#finish('candidate', record, this.#addFaker()))
    for (const f of [...newResumes, ...newDocuments]) this.files[f.kind as 'resume' | 'document'].insert(f.id, f)
    this.#candidateByEmail.set(stored.email, stored.id)
    this.metrics.add(COUNTED_METRICS.candidates, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }

  addApplication(input: ApplicationSeed = {}): Application {
    const seed = this.#check<ApplicationSeed>(applicationSeed, input)
    const maker = this.#maker()
    const owner = this.#candidateOrThrow(seed.candidate_id, maker)
    let job: StoredJob | undefined
    if (seed.job_id !== undefined) {
      job = this.jobs.get(seed.job_id)
      if (!job) throw boardError.controlConflict(`Job ${seed.job_id} does not exist${this.#deletedJobs.has(seed.job_id) ? ' any more' : ''}.`, 'job_id')
    } else {
      const ids = this.jobs.all()
      if (ids.length === 0) throw boardError.controlConflict('The board has no job yet: add one first.', 'job_id')
      const at = maker.int(0, ids.length - 1)
      job = this.jobs.get(ids.slice(at, at + 1)[0] as number)
    }
    const id = this.#newId(this.applications, seed.id, 'Application')
    const createdMs = seed.created_at ? parseTime(seed.created_at) : this.clock.now()
    const record = maker.application(id, createdMs, createdMs, owner, vacancyOf(job as StoredJob), seed)
    const stored = this.applications.insert(id, this.#finish('application', { ...record, updated_at: record.created_at }, this.#addFaker()))
    this.#applicationCandidate.set(id, owner.id)
    if (seed.attachment_filesize !== undefined) this.#attachmentSizes.set(id, seed.attachment_filesize)
    this.#indexApplication(stored)
    this.#applicationsByJob.get(stored.vacancy.id)?.sort((a, b) => a - b)
    this.#touch(owner, { applications: [applicationEntry(stored), ...owner.applications] })
    this.metrics.add(COUNTED_METRICS.applications, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }

  addTimesheet(input: TimesheetSeed = {}): Timesheet {
    const seed = this.#check<TimesheetSeed>(timesheetSeed, input)
    const maker = this.#maker()
    const owner = this.#candidateOrThrow(seed.candidate_id, maker)
    const id = this.#newId(this.timesheets, seed.id, 'Timesheet')
    const createdMs = seed.created_at ? parseTime(seed.created_at) : this.clock.now()
    const file = maker.file('timesheet', id, owner, createdMs, seed)
    const entry = timesheetEntry(file, owner, this.links)
    const stored = this.timesheets.insert(id, this.#finish('timesheet', entry, this.#addFaker()))
    this.#touch(owner, { timesheets: [fileEntry(file, this.links), ...owner.timesheets] })
    this.metrics.add(COUNTED_METRICS.timesheets, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }

  addMarketing(input: MarketingSeed = {}): MarketingRecord {
    const seed = this.#check<MarketingSeed>(marketingSeed, input)
    const maker = this.#maker()
    const byEmail = seed.email === undefined ? undefined : this.#emailOwner(seed.email)
    // id 0 means "no account": it cannot name an e-mail that has one, nor can an id disagree with its e-mail
    if (seed.candidate_id !== undefined && seed.email !== undefined && byEmail !== (seed.candidate_id || undefined)) {
      throw boardError.controlConflict(
        byEmail === undefined
          ? `Candidate ${seed.candidate_id} does not have the e-mail ${seed.email}.`
          : `${seed.email} belongs to candidate ${byEmail}: give candidate_id ${byEmail}, or leave it out.`,
        'email',
      )
    }
    const owner =
      seed.candidate_id === 0 || (seed.email !== undefined && byEmail === undefined && seed.candidate_id === undefined)
        ? undefined
        : this.#candidateOrThrow(seed.candidate_id ?? byEmail, maker)
    const last = owner?.consent[0]?.value
    const record: MarketingRecord = {
      candidate: { email: owner?.email ?? seed.email ?? maker.unknownEmail(), id: owner?.id ?? 0, ip_address: seed.ip_address ?? maker.ip() },
      action: seed.action ?? (last === APPROVED ? REVOKED : APPROVED),
      created_at: seed.created_at ?? this.now(),
    }
    const stored = this.marketing.insert(this.#newId(this.marketing, undefined, 'Marketing record'), this.#finish('marketing', record, this.#addFaker()))
    if (owner) {
      const consent = [consentEntryOf(stored), ...owner.consent].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
      this.#touch(owner, { consent, marketing_opted_in: optedIn(consent, APPROVED) })
    }
    this.metrics.add(stored.action === REVOKED ? COUNTED_METRICS.optOuts : COUNTED_METRICS.optIns, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }
}

