// The second server's board: seeded records (candidates with their files, applications,
// guest applications, timesheets, marketing records, jobs), made from the spec's resource
// tables alone, and the arrivals of a live board. No import from src/ or schemas/: this
// board must not share the fake's reading of the spec. Time comes from the `now` option
// and moves only when a record arrives; randomness from a small seeded generator.

export type Style = 'a' | 'b'

/** mulberry32: a tiny seeded generator, enough for test data. */
export function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = state
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

export type Rand = ReturnType<typeof prng>
const int = (rand: Rand, low: number, high: number) => low + Math.floor(rand() * (high - low + 1))
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T

// ---- time: board seconds since the epoch, written as the spec's timestamps ----

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
export const monthName = (month: number, style: Style) => (style === 'a' ? (MONTHS[month] as string) : (MONTHS[month] as string).slice(0, 3))
const two = (n: number) => String(n).padStart(2, '0')

/** `YYYY-MM-DD HH:MM:SS` (UTC) of board seconds. */
export function stamp(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
}

/** Board seconds of `YYYY-MM-DD HH:MM[:SS]`, or undefined when it is not one (or not a real date). */
export function parseStamp(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text)
  if (!m) return undefined
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? '0')) as [number, number, number, number, number, number]
  const ms = Date.UTC(y, mo - 1, d, h, mi, s)
  const back = new Date(ms)
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined
  return ms / 1000
}

// ---- the constrained job values, as the spec lists them ----

export const JOB_FIELDS = {
  job_industry: [
    'Veterinary Surgeon',
    'Veterinary Surgeon/Small Animal Vet Surgeon',
    'Veterinary Surgeon/Mixed Animal Vet Surgeon',
    'Veterinary Surgeon/Equine Vet Surgeon',
    'Veterinary Surgeon/Night Vet Surgeon',
    'Veterinary Surgeon/Head Vet Surgeon',
    'Veterinary Surgeon/Veterinary Clinical Director',
    'Registered Veterinary Nurse',
    'Registered Veterinary Nurse/Small Animal RVN',
    'Registered Veterinary Nurse/Night RVN',
    'Registered Veterinary Nurse/Head Veterinary Nurse',
    'Veterinary Admin / Other',
    'Veterinary Admin / Other/Veterinary Receptionist',
    'Veterinary Admin / Other/Vet Care Assistant',
    'Veterinary Admin / Other/Veterinary Practice Manager',
  ],
  job_type: ['Full time', 'Part time', 'Night time'],
  contract_type: ['Permanent', 'Locum', 'Contract', 'Maternity cover', 'Temporary'],
  salary_unit: ['Per hour', 'Per year', 'Per week', 'Per month'],
  salary_currencies: ['GBP'],
  job_telecommute: ['yes', 'no'],
} as const

const SECTORS = ['Veterinary Surgeon', 'Registered Veterinary Nurse', 'Veterinary Admin / Other']
const DISCIPLINES: Record<string, string[]> = {
  'Veterinary Surgeon': ['Small Animal Vet Surgeon', 'Mixed Animal Vet Surgeon', 'Equine Vet Surgeon', 'Night Vet Surgeon'],
  'Registered Veterinary Nurse': ['Small Animal RVN', 'Night RVN', 'Head Veterinary Nurse'],
  'Veterinary Admin / Other': ['Veterinary Receptionist', 'Vet Care Assistant', 'Veterinary Practice Manager'],
}

/** Places a job may name without coordinates (the spec's "predefined location list"). */
export const PLACES: Record<string, [number, number]> = {
  London: [51.5072, -0.1276],
  Manchester: [53.4808, -2.2426],
  Bristol: [51.4545, -2.5879],
  Leeds: [53.8008, -1.5491],
  Glasgow: [55.8642, -4.2518],
}

const FIRST = ['Ada', 'Zoë', 'Siân', 'Bartłomiej', 'Chloé', 'Tomás', 'Grace', 'Oluwaseun', 'Mei', 'Rhys', 'Aoife', 'Jürgen', 'Priya', 'Callum', 'Niamh']
const LAST = ['Lovelace', 'Brontë', 'Llewellyn', 'Nowak', 'Dubois', "O'Connor", 'Hopper', 'Adeyemi', 'Chen', 'Evans', 'Ní Bhriain', 'Müller', 'Patel', 'MacLeod']
const TOWNS = ['Bath', 'York', 'Cardiff', 'Truro', 'Inverness', 'Norwich', 'Hexham']
const TITLES = ['Small Animal Vet', 'Night RVN', 'Practice Manager', 'Equine Vet', 'Receptionist', 'Head Nurse', 'Clinical Director']

// ---- records ----

export interface FileEntry {
  id: number
  kind: 'timesheet' | 'resume' | 'document'
  filename: string
  filesize: number
  created: number
  candidateId: number
}

export interface Job {
  id: number
  title: string
  reference: string
  location: string
  salary: string
  published: boolean
  expired: boolean
  deleted: boolean
  closingDate: string
  expiryDate: string
}

export interface Candidate {
  id: number
  first: string
  last: string
  created: number
  updated: number
  lastLogin: number
  sectors: string[]
  sectorDisciplines: string[]
  availableFrom: number
  town: string
  title: string
}

export interface Application {
  id: number
  jobId: number
  /** The candidate who applied, or undefined for a guest (a person with no candidate account). */
  candidateId: number | undefined
  guest: { name: string; email: string; telephone: string } | undefined
  created: number
  updated: number
  filename: string
  filesize: number
}

export interface Marketing {
  /** Its order among the marketing records (the spec gives them no id). */
  seq: number
  candidateId: number
  email: string
  ip: string
  action: string
  created: number
}

export interface Counts {
  candidates: number
  applications: number
  timesheets: number
  marketing: number
}

export interface BoardSetup {
  style: Style
  seed: number
  /** Board seconds of "now". */
  now: number
  counts: Counts
  /** Share of applications made by guests, 0..1. */
  guestShare: number
}

const DAY = 86400

export class Board {
  readonly style: Style
  now: number
  readonly rand: Rand
  jobs: Job[] = []
  candidates: Candidate[] = []
  files: FileEntry[] = []
  applications: Application[] = []
  marketing: Marketing[] = []
  nextJobId: number
  private nextIds: Record<'candidate' | 'application' | 'file' | 'timesheet', number>
  private arrivals = 0

  constructor(setup: BoardSetup) {
    this.style = setup.style
    this.now = setup.now
    this.rand = prng(setup.seed)
    const rand = this.rand
    // ids start high and leave gaps: a deployment's ids are its own business
    const a = setup.style === 'a'
    this.nextJobId = a ? 80_017 : 3_000_001
    this.nextIds = a
      ? { candidate: 48_213, application: 700_101, file: 9_000_001, timesheet: 120_500 }
      : { candidate: 1_000_003, application: 52_001, file: 310_000, timesheet: 77_777 }
    for (let i = 0; i < 9; i++) this.addJob(rand, this.now - int(rand, 60, 300) * DAY, true)
    const start = this.now - 240 * DAY
    const span = 230 * DAY
    const times = (n: number) =>
      Array.from({ length: n }, () => start + Math.floor(rand() * span))
        .sort((x, y) => x - y)
    for (const created of times(setup.counts.candidates)) this.makeCandidate(created)
    for (const created of times(setup.counts.timesheets)) {
      const owner = this.candidates.filter((c) => c.created <= created)
      const candidate = owner.length > 0 ? pick(rand, owner) : (this.candidates[0] as Candidate)
      this.makeFile('timesheet', candidate, Math.max(created, candidate.created + 60))
    }
    for (const candidate of this.candidates) {
      const resumes = int(rand, 0, 2)
      for (let i = 0; i < resumes; i++) this.makeFile('resume', candidate, candidate.created + int(rand, 60, 20 * DAY))
      if (rand() < 0.4) this.makeFile('document', candidate, candidate.created + int(rand, 60, 30 * DAY))
    }
    for (const created of times(setup.counts.applications)) {
      const pool = this.candidates.filter((c) => c.created <= created)
      const guest = pool.length === 0 || rand() < setup.guestShare
      this.makeApplication(created, guest ? undefined : pick(rand, pool))
    }
    for (const created of times(setup.counts.marketing)) {
      const pool = this.candidates.filter((c) => c.created <= created)
      // some consent records come from an e-mail with no account (candidate id 0)
      const candidate = pool.length > 0 && rand() < 0.8 ? pick(rand, pool) : undefined
      this.makeMarketing(created, candidate)
    }
    // a record changes after it is made: updated_at runs on its own
    for (const c of this.candidates) {
      const files = this.files.filter((f) => f.candidateId === c.id).map((f) => f.created)
      const apps = this.applications.filter((x) => x.candidateId === c.id).map((x) => x.created)
      c.updated = Math.max(c.created, Math.min(this.now - 60, Math.max(c.updated, ...files, ...apps)))
    }
  }

  private nextId(kind: keyof Board['nextIds']): number {
    const id = this.nextIds[kind]
    this.nextIds[kind] = id + 1 + int(this.rand, 0, 4)
    return id
  }

  addJob(rand: Rand, created: number, published: boolean, fields?: { title: string; reference: string; location: string; salary: string }): Job {
    const id = this.nextJobId
    this.nextJobId += 1 + int(rand, 0, 3)
    const title = fields?.title ?? pick(rand, TITLES)
    const unit = pick(rand, ['per hour', 'per year'])
    const job: Job = {
      id,
      title,
      reference: fields?.reference ?? `REF-${id}`,
      location: fields?.location ?? pick(rand, Object.keys(PLACES)),
      salary: fields?.salary ?? (unit === 'per hour' ? `£${int(rand, 12, 30)}.50 ${unit}` : `£${int(rand, 28, 90)},000 ${unit}`),
      published,
      expired: false,
      deleted: false,
      closingDate: stamp(created + 60 * DAY).slice(0, 16),
      expiryDate: stamp(created + 90 * DAY).slice(0, 16),
    }
    this.jobs.push(job)
    return job
  }

  private makeCandidate(created: number): Candidate {
    const rand = this.rand
    const sectors = [pick(rand, SECTORS)]
    if (rand() < 0.3) sectors.push(pick(rand, SECTORS.filter((s) => s !== sectors[0])))
    const sectorDisciplines = sectors.map((s) => (rand() < 0.7 ? `${s}::${pick(rand, DISCIPLINES[s] as string[])}` : s))
    // style a: a discipline may name a sector the candidate did not tick ("sectors" and
    // "sector_disciplines" are two fields; the spec never ties one to the other)
    if (this.style === 'a' && rand() < 0.35) {
      const other = SECTORS.find((s) => !sectors.includes(s)) as string
      sectorDisciplines.push(`${other}::${pick(rand, DISCIPLINES[other] as string[])}`)
    }
    const candidate: Candidate = {
      id: this.nextId('candidate'),
      first: pick(rand, FIRST),
      last: pick(rand, LAST),
      created,
      updated: created + int(rand, 0, 10 * DAY),
      lastLogin: created + int(rand, 0, 20 * DAY),
      sectors,
      sectorDisciplines,
      availableFrom: created + int(rand, 5, 60) * DAY,
      town: pick(rand, TOWNS),
      title: pick(rand, TITLES),
    }
    candidate.updated = Math.max(created, Math.min(candidate.updated, this.now - 60))
    candidate.lastLogin = Math.max(created, Math.min(candidate.lastLogin, this.now - 60))
    this.candidates.push(candidate)
    return candidate
  }

  private makeFile(kind: FileEntry['kind'], candidate: Candidate, created: number): FileEntry {
    const rand = this.rand
    const id = kind === 'timesheet' ? this.nextId('timesheet') : this.nextId('file')
    const who = `${candidate.first} ${candidate.last}`
    const filename =
      this.style === 'a'
        ? { timesheet: `Timesheet week ${int(rand, 1, 52)} ${who}.xlsx`, resume: `${who} CV.pdf`, document: `${who} RCVS certificate.pdf` }[kind]
        : { timesheet: `timesheet-${id}.xlsx`, resume: `cv-${candidate.id}-${id}.docx`, document: `document-${id}.pdf` }[kind]
    const file: FileEntry = { id, kind, filename, filesize: int(rand, 900, 6000), created: Math.min(created, this.now - 30), candidateId: candidate.id }
    this.files.push(file)
    return file
  }

  private makeApplication(created: number, candidate: Candidate | undefined): Application {
    const rand = this.rand
    const job = pick(rand, this.jobs)
    const first = pick(rand, FIRST)
    const last = pick(rand, LAST)
    const guest = candidate === undefined ? { name: `${first} ${last}`, email: emailOf(first, last, int(rand, 1, 999), 'guest.example'), telephone: phone(rand) } : undefined
    const id = this.nextId('application')
    const application: Application = {
      id,
      jobId: job.id,
      candidateId: candidate?.id,
      guest,
      created,
      updated: Math.max(created, Math.min(created + int(rand, 0, 5 * DAY), this.now - 60)),
      filename: this.style === 'a' ? `Cover letter and CV ${id}.pdf` : `application_${id}.pdf`,
      filesize: int(rand, 900, 5000),
    }
    this.applications.push(application)
    return application
  }

  private makeMarketing(created: number, candidate: Candidate | undefined): Marketing {
    const rand = this.rand
    const first = pick(rand, FIRST)
    const last = pick(rand, LAST)
    const record: Marketing = {
      seq: this.marketing.length + 1,
      candidateId: candidate?.id ?? 0,
      email: candidate ? this.emailOf(candidate) : emailOf(first, last, int(rand, 1, 99), 'list.example'),
      ip: `${int(rand, 11, 200)}.${int(rand, 0, 255)}.${int(rand, 0, 255)}.${int(rand, 1, 254)}`,
      action: rand() < 0.3 ? 'Revoked' : 'Granted',
      created,
    }
    this.marketing.push(record)
    return record
  }

  emailOf(c: Candidate): string {
    return emailOf(c.first, c.last, c.id, 'candidates.example')
  }

  /** A live board: one record arrives, of each kind in turn, a minute after the last thing that happened. */
  arrive(): void {
    this.now += 60
    const kind = this.arrivals++ % 4
    if (kind === 0) this.makeCandidate(this.now)
    else if (kind === 1) this.makeApplication(this.now, undefined)
    else if (kind === 2) {
      const candidate = this.candidates.at(-1) as Candidate
      this.makeFile('timesheet', candidate, this.now)
      candidate.updated = this.now
    } else if (this.style === 'a') this.makeMarketing(this.now, undefined)
    else this.makeCandidate(this.now)
  }

  counts(): Counts & { jobs: number; guestApplications: number } {
    return {
      candidates: this.candidates.length,
      applications: this.applications.length,
      timesheets: this.files.filter((f) => f.kind === 'timesheet').length,
      marketing: this.marketing.length,
      jobs: this.jobs.filter((j) => !j.deleted).length,
      guestApplications: this.applications.filter((x) => x.candidateId === undefined).length,
    }
  }
}

function plain(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
}

export const emailOf = (first: string, last: string, n: number, domain: string) => `${plain(first)}.${plain(last)}${n}@${domain}`
export const phone = (rand: Rand) => `07${String(int(rand, 100_000_000, 999_999_999))}`

/** The bytes of a file: a line naming it, then seeded bytes up to its size. */
export function fileBytes(seed: number, name: string, size: number): Buffer {
  const head = Buffer.from(`${name}\n`, 'utf8')
  const rand = prng(seed)
  const body = Buffer.alloc(size)
  for (let i = 0; i < size; i++) body[i] = i < head.length ? (head[i] as number) : Math.floor(rand() * 256)
  return body
}

export { DAY, int, pick }
