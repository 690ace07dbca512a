// One record at a time, from a seeded faker: a job, a candidate (before its lists), a
// file, an application, a marketing record's parts. Used by the procedural board
// (src/fake/store/generate.ts), which seeds the faker from (seed, kind, id) before each record,
// and by the control API's adds (src/fake/store/adds.ts), which seed it from the number of adds.
// finishRecord() gives any record, made or loaded, what the board's behaviour adds to it.
import type { Faker } from '@faker-js/faker'
import { industrySplitter, type IndustrySplit } from '../../../schemas/values.js'
import type { DeepReadonly } from '../../core/freeze.js'
import { extraValues, type ExtraFieldRecord } from './extra-fields.js'
import type { BoardLists, LoadedScenario } from '../scenario.js'
import { addMonth, availabilityParts, formatDate, formatMinute, formatTimestamp, parseTime, styledMonth } from '../../core/time.js'
import type { Application, ApplicationSeed, Candidate, CandidateSeed, JobSeed, PredefinedLocation, StoredFile, StoredJob } from '../../core/types.js'
import type { FileKind, Links } from './record-links.js'
import * as V from './vocabulary.js'
import { wholeAmount } from './money.js'
import { CLOCK_MAX_MS } from '../../core/clock.js'

/** A date no later than the clock's end: near it, a job would close and a candidate be available in year 10000, which no date can hold. */
const lastMinute = (ms: number) => Math.min(ms, CLOCK_MAX_MS)

const DAY = 86_400_000

export interface MakerContext {
  faker: Faker
  lists: BoardLists
  locations: readonly DeepReadonly<PredefinedLocation>[]
  links: Links
  mix: LoadedScenario['mix']
  /** Cover letters shared by every application of a board, made once from their own seed. */
  coverLetters?: readonly string[]
}

/** A candidate before its files, applications and consent are attached. */
export type CandidateBase = Omit<Candidate, 'timesheets' | 'resumes' | 'documents' | 'applications' | 'consent'>

/** Who made an application, as it shows them: a candidate, or a guest (its `id` then the application's). */
export type Applicant = Pick<CandidateBase, 'id' | 'name' | 'email' | 'telephone'>

/** What a scenario or an add may give of a guest applicant. */
export type GuestSeed = NonNullable<ApplicationSeed['applicant']>

const slug = (text: string) => text.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '')

/** The letters a board's applications share: 64 strings, not one per application. */
export function coverLetterPool(faker: Faker): string[] {
  const pick = <T>(items: readonly T[]) => faker.helpers.arrayElement(items as T[])
  return Array.from(
    { length: 64 },
    () =>
      `Dear ${pick(['Practice Manager', 'Hiring Manager', 'Clinical Director', 'Sir or Madam'])}, I would like to apply for this role. ` +
      `I have ${faker.number.int({ min: 1, max: 20 })} years in ${pick(['small animal', 'mixed', 'equine', 'referral', 'first opinion'])} practice ` +
      `and a particular interest in ${pick(V.EXPERTISE).toLowerCase()}. My CV is attached.`,
  )
}

/**
 * A record as a board writes it: with its extra fields (made from `faker` where it lacks
 * them) and, for a candidate, its month name in the board's style.
 */
export function finishRecord<T extends object>(behaviour: LoadedScenario['behaviour'], kind: ExtraFieldRecord, record: T, faker: () => Faker): T {
  const fields = behaviour.extraFields[kind]
  const style = behaviour.monthNames
  const name = 'available_from_month' in record ? (record.available_from_month as string) : undefined
  const month = name !== undefined && styledMonth(name, style) !== name ? { available_from_month: styledMonth(name, style) } : {}
  const extra = fields && Object.keys(fields).some((name) => !(name in record)) ? extraValues(record, fields, faker()) : {}
  return Object.keys(month).length + Object.keys(extra).length === 0 ? record : { ...record, ...month, ...extra }
}

export class RecordMaker {
  readonly #f: Faker
  readonly #ctx: MakerContext
  /** Shared cover letters: a million applications need not hold a million strings. */
  #coverLetters: readonly string[] | undefined
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
      return { precise: String(precise), visible: top === precise ? `£${wholeAmount(precise)}` : `£${wholeAmount(precise)} - £${wholeAmount(top)} DOE` }
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
      available_from: formatMinute(lastMinute(createdMs + f.number.int({ min: 7, max: 60 }) * DAY)),
      closing_date: formatMinute(lastMinute(closing)),
      close_automatically: this.#chance(0.5) ? 1 : 0,
      expiry_date: formatMinute(lastMinute(addMonth(closing, 1))),
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
    const band = (n: number) => `£${wholeAmount(Math.round(n / 1000) * 1000)}`
    const current = f.number.int({ min: low, max: high })
    const available = formatDate(this.between(createdMs, lastMinute(nowMs + 90 * DAY)))
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

  /**
   * An applicant with no candidate account (a guest): the name, e-mail and telephone
   * given, the rest made up. Its e-mail carries no id, so it is never a generated
   * candidate's (theirs end in their id). `id` is the application's.
   */
  guest(id: number, seed: GuestSeed = {}): Applicant {
    const f = this.#f
    const [givenFirst, ...givenRest] = seed.name?.trim().split(/\s+/) ?? []
    const first = givenFirst || f.person.firstName()
    const last = givenRest.join(' ') || (seed.name === undefined ? f.person.lastName() : '')
    const local = [slug(first), slug(last)].filter((part) => part !== '').join('.').toLowerCase() || 'applicant'
    const domain = this.#pick(V.EMAIL_DOMAINS)
    return {
      id,
      name: seed.name ?? `${first} ${last}`,
      email: seed.email ?? `${local}@${domain}`,
      telephone: seed.telephone ?? f.phone.number(),
    }
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
    this.#coverLetters ??= this.#ctx.coverLetters ?? coverLetterPool(this.#f)
    return this.#pick(this.#coverLetters)
  }

  application(
    id: number,
    createdMs: number,
    nowMs: number,
    candidate: Applicant,
    vacancy: Application['vacancy'],
    seed: ApplicationSeed = {},
    /** When the application was last changed, if already drawn (a procedural board draws it in bulk). */
    updatedMs?: number,
  ): Application {
    const createdAt = seed.created_at ?? formatTimestamp(createdMs)
    // most applications never change; the few that do were updated later
    const updatedAt =
      updatedMs !== undefined ? formatTimestamp(updatedMs) : this.#chance(0.1) ? formatTimestamp(this.between(parseTime(createdAt), nowMs)) : createdAt
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

