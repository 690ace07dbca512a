// How one record shows up inside another: a file as a candidate's File entry or as a
// Timesheet list entry, an application as a Candidate application entry, a marketing
// record as a Consent entry, a job as an application's vacancy. Used both when a board
// is generated and when records are added later, so the two cannot disagree.
import { MARKETING_CONSENT_TYPE } from '../../../schemas/values.js'
import type {
  Application,
  Candidate,
  CandidateApplicationEntry,
  ConsentEntry,
  FileEntry,
  MarketingRecord,
  StoredFile,
  StoredJob,
  Timesheet,
} from '../../core/types.js'
import type { Links } from './record-links.js'
import { CURRENCY_SYMBOL } from './vocabulary.js'
import { penceAmount, wholeAmount } from './money.js'

export function fileEntry(file: StoredFile, links: Links): FileEntry {
  return {
    filename: file.filename,
    href: links.file(file.kind, file.id),
    filesize: String(file.filesize),
    created_at: file.created_at,
  }
}

/** A timesheet as its candidate lists it: what fileEntry() gives for the file behind it. */
export function fileEntryOfTimesheet(timesheet: Timesheet): FileEntry {
  const { filename, href, filesize } = timesheet.attachment
  return { filename, href, filesize: String(filesize), created_at: timesheet.created_at }
}

export function timesheetEntry(file: StoredFile, candidate: Pick<Candidate, 'id' | 'name' | 'email'>, links: Links): Timesheet {
  return {
    id: file.id,
    attachment: { href: links.file('timesheet', file.id), filename: file.filename, filesize: file.filesize },
    created_at: file.created_at,
    candidate: { id: candidate.id, name: candidate.name, email: candidate.email, href: links.candidate(candidate.id) },
  }
}

/** `£45,000 per year`, `£23.50 per hour`: display text with currency symbol and unit. */
export function salaryText(precise: string, unit: string, currency: string): string {
  const amount = Number(precise)
  const figure = Number.isInteger(amount) ? wholeAmount(amount) : penceAmount(amount)
  const symbol = CURRENCY_SYMBOL[currency]
  return `${symbol ?? `${currency} `}${figure} ${unit.toLowerCase()}`
}

export type Vacancy = Application['vacancy']
export type JobRef = CandidateApplicationEntry['job']

export function vacancyOf(job: StoredJob): Vacancy {
  return {
    id: job.id,
    title: job.job_title,
    location: job.job_location,
    salary: salaryText(job.salary_precise, job.salary_unit, job.salary_currency),
    reference: job.job_reference,
  }
}

/**
 * An application as its candidate lists it. `jobRefs`, when given, shares one job
 * object per vacancy between entries (a million entries need not hold a million).
 */
export function applicationEntry(application: Application, jobRefs?: WeakMap<Vacancy, JobRef>): CandidateApplicationEntry {
  let job = jobRefs?.get(application.vacancy)
  if (!job) {
    const { id, title, reference, location } = application.vacancy
    job = { id, title, reference, location }
    jobRefs?.set(application.vacancy, job)
  }
  return { job, href: application.href, application_date: application.created_at }
}

export function consentEntryOf(record: MarketingRecord): ConsentEntry {
  return { type: MARKETING_CONSENT_TYPE, value: record.action, date: record.created_at, ip_address: record.candidate.ip_address }
}

/**
 * The latest consent decides whether the candidate is opted in to marketing: any value but
 * the revocation is an approval, the board's approval word being its own (a knob).
 */
export function optedIn(consent: readonly ConsentEntry[], revocation: string): 0 | 1 {
  return consent[0] !== undefined && consent[0].value !== revocation ? 1 : 0
}

/** Newest first, then highest id first, as every list of the board. */
export const newestFirst = <T extends { created_at: string }>(a: T, b: T) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0
