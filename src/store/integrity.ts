// The links between records that every board must keep, checked on a restored board (a
// generated one keeps them by construction, src/store/relations.ts; the control API's
// adds by building the links as they write): every record's owner is on the board, and
// every link a candidate lists leads to a record that is there and is theirs.
import { BoardError } from '../core/errors.js'
import type { Application, Candidate, MarketingRecord, StoredFile, Timesheet } from '../core/types.js'
import type { Collection } from './collection.js'

export interface LinkedRecords {
  candidates: Collection<Candidate>
  applications: Collection<Application>
  timesheets: Collection<Timesheet>
  files: Record<'resume' | 'document', Collection<StoredFile>>
  marketing: Collection<MarketingRecord>
  /** The candidate who made an application. */
  ownerOf(applicationId: number): number | undefined
}

export function checkLinks(board: LinkedRecords): void {
  const missing = (what: string, owner: string, id: number) =>
    new BoardError('INTERNAL', `${what} belongs to ${owner} ${id}, which is not on the board.`)
  for (const a of board.applications.values()) {
    const owner = board.ownerOf(a.id)
    if (owner === undefined || !board.candidates.has(owner)) throw missing(`Application ${a.id}`, 'candidate', owner ?? 0)
  }
  for (const t of board.timesheets.values()) if (!board.candidates.has(t.candidate.id)) throw missing(`Timesheet ${t.id}`, 'candidate', t.candidate.id)
  for (const kind of ['resume', 'document'] as const) {
    for (const f of board.files[kind].values()) if (!board.candidates.has(f.candidate_id)) throw missing(`File ${kind} ${f.id}`, 'candidate', f.candidate_id)
  }
  for (const m of board.marketing.values()) {
    if (m.candidate.id !== 0 && !board.candidates.has(m.candidate.id)) throw missing('A marketing record', 'candidate', m.candidate.id)
  }
  // and every link a candidate lists leads to a record that is there and is theirs
  const tail = (href: string) => Number(href.slice(href.lastIndexOf('/') + 1))
  for (const c of board.candidates.values()) {
    for (const entry of c.applications) {
      if (board.ownerOf(tail(entry.href)) !== c.id) throw new BoardError('INTERNAL', `Candidate ${c.id} lists ${entry.href}, which is not one of their applications.`)
    }
    for (const entry of c.timesheets) {
      if (board.timesheets.get(tail(entry.href))?.candidate.id !== c.id) throw new BoardError('INTERNAL', `Candidate ${c.id} lists ${entry.href}, which is not one of their timesheets.`)
    }
    for (const kind of ['resume', 'document'] as const) {
      for (const entry of kind === 'resume' ? c.resumes : c.documents) {
        if (board.files[kind].get(tail(entry.href))?.candidate_id !== c.id) throw new BoardError('INTERNAL', `Candidate ${c.id} lists ${entry.href}, which is not one of their files.`)
      }
    }
  }
}

