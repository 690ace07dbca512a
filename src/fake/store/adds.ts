// Records a test adds through the control API: a candidate (with files), an application,
// a timesheet, a marketing record. Each input passes the gate (src/fake/store/gate.ts) before
// anything is made; a new record is attached to its owner's list through the relation
// table (src/fake/store/relation-table.ts), and the board's metrics count it. Made records
// come from a faker seeded by the number of adds, so an imported board goes on the same way.
import { applicationSeed, candidateSeed, candidateUpdate, id as idSchema, marketingSeed, timesheetSeed } from '../../../schemas/index.js'
import { MARKETING_ACTIONS } from '../../../schemas/values.js'
import { boardError } from '../../core/errors.js'
import { createFaker, hash32 } from '../../core/random.js'
import { formatTimestamp, monthOfTimestamp, parseTime } from '../../core/time.js'
import type {
  Application,
  ApplicationSeed,
  Candidate,
  CandidateSeed,
  CandidateUpdate,
  MarketingRecord,
  MarketingSeed,
  StoredJob,
  Timesheet,
  TimesheetSeed,
} from '../../core/types.js'
import type { ExtraFieldRecord } from './extra-fields.js'
import type { Collection } from './collection.js'
import { checkInput } from './gate.js'
import type { JobLifecycle } from './job-lifecycle.js'
import { finishRecord, RecordMaker, type CandidateBase } from './maker.js'
import { COUNTED_METRICS } from './metric-counts.js'
import type { Owners } from './owners.js'
import type { BoardParts } from './parts.js'
import { attached, type BoardRecords, type ListedRelation, type RELATIONS } from './relation-table.js'
import { timesheetEntry, vacancyOf } from './views.js'

const [APPROVED, REVOKED] = MARKETING_ACTIONS
const MAX_ID = idSchema.maximum

/** The parts of a board the adds read and write. */
export type AddBoard = Pick<
  BoardParts,
  'scenario' | 'lists' | 'locations' | 'links' | 'clock' | 'validators' | 'jobs' | 'candidates' | 'applications' | 'timesheets' | 'marketing' | 'files' | 'metrics' | 'now'
>

export class RecordAdds {
  #count = 0

  constructor(
    private readonly board: AddBoard,
    private readonly owners: Owners,
    private readonly lifecycle: Pick<JobLifecycle, 'isDeleted'>,
  ) {}

  /** Adds made so far: saved with the board, so an imported board seeds its next add the same. */
  get count(): number {
    return this.#count
  }

  /** Goes on from a saved board's count. */
  resume(count: number): void {
    this.#count = count
  }

  /**
   * A record maker whose faker is seeded by the number of adds, so an imported board goes
   * on the same way. The count moves only when an add succeeds (#added), so a refused add
   * leaves the saved board as it was.
   */
  #maker(): RecordMaker {
    const { scenario, lists, locations, links } = this.board
    return new RecordMaker({ faker: createFaker(hash32(scenario.seed, 'add', this.#count + 1)), lists, locations, links, mix: scenario.mix })
  }

  /** The record being added now as the board writes it (its extra fields seeded by the add's number). */
  #finish<T extends object>(kind: ExtraFieldRecord, record: T): T {
    return finishRecord(this.board.scenario.behaviour, kind, record, () => createFaker(hash32(this.board.scenario.seed, 'extra-fields', this.#count)))
  }

  #added<T>(record: T): T {
    this.#count += 1
    return record
  }

  #candidateOrThrow(id: number | undefined, maker: RecordMaker): Candidate {
    const { candidates } = this.board
    if (id !== undefined) {
      const found = candidates.get(id)
      if (!found) throw boardError.controlConflict(`Candidate ${id} does not exist.`, 'candidate_id')
      return found
    }
    if (candidates.size === 0) throw boardError.controlConflict('The board has no candidate yet: add one first.', 'candidate_id')
    const at = maker.int(0, candidates.size - 1)
    return candidates.get(candidates.all().slice(at, at + 1)[0] as number) as Candidate
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

  /** The owner, changed now, listing its new child. */
  #attach<R extends ListedRelation>(name: R, owner: Candidate, child: BoardRecords[(typeof RELATIONS)[R]['child']]): Candidate {
    return this.board.candidates.replace(owner.id, { ...owner, ...attached(name, owner, child, this.board.links), updated_at: this.board.now() })
  }

  candidate(input: CandidateSeed = {}): Candidate {
    const { board } = this
    const seed = checkInput<CandidateSeed>(board.validators, candidateSeed, input)
    const maker = this.#maker()
    const { resumes = [], documents = [], ...fields } = seed
    const id = this.#newId(board.candidates, fields.id, 'Candidate')
    const createdMs = fields.created_at ? parseTime(fields.created_at) : board.clock.now()
    const base: CandidateBase = maker.candidate(id, createdMs, board.clock.now(), fields)
    if (this.owners.emailOwner(base.email) !== undefined) throw boardError.controlConflict(`A candidate with e-mail ${base.email} exists already.`, 'email')
    const made = (kind: 'resume' | 'document', seeds: typeof resumes) =>
      seeds.map((s, i) => maker.file(kind, this.#newId(board.files[kind], undefined, 'File') + i, base, createdMs, s))
    const newResumes = made('resume', resumes)
    const newDocuments = made('document', documents)
    let record: Candidate = { ...base, timesheets: [], resumes: [], documents: [], applications: [], consent: [], marketing_opted_in: 0 }
    for (const f of [...newResumes, ...newDocuments]) record = { ...record, ...attached(f.kind as 'resume' | 'document', record, f, board.links) }
    const stored = board.candidates.insert(record.id, this.#finish('candidate', record))
    // newest first, as the candidate lists them
    for (const f of [...newResumes.reverse(), ...newDocuments.reverse()]) board.files[f.kind as 'resume' | 'document'].insert(f.id, f)
    this.owners.noteCandidate(stored)
    board.metrics.add(COUNTED_METRICS.candidates, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }

  /** A candidate changed (an activity's update-candidate): the fields given, and updated_at now. */
  updateCandidate(input: CandidateUpdate): Candidate {
    const { board } = this
    const seed = checkInput<CandidateUpdate>(board.validators, candidateUpdate, input)
    const owner = this.#candidateOrThrow(seed.id, this.#maker())
    const stored = board.candidates.replace(owner.id, this.#finish('candidate', { ...owner, ...seed.changes, updated_at: board.now() }))
    return this.#added(stored)
  }

  application(input: ApplicationSeed = {}): Application {
    const { board } = this
    const seed = checkInput<ApplicationSeed>(board.validators, applicationSeed, input)
    if (seed.applicant !== undefined && seed.candidate_id !== undefined) {
      throw boardError.invalidField(
        `The application names both candidate ${seed.candidate_id} and a guest applicant (field applicant): an application is by a candidate or by a guest, not both.`,
        'applicant',
      )
    }
    const maker = this.#maker()
    // a guest applicant has no candidate account: listed under no candidate
    const owner = seed.applicant === undefined ? this.#candidateOrThrow(seed.candidate_id, maker) : undefined
    let job: StoredJob | undefined
    if (seed.job_id !== undefined) {
      job = board.jobs.get(seed.job_id)
      if (!job) throw boardError.controlConflict(`Job ${seed.job_id} does not exist${this.lifecycle.isDeleted(seed.job_id) ? ' any more' : ''}.`, 'job_id')
    } else {
      const ids = board.jobs.all()
      if (ids.length === 0) throw boardError.controlConflict('The board has no job yet: add one first.', 'job_id')
      const at = maker.int(0, ids.length - 1)
      job = board.jobs.get(ids.slice(at, at + 1)[0] as number)
    }
    const id = this.#newId(board.applications, seed.id, 'Application')
    const createdMs = seed.created_at ? parseTime(seed.created_at) : board.clock.now()
    if (seed.updated_at !== undefined && parseTime(seed.updated_at) < createdMs) {
      throw boardError.invalidField(`The application's updated_at (${seed.updated_at}) is before its created_at (${formatTimestamp(createdMs)}) (field updated_at).`, 'updated_at')
    }
    const applicant = owner ?? maker.guest(id, seed.applicant)
    const record = maker.application(id, createdMs, createdMs, applicant, vacancyOf(job as StoredJob), seed)
    const stored = board.applications.insert(id, this.#finish('application', { ...record, updated_at: seed.updated_at ?? record.created_at }))
    this.owners.noteApplication(stored, owner?.id ?? 0, seed.attachment_filesize)
    if (owner) this.#attach('applicant', owner, stored)
    board.metrics.add(COUNTED_METRICS.applications, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }

  timesheet(input: TimesheetSeed = {}): Timesheet {
    const { board } = this
    const seed = checkInput<TimesheetSeed>(board.validators, timesheetSeed, input)
    const maker = this.#maker()
    const owner = this.#candidateOrThrow(seed.candidate_id, maker)
    const id = this.#newId(board.timesheets, seed.id, 'Timesheet')
    const createdMs = seed.created_at ? parseTime(seed.created_at) : board.clock.now()
    const file = maker.file('timesheet', id, owner, createdMs, seed)
    const stored = board.timesheets.insert(id, this.#finish('timesheet', timesheetEntry(file, owner, board.links)))
    this.#attach('timesheet', owner, stored)
    board.metrics.add(COUNTED_METRICS.timesheets, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }

  marketing(input: MarketingSeed = {}): MarketingRecord {
    const { board } = this
    const seed = checkInput<MarketingSeed>(board.validators, marketingSeed, input)
    const maker = this.#maker()
    const byEmail = seed.email === undefined ? undefined : this.owners.emailOwner(seed.email)
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
    // a seed says Approved for an approval; the board shows its own word for it (behaviour.marketingApprovalAction)
    const approve = (seed.action ?? (last !== undefined && last !== REVOKED ? REVOKED : APPROVED)) === APPROVED
    const record: MarketingRecord = {
      candidate: { email: owner?.email ?? seed.email ?? maker.unknownEmail(), id: owner?.id ?? 0, ip_address: seed.ip_address ?? maker.ip() },
      action: approve ? board.scenario.behaviour.marketingApprovalAction : REVOKED,
      created_at: seed.created_at ?? board.now(),
    }
    const stored = board.marketing.insert(this.#newId(board.marketing, undefined, 'Marketing record'), this.#finish('marketing', record))
    if (owner) this.#attach('consent', owner, stored)
    board.metrics.add(stored.action === REVOKED ? COUNTED_METRICS.optOuts : COUNTED_METRICS.optIns, monthOfTimestamp(stored.created_at))
    return this.#added(stored)
  }
}
