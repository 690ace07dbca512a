// The part of `record` that turns a deployment's answers into a scenario the fake loads,
// whoever read them: `record`'s own walk (recorder.ts) and the proxy's traffic
// (src/proxy/recording.ts) both hand it job/fields, metrics/list, list pages and
// details, and it keeps only what the scenario needs (each record's seed, every personal
// value already replaced by anonymise.ts), never an answer. A record seen again (a
// proxy's client reads a list each round) replaces its first reading; past `maxRecords`
// of a list, a record is counted, not kept, and the accounting says so. What it read and
// could not carry over is a loss, named with why: `carried` and `lost` are the accounting
// both commands print (seen → written), and a loss makes both exit 1. What it holds is
// recording-progress.ts's; the scenario it builds, scenario-build.ts's.
import { createHash } from 'node:crypto'
import { LISTED_METRICS } from '../../schemas/scenario.js'
import { FIELD_NAMES, METRIC_LABELS, MONTH_NAMES, MONTH_SHORT_NAMES } from '../../schemas/values.js'
import type { ApplicationSeed, CandidateSeed, GuestSeed, JobSeed, MarketingSeed, TimesheetSeed } from '../core/types.js'
import { findFieldLists } from '../contract/field-lists.js'
import { int, rec, recs, str, type Rec } from '../contract/records.js'
import { Anonymiser } from './anonymise.js'
import {
  type BuildOptions,
  type Built,
  type Carried,
  type DownloadKind,
  emptyProgress,
  isTimestamp,
  LIST_NAMES,
  type ListName,
  type PastBound,
  type Progress,
} from './recording-progress.js'
import { fitted, scenarioOf } from './scenario-build.js'

const idOfHref = (href: unknown): number | undefined => {
  const match = typeof href === 'string' ? /\/([0-9]+)\/?(?:\?.*)?$/.exec(href) : null
  return match ? Number(match[1]) : undefined
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
    const { built, lost } = scenarioOf(this.progress, options)
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

