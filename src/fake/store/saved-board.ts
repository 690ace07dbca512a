// A board saved and restored (GET and PUT /__mock/state, --state): the whole board as a
// saved state, or, compact, what was written over the one its scenario and seed generate;
// and either put back, each record validated and the links they make checked
// (integrity.ts), a refusal naming the field. The Store (store.ts) holds the parts and
// calls this; it reads and writes them through BoardParts, as the adds and the job
// lifecycle do.
import { boardError } from '../../core/errors.js'
import { createFaker, hash32 } from '../../core/random.js'
import type { Application, Candidate, CompactStoreState, StoreState } from '../../core/types.js'
import type { RecordAdds } from './adds.js'
import type { Collection } from './collection.js'
import type { ExtraFieldRecord } from './extra-fields.js'
import { checkLinks, type LinkScope } from './integrity.js'
import type { JobLifecycle } from './job-lifecycle.js'
import { finishRecord } from './maker.js'
import { Metrics } from './metric-counts.js'
import type { Owners } from './owners.js'
import type { BoardParts } from './parts.js'
import { RELATION_LIST, type BoardRecords, type CollectionName } from './relation-table.js'

/** The parts of a board a saved state holds. */
export type SavedParts = Pick<BoardParts, 'scenario' | 'jobs' | 'candidates' | 'applications' | 'timesheets' | 'marketing' | 'files' | 'metrics'>

export class SavedBoard {
  readonly #parts: SavedParts
  readonly #owners: Owners
  readonly #lifecycle: JobLifecycle
  readonly #adds: RecordAdds

  constructor(parts: SavedParts, owners: Owners, lifecycle: JobLifecycle, adds: RecordAdds) {
    this.#parts = parts
    this.#owners = owners
    this.#lifecycle = lifecycle
    this.#adds = adds
  }

  /**
   * About how many bytes the full saved state takes, from a sample of each kind's records
   * (a few, spread over the ids): cheap where gathering the state is not, so that a board
   * too large to be restored is refused before a minute of work and gigabytes of memory.
   */
  stateBytesEstimate(): number {
    const SAMPLE = 16
    const kinds: Array<Pick<Collection<object>, 'all' | 'get'>> = [this.#parts.jobs, this.#parts.candidates, this.#parts.applications, this.#parts.timesheets, this.#parts.files.resume, this.#parts.files.document, this.#parts.marketing]
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
      jobs: [...this.#parts.jobs.values()],
      deletedJobs: this.#lifecycle.deletedIds(),
      nextJobId: this.#lifecycle.nextId,
      candidates: [...this.#parts.candidates.values()],
      applications: [...this.#parts.applications.values()].map((record) => this.#applicationEntry(record)),
      timesheets: [...this.#parts.timesheets.values()],
      files: [...this.#parts.files.resume.values(), ...this.#parts.files.document.values()],
      marketing: [...this.#parts.marketing.values()],
      metrics: this.#parts.metrics.export(),
      adds: this.#adds.count,
    }
  }

  /**
   * What the board holds beyond the one its scenario and seed generate, without copying
   * the records (they are frozen): GET /__mock/state?form=compact. A board restored from
   * a full state has no generated one under it, so all of it is written.
   */
  compactView(generated: boolean): CompactStoreState {
    const records = <T extends object>(collection: Collection<T>) => collection.written().map(([, record]) => record)
    return {
      generated,
      written: {
        jobs: records(this.#parts.jobs),
        candidates: records(this.#parts.candidates),
        applications: records(this.#parts.applications).map((record) => this.#applicationEntry(record)),
        timesheets: records(this.#parts.timesheets),
        files: [...records(this.#parts.files.resume), ...records(this.#parts.files.document)],
        marketing: this.#parts.marketing.written().map(([id, record]) => ({ id, record })),
      },
      deleted: { jobs: this.#parts.jobs.deletedIds() },
      deletedJobs: this.#lifecycle.deletedIds(),
      nextJobId: this.#lifecycle.nextId,
      metrics: this.#parts.metrics.export(),
      adds: this.#adds.count,
    }
  }

  /** A saved application: the record with its candidate and attachment size, which it does not show. */
  #applicationEntry(record: Application): StoreState['applications'][number] {
    const size = this.#owners.attachmentSize(record.id)
    return { candidate_id: this.#owners.applicantOf(record.id) as number, ...(size !== undefined ? { attachment_filesize: size } : {}), record }
  }

  /** A compact saved board's written records and deletions laid over this one; a refusal names the field. */
  layOver(state: CompactStoreState): void {
    const { written } = state
    const deletedJobs = new Set(state.deletedJobs)
    state.deleted.jobs.forEach((id, i) => {
      const field = `store.deleted.jobs[${i}]`
      if (!this.#parts.jobs.isGenerated(id)) {
        throw boardError.invalidField(`The deleted job ${id} (field ${field}) is not a job this scenario and seed generate (or it is listed twice).`, field)
      }
      if (!deletedJobs.has(id)) throw boardError.invalidField(`The deleted job ${id} (field ${field}) is not in deletedJobs.`, field)
      this.#parts.jobs.delete(id)
    })
    const faker = this.#loadFaker()
    const finish = <T extends object>(kind: ExtraFieldRecord, record: T) => finishRecord(this.#parts.scenario.behaviour, kind, record, faker)
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
    for (const [i, job] of written.jobs.entries()) lay('jobs', this.#parts.jobs, `store.written.jobs[${i}]`, job.id, job)
    this.#lifecycle.startAt(this.#parts.jobs.lastId + 1)
    written.candidates.forEach((c, i) => {
      lay('candidates', this.#parts.candidates, `store.written.candidates[${i}]`, c.id, finish('candidate', c))
      this.#owners.noteCandidate(this.#parts.candidates.get(c.id) as Candidate)
    })
    written.applications.forEach((a, i) => {
      // the generated index of a job's applications (vacancy filter) keeps the job an application was generated for
      const job = this.#parts.applications.generated(a.record.id)?.vacancy.id
      const field = `store.written.applications[${i}].record.vacancy.id`
      if (job !== undefined && job !== a.record.vacancy.id) {
        throw boardError.invalidField(`Application ${a.record.id} (field ${field}) was made for job ${job}; written over, it must keep that job.`, field)
      }
      lay('applications', this.#parts.applications, `store.written.applications[${i}]`, a.record.id, finish('application', a.record))
      this.#owners.noteApplication(a.record, a.candidate_id, a.attachment_filesize)
    })
    for (const [i, t] of written.timesheets.entries()) lay('timesheets', this.#parts.timesheets, `store.written.timesheets[${i}]`, t.id, finish('timesheet', t))
    written.files.forEach((f, i) => {
      const kind = f.kind === 'timesheet' ? undefined : f.kind
      const field = `store.written.files[${i}]`
      if (kind === undefined) throw boardError.invalidField(`The file (field ${field}.kind) is a timesheet: timesheets are saved under store.written.timesheets.`, `${field}.kind`)
      lay(kind === 'resume' ? 'resumes' : 'documents', this.#parts.files[kind], field, f.id, f)
    })
    for (const [i, { id, record }] of written.marketing.entries()) lay('marketing', this.#parts.marketing, `store.written.marketing[${i}]`, id, finish('marketing', record))
    this.#parts.metrics = Metrics.import(state.metrics)
    this.#lifecycle.markDeleted(state.deletedJobs)
    this.#lifecycle.startAt(state.nextJobId)
    this.#adds.resume(state.adds)
    checkLinks(this.#linked(), this.#owners, this.#writtenScope(laid))
  }

  #linked() {
    const { jobs, candidates, applications, timesheets, files, marketing } = this.#parts
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
        const found = owner === undefined || candidates.has(owner) ? undefined : this.#parts.candidates.get(owner)
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
    return () => (faker ??= createFaker(hash32(this.#parts.scenario.seed, 'extra-fields')))
  }

  /** A saved board's records, all written: each validated as it is stored, and the links they make checked. */
  load(data: StoreState): void {
    const faker = this.#loadFaker()
    const finish = <T extends object>(kind: ExtraFieldRecord, record: T) => finishRecord(this.#parts.scenario.behaviour, kind, record, faker)
    this.#parts.jobs.load(data.jobs.map((j) => [j.id, j] as const))
    this.#lifecycle.startAt(this.#parts.jobs.lastId + 1)
    this.#parts.candidates.load(data.candidates.map((c) => [c.id, finish('candidate', c)] as const))
    for (const c of data.candidates) this.#owners.noteCandidate(c)
    this.#parts.applications.load(data.applications.map(({ record }) => [record.id, finish('application', record)] as const))
    for (const a of data.applications) this.#owners.noteApplication(a.record, a.candidate_id, a.attachment_filesize)
    const resumes = data.files.filter((f) => f.kind === 'resume')
    const documents = data.files.filter((f) => f.kind === 'document')
    this.#parts.files.resume.load(resumes.map((f) => [f.id, f] as const))
    this.#parts.files.document.load(documents.map((f) => [f.id, f] as const))
    this.#parts.timesheets.load(data.timesheets.map((t) => [t.id, finish('timesheet', t)] as const))
    this.#parts.marketing.load(data.marketing.map((m, i) => [i + 1, finish('marketing', m)] as const))
    this.#parts.metrics = Metrics.import(data.metrics)
    this.#lifecycle.markDeleted(data.deletedJobs)
    this.#lifecycle.startAt(data.nextJobId)
    this.#adds.resume(data.adds)
    checkLinks(this.#linked(), this.#owners)
  }
}
