// The board's reads: a page of a list (since, a vacancy's applications, the board's order
// and page size), one record by id, and a file to download, made from its record on
// demand. The Store (store.ts) answers them through this; it reads the board's parts
// through BoardParts, and who owns what through Owners.
import { boardError } from '../../core/errors.js'
import { hash32 } from '../../core/random.js'
import { parseTime, sinceToTimestamp } from '../../core/time.js'
import type { Application, Candidate, ListQuery, MarketingRecord, Timesheet } from '../../core/types.js'
import type { Collection, IdList } from './collection.js'
import { filePieces } from './files.js'
import type { FileKind } from './record-links.js'
import type { Owners } from './owners.js'
import { oldestFirst, pageOf, type Page } from './pages.js'
import type { BoardParts } from './parts.js'

/** A file to download: its original name and size, and its content on demand, in pieces. */
export interface Download {
  filename: string
  size: number
  /** What the bytes are a pure function of (seed, kind, id, name, size, label, time), as text: the same text, the same bytes. */
  identity: string
  chunks(): Iterable<Buffer>
}

/** The parts of a board its reads read. */
export type ReadParts = Pick<BoardParts, 'scenario' | 'candidates' | 'applications' | 'timesheets' | 'marketing' | 'files'>

export class BoardReads {
  readonly #parts: ReadParts
  readonly #owners: Owners

  constructor(parts: ReadParts, owners: Owners) {
    this.#parts = parts
    this.#owners = owners
  }

  #ids<T extends object>(collection: Collection<T>, since: string | undefined): IdList {
    return since === undefined ? collection.all() : collection.since(sinceToTimestamp(since))
  }

  /** A list's ids in the board's order: newest first, or oldest first (applications keep the spec's order). */
  #ordered(ids: IdList): IdList {
    return this.#parts.scenario.behaviour.listOrder === 'oldest-first' ? oldestFirst(ids) : ids
  }

  candidateList({ since, page = 1 }: ListQuery): Page<Candidate> {
    const ids = this.#ordered(this.#ids(this.#parts.candidates, since))
    const size = this.#parts.scenario.behaviour.pageCandidates ? this.#parts.scenario.pageSize : Math.max(1, ids.length)
    return pageOf(ids, page, size, (id) => this.#parts.candidates.get(id) as Candidate)
  }

  applicationList({ since, vacancy, page = 1 }: ListQuery & { vacancy?: number }): Page<Application> {
    let ids: IdList
    if (vacancy === undefined) ids = this.#ids(this.#parts.applications, since)
    else {
      const from = since === undefined ? Number.NEGATIVE_INFINITY : parseTime(sinceToTimestamp(since))
      const all = this.#owners.applicationsOf(vacancy)
      const matching: number[] = []
      for (let i = all.length - 1; i >= 0; i--) {
        const id = all[i] as number
        if (this.#parts.applications.sinceMsOf(id) >= from) matching.push(id)
      }
      ids = matching
    }
    return pageOf(ids, page, this.#parts.scenario.pageSize, (id) => this.#parts.applications.get(id) as Application)
  }

  timesheetList({ since, page = 1 }: ListQuery): Page<Timesheet> {
    return pageOf(this.#ordered(this.#ids(this.#parts.timesheets, since)), page, this.#parts.scenario.pageSize, (id) => this.#parts.timesheets.get(id) as Timesheet)
  }

  marketingList({ since, page = 1 }: ListQuery): Page<MarketingRecord> {
    return pageOf(this.#ordered(this.#ids(this.#parts.marketing, since)), page, this.#parts.scenario.pageSize, (id) => this.#parts.marketing.get(id) as MarketingRecord)
  }

  candidate(id: number): Candidate {
    const found = this.#parts.candidates.get(id)
    if (!found) throw boardError.notFound('Candidate', id)
    return found
  }

  application(id: number): Application {
    const found = this.#parts.applications.get(id)
    if (!found) throw boardError.notFound('Application', id)
    return found
  }

  /** A candidate's file, or an application's attachment (kind `attachment`, by application id). */
  download(kind: FileKind | 'attachment', id: number): Download {
    const seed = this.#parts.scenario.seed
    // the file names its record in its one line of text, so a client that opens it can tell
    const make = (filename: string, size: number, key: string, label: string, createdAt: string): Download => {
      const spec = { seed, key, id, filename, size, label: `${label}: ${filename}`, createdAt }
      return { filename, size, identity: JSON.stringify(spec), chunks: () => filePieces(spec) }
    }
    if (kind === 'attachment') {
      const found = this.#parts.applications.get(id)
      if (!found) throw boardError.notFound('Application attachment', id)
      const size = this.#owners.attachmentSize(id) ?? 3_000 + (hash32(seed, 'attachment-size', id) % 397_000)
      return make(found.applicant.attachment.filename, size, 'attachment', `Attachment of application ${id} by ${found.applicant.name}`, found.created_at)
    }
    if (kind === 'timesheet') {
      const found = this.#parts.timesheets.get(id)
      if (!found) throw boardError.notFound('Timesheet', id)
      return make(found.attachment.filename, found.attachment.filesize, 'timesheet', `Timesheet ${id} of ${found.candidate.name}`, found.created_at)
    }
    const found = this.#parts.files[kind].get(id)
    if (!found) throw boardError.notFound(kind === 'resume' ? 'Resume' : 'Document', id)
    const owner = this.#parts.candidates.get(found.candidate_id)?.name ?? `candidate ${found.candidate_id}`
    return make(found.filename, found.filesize, kind, `${kind === 'resume' ? 'Resume' : 'Document'} ${id} of ${owner}`, found.created_at)
  }
}
