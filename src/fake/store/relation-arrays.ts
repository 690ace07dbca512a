// The relations of a generated board as arrays (drawn by relations.ts): when each record
// was made (ids in time order), which candidate made each file and consent, in typed
// arrays, with each owner's records as index lists (CSR: offsets + ids), one per relation
// of relation-table.ts and named by it; the applications answer their own
// (application-draw.ts). Records themselves are made later, one at a time, from these
// (generate.ts).
import { MARKETING_ACTIONS } from '../../../schemas/values.js'
import type { CandidateSeed, JobSeed, MarketingSeed } from '../../core/types.js'
import type { DrawnApplications } from './application-draw.js'
import type { FileKind } from './record-links.js'
import type { RelationName } from './relation-table.js'

export const [APPROVED, REVOKED] = MARKETING_ACTIONS
/** Marketing actions as the arrays hold them. */
export const ACTION = { approved: 1, revoked: 2 } as const

/** Index lists by owner: owner o's ids are ids[offsets[o]] .. ids[offsets[o + 1] - 1], ascending. */
export interface Csr {
  readonly offsets: Uint32Array
  readonly ids: Uint32Array
}

export function idsOf(csr: Csr, owner: number): Uint32Array {
  return owner + 1 < csr.offsets.length ? csr.ids.subarray(csr.offsets[owner] as number, csr.offsets[owner + 1] as number) : new Uint32Array(0)
}

/** Counting sort of ids 1..owner.length by their owner (0 = none). */
export function csrOf(owner: Uint32Array, owners: number, count = owner.length): Csr {
  const offsets = new Uint32Array(owners + 2)
  for (let i = 0; i < count; i++) (offsets[(owner[i] as number) + 1] as number)++
  for (let o = 1; o < offsets.length; o++) offsets[o] = (offsets[o] as number) + (offsets[o - 1] as number)
  const next = offsets.slice(0, owners + 1)
  const ids = new Uint32Array(count)
  for (let i = 0; i < count; i++) ids[(next[owner[i] as number] as number)++] = i + 1
  return { offsets, ids }
}

export type FileSeed = { id?: number; filename?: string; filesize?: number }
export type CandidateFields = Omit<CandidateSeed, 'resumes' | 'documents'>

export interface Kind<P> {
  count: number
  /** Creation time by id - 1, ms. */
  created: Float64Array
  /** Ids in 1..count that were never made (pinned records past the generated ones leave gaps). */
  absent: number[]
  /** What the scenario pins, by id. */
  pinned: Map<number, P>
}

export interface Relations {
  nowMs: number
  startMs: number
  jobs: Kind<JobSeed>
  candidates: Kind<CandidateFields> & {
    /** A candidate's latest change, ms: the latest of its records, or an edit of its own. */
    updatedOf(id: number): number
    /** The candidates among 1..upTo (ascending) changed at or after `fromMs`: the applications made since then alone are drawn. */
    changedSince(fromMs: number, upTo: number): Uint32Array
  }
  files: Record<FileKind, Kind<FileSeed> & { candidate: Uint32Array }>
  /** Drawn when asked: each application's time, candidate (0 for a guest) and job, and each candidate's and job's applications. */
  applications: DrawnApplications
  marketing: Kind<MarketingSeed> & {
    /** The candidate by id - 1, or 0 for an e-mail with no account. */
    candidate: Uint32Array
    /** For an e-mail with no account: which of `strangers` e-mails. */
    stranger: Uint32Array
    action: Uint8Array
    strangers: number
  }
  /** Each owner's children, by relation drawn in bulk (the applications answer their own: Relations.applications). */
  byOwner: Record<BulkRelation, Csr>
}

/** The relations drawn in bulk into arrays: all but the applications'. */
export type BulkRelation = Exclude<RelationName, 'applicant' | 'vacancy'>

export type Drawn = Omit<Relations, 'byOwner'>

/** Each relation drawn in bulk: the owner by child id - 1 (0 = none), the children's times, and how many owners there are. */
export const DRAWN: { [R in BulkRelation]: (r: Drawn) => { owner: Uint32Array; created: Float64Array; owners: number } } = {
  timesheet: (r) => ({ owner: r.files.timesheet.candidate, created: r.files.timesheet.created, owners: r.candidates.count }),
  resume: (r) => ({ owner: r.files.resume.candidate, created: r.files.resume.created, owners: r.candidates.count }),
  document: (r) => ({ owner: r.files.document.candidate, created: r.files.document.created, owners: r.candidates.count }),
  consent: (r) => ({ owner: r.marketing.candidate, created: r.marketing.created, owners: r.candidates.count }),
}

/** The times of a relation's children, by child id - 1. */
export function childTimes(relations: Relations, name: BulkRelation): Float64Array {
  return DRAWN[name](relations).created
}

export interface RelationOptions {
  /** The candidate with this e-mail, if any: pinned marketing names candidates by e-mail. */
  emailOwner(email: string, relations: Relations): number | undefined
  /** Called now and then while drawing, with the share done (0..1). */
  progress?(share: number): void
}

/** Each owner's children, by relation drawn in bulk, as index lists. */
export function indexByOwner(drawn: Drawn): Record<BulkRelation, Csr> {
  const byOwner = {} as Record<BulkRelation, Csr>
  for (const name of Object.keys(DRAWN) as BulkRelation[]) {
    const { owner, owners } = DRAWN[name](drawn)
    byOwner[name] = csrOf(owner, owners)
  }
  return byOwner
}
