// The part of `record` that turns a deployment's answers into a scenario the fake loads,
// whoever read them: `record`'s own walk (record.ts) and the proxy's traffic
// (src/proxy/recording.ts) both hand it job/fields, metrics/list, list pages and
// details, and it keeps only what the scenario needs (each record's seed, every personal
// value already replaced by anonymise.ts), never an answer. A record seen again (a
// proxy's client reads a list each round) replaces its first reading; past `maxRecords`
// of a list, a record is counted, not kept, and the accounting says so. What it read and
// could not carry over is a loss, named with why: `carried` and `lost` are the accounting
// both commands print (seen → written), and a loss makes both exit 1.
import { createHash } from 'node:crypto'
import { renameSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { behaviourProperties } from '../../schemas/behaviour.js'
import { LISTED_METRICS } from '../../schemas/scenario.js'
import { FIELD_NAMES, MARKETING_ACTIONS, METRIC_LABELS, MONTH_NAMES, MONTH_SHORT_NAMES } from '../../schemas/values.js'
import { hash32 } from '../core/random.js'
import { formatTimestamp, parseTime } from '../core/time.js'
import type { ApplicationSeed, CandidateSeed, GuestSeed, JobSeed, MarketingSeed, Scenario, ScenarioFile, TimesheetSeed } from '../core/types.js'
import { findFieldLists } from '../contract/field-lists.js'
import { APPLICATIONS, CANDIDATES, type ListDef, MARKETING, TIMESHEETS } from '../contract/lists.js'
import { int, rec, recs, str, type Rec } from '../contract/records.js'
import { boardLists, boundScenarioSchema, parseScenario, SCENARIO_POLICY, ScenarioError, scenarioListsSchema, sharedSchemas } from '../fake/scenario.js'
import { compileSchema, fieldOf } from '../core/validation.js'
import { Anonymiser } from './anonymise.js'

const REVOKED = MARKETING_ACTIONS[1]

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

const idOfHref = (href: unknown): number | undefined => {
  const match = typeof href === 'string' ? /\/([0-9]+)\/?(?:\?.*)?$/.exec(href) : null
  return match ? Number(match[1]) : undefined
}

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

export interface GatherOptions {
  /** The anonymiser's key (anonymise.ts replacementKey): derived from the credentials, never written. */
  key: string
  /** Whether a link is the deployment's own: only those download links are kept. */
  sameOrigin: (href: string) => boolean
  /** What an earlier, incomplete recording gathered: gone on from. */
  progress?: Progress
  /** Records kept of each list at most (default: no bound); past it they are counted in pastBound. */
  maxRecords?: number
  /** Says what it could not read (a metric whose months do not read). */
  say?: (line: string) => void
}

/** The answers of a deployment, gathered into what its scenario needs. */
export class Gatherer {
  readonly progress: Progress
  readonly pastBound: PastBound = { candidates: 0, applications: 0, timesheets: 0, marketing: 0 }
  readonly #anon: Anonymiser
  readonly #sameOrigin: (href: string) => boolean
  readonly #maxRecords: number
  readonly #say: (line: string) => void
  /** A record's key (its list and id, or a digest of a record without one) → its place in its list: a record read again replaces it. */
  readonly #index = new Map<string, number>()
  readonly #lostKeys = new Set<string>()

  constructor(options: GatherOptions) {
    this.#anon = new Anonymiser(options.key)
    this.#sameOrigin = options.sameOrigin
    this.#maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY
    this.#say = options.say ?? (() => {})
    this.progress = options.progress ?? emptyProgress()
    for (const name of ['candidates', 'applications', 'timesheets'] as const) {
      for (const [at, seed] of this.progress[name].entries()) this.#index.set(`${name}\u0000${String(seed.id)}`, at)
    }
  }

  /** job/fields' answer: the constrained lists it gives. */
  fields(json: unknown): void {
    const p = this.progress
    const found = findFieldLists(json)
    if (found) {
      const fields: Record<string, string[]> = {}
      for (const name of FIELD_NAMES) {
        const list = found.lists[name]
        if (Array.isArray(list) && list.length > 0 && list.every((v) => typeof v === 'string' && v !== '')) fields[name] = [...new Set(list as string[])]
      }
      p.fields = fields
    }
    p.fieldsDone = true
  }

  /** metrics/list's answer: each metric's months, and the values of those the fake does not count from listed records. */
  metrics(json: unknown): void {
    const p = this.progress
    const months: Record<string, number> = {}
    const values: Record<string, Record<string, number>> = {}
    for (const metric of recs(rec(json).metrics)) {
      const label = str(metric.label)
      const n = Array.isArray(metric.aggregations) ? metric.aggregations.length : 0
      if (!label || !(METRIC_LABELS as readonly string[]).includes(label) || n < 1) continue
      months[label] = Math.min(120, n)
      // a metric the fake counts from the listed records follows from them; the others' values are kept as they are
      if ((LISTED_METRICS as readonly string[]).includes(label)) continue
      const read = monthValues(metric.aggregations)
      if (read) values[label] = read
      else this.#say(`metrics/list: ${label}'s months do not read as a year, a month and a total each: its values are generated`)
    }
    p.metricMonths = months
    p.metricValues = values
    p.metricsDone = true
  }

  /**
   * A record of a list (from a page or a detail): kept as its seed, personal values
   * replaced. Answers 'new' the first time, 'again' when it replaced its earlier reading,
   * 'past' when the list already holds maxRecords (counted in pastBound, not kept).
   */
  take(name: ListName, record: Rec): 'new' | 'again' | 'past' {
    const id = int(record.id)
    const key = `${name}\u0000${name !== 'marketing' && id !== undefined ? String(id) : createHash('sha256').update(JSON.stringify(record) ?? '').digest('base64url')}`
    const list = this.progress[name] as unknown[]
    const at = this.#index.get(key)
    if (at === undefined && list.length >= this.#maxRecords) {
      this.pastBound[name] += 1
      return 'past'
    }
    const before = list.length
    const lostBefore = this.progress.lost?.length ?? 0
    if (name === 'candidates') this.#candidate(record)
    else if (name === 'applications') this.#application(record)
    else if (name === 'timesheets') this.#timesheet(record)
    else this.#marketing(record)
    if (list.length > before) {
      if (at === undefined) this.#index.set(key, before)
      else list[at] = list.pop()
    }
    const lost = this.progress.lost ?? []
    // a record lost before and read again is one loss
    if (lost.length > lostBefore) {
      if (this.#lostKeys.has(key)) lost.pop()
      else this.#lostKeys.add(key)
    }
    return at === undefined ? 'new' : 'again'
  }

  /** The scenario of what is gathered so far, fitted to the scenario format, with its accounting. */
  build(options: BuildOptions): Built {
    const { built, lost } = this.#scenario(options)
    const dropped = fitted(built)
    const records = built.records as Record<ListName, Array<{ id?: number; applicant?: unknown }>> & { jobs: unknown[] }
    // a whole record the format refused goes as a loss, with the place it had
    for (const field of dropped) {
      const whole = /^records\.(candidates|applications|timesheets|marketing)\[([0-9]+)\]$/.exec(field)
      if (whole) lost.push({ kind: whole[1] as ListName, id: `#${whole[2]}`, why: 'it does not fit the scenario format' })
    }
    const carried = Object.fromEntries(LIST_NAMES.map((name) => [name, { seen: this.progress.lists[name].records, written: records[name].length }])) as Carried
    const guests = records.applications.filter((a) => a.applicant !== undefined).length
    return { built, dropped, counts: { ...(built.counts as Record<string, number>) }, carried, lost, pastBound: { ...this.pastBound }, jobs: records.jobs.length, guests }
  }

  /** A record read that the scenario cannot hold: counted, named and said, never dropped without a word. */
  #lose(kind: ListName, id: unknown, why: string): void {
    this.progress.lost ??= []
    this.progress.lost.push({ kind, id: typeof id === 'number' || typeof id === 'string' ? String(id) : JSON.stringify(id) ?? 'none', why })
  }

  #older(at: unknown): void {
    if (isTimestamp(at) && (this.progress.oldest === undefined || at < this.progress.oldest)) this.progress.oldest = at
  }

  #job(job: Rec, salary?: unknown): void {
    const id = int(job.id)
    if (id === undefined || id < 1) return
    const seed: Record<string, unknown> = { ...this.progress.jobs[id], id }
    if (typeof job.title === 'string' && job.title !== '') seed.job_title = job.title
    if (typeof job.reference === 'string' && job.reference !== '') seed.job_reference = job.reference
    if (typeof job.location === 'string' && job.location !== '') seed.job_location = job.location
    Object.assign(seed, this.#salary(salary))
    this.progress.jobs[id] = seed as JobSeed
  }

  /** `£45,000 per year` read back into salary_precise and salary_unit, when it reads. */
  #salary(text: unknown): Partial<JobSeed> {
    if (typeof text !== 'string') return {}
    const units = this.progress.fields?.salary_unit ?? ['Per hour', 'Per year', 'Per week', 'Per month']
    const unit = units.find((u) => text.toLowerCase().endsWith(u.toLowerCase()))
    const amount = /([0-9][0-9,]*(\.[0-9]+)?)/.exec(text)?.[1]?.replace(/,/g, '')
    return unit && amount ? ({ salary_unit: unit, salary_precise: amount } as Partial<JobSeed>) : {}
  }

  #download(kind: DownloadKind, href: unknown): void {
    // only a plain download link (a path ending in an id) is kept: one that carried more, a file name say, is not asked
    if (typeof href !== 'string' || this.progress.downloads[kind] !== undefined || !this.#sameOrigin(href)) return
    const url = new URL(href)
    if (url.search === '' && url.hash === '' && /\/[0-9]+$/.test(url.pathname)) this.progress.downloads[kind] = href
  }

  #files(entries: unknown, kind: 'resume' | 'document' | 'timesheet'): Array<{ filename?: string; filesize?: number }> {
    return recs(entries).map((file) => {
      this.#download(kind, file.href)
      const size = typeof file.filesize === 'string' && /^[0-9]+$/.test(file.filesize) ? Number(file.filesize) : int(file.filesize)
      return {
        ...(typeof file.filename === 'string' && file.filename !== '' ? { filename: this.#anon.replace('filename', file.filename) } : {}),
        ...(size !== undefined ? { filesize: size } : {}),
      }
    })
  }

  #candidate(c: Rec): void {
    const a = this.#anon
    const id = int(c.id)
    if (id === undefined || id < 1) {
      this.#lose('candidates', c.id, 'its id is not an integer of 1 or more')
      return
    }
    const seed: Record<string, unknown> = {}
    const replaced: Record<string, Parameters<Anonymiser['replace']>[0]> = {
      identifier: 'identifier',
      email: 'email',
      signup_email: 'email',
      name: 'name',
      telephone: 'telephone',
      address: 'address',
      city: 'city',
      county: 'county',
      postcode: 'postcode',
      latitude: 'latitude',
      longitude: 'longitude',
      current_employer: 'text',
      cover_letter: 'text',
      overview: 'text',
    }
    // kept as they are: value sets (seeking, sectors...), dates, flags, the country and the skill lists
    const kept = [
      'last_login', 'created_at', 'updated_at', 'marketing_opted_in', 'hot', 'featured', 'job_title', 'current_salary', 'preferred_salary', 'seeking',
      'notice_period', 'work_eligible', 'preferred_job_titles', 'sectors', 'disciplines', 'employment_types', 'contract_types', 'expertise', 'locations',
      'sector_disciplines', 'available_from', 'available_from_year', 'available_from_day', 'available_from_month', 'available_from_hr', 'experience',
      'specialisms', 'qualifications', 'skills', 'country',
    ]
    seed.id = id
    for (const [field, kind] of Object.entries(replaced)) if (typeof c[field] === 'string') seed[field] = a.replace(kind, c[field] as string)
    for (const field of kept) if (c[field] !== undefined && c[field] !== null) seed[field] = structuredClone(c[field])
    seed.resumes = this.#files(c.resumes, 'resume')
    seed.documents = this.#files(c.documents, 'document')
    for (const file of recs(c.timesheets)) this.#download('timesheet', file.href)
    for (const entry of recs(c.applications)) {
      const application = idOfHref(entry.href)
      if (application !== undefined) this.progress.owners[application] = id
      this.#job(rec(entry.job))
    }
    this.#older(c.created_at)
    this.progress.candidates.push(seed as CandidateSeed)
  }

  #application(r: Rec): void {
    const id = int(r.id)
    if (id === undefined || id < 1) {
      this.#lose('applications', r.id, 'its id is not an integer of 1 or more')
      return
    }
    const applicant = rec(r.applicant)
    const attachment = rec(applicant.attachment)
    const vacancy = rec(r.vacancy)
    this.#job(vacancy, vacancy.salary)
    this.#download('attachment', attachment.href)
    const seed: Record<string, unknown> = { id }
    const job = int(vacancy.id)
    if (job !== undefined && job >= 1) seed.job_id = job
    if (isTimestamp(r.created_at)) seed.created_at = r.created_at
    // a client's since may read updated_at: kept when it is later (the fake's is never earlier than created_at)
    if (isTimestamp(r.updated_at) && (seed.created_at === undefined || r.updated_at > (seed.created_at as string))) seed.updated_at = r.updated_at
    if (typeof applicant.cover_letter === 'string') seed.cover_letter = this.#anon.replace('text', applicant.cover_letter)
    if (typeof attachment.filename === 'string' && attachment.filename !== '') seed.attachment_filename = this.#anon.replace('filename', attachment.filename)
    if (typeof applicant.email === 'string') this.progress.applicantEmails[id] = this.#anon.replace('email', applicant.email)
    // the applicant as a guest, should no listed candidate be theirs: replaced as a candidate's values are
    const guest: Record<string, string> = {}
    if (typeof applicant.name === 'string' && applicant.name !== '') guest.name = this.#anon.replace('name', applicant.name)
    if (typeof applicant.email === 'string' && applicant.email !== '') guest.email = this.#anon.replace('email', applicant.email)
    if (typeof applicant.telephone === 'string') guest.telephone = this.#anon.replace('telephone', applicant.telephone)
    this.progress.applicants ??= {}
    this.progress.applicants[id] = guest as GuestSeed
    this.#older(r.created_at)
    this.progress.applications.push(seed as ApplicationSeed)
  }

  #timesheet(r: Rec): void {
    const id = int(r.id)
    const owner = int(rec(r.candidate).id)
    if (id === undefined || id < 1 || owner === undefined || owner < 1) {
      const why = id === undefined || id < 1 ? 'its id is not an integer of 1 or more' : `its candidate id is ${JSON.stringify(rec(r.candidate).id) ?? 'absent'}: a timesheet of the fake belongs to a candidate`
      this.#lose('timesheets', r.id, why)
      return
    }
    const attachment = rec(r.attachment)
    this.#download('timesheet', attachment.href)
    const [file] = this.#files([{ filename: attachment.filename, filesize: attachment.filesize }], 'timesheet')
    const seed: Record<string, unknown> = { id, candidate_id: owner, ...file }
    if (isTimestamp(r.created_at)) seed.created_at = r.created_at
    this.#older(r.created_at)
    this.progress.timesheets.push(seed as TimesheetSeed)
  }

  #marketing(r: Rec): void {
    const candidate = rec(r.candidate)
    const seed: Record<string, unknown> = {}
    const owner = int(candidate.id)
    if (owner !== undefined && owner >= 0) seed.candidate_id = owner
    if (typeof candidate.email === 'string') seed.email = this.#anon.replace('email', candidate.email)
    if (typeof candidate.ip_address === 'string') seed.ip_address = this.#anon.replace('ip', candidate.ip_address)
    // the word as it came: the scenario is built with the board's approval word (a profile point) once every record is read
    if (typeof r.action === 'string') seed.action = r.action
    if (isTimestamp(r.created_at)) seed.created_at = r.created_at
    this.#older(r.created_at)
    this.progress.marketing.push(seed as MarketingSeed)
  }

  #scenario({ complete, reason, now, points, origin, out, sample, from }: BuildOptions): { built: ScenarioFile; lost: LostRecord[] } {
    const p = this.progress
    const total = (name: ListName) => p.lists[name].total ?? p.lists[name].records
    // what a list's total holds beyond the records read is generated: a sample, or a run cut short, keeps the board's size
    const generated = (name: ListName, recorded: number) => Math.max(0, total(name) - recorded)
    const candidates = p.candidates
    const genCandidates = generated('candidates', candidates.length)
    const offsetOf = (ids: number[], gen: number) => (ids.some((id) => id <= gen) ? gen : 0)
    const candidateShift = offsetOf(candidates.map((c) => c.id as number), genCandidates)
    const pinnedCandidates = new Set(candidates.map((c) => c.id as number))
    const byEmail = new Map(candidates.map((c) => [c.email, c.id as number]))
    const generatedOwner = (key: number) => (genCandidates > 0 ? 1 + (hash32('owner', key) % genCandidates) : undefined)
    const ownerOf = (id: number | undefined, key: number): number | undefined =>
      id !== undefined && pinnedCandidates.has(id) ? id + candidateShift : generatedOwner(key)

    let genApplications = generated('applications', p.applications.length)
    if (genApplications > 0 && genCandidates === 0) genApplications = 0
    const applicationShift = offsetOf(p.applications.map((a) => a.id as number), genApplications)
    const lost: LostRecord[] = [...(p.lost ?? [])]
    const value = (point: string) => points[point]?.value
    const applications = p.applications.flatMap((a): ApplicationSeed[] => {
      const id = a.id as number
      if (a.job_id === undefined) {
        lost.push({ kind: 'applications', id: String(id), why: 'its vacancy has no id: an application of the fake is for a job' })
        return []
      }
      const owner = ownerOf(p.owners[id] ?? byEmail.get(p.applicantEmails[id]), id)
      // no listed candidate is theirs, and every candidate was listed: an applicant of their own (a guest)
      if (owner === undefined) return [{ ...a, id: id + applicationShift, applicant: p.applicants?.[id] ?? {} }]
      return [{ ...a, id: id + applicationShift, candidate_id: owner }]
    })
    const genTimesheets = genCandidates + candidates.length > 0 ? generated('timesheets', p.timesheets.length) : 0
    const timesheetShift = offsetOf(p.timesheets.map((t) => t.id as number), genTimesheets)
    const timesheets = p.timesheets.flatMap((t) => {
      const owner = ownerOf(t.candidate_id, t.id as number)
      if (owner === undefined) lost.push({ kind: 'timesheets', id: String(t.id), why: `its candidate ${String(t.candidate_id)} is not among the candidates listed` })
      return owner === undefined ? [] : [{ ...t, id: (t.id as number) + timesheetShift, candidate_id: owner }]
    })
    // a seed says Approved for an approval; the board shows the deployment's own word for it (behaviour.marketingApprovalAction)
    const approval = value('marketingApprovalAction') ?? MARKETING_ACTIONS[0]
    const marketing = p.marketing.flatMap((m, index): MarketingSeed[] => {
      const owner = m.candidate_id !== undefined && pinnedCandidates.has(m.candidate_id) ? m.candidate_id + candidateShift : 0
      const word = m.action as string | undefined
      const action = word === REVOKED ? REVOKED : word === approval ? MARKETING_ACTIONS[0] : undefined
      if (action === undefined) {
        const why = word === undefined ? 'it has no action' : `its action ${JSON.stringify(word)} is neither Revoked nor the word the board approves with (${JSON.stringify(approval)}): a board of the fake has one`
        lost.push({ kind: 'marketing', id: `#${index + 1}`, why })
        return []
      }
      return [{ ...m, candidate_id: owner, action }]
    })
    const jobs = Object.values(p.jobs)
    const perCandidate = (kind: 'resumes' | 'documents') => {
      const recorded = candidates.reduce((n, c) => n + (c[kind]?.length ?? 0), 0)
      return candidates.length > 0 ? Math.round((recorded / candidates.length) * genCandidates) : 0
    }
    const counts = {
      // the highest job id seen is the least the board holds: generated jobs fill the ids below it that nobody applied to
      jobs: genApplications > 0 ? Math.max(1, ...jobs.map((j) => j.id as number)) : 0,
      candidates: genCandidates,
      applications: genApplications,
      timesheets: genTimesheets,
      resumes: perCandidate('resumes'),
      documents: perCandidate('documents'),
      marketing: generated('marketing', p.marketing.length),
    }
    const behaviour = Object.fromEntries(Object.keys(behaviourProperties).flatMap((point) => (value(point) === undefined ? [] : [[point, value(point)]])))
    const pageSize = value('pageSize') ?? LIST_NAMES.map((n) => p.lists[n]).find((l) => l.next !== null || (l.total ?? 0) > l.records)?.pageSize
    const nowText = formatTimestamp(now)
    const months = p.oldest ? Math.ceil((now - parseTime(p.oldest)) / (30.44 * 86_400_000)) + 1 : 24
    const name = basename(out).replace(/\.json$/i, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'recorded'
    const recording: Record<string, unknown> = { origin: origin, recorded_at: nowText, complete }
    if (reason !== undefined) recording.reason = reason
    if (sample !== undefined) recording.sample = sample
    if (!complete) recording.progress = p
    const shift = (c: CandidateSeed) => ({ ...c, id: (c.id as number) + candidateShift })
    const built = {
      name: /^[a-z0-9]/.test(name) ? name : `recorded-${name}`,
      description: `${from ?? 'Recorded from'} ${origin} on ${nowText}${complete ? '' : ' (incomplete)'}${sample !== undefined ? `, a sample of ${sample} records a list` : ''}; personal values replaced.`,
      seed: hash32('record', origin),
      now: nowText,
      historyMonths: Math.min(120, Math.max(1, months)),
      counts,
      ...(typeof pageSize === 'number' ? { pageSize } : {}),
      ...(typeof value('rateLimitWindow') === 'number' ? { rateLimitWindow: value('rateLimitWindow') as number } : {}),
      ...(p.fields && Object.keys(p.fields).length > 0 ? { fieldValues: p.fields } : {}),
      ...(p.metricMonths && Object.keys(p.metricMonths).length > 0 ? { metricMonths: p.metricMonths } : {}),
      ...(p.metricValues && Object.keys(p.metricValues).length > 0 ? { metricValues: p.metricValues } : {}),
      records: { jobs, candidates: candidates.map(shift), applications, timesheets, marketing },
      behaviour,
      recording,
    } as ScenarioFile
    return { built, lost }
  }
}

/**
 * A metric's aggregations as month (`YYYY-MM`) → total, the month given by its name (long
 * or short, any case) or number; undefined when one does not read so.
 */
function monthValues(aggregations: unknown): Record<string, number> | undefined {
  const values: Record<string, number> = {}
  for (const row of Array.isArray(aggregations) ? aggregations : []) {
    const a = rec(row)
    const year = typeof a.year === 'number' ? a.year : typeof a.year === 'string' && /^[0-9]{4}$/.test(a.year) ? Number(a.year) : undefined
    const named = typeof a.month === 'string' ? a.month.trim().toLowerCase() : undefined
    const month =
      typeof a.month === 'number' ? a.month
      : named === undefined ? undefined
      : /^[0-9]{1,2}$/.test(named) ? Number(named)
      : 1 + Math.max(MONTH_NAMES.findIndex((m) => m.toLowerCase() === named), MONTH_SHORT_NAMES.findIndex((m) => m.toLowerCase() === named))
    const total = int(a.total)
    if (year === undefined || !Number.isInteger(year) || year < 1000 || year > 9999 || month === undefined || !Number.isInteger(month) || month < 1 || month > 12 || total === undefined || total < 0) return undefined
    const key = `${year}-${String(month).padStart(2, '0')}`
    values[key] = (values[key] ?? 0) + total
  }
  return Object.keys(values).length > 0 ? values : undefined
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

/**
 * Takes out of a built scenario, in place, every value the scenario format refuses (a
 * deployment may write a date or a list value the fake's schemas do not take), so the
 * file loads; the generator makes those values instead. All of a pass's errors go at
 * once (the validator reports every one), so a value wrong in every record costs a pass,
 * not a pass per record. Answers the fields taken out.
 */
function fitted(scenario: ScenarioFile): string[] {
  const dropped: string[] = []
  for (let pass = 0; pass < 20; pass++) {
    const copy = structuredClone(scenario)
    const lists = sharedSchemas().get('lists', () => compileSchema(SCENARIO_POLICY, scenarioListsSchema))
    const bound = lists(copy) ? boardLists(copy as Scenario) : undefined
    const validate = bound ? sharedSchemas().get(JSON.stringify(bound), () => compileSchema(SCENARIO_POLICY, boundScenarioSchema(bound))) : lists
    if (validate(copy)) {
      // the fake's own check, as serve runs it: what passes here loads
      parseScenario(scenario, 'the recorded scenario', { compiled: sharedSchemas() })
      return dropped
    }
    // deepest first, so removing an array item does not move the others' paths
    const fields = [...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'if').map(fieldOf))].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    const removed = fields.filter((field) => remove(scenario, field))
    if (removed.length === 0) throw new ScenarioError(`the recorded scenario does not fit the scenario format at ${fields[0] ?? 'its top level'}`, fields[0] ?? '')
    dropped.push(...removed)
  }
  throw new Error('the recorded scenario still does not fit after 20 passes')
}

/** Deletes the value at a path such as `records.candidates[3].email`; false when there is none to delete. */
function remove(root: unknown, path: string): boolean {
  const steps = path.match(/[^.[\]]+/g) ?? []
  if (steps.length === 0) return false
  let node: unknown = root
  for (const step of steps.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false
    node = (node as Record<string, unknown>)[step]
  }
  const last = steps[steps.length - 1] as string
  if (node === null || typeof node !== 'object' || !(last in node)) return false
  if (Array.isArray(node)) node.splice(Number(last), 1)
  else delete (node as Record<string, unknown>)[last]
  return true
}

/** A file the recording could not write (a full disk, a folder it may not write in). */
export class WriteError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WriteError'
  }
}

/** Writes a file through a temporary one beside it: a reader never sees half of it. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, text)
    renameSync(temporary, path)
  } catch (error) {
    throw new WriteError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}
