// Which record belongs to which, written once. Generation keys its per-owner indexes by
// these names (src/fake/store/relations.ts), the control API's adds attach a new record to its
// owner's list through them (src/fake/store/adds.ts), and a restored board is checked against
// them (src/fake/store/integrity.ts). A new link between records is a new row here.
import { MARKETING_ACTIONS } from '../../../schemas/values.js'
import type { Application, Candidate, MarketingRecord, StoredFile, StoredJob, Timesheet } from '../../core/types.js'
import type { Links } from './record-links.js'
import { applicationEntry, consentEntryOf, fileEntry, fileEntryOfTimesheet, optedIn } from './views.js'

const [, REVOKED] = MARKETING_ACTIONS

/** The record each collection of a board holds. */
export interface BoardRecords {
  jobs: StoredJob
  candidates: Candidate
  applications: Application
  timesheets: Timesheet
  resumes: StoredFile
  documents: StoredFile
  marketing: MarketingRecord
}

export type CollectionName = keyof BoardRecords

/** The lists in which a candidate mirrors the records it owns. */
export type CandidateList = 'timesheets' | 'resumes' | 'documents' | 'applications' | 'consent'
export type ListEntry = Candidate[CandidateList][number]

/** What a record does not say of itself: the candidate who made an application is kept beside it. */
export interface OwnerLookup {
  /** The candidate who made an application, 0 for a guest, undefined for no application. */
  applicantOf(applicationId: number): number | undefined
}

/** How an owner lists the records it owns. */
export interface Mirror<C extends CollectionName = CollectionName> {
  readonly list: CandidateList
  /** The entry a child makes in the list. */
  entry(child: BoardRecords[C], links: Links): ListEntry
  /**
   * If an entry links to its child: the link, which a restored board's check follows, and
   * what a refusal calls the records of the list ("…is not one of their files").
   */
  readonly link?: { href(entry: ListEntry): string; readonly noun: string }
  /** The list with a new entry at its head, put in the list's order (default: as given, newest first). */
  place?(entries: ListEntry[]): ListEntry[]
  /** Fields of the owner that follow from the list. */
  derived?(entries: ListEntry[]): Partial<Candidate>
}

export interface Relation<C extends CollectionName = CollectionName> {
  readonly child: C
  readonly owner: 'candidates' | 'jobs'
  /** The owner's id as the child gives it. */
  ownerOf(child: BoardRecords[C], lookup: OwnerLookup): number | undefined
  /** Owner id 0 means "none" (a marketing record from an e-mail with no account, an application by a guest). */
  readonly optional?: boolean
  /** The owner may go while the child stays (a deleted job keeps its applications): not checked on restore. */
  readonly outlived?: boolean
  /** What a restored board's refusal calls a child whose owner is missing. */
  describe(child: BoardRecords[C]): string
  readonly mirror?: Mirror<C>
}

/** The id at the end of a link. */
export const hrefId = (href: string): number => Number(href.slice(href.lastIndexOf('/') + 1))
/** The link of an entry that has one. */
const linkOf = (noun: string) => ({ href: (entry: ListEntry) => (entry as { href: string }).href, noun })

/** A candidate's files of one kind: each names its candidate, and the candidate lists it. */
function fileRelation<K extends 'resume' | 'document'>(kind: K) {
  return {
    child: `${kind}s` as const,
    owner: 'candidates' as const,
    ownerOf: (f: StoredFile) => f.candidate_id,
    describe: (f: StoredFile) => `File ${kind} ${f.id}`,
    mirror: { list: `${kind}s` as const, entry: (f: StoredFile, links: Links) => fileEntry(f, links), link: linkOf('files') },
  }
}

/**
 * Every relation, in the order a restored board is checked (the first broken link is the
 * one reported). Each parameter is typed by its collection (BoardRecords).
 */
export const RELATIONS = {
  applicant: {
    child: 'applications',
    owner: 'candidates',
    ownerOf: (a: Application, lookup: OwnerLookup) => lookup.applicantOf(a.id),
    // 0: a guest, an applicant with no candidate account, listed under no candidate
    optional: true,
    describe: (a: Application) => `Application ${a.id}`,
    mirror: { list: 'applications', entry: (a: Application) => applicationEntry(a), link: linkOf('applications') },
  },
  vacancy: {
    child: 'applications',
    owner: 'jobs',
    ownerOf: (a: Application) => a.vacancy.id,
    outlived: true,
    describe: (a: Application) => `Application ${a.id}`,
  },
  timesheet: {
    child: 'timesheets',
    owner: 'candidates',
    ownerOf: (t: Timesheet) => t.candidate.id,
    describe: (t: Timesheet) => `Timesheet ${t.id}`,
    mirror: { list: 'timesheets', entry: (t: Timesheet) => fileEntryOfTimesheet(t), link: linkOf('timesheets') },
  },
  resume: fileRelation('resume'),
  document: fileRelation('document'),
  consent: {
    child: 'marketing',
    owner: 'candidates',
    ownerOf: (m: MarketingRecord) => m.candidate.id,
    optional: true,
    describe: () => 'A marketing record',
    mirror: {
      list: 'consent',
      entry: (m: MarketingRecord) => consentEntryOf(m),
      // a record added with a past time takes its place by date; the latest decides the opt-in
      place: (entries: ListEntry[]) => (entries as Candidate['consent']).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
      derived: (entries: ListEntry[]) => ({ marketing_opted_in: optedIn(entries as Candidate['consent'], REVOKED) }),
    },
  },
} satisfies Record<string, Relation>

export type RelationName = keyof typeof RELATIONS
/** The relations whose owner lists its children. */
export type ListedRelation = { [R in RelationName]: (typeof RELATIONS)[R] extends { mirror: object } ? R : never }[RelationName]

/** The entry a relation's child makes in its owner's list. */
export type EntryOf<R extends ListedRelation> = Candidate[(typeof RELATIONS)[R]['mirror']['list']][number]

export const RELATION_LIST: ReadonlyArray<readonly [RelationName, Relation]> = Object.entries(RELATIONS) as Array<[RelationName, Relation]>

/**
 * The change to an owner that lists a new child: the child's entry at the head of the
 * list (or in its place), and what follows from the list.
 */
export function attached<R extends ListedRelation>(name: R, owner: Candidate, child: BoardRecords[(typeof RELATIONS)[R]['child']], links: Links): Partial<Candidate> {
  const mirror = RELATIONS[name].mirror as Mirror
  const given = [mirror.entry(child, links), ...(owner[mirror.list] as ListEntry[])]
  const entries = mirror.place ? mirror.place(given) : given
  return { [mirror.list]: entries, ...mirror.derived?.(entries) }
}
