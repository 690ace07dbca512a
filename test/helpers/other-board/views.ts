// How the second server writes its records and answers: the resource tables of the spec,
// each field as the spec types it, in the order and with the extras a style chooses, and
// its JSON the way a PHP service (style a) or a plain one (style b) would print it.
import { type Application, type Board, type Candidate, type FileEntry, type Marketing, monthName, type Style, stamp } from './data.js'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }

/** Style a prints keys in alphabetical order (a serializer that sorts); style b in the spec's order. */
export function ordered(style: Style, object: Obj): Obj {
  if (style === 'b') return object
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key] as Json]))
}

/** JSON as PHP's json_encode prints it by default (style a: `\/` and `\uXXXX`), or plain (style b). */
export function encode(style: Style, value: unknown): string {
  const text = JSON.stringify(value)
  if (style === 'b') return text
  return text.replace(/\//g, '\\/').replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

export interface Links {
  /** The deployment's {base_url}: origin and base path. */
  base: string
}

const api = (links: Links, path: string) => `${links.base}/api/v1${path}`

export const nameOf = (c: Candidate) => `${c.first} ${c.last}`
export const phoneOf = (id: number) => `07${String((id * 7919) % 1_000_000_000).padStart(9, '0')}`

/** The id a timesheet's file is downloaded by at /candidates/timesheet/{id}: style b keeps it apart from the record's id. */
export const timesheetFileId = (style: Style, f: FileEntry) => (style === 'b' ? f.id + 400_000 : f.id)

function fileEntry(style: Style, links: Links, f: FileEntry): Obj {
  return ordered(style, {
    filename: f.filename,
    href: api(links, `/candidates/${f.kind}/${f.kind === 'timesheet' ? timesheetFileId(style, f) : f.id}`),
    filesize: String(f.filesize),
    created_at: stamp(f.created),
  })
}

/** Style a lists a candidate's own entries newest first, style b oldest first. */
const byAge = <T>(style: Style, items: T[], time: (item: T) => number) => [...items].sort((x, y) => (style === 'a' ? time(y) - time(x) : time(x) - time(y)))

function dayWithSuffix(day: number): string {
  const suffix = day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'
  return `${day}${suffix}`
}

export function candidateView(board: Board, links: Links, c: Candidate): Obj {
  const style = board.style
  const files = (kind: FileEntry['kind']) => byAge(style, board.files.filter((f) => f.candidateId === c.id && f.kind === kind), (f) => f.created).map((f) => fileEntry(style, links, f))
  const consent = board.marketing.filter((m) => m.candidateId === c.id)
  const latest = [...consent].sort((x, y) => y.created - x.created || y.seq - x.seq)[0]
  const applications = byAge(style, board.applications.filter((x) => x.candidateId === c.id), (x) => x.created).map((x) => {
    const job = board.jobs.find((j) => j.id === x.jobId)
    return ordered(style, {
      job: ordered(style, { id: x.jobId, title: job?.title ?? '', reference: job?.reference ?? '', location: job?.location ?? '' }),
      href: api(links, `/applications/details/${x.id}`),
      application_date: stamp(x.created),
    })
  })
  const available = new Date(c.availableFrom * 1000)
  const day = available.getUTCDate()
  const month = available.getUTCMonth()
  const year = available.getUTCFullYear()
  const disciplines = c.sectorDisciplines.filter((s) => s.includes('::')).map((s) => s.split('::')[1] as string)
  const record: Obj = {
    id: c.id,
    identifier: style === 'a' ? `c${c.id.toString(36)}` : `CAND-${String(c.id).padStart(8, '0')}`,
    email: board.emailOf(c),
    signup_email: board.emailOf(c),
    name: nameOf(c),
    telephone: phoneOf(c.id),
    address: c.id % 3 === 0 ? '' : `${(c.id % 90) + 1} High Street`,
    city: c.town,
    county: c.id % 4 === 0 ? '' : 'Somerset',
    country: 'United Kingdom',
    postcode: c.id % 5 === 0 ? '' : `BA${(c.id % 9) + 1} ${(c.id % 8) + 1}AB`,
    last_login: stamp(c.lastLogin),
    created_at: stamp(c.created),
    updated_at: stamp(c.updated),
    marketing_opted_in: latest?.action === 'Granted' ? 1 : 0,
    hot: c.id % 7 === 0 ? 1 : 0,
    featured: c.id % 11 === 0 ? 1 : 0,
    job_title: c.title,
    current_employer: c.id % 2 === 0 ? 'Medivet' : 'Independent practice',
    current_salary: '£30,000 - £35,000',
    preferred_salary: '£35k+',
    seeking: c.id % 2 === 0 ? 'Permanent' : 'Locum work',
    notice_period: c.id % 3 === 0 ? 'Immediately' : '4 weeks',
    cover_letter: `Dear hiring manager, I am ${c.first}.`,
    overview: style === 'a' ? 'Experienced & caring <b>vet</b> / nurse' : 'Experienced and caring.',
    work_eligible: c.id % 9 === 0 ? '0' : '1',
    preferred_job_titles: [c.title],
    sectors: c.sectors,
    disciplines,
    employment_types: ['Full time'],
    contract_types: c.id % 2 === 0 ? ['Permanent'] : ['Locum', 'Temporary'],
    expertise: c.id % 3 === 0 ? [] : ['Surgery', 'Dentistry'],
    locations: [c.town],
    sector_disciplines: c.sectorDisciplines,
    available_from: stamp(c.availableFrom).slice(0, 10),
    available_from_year: String(year),
    // style a writes the day number with a leading zero ("07"), as PHP's date('d') does
    available_from_day: style === 'a' ? String(day).padStart(2, '0') : String(day),
    available_from_month: monthName(month, style),
    available_from_hr: `${dayWithSuffix(day)} ${monthName(month, 'a')} ${year}`,
    experience: '5 years,small animals',
    specialisms: 'Orthopaedics',
    qualifications: 'BVSc MRCVS',
    skills: 'Surgery,Dentistry,Client care',
    latitude: c.id % 4 === 0 ? '' : '51.3811',
    longitude: c.id % 4 === 0 ? '' : '-2.3590',
    timesheets: files('timesheet'),
    resumes: files('resume'),
    documents: files('document'),
    applications,
    consent: byAge(style, consent, (m) => m.created).map((m) => ordered(style, { type: 'Email marketing', value: m.action, date: stamp(m.created), ip_address: m.ip })),
  }
  // a field the spec does not list: a deployment may carry more than the spec shows
  if (style === 'b') record.profile_completeness = 40 + (c.id % 60)
  return ordered(style, record)
}

export function applicationView(board: Board, links: Links, x: Application, inList: boolean): Obj {
  const style = board.style
  const job = board.jobs.find((j) => j.id === x.jobId)
  const candidate = x.candidateId === undefined ? undefined : board.candidates.find((c) => c.id === x.candidateId)
  const person = candidate ? { name: nameOf(candidate), email: board.emailOf(candidate), telephone: phoneOf(candidate.id) } : (x.guest as NonNullable<Application['guest']>)
  const record: Obj = {
    id: x.id,
    created_at: stamp(x.created),
    updated_at: stamp(x.updated),
    applicant: ordered(style, {
      ...person,
      cover_letter: `I would like to apply for ${job?.title ?? 'this role'}.`,
      attachment: ordered(style, { href: api(links, `/applications/attachment/${x.id}`), filename: x.filename }),
    }),
    vacancy: ordered(style, { id: x.jobId, title: job?.title ?? '', location: job?.location ?? '', salary: job?.salary ?? '', reference: job?.reference ?? '' }),
  }
  // style a leaves href out of a detail ("in list items"); style b keeps it everywhere
  if (inList || style === 'b') record.href = api(links, `/applications/details/${x.id}`)
  if (style === 'a') record.channel = x.candidateId === undefined ? 'guest' : 'account'
  return ordered(style, record)
}

export function timesheetView(board: Board, links: Links, f: FileEntry): Obj {
  const style = board.style
  const c = board.candidates.find((x) => x.id === f.candidateId) as Candidate
  return ordered(style, {
    id: f.id,
    attachment: ordered(style, { href: api(links, `/candidates/timesheet/${timesheetFileId(style, f)}`), filename: f.filename, filesize: f.filesize }),
    created_at: stamp(f.created),
    candidate: ordered(style, { id: c.id, name: nameOf(c), email: board.emailOf(c), href: api(links, `/candidates/details/${c.id}`) }),
  })
}

export function marketingView(board: Board, m: Marketing): Obj {
  const style = board.style
  return ordered(style, {
    candidate: ordered(style, { email: m.email, id: m.candidateId, ip_address: m.ip }),
    action: m.action,
    created_at: stamp(m.created),
  })
}

const LABELS = ['Jobs created', 'Job searches', 'Client enquiries', 'Registrations', 'Applications', 'Timesheets', 'Consent opt-ins', 'Consent opt-outs', 'Job submissions', 'Candidate interest']

/** The metrics: counted from the board where it holds the events, seeded history elsewhere; newest month first, empty months at 0. */
export function metricsView(board: Board, jobsAdded: number): Obj[] {
  const style = board.style
  const now = new Date(board.now * 1000)
  const monthIndex = (seconds: number) => {
    const d = new Date(seconds * 1000)
    return (now.getUTCFullYear() - d.getUTCFullYear()) * 12 + now.getUTCMonth() - d.getUTCMonth()
  }
  const counted: Record<string, number[]> = {
    Registrations: board.candidates.map((c) => c.created),
    Applications: board.applications.map((x) => x.created),
    Timesheets: board.files.filter((f) => f.kind === 'timesheet').map((f) => f.created),
    'Consent opt-ins': board.marketing.filter((m) => m.action === 'Granted').map((m) => m.created),
    'Consent opt-outs': board.marketing.filter((m) => m.action === 'Revoked').map((m) => m.created),
  }
  // the number of months per metric differs (the spec): history is seeded per label
  // style b adds a label of its own: the spec lists the labels returned, not that no other comes
  const labels = style === 'a' ? LABELS : [...LABELS].reverse().concat('Job alerts sent')
  return labels.map((label, i) => {
    const times = counted[label]
    const months = times ? Math.max(1, ...times.map((t) => monthIndex(t) + 1)) : 3 + ((i * 5 + (style === 'a' ? 2 : 7)) % 11)
    const totals = Array.from({ length: months }, (_, back) => {
      if (times) return times.filter((t) => monthIndex(t) === back).length
      const base = ((back * 37 + i * 11) % 9) * (back % 4 === 3 ? 0 : 1)
      return label === 'Job submissions' && back === 0 ? base + jobsAdded : label === 'Jobs created' && back === 0 ? base + jobsAdded : base
    })
    const aggregations = totals.map((total, back) => {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))
      return ordered(style, { year: String(d.getUTCFullYear()), month: monthName(d.getUTCMonth(), style), total })
    })
    return ordered(style, { label, total: totals.reduce((a, b) => a + b, 0), aggregations })
  })
}
