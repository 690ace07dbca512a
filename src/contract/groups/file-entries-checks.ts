// A file listed more than once is one file: a File entry's `href` is the "URL of the
// download endpoint for that file" and its `filename` the name the download gives
// ("`Content-Disposition: attachment` with `filename` set to the original file name"), so
// two entries of the answers a run read that link one download (the same href) name one
// file, with one filename and one size. A candidate's files come on every page and detail
// that holds the candidate, a timesheet on the timesheet list and among its candidate's
// timesheets, an application's attachment in its list page and its detail. The kit
// downloads one file of each kind a run (each download a full request under the rate
// limit); this reads every other file listed twice, at no request.
import type { Minimal } from '@tapjs/core'
import { check, fewProblems, Skip, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import { APPLICATIONS, CANDIDATES, type ListDef, TIMESHEETS } from '../lists.js'
import { FILE_KINDS } from '../record-picks.js'
import { isRec, rec, recs, str, type Rec } from '../records.js'
import { recordsRead } from './records-read.js'

/** A file as one answer lists it. */
export interface Listed {
  href: string
  filename: unknown
  filesize: unknown
  /** Which answer and record listed it, for the report. */
  where: string
}

/** Which answers list files: candidates' (File entries), the timesheet list's and applications' (attachments). */
export type FileSource = 'candidates' | 'timesheets' | 'applications'

const SOURCES: Record<FileSource, ListDef> = { candidates: CANDIDATES, timesheets: TIMESHEETS, applications: APPLICATIONS }

/** The files one record lists, as its source lists them. */
function filesOf(source: FileSource, record: Rec): Array<{ entry: Rec; what: string }> {
  const id = String(record.id)
  if (source === 'candidates') return FILE_KINDS.flatMap(({ list }) => recs(record[list]).map((entry) => ({ entry, what: `candidate ${id}'s ${list}` })))
  if (source === 'timesheets') return isRec(record.attachment) ? [{ entry: record.attachment, what: `timesheet ${id}'s attachment` }] : []
  const attachment = rec(record.applicant).attachment
  return isRec(attachment) ? [{ entry: attachment, what: `application ${id}'s attachment` }] : []
}

/** Every file listed by the records the run read of the sources' lists (their pages and details), keyed by its href made absolute. */
export async function listedFiles(ctx: RunContext, sources: readonly FileSource[]): Promise<Map<string, Array<Listed & { source: FileSource }>>> {
  const byHref = new Map<string, Array<Listed & { source: FileSource }>>()
  const base = ctx.client.api('/')
  for (const source of sources) {
    for (const { record, in: where } of await recordsRead(ctx, SOURCES[source])) {
      for (const { entry, what } of filesOf(source, record)) {
        const href = str(entry.href)
        if (href === undefined || !URL.canParse(href, base)) continue
        const key = new URL(href, base).href
        byHref.set(key, [...(byHref.get(key) ?? []), { href: key, filename: entry.filename, filesize: entry.filesize, where: `${what} on ${where}`, source }])
      }
    }
  }
  return byHref
}

/** A size as a number of bytes: the File entry's "string of bytes", the timesheet's "integer bytes"; undefined for neither (the schema's to fail). */
export const bytesOf = (size: unknown): number | undefined => (typeof size === 'number' && Number.isInteger(size) ? size : typeof size === 'string' && /^[0-9]+$/.test(size) ? Number(size) : undefined)

/** What two listings of one file disagree on, if they do. */
function disagreement(files: ReadonlyArray<Listed>): string | undefined {
  const names = [...new Set(files.map((f) => f.filename).filter((n) => typeof n === 'string'))]
  const sizes = [...new Set(files.map((f) => bytesOf(f.filesize)).filter((s) => s !== undefined))]
  const shown = (pick: (f: Listed) => unknown) => files.map((f) => `${JSON.stringify(pick(f))} (${f.where})`).join(', ')
  if (names.length > 1) return `${files[0]?.href} is listed as ${shown((f) => f.filename)}: one file, one original name`
  if (sizes.length > 1) return `${files[0]?.href} is listed with sizes ${shown((f) => f.filesize)}: one file, one size`
  return undefined
}

/** The check's name, under each endpoint that registers it. */
export const ONE_FILE = 'a file listed twice (one href) has one name and one size'

/**
 * The check that every file `mine` lists more than once, or that another of `against`
 * lists too, is listed with one filename and one size, in every record the run read of
 * their lists.
 */
export function oneFileOneName(t: Minimal, ctx: RunContext, mine: FileSource, against: readonly FileSource[] = []): void {
  check(t, ONE_FILE, async (a: Asserter) => {
    const twice = [...(await listedFiles(ctx, [mine, ...against])).values()].filter((files) => files.length > 1 && files.some((f) => f.source === mine))
    if (twice.length === 0) throw new Skip('no file is listed twice in the answers read')
    const problems = twice.map(disagreement).filter((p): p is string => p !== undefined)
    a.none(fewProblems(problems), `${twice.length} files listed more than once each have one name and one size`)
  })
}
