// Generates a board from a scenario with one seeded faker: jobs, candidates, their
// files, applications and marketing records, linked to each other, plus the metrics'
// history. The same scenario and seed give the same board, record for record.
//
// Records are made one at a time by RecordMaker (also used when records are added
// later); generateBoard draws times and links in bulk, overlays the scenario's pinned
// records, and derives each candidate's embedded lists once at the end.
import type { Faker } from '@faker-js/faker'
import { industrySplitter, MARKETING_ACTIONS, type FieldValues, type IndustrySplit } from '../../schemas/values.js'
import type { DeepReadonly } from '../core/freeze.js'
import type { LoadedScenario } from '../scenario.js'
import { addMonth, availabilityParts, formatDate, formatMinute, formatTimestamp, monthOfTimestamp, parseTime, shiftMonth } from '../core/time.js'
import type {
  Application,
  ApplicationSeed,
  Candidate,
  CandidateSeed,
  JobSeed,
  MarketingRecord,
  MarketingSeed,
  PredefinedLocation,
  StoredFile,
  StoredJob,
  TimesheetSeed,
} from '../core/types.js'
import { ScenarioError } from '../scenario.js'
import type { FileKind, Links } from './links.js'
import { COUNTED_METRICS, Metrics, type MetricLabel } from './metrics.js'
import { applicationEntry, consentEntryOf, fileEntry, newestFirst, optedIn, vacancyOf } from './views.js'
import * as V from './vocabulary.js'

const DAY = 86_400_000
const [APPROVED, REVOKED] = MARKETING_ACTIONS

/** The lists a board validates against and draws from: constrained, derived, and predefined locations. */
export type BoardLists = FieldValues & {
  readonly sector_disciplines: readonly string[]
  readonly job_locations: readonly string[]
}

export interface MakerContext {
  faker: Faker
  lists: BoardLists
  locations: readonly DeepReadonly<PredefinedLocation>[]
  links: Links
  mix: LoadedScenario['mix']
}

/** A candidate before its files, applications and consent are attached. */
export type CandidateBase = Omit<Candidate, 'timesheets' | 'resumes' | 'documents' | 'applications' | 'consent'>

/** Pounds with thousands separators, as toLocaleString('en-GB') writes them: one formatter, not one per call. */
const POUNDS = new Intl.NumberFormat('en-GB')
const gbp = (n: number) => POUNDS.format(n)

const slug = (text: string) => text.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '')

export class RecordMaker {
  readonly #f: Faker
  readonly #ctx: MakerContext
  /** Shared cover letters: a million applications need not hold a million strings. */
  #coverLetters: string[] | undefined
  readonly #stems = new WeakMap<object, string>()
  readonly #split: (industry: string) => IndustrySplit

  constructor(ctx: MakerContext) {
    this.#ctx = ctx
    this.#f = ctx.faker
    this.#split = industrySplitter(ctx.lists.job_industry)
  }

  #pick<T>(items: readonly T[]): T {
    return this.#f.helpers.arrayElement(items as T[])
  }

  #some<T>(items: readonly T[], min: number, max: number): T[] {
    return this.#f.helpers.arrayElements(items as T[], { min: Math.min(min, items.length), max: Math.min(max, items.length) })
  }

  #chance(p: number): boolean {
    return this.#f.number.float({ min: 0, max: 1 }) < p
  }

  /** A time between two epochs, whole seconds. */
  between(fromMs: number, toMs: number): number {
    if (toMs <= fromMs) return Math.floor(fromMs / 1000) * 1000
    return Math.floor(this.#f.number.int({ min: fromMs, max: toMs }) / 1000) * 1000
  }

  #roleOf(industry: string): { sector: string; role: string } {
    const { sector, subSector } = this.#split(industry)
    return { sector, role: subSector ?? V.SECTOR_ROLE[sector] ?? sector }
  }

  #salary(sector: string, unit: string): { precise: string; visible: string } {
    const [low, high] = V.SALARY_BANDS[sector] ?? V.DEFAULT_SALARY_BAND
    const yearly = this.#f.number.int({ min: low, max: high })
    const divisor = V.UNIT_DIVISOR[unit] ?? 1
    if (divisor === 1) {
      const precise = Math.round(yearly / 500) * 500
      const top = precise + this.#pick([0, 2000, 5000, 8000])
      return { precise: String(precise), visible: top === precise ? `£${gbp(precise)}` : `£${gbp(precise)} - £${gbp(top)} DOE` }
    }
    const precise = (yearly / divisor).toFixed(2)
    return { precise, visible: `£${precise} ${unit.toLowerCase()}` }
  }

  job(id: number, createdMs: number, seed: JobSeed = {}): StoredJob {
    const f = this.#f
    const lists = this.#ctx.lists
    const industry = seed.job_industry ?? this.#pick(lists.job_industry)
    const { sector, role } = this.#roleOf(industry)
    const predefined = this.#chance(0.7) && this.#ctx.locations.length > 0 ? this.#pick(this.#ctx.locations) : undefined
    const place = this.#pick(V.UK_TOWNS)
    const location = seed.job_location ?? (predefined ? predefined.name : `${place[0]}, ${place[1]}`)
    const known = this.#ctx.locations.find((l) => l.name === location)
    const unit = seed.salary_unit ?? (/Locum/.test(industry) ? 'Per hour' : this.#pick(lists.salary_unit))
    const salary = this.#salary(sector, unit)
    const closing = addMonth(createdMs, f.number.int({ min: 1, max: 2 }))
    const createdAt = seed.created_at ?? formatTimestamp(createdMs)
    const published = seed.published ?? (this.#chance(0.92) ? 1 : 0)
    const job: StoredJob = {
      published,
      featured: this.#chance(0.15) ? 1 : 0,
      job_title: known || !predefined ? role : `${role} - ${location}`,
      job_reference: `${slug(sector).slice(0, 3).toUpperCase()}-${String(id).padStart(5, '0')}`,
      job_industry: industry as StoredJob['job_industry'],
      job_telecommute: (lists.job_telecommute.includes('no') && this.#chance(0.9) ? 'no' : this.#pick(lists.job_telecommute)) as StoredJob['job_telecommute'],
      job_location: location,
      job_latitude: known?.latitude ?? f.location.latitude({ min: 50.1, max: 58.5, precision: 4 }),
      job_longitude: known?.longitude ?? f.location.longitude({ min: -5.5, max: 1.7, precision: 4 }),
      job_type: this.#pick(lists.job_type) as StoredJob['job_type'],
      contract_type: this.#pick(lists.contract_type) as StoredJob['contract_type'],
      job_description: `${this.practice()} is looking for a ${role.toLowerCase()} to join a friendly, well-equipped team. ${this.#some(V.EXPERTISE, 1, 2).join(' and ')} experience welcome.`,
      contact_name: f.person.fullName(),
      contact_email: f.internet.email({ provider: 'example.co.uk' }).toLowerCase(),
      salary_visible: salary.visible,
      salary_precise: salary.precise,
      salary_unit: unit as StoredJob['salary_unit'],
      salary_currency: this.#pick(lists.salary_currencies) as StoredJob['salary_currency'],
      require_cv: this.#chance(0.8) ? 1 : 0,
      available_from: formatMinute(createdMs + f.number.int({ min: 7, max: 60 }) * DAY),
      closing_date: formatMinute(closing),
      close_automatically: this.#chance(0.5) ? 1 : 0,
      expiry_date: formatMinute(addMonth(closing, 1)),
      hot: this.#chance(0.1) ? 1 : 0,
      internal: this.#chance(0.05) ? 1 : 0,
      keywords: [role, sector, location.split(',')[0] as string].join(','),
      job_hours: this.#pick(V.JOB_HOURS),
      job_duration: this.#chance(0.8) ? 'Permanent' : `${f.number.int({ min: 2, max: 12 })} months`,
      job_skills: this.#some(V.EXPERTISE, 1, 3).join(', '),
      job_benefits: this.#some(V.JOB_BENEFITS, 1, 4),
      job_requirements: this.#some(V.JOB_REQUIREMENTS, 1, 2),
      job_responsibilities: this.#some(V.JOB_RESPONSIBILITIES, 1, 3),
      salary_benefits: this.#some(V.JOB_BENEFITS, 0, 2).join(', '),
      application_url: `https://careers.example.co.uk/jobs/${id}`,
      id,
      sector,
      sub_sector: this.#split(industry).subSector ?? '',
      state: published === 1 ? 'published' : 'unpublished',
      created_at: createdAt,
      updated_at: createdAt,
    }
    const merged = { ...job, ...seed, id } as StoredJob
    // a pinned industry or location decides the split and the coordinates
    const split = this.#split(merged.job_industry)
    merged.sector = split.sector
    merged.sub_sector = split.subSector ?? ''
    if (seed.state === undefined) merged.state = merged.published === 1 ? 'published' : 'unpublished'
    return merged
  }

  candidate(id: number, createdMs: number, nowMs: number, seed: Omit<CandidateSeed, 'resumes' | 'documents'> = {}): CandidateBase {
    const f = this.#f
    const lists = this.#ctx.lists
    // a given name decides the e-mail and file names, as it would on a real board
    const [givenFirst, ...givenRest] = seed.name?.trim().split(/\s+/) ?? []
    const first = givenFirst || f.person.firstName()
    const last = givenRest.join(' ') || f.person.lastName()
    const email = `${slug(first)}.${slug(last)}${id}@${this.#pick(V.EMAIL_DOMAINS)}`.toLowerCase()
    const emptyAddress = this.#chance(this.#ctx.mix.emptyAddress)
    const [town, county, area] = this.#pick(V.UK_TOWNS)
    const emptyPoint = emptyAddress || this.#chance(this.#ctx.mix.emptyCoordinates)
    const industries = this.#some(lists.job_industry, 1, 3)
    const splits = industries.map(this.#split)
    const sectors = [...new Set(splits.map((s) => s.sector))]
    const disciplines = [...new Set(splits.flatMap((s) => (s.subSector ? [s.subSector] : [])))]
    const sectorOnly = this.#chance(this.#ctx.mix.sectorOnly)
    const sectorDisciplines = splits.map((s) => (s.subSector && !sectorOnly ? `${s.sector}::${s.subSector}` : s.sector))
    const main = splits[0] ?? { sector: 'Veterinary Surgeon', subSector: null }
    const role = main.subSector ?? V.SECTOR_ROLE[main.sector] ?? main.sector
    const [low, high] = V.SALARY_BANDS[main.sector] ?? V.DEFAULT_SALARY_BAND
    const band = (n: number) => `£${gbp(Math.round(n / 1000) * 1000)}`
    const current = f.number.int({ min: low, max: high })
    const available = formatDate(this.between(createdMs, nowMs + 90 * DAY))
    const qualifications = V.QUALIFICATIONS[main.sector as keyof typeof V.QUALIFICATIONS] ?? V.QUALIFICATIONS.other
    const createdAt = formatTimestamp(createdMs)
    const base: CandidateBase = {
      id,
      identifier: f.string.uuid(),
      email,
      signup_email: this.#chance(0.9) ? email : `${slug(first)}${id}@${this.#pick(V.EMAIL_DOMAINS)}`.toLowerCase(),
      name: `${first} ${last}`,
      telephone: f.phone.number(),
      address: emptyAddress ? '' : f.location.streetAddress(),
      city: emptyAddress ? '' : town,
      county: emptyAddress ? '' : county,
      country: emptyAddress ? '' : 'United Kingdom',
      postcode: emptyAddress ? '' : this.postcode(area),
      last_login: createdAt,
      created_at: createdAt,
      updated_at: createdAt,
      marketing_opted_in: 0,
      hot: this.#chance(0.1) ? 1 : 0,
      featured: this.#chance(0.05) ? 1 : 0,
      job_title: role,
      current_employer: this.practice(),
      current_salary: `${band(current)} - ${band(current + 3000)}`,
      preferred_salary: `${band(current + 2000)} - ${band(current + 6000)}`,
      seeking: this.#pick(V.SEEKING),
      notice_period: this.#pick(V.NOTICE_PERIODS),
      cover_letter: `I am a ${role.toLowerCase()} with ${f.number.int({ min: 1, max: 25 })} years in practice, looking for ${this.#pick(V.SEEKING).toLowerCase()} work.`,
      overview: `${role} with an interest in ${this.#some(V.EXPERTISE, 1, 2).join(' and ').toLowerCase()}.`,
      work_eligible: this.#chance(0.93) ? '1' : '0',
      preferred_job_titles: this.#some([role, ...industries.map((v) => this.#roleOf(v).role)], 1, 2),
      sectors,
      disciplines,
      employment_types: this.#some(lists.job_type, 1, 2),
      contract_types: this.#some(lists.contract_type, 1, 2),
      expertise: this.#some(V.EXPERTISE, 0, 4),
      locations: this.#some(this.#ctx.locations.map((l) => l.name), 0, 3),
      sector_disciplines: sectorDisciplines,
      available_from: available,
      ...availabilityParts(available),
      experience: this.#some(V.EXPERTISE, 1, 3).join(', '),
      specialisms: this.#some(V.EXPERTISE, 0, 2).join(', '),
      qualifications: this.#some(qualifications, 1, 2).join(', '),
      skills: this.#some(V.EXPERTISE, 1, 4).join(', '),
      latitude: emptyPoint ? '' : String(f.location.latitude({ min: 50.1, max: 58.5, precision: 4 })),
      longitude: emptyPoint ? '' : String(f.location.longitude({ min: -5.5, max: 1.7, precision: 4 })),
    }
    const merged = { ...base, ...seed, id }
    if (seed.available_from !== undefined) Object.assign(merged, availabilityParts(seed.available_from), seed)
    return merged
  }

  file(kind: FileKind, id: number, candidate: CandidateBase, createdMs: number, seed: { filename?: string; filesize?: number } = {}): StoredFile {
    const f = this.#f
    const [first = 'Candidate', last = ''] = candidate.name.split(' ')
    const person = slug(`${first}_${last}`) ? `${slug(first)}_${slug(last)}` : `candidate_${candidate.id}`
    const filename =
      seed.filename ??
      (kind === 'resume'
        ? `${person}_CV.${this.#pick(['pdf', 'pdf', 'docx'])}`
        : kind === 'document'
          ? `${person}_${this.#pick(V.DOCUMENT_NAMES)}.${this.#pick(['pdf', 'docx'])}`
          : `Timesheet_${formatDate(createdMs)}_${slug(last) || candidate.id}.${this.#pick(['xlsx', 'xlsx', 'pdf'])}`)
    // a few KB to a few hundred KB, most of them small
    const filesize = seed.filesize ?? Math.round(Math.exp(f.number.float({ min: Math.log(3_000), max: Math.log(400_000) })))
    return { id, kind, candidate_id: candidate.id, filename, filesize, created_at: formatTimestamp(createdMs) }
  }

  attachmentName(candidate: Pick<CandidateBase, 'name' | 'id'>): string {
    let stem = this.#stems.get(candidate)
    if (stem === undefined) {
      const [first = '', last = ''] = candidate.name.split(' ')
      stem = `${slug(first)}_${slug(last)}_CV`.replace(/^_+/, `candidate${candidate.id}_`)
      this.#stems.set(candidate, stem)
    }
    return `${stem}.${this.#pick(['pdf', 'pdf', 'docx'])}`
  }

  /** A postcode of the town's area: `HG1 4QT`. */
  postcode(area: string): string {
    const f = this.#f
    const inward = `${f.number.int({ min: 0, max: 9 })}${f.string.fromCharacters('ABDEFGHJLNPQRSTUWXYZ', 2)}`
    return `${area}${f.number.int({ min: 1, max: 20 })} ${inward}`
  }

  /** A practice name: `Kendal Veterinary Centre`. */
  practice(): string {
    return `${this.#pick(V.UK_TOWNS)[0]} ${this.#pick(V.PRACTICE_SUFFIXES)}`
  }

  coverLetter(): string {
    if (!this.#coverLetters) {
      const f = this.#f
      this.#coverLetters = Array.from(
        { length: 64 },
        () =>
          `Dear ${this.#pick(['Practice Manager', 'Hiring Manager', 'Clinical Director', 'Sir or Madam'])}, I would like to apply for this role. ` +
          `I have ${f.number.int({ min: 1, max: 20 })} years in ${this.#pick(['small animal', 'mixed', 'equine', 'referral', 'first opinion'])} practice ` +
          `and a particular interest in ${this.#pick(V.EXPERTISE).toLowerCase()}. My CV is attached.`,
      )
    }
    return this.#pick(this.#coverLetters)
  }

  application(
    id: number,
    createdMs: number,
    nowMs: number,
    candidate: CandidateBase,
    vacancy: Application['vacancy'],
    seed: ApplicationSeed = {},
  ): Application {
    const createdAt = seed.created_at ?? formatTimestamp(createdMs)
    // most applications never change; the few that do were updated later
    const updatedAt = this.#chance(0.1) ? formatTimestamp(this.between(parseTime(createdAt), nowMs)) : createdAt
    const links = this.#ctx.links
    return {
      id,
      href: links.application(id),
      created_at: createdAt,
      // biome-ignore lint/complexity/useMathMinMax: timestamps are strings, which Math.max would turn into NaN
      updated_at: updatedAt > createdAt ? updatedAt : createdAt,
      applicant: {
        name: candidate.name,
        email: candidate.email,
        telephone: candidate.telephone,
        cover_letter: seed.cover_letter ?? this.coverLetter(),
        attachment: { href: links.attachment(id), filename: seed.attachment_filename ?? this.attachmentName(candidate) },
      },
      vacancy,
    }
  }

  ip(): string {
    return this.#chance(0.85) ? this.#f.internet.ipv4() : this.#f.internet.ipv6()
  }

  unknownEmail(): string {
    return this.#f.internet.email({ provider: this.#pick(['example.org', 'example.net', 'mail.example.com']) }).toLowerCase()
  }

  chance(p: number): boolean {
    return this.#chance(p)
  }

  int(min: number, max: number): number {
    return this.#f.number.int({ min, max })
  }
}

/** Everything a freshly generated board holds, ready for the store to load. */
export interface BoardData {
  jobs: StoredJob[]
  candidates: Candidate[]
  applications: Application[]
  /** The candidate of each application, indexed by application id. */
  applicationCandidates: number[]
  /** Extra bytes sizes of application attachments pinned by the scenario. */
  attachmentSizes: Map<number, number>
  files: StoredFile[]
  marketing: MarketingRecord[]
  metrics: Metrics
}

/** `n` sorted times between two epochs, whole seconds. */
function sortedTimes(maker: RecordMaker, n: number, fromMs: number, toMs: number): Float64Array {
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) out[i] = maker.between(fromMs, toMs)
  return out.sort()
}

/** Index of the last element <= value in a sorted array, or -1. */
function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) <= value) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

/** Months of history of the metrics the store does not count, unless the scenario says otherwise. */
const GENERATED_METRICS: Partial<Record<MetricLabel, { months: number; perCandidate: number }>> = {
  'Job searches': { months: 24, perCandidate: 4 },
  'Client enquiries': { months: 18, perCandidate: 0.1 },
  'Job submissions': { months: 12, perCandidate: 0.08 },
  'Candidate interest': { months: 9, perCandidate: 0.6 },
}

export function generateBoard(scenario: LoadedScenario, ctx: MakerContext): BoardData {
  const maker = new RecordMaker(ctx)
  const { counts, records } = scenario
  const nowMs = parseTime(scenario.now)
  const startMs = addMonth(nowMs, -scenario.historyMonths)

  if (counts.applications > 0 && (counts.jobs === 0 || counts.candidates === 0)) {
    throw new ScenarioError(`Scenario "${scenario.name}": applications need at least one job and one candidate.`, 'counts.applications')
  }

  // jobs, oldest first, ids in time order; pinned ones overlay theirs or come after
  const jobTimes = sortedTimes(maker, counts.jobs, startMs, nowMs - 7 * DAY)
  const jobs: StoredJob[] = Array.from(jobTimes, (t, i) => maker.job(i + 1, t))
  for (const seed of records.jobs ?? []) {
    const id = seed.id ?? jobs.length + 1
    const at = jobs.findIndex((j) => j.id === id)
    const createdMs = seed.created_at ? parseTime(seed.created_at) : (jobs[at]?.created_at ? parseTime(jobs[at].created_at) : maker.between(startMs, nowMs))
    const job = maker.job(id, createdMs, seed as JobSeed)
    if (at >= 0) jobs[at] = job
    else jobs.push(job)
  }
  jobs.sort((a, b) => a.id - b.id)

  // candidates, with the pinned overlays
  const candidateTimes = sortedTimes(maker, counts.candidates, startMs, nowMs)
  const candidates: CandidateBase[] = Array.from(candidateTimes, (t, i) => maker.candidate(i + 1, t, nowMs))
  const pinnedFiles = new Map<number, Partial<Record<FileKind, ReadonlyArray<{ filename?: string; filesize?: number }>>>>()
  for (const seed of records.candidates ?? []) {
    const { resumes, documents, ...fields } = seed as CandidateSeed
    const id = fields.id ?? candidates.length + 1
    const at = candidates.findIndex((c) => c.id === id)
    const createdMs = fields.created_at ? parseTime(fields.created_at) : at >= 0 ? parseTime((candidates[at] as CandidateBase).created_at) : maker.between(startMs, nowMs)
    const candidate = maker.candidate(id, createdMs, nowMs, fields)
    if (at >= 0) candidates[at] = candidate
    else candidates.push(candidate)
    pinnedFiles.set(id, { ...(resumes ? { resume: resumes } : {}), ...(documents ? { document: documents } : {}) })
  }
  candidates.sort((a, b) => a.id - b.id)
  const candidateById = new Map(candidates.map((c) => [c.id, c]))
  const byCreation = [...candidates].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id))
  const creationMs = byCreation.map((c) => parseTime(c.created_at))
  const quiet = new Set(candidates.filter(() => maker.chance(ctx.mix.withoutFiles)).map((c) => c.id))
  const noApplications = new Set(candidates.filter(() => maker.chance(ctx.mix.withoutApplications)).map((c) => c.id))
  for (const id of pinnedFiles.keys()) quiet.delete(id)

  /** A candidate registered by `ms`, avoiding `except` when another will do. */
  const candidateBy = (ms: number, except: ReadonlySet<number>): CandidateBase => {
    const last = Math.max(0, lastAtOrBefore(creationMs, ms))
    for (let tries = 0; tries < 8; tries++) {
      const c = byCreation[maker.int(0, last)] as CandidateBase
      if (!except.has(c.id)) return c
    }
    return byCreation[maker.int(0, last)] as CandidateBase
  }

  // files of each kind, ids in time order
  const files: StoredFile[] = []
  for (const [kind, count] of [
    ['resume', counts.resumes],
    ['document', counts.documents],
    ['timesheet', counts.timesheets],
  ] as const) {
    if (candidates.length === 0) continue
    const specs: Array<{ candidate: CandidateBase; ms: number; seed?: { filename?: string; filesize?: number } }> = []
    for (let i = 0; i < count; i++) {
      const candidate = candidateBy(nowMs, quiet)
      if (pinnedFiles.get(candidate.id)?.[kind]) continue
      specs.push({ candidate, ms: maker.between(parseTime(candidate.created_at), nowMs) })
    }
    for (const [candidateId, pinned] of pinnedFiles) {
      const candidate = candidateById.get(candidateId) as CandidateBase
      for (const seed of pinned[kind] ?? []) specs.push({ candidate, ms: maker.between(parseTime(candidate.created_at), nowMs), seed })
    }
    specs.sort((a, b) => a.ms - b.ms)
    for (const [i, spec] of specs.entries()) files.push(maker.file(kind, i + 1, spec.candidate, spec.ms, spec.seed))
  }
  for (const [i, seed] of (records.timesheets ?? []).entries()) placeTimesheet(seed as TimesheetSeed, i)

  function placeTimesheet(seed: TimesheetSeed, index: number): void {
    const timesheets = files.filter((file) => file.kind === 'timesheet')
    const id = seed.id ?? timesheets.length + 1
    const old = timesheets.find((file) => file.id === id)
    const candidate = candidateById.get(seed.candidate_id ?? old?.candidate_id ?? (candidates[0]?.id as number))
    if (!candidate) throw new ScenarioError(`Scenario "${scenario.name}": timesheet ${id} names candidate ${seed.candidate_id}, which does not exist.`, `records.timesheets[${index}].candidate_id`)
    const ms = seed.created_at ? parseTime(seed.created_at) : maker.between(parseTime(candidate.created_at), nowMs)
    const file = maker.file('timesheet', id, candidate, ms, seed)
    if (old) files[files.indexOf(old)] = file
    else files.push(file)
  }

  // applications: by a registered candidate, to a job posted before, recent ones preferred
  const jobMs = jobs.map((j) => parseTime(j.created_at))
  const vacancies = new Map(jobs.map((j) => [j.id, vacancyOf(j)]))
  const firstMs = Math.max(jobMs[0] ?? nowMs, creationMs[0] ?? nowMs)
  const applicationTimes = sortedTimes(maker, counts.applications, firstMs, nowMs)
  const applications: Application[] = []
  const applicationCandidates: number[] = []
  const attachmentSizes = new Map<number, number>()
  const jobsByTime = jobs.map((j, i) => ({ job: j, ms: jobMs[i] as number })).sort((a, b) => a.ms - b.ms)
  const sortedJobMs = jobsByTime.map((j) => j.ms)
  for (let i = 0; i < applicationTimes.length; i++) {
    const ms = applicationTimes[i] as number
    const candidate = candidateBy(ms, noApplications)
    const newest = Math.max(0, lastAtOrBefore(sortedJobMs, ms))
    const oldestRecent = Math.max(0, lastAtOrBefore(sortedJobMs, ms - 60 * DAY))
    const job = (jobsByTime[maker.int(oldestRecent, newest)] as { job: StoredJob }).job
    const id = i + 1
    applications.push(maker.application(id, ms, nowMs, candidate, vacancies.get(job.id) as Application['vacancy']))
    applicationCandidates[id] = candidate.id
  }
  for (const [index, seed] of (records.applications ?? []).entries()) {
    const s = seed as ApplicationSeed
    const id = s.id ?? applications.length + 1
    const at = applications.findIndex((a) => a.id === id)
    const candidate = candidateById.get(s.candidate_id ?? applicationCandidates[id] ?? (candidates[0]?.id as number))
    const vacancy = vacancies.get(s.job_id ?? applications[at]?.vacancy.id ?? (jobs[0]?.id as number))
    if (!candidate || !vacancy) {
      throw new ScenarioError(
        `Scenario "${scenario.name}": application ${id} names a ${candidate ? 'job' : 'candidate'} that does not exist.`,
        `records.applications[${index}].${candidate ? 'job_id' : 'candidate_id'}`,
      )
    }
    const ms = s.created_at ? parseTime(s.created_at) : at >= 0 ? parseTime((applications[at] as Application).created_at) : maker.between(parseTime(candidate.created_at), nowMs)
    const application = maker.application(id, ms, nowMs, candidate, vacancy, s)
    if (at >= 0) applications[at] = application
    else applications.push(application)
    applicationCandidates[id] = candidate.id
    if (s.attachment_filesize !== undefined) attachmentSizes.set(id, s.attachment_filesize)
  }

  // marketing: approvals and revocations by candidates, and by e-mails with no account
  const marketing: MarketingRecord[] = []
  const lastAction = new Map<string, string>()
  const strangers = Array.from({ length: Math.max(1, Math.ceil(counts.marketing / 5)) }, () => maker.unknownEmail())
  const marketingTimes = sortedTimes(maker, counts.marketing, startMs, nowMs)
  for (const ms of marketingTimes) {
    // before the first registration only strangers can give consent
    const stranger = candidates.length === 0 || ms < (creationMs[0] as number) || maker.chance(ctx.mix.unknownMarketingEmail)
    const candidate = stranger ? undefined : candidateBy(ms, new Set())
    const email = candidate ? candidate.email : (strangers[maker.int(0, strangers.length - 1)] as string)
    const previous = lastAction.get(email)
    const action = previous === APPROVED ? (maker.chance(ctx.mix.revoked * 2) ? REVOKED : APPROVED) : previous === undefined && maker.chance(ctx.mix.revoked / 3) ? REVOKED : APPROVED
    lastAction.set(email, action)
    const at = candidate ? Math.max(ms, parseTime(candidate.created_at)) : ms
    marketing.push({ candidate: { email, id: candidate?.id ?? 0, ip_address: maker.ip() }, action, created_at: formatTimestamp(at) })
  }
  for (const [index, seed] of (records.marketing ?? []).entries()) {
    const s = seed as MarketingSeed
    const candidate = s.candidate_id ? candidateById.get(s.candidate_id) : candidates.find((c) => c.email === s.email)
    if (s.candidate_id && !candidate) throw new ScenarioError(`Scenario "${scenario.name}": a marketing record names candidate ${s.candidate_id}, which does not exist.`, `records.marketing[${index}].candidate_id`)
    const email = candidate?.email ?? s.email ?? maker.unknownEmail()
    marketing.push({
      candidate: { email, id: candidate?.id ?? 0, ip_address: s.ip_address ?? maker.ip() },
      action: s.action ?? APPROVED,
      created_at: s.created_at ?? formatTimestamp(maker.between(candidate ? parseTime(candidate.created_at) : startMs, nowMs)),
    })
  }
  marketing.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))

  const linked = linkCandidates(candidates, files, applications, applicationCandidates, marketing, ctx.links, maker, nowMs)
  return {
    jobs,
    candidates: linked,
    applications,
    applicationCandidates,
    attachmentSizes,
    files,
    marketing,
    metrics: countMetrics(scenario, maker, { jobs, candidates: linked, applications, files, marketing }, nowMs),
  }

}

/** Attaches each candidate's files, applications and consent, newest first, and dates the candidate by its latest change. */
function linkCandidates(
  candidates: CandidateBase[],
  files: StoredFile[],
  applications: Application[],
  applicationCandidates: readonly number[],
  marketing: MarketingRecord[],
  links: Links,
  maker: RecordMaker,
  nowMs: number,
): Candidate[] {
  const byCandidate = new Map<number, { timesheet: StoredFile[]; resume: StoredFile[]; document: StoredFile[]; applications: Application[]; marketing: MarketingRecord[] }>()
  const slot = (id: number) => {
    let entry = byCandidate.get(id)
    if (!entry) {
      entry = { timesheet: [], resume: [], document: [], applications: [], marketing: [] }
      byCandidate.set(id, entry)
    }
    return entry
  }
  for (const file of files) slot(file.candidate_id)[file.kind].push(file)
  for (const application of applications) slot(applicationCandidates[application.id] as number).applications.push(application)
  for (const record of marketing) if (record.candidate.id !== 0) slot(record.candidate.id).marketing.push(record)

  const jobRefs = new WeakMap()
  const byNewest = <T extends { created_at: string; id?: number }>(items: T[]) =>
    items.sort((a, b) => newestFirst(a, b) || (b.id ?? 0) - (a.id ?? 0))

  return candidates.map((base) => {
    const own = slot(base.id)
    const consent = byNewest([...own.marketing]).map(consentEntryOf)
    const candidate: Candidate = {
      ...base,
      timesheets: byNewest(own.timesheet).map((f) => fileEntry(f, links)),
      resumes: byNewest(own.resume).map((f) => fileEntry(f, links)),
      documents: byNewest(own.document).map((f) => fileEntry(f, links)),
      applications: byNewest(own.applications).map((a) => applicationEntry(a, jobRefs)),
      consent,
      marketing_opted_in: optedIn(consent, APPROVED),
    }
    const activity = [
      candidate.updated_at,
      candidate.timesheets[0]?.created_at,
      candidate.resumes[0]?.created_at,
      candidate.documents[0]?.created_at,
      candidate.applications[0]?.application_date,
      candidate.consent[0]?.date,
    ].filter((t): t is string => t !== undefined)
    // biome-ignore lint/complexity/useMathMinMax: timestamps are strings, which Math.max would turn into NaN
    let updated = activity.reduce((a, b) => (a > b ? a : b))
    // some candidates edit their profile after their last activity
    if (maker.chance(0.4)) updated = formatTimestamp(maker.between(parseTime(updated), nowMs))
    candidate.updated_at = updated
    candidate.last_login = formatTimestamp(maker.between(parseTime(updated), nowMs))
    return candidate
  })
}

function countMetrics(
  scenario: LoadedScenario,
  maker: RecordMaker,
  board: { jobs: StoredJob[]; candidates: Candidate[]; applications: Application[]; files: StoredFile[]; marketing: MarketingRecord[] },
  nowMs: number,
): Metrics {
  const metrics = new Metrics()
  for (const job of board.jobs) metrics.add(COUNTED_METRICS.jobs, monthOfTimestamp(job.created_at))
  for (const candidate of board.candidates) metrics.add(COUNTED_METRICS.candidates, monthOfTimestamp(candidate.created_at))
  for (const application of board.applications) metrics.add(COUNTED_METRICS.applications, monthOfTimestamp(application.created_at))
  for (const file of board.files) if (file.kind === 'timesheet') metrics.add(COUNTED_METRICS.timesheets, monthOfTimestamp(file.created_at))
  for (const record of board.marketing) {
    if (record.action === APPROVED) metrics.add(COUNTED_METRICS.optIns, monthOfTimestamp(record.created_at))
    if (record.action === REVOKED) metrics.add(COUNTED_METRICS.optOuts, monthOfTimestamp(record.created_at))
  }
  const nowMonth = monthOfTimestamp(formatTimestamp(nowMs))
  const perMonth = board.candidates.length / Math.max(1, scenario.historyMonths)
  for (const [label, { months, perCandidate }] of Object.entries(GENERATED_METRICS) as Array<[MetricLabel, { months: number; perCandidate: number }]>) {
    const span = scenario.metricMonths[label] ?? Math.min(months, scenario.historyMonths)
    const mean = perMonth * perCandidate * 10
    for (let i = 0; i < span; i++) {
      const month = shiftMonth(nowMonth, -i)
      metrics.add(label, month, mean === 0 ? 0 : maker.int(Math.floor(mean * 0.5), Math.ceil(mean * 1.5)))
      metrics.startAt(label, month)
    }
  }
  for (const [label, span] of Object.entries(scenario.metricMonths)) {
    if (span !== undefined) metrics.startAt(label as MetricLabel, shiftMonth(nowMonth, -(span - 1)))
  }
  return metrics
}

