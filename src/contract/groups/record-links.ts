// The links a record gives, each with the API path the spec names for it: a File entry's
// href its download ("URL of the download endpoint for that file"), a candidate's
// application entry's applications/details/{id}, an application's own href its detail (in
// list items) and its attachment's applications/attachment/{id}, a timesheet's attachment
// /candidates/timesheet/{id} and its candidate that candidate's detail. One table: the href
// checks of each list read it over every record read (records-read.ts), and a detail read as
// another list's link target is held to all of its record's links (resources-checks.ts).
import { APPLICATIONS, CANDIDATES, TIMESHEETS, type ListDef } from '../lists.js'
import { FILE_KINDS } from '../record-picks.js'
import { rec, recs } from '../records.js'
import type { RunContext } from '../context.js'
import { type RecordRead, recordsRead } from './records-read.js'

export type LinkKind = 'file' | 'application entry' | 'own' | 'attachment' | 'candidate'

export interface RecordLink {
  readonly kind: LinkKind
  readonly href: unknown
  /** The API path it must have (`/candidates/details/12`), or a pattern of it. */
  readonly path: RegExp | string
  /** What it is, in messages: `candidate 12's resumes href (/candidates/list?page=3)`. */
  readonly what: string
}

/** The links of one record read, by what its list's table says of them. */
export function linksOf(list: ListDef, { record: r, in: where, detail }: RecordRead): RecordLink[] {
  const id = String(r.id)
  if (list === CANDIDATES) {
    return [
      ...FILE_KINDS.flatMap(({ list: files, kind }) =>
        recs(r[files]).map((file) => ({ kind: 'file' as const, href: file.href, path: new RegExp(`^/candidates/${kind}/[1-9][0-9]*$`), what: `candidate ${id}'s ${files} href (${where})` })),
      ),
      ...recs(r.applications).map((entry) => ({ kind: 'application entry' as const, href: entry.href, path: /^\/applications\/details\/[1-9][0-9]*$/, what: `candidate ${id}'s application href (${where})` })),
    ]
  }
  if (list === APPLICATIONS) {
    // "(in list items)": a detail need not carry its own href, and where it does it names the same detail
    const own = !detail || 'href' in r ? [{ kind: 'own' as const, href: r.href, path: `/applications/details/${id}`, what: `application ${id}'s href (${where})` }] : []
    return [...own, { kind: 'attachment', href: rec(rec(r.applicant).attachment).href, path: /^\/applications\/attachment\/[1-9][0-9]*$/, what: `application ${id}'s attachment href (${where})` }]
  }
  if (list === TIMESHEETS) {
    return [
      { kind: 'attachment', href: rec(r.attachment).href, path: /^\/candidates\/timesheet\/[1-9][0-9]*$/, what: `timesheet ${id}'s attachment href (${where})` },
      { kind: 'candidate', href: rec(r.candidate).href, path: `/candidates/details/${String(rec(r.candidate).id)}`, what: `timesheet ${id}'s candidate href (${where})` },
    ]
  }
  return []
}

/** The links of one kind of every record of the list the run read. */
export async function linksRead(ctx: RunContext, list: ListDef, kind: LinkKind): Promise<RecordLink[]> {
  return (await recordsRead(ctx, list)).flatMap((read) => linksOf(list, read)).filter((link) => link.kind === kind)
}
