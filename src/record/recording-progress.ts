// What a recording holds (record and the proxy's --record, through gather.ts): the lists
// it reads, what it has gathered so far (Progress: what a later run goes on from, personal
// values already replaced), what a scenario is built with, and the accounting of what it
// read and could not carry over (a loss, named with why).
import type { ApplicationSeed, CandidateSeed, GuestSeed, JobSeed, MarketingSeed, ScenarioFile, TimesheetSeed } from '../core/types.js'
import { APPLICATIONS, CANDIDATES, type ListDef, MARKETING, TIMESHEETS } from '../contract/lists.js'

export type ListName = 'candidates' | 'applications' | 'timesheets' | 'marketing'
export const LIST_DEFS: Record<ListName, ListDef> = { candidates: CANDIDATES, applications: APPLICATIONS, timesheets: TIMESHEETS, marketing: MARKETING }
export const LIST_NAMES = Object.keys(LIST_DEFS) as ListName[]
export type DownloadKind = 'timesheet' | 'resume' | 'document' | 'attachment'
export const DOWNLOADS: readonly DownloadKind[] = ['timesheet', 'resume', 'document', 'attachment']

interface ListProgress {
  /** The page to fetch next; null once the list is read (or its sample taken). */
  next: string | null
  pages: number
  records: number
  total?: number
  pageSize?: number
}

/** Everything a recording has gathered, personal values already replaced: what a later run goes on from. */
export interface Progress {
  lists: Record<ListName, ListProgress>
  fields?: Record<string, string[]>
  fieldsDone: boolean
  metricMonths?: Record<string, number>
  /** The values of the metrics the fake does not count from listed records, by label and month (`YYYY-MM`). */
  metricValues?: Record<string, Record<string, number>>
  metricsDone: boolean
  /** One download of each kind is made, for its Content-Type; its bytes are never kept. */
  downloads: Partial<Record<DownloadKind, string | null>>
  jobs: Record<string, JobSeed>
  candidates: CandidateSeed[]
  /** Application id → candidate id, from the candidates' application entries. */
  owners: Record<string, number>
  /** Application id → the applicant's e-mail as replaced: finds its candidate when no entry names it. */
  applicantEmails: Record<string, string>
  /** Application id → its applicant as replaced: kept as a guest applicant when no listed candidate is theirs. */
  applicants?: Record<string, GuestSeed>
  /** Records read that the scenario cannot hold, with why: never dropped without a word. */
  lost?: LostRecord[]
  applications: ApplicationSeed[]
  timesheets: TimesheetSeed[]
  marketing: MarketingSeed[]
  oldest?: string
}

/** A record the recording read and could not carry over. */
export interface LostRecord {
  kind: ListName
  /** Its id, or its place in the list when it has none. */
  id: string
  why: string
}

/** The kinds of record a recording reads, each as `seen → written`. */
export type Carried = Record<ListName, { seen: number; written: number }>

/** Per kind, the records read past the bound of records kept (counted, not kept): 0 when none. */
export type PastBound = Record<ListName, number>

export const emptyProgress = (): Progress => ({
  lists: Object.fromEntries(LIST_NAMES.map((name) => [name, { next: null, pages: 0, records: 0 }])) as unknown as Record<ListName, ListProgress>,
  fieldsDone: false,
  metricsDone: false,
  downloads: {},
  jobs: {},
  candidates: [],
  owners: {},
  applicantEmails: {},
  applicants: {},
  lost: [],
  applications: [],
  timesheets: [],
  marketing: [],
})

export const isTimestamp = (value: unknown): value is string => typeof value === 'string' && /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/.test(value)

/** What a scenario is built with, beside what was gathered. */
export interface BuildOptions {
  complete: boolean
  reason?: string | undefined
  /** The clock's time (epoch ms): the scenario's now. */
  now: number
  /** The deployment's profile points read so far (its page size, its approval word...). */
  points: Record<string, { value?: unknown } | undefined>
  /** Scheme, host and port recorded from: never credentials. */
  origin: string
  /** The file written: its name is the scenario's. */
  out: string
  sample?: number | undefined
  /** How the answers were read, in the description: `Recorded from` (record) or `Recorded through jobboard-kit proxy from`. */
  from?: string
}

/** A scenario built from what was gathered, and its accounting. */
export interface Built {
  built: ScenarioFile
  /** Values that did not fit the scenario format and were left to the generator, as field paths. */
  dropped: string[]
  counts: Record<string, number>
  carried: Carried
  lost: LostRecord[]
  pastBound: PastBound
  jobs: number
  guests: number
}

/** The records a recording could not carry over, by kind, with their ids and why: one line. */
export function describeLoss(lost: readonly LostRecord[]): string {
  const kinds = [...new Set(lost.map((l) => l.kind))]
  const parts = kinds.map((kind) => {
    const of = lost.filter((l) => l.kind === kind)
    const whys = [...new Set(of.map((l) => l.why))]
    const ids = of.slice(0, 10).map((l) => l.id).join(', ')
    return `${of.length} ${kind} (${ids}${of.length > 10 ? `, and ${of.length - 10} more` : ''}): ${whys.join('; ')}`
  })
  return `records read and not written: ${parts.join('; ')} (--allow-loss keeps the scenario without them and exits 0)`
}
