// The request plan's picks (plan.ts): which record's detail and which download a run
// asks, chosen so that checks share answers (the candidate a timesheet links to, the file
// timesheets/list also lists, the detail's application's attachment), each with what the
// download should be as the record linking to it says (Expected); and following one of
// several links, preferring one already asked.
import type { Got } from './checks.js'
import { notMade } from './checks.js'
import { FilterRequests } from './filter-requests.js'
import { IN_TURN, type InTurnName, takeInTurn } from './in-turn.js'
import { APPLICATIONS, CANDIDATES, TIMESHEETS } from './lists.js'
import { int, rec, recs, str, type Rec } from './records.js'

export const FILE_KINDS = [
  { list: 'timesheets', kind: 'timesheet' },
  { list: 'resumes', kind: 'resume' },
  { list: 'documents', kind: 'document' },
] as const
export type FileKind = (typeof FILE_KINDS)[number]['kind']

/** What a download should be, as the record that links to it says. */
export interface Expected {
  filename: string | undefined
  /** Bytes, when the list gives a filesize. */
  filesize: number | undefined
  /** Where the expectation comes from, for messages. */
  source: string
}

export interface Pick {
  got: Got
  url: string | undefined
  record: Rec | undefined
  expected: Expected
}

export const NO_EXPECTATION: Expected = { filename: undefined, filesize: undefined, source: '' }

/** A link read in turn (in-turn.ts) and how it was answered. */
export interface TakenInTurn {
  url: string
  got: Got
  /** Asked by the run anyway (a pick, a page): read at no cost, not the rotation's. */
  free: boolean
}

export class RecordPicks extends FilterRequests {
  /** The last link each rotation took this run, for the ledger (run.ts). */
  readonly tookInTurn = new Map<InTurnName, string>()

  /**
   * The links of a rotation read this run (in-turn.ts): those the run asked anyway, and
   * its budget's share of the others on the run's origin, after the last the run before
   * took. Made once a run, whichever check asks first.
   */
  inTurn(name: InTurnName, links: readonly string[]): Promise<{ taken: TakenInTurn[]; listed: number }> {
    return this.once(`in turn ${name}`, async () => {
      const ours = [...new Set(links.filter((url) => this.client.sameOrigin(url)))]
      const free = ours.filter((url) => this.client.has(url))
      const due = takeInTurn(ours.filter((url) => !this.client.has(url)), IN_TURN[name], this.rotation.inTurn?.[name], this.rotation.night)
      const last = due.at(-1)
      if (last !== undefined) this.tookInTurn.set(name, last)
      const taken = await Promise.all([...free.map((url) => ({ url, free: true })), ...due.map((url) => ({ url, free: false }))].map(async ({ url, free }) => ({ url, free, got: await this.client.get(url) })))
      return { taken, listed: ours.length }
    })
  }

  /**
   * Follows one of the links, preferring one already requested: checking that links
   * resolve then costs nothing more. Links off the base URL's origin are not followed.
   */
  resolve(urls: readonly string[], what: string): Promise<Got> {
    const ours = urls.filter((url) => this.client.sameOrigin(url))
    if (ours.length === 0) {
      return Promise.resolve(notMade(urls.length === 0 ? `no ${what} to follow` : `no ${what} is on ${this.client.origin}: not followed with credentials`))
    }
    const chosen = ours.find((url) => this.client.has(url)) ?? (ours[0] as string)
    return this.client.get(chosen)
  }

  /**
   * A link the first pages' records give, followed once (resolve): an application href a
   * candidate lists, or a timesheet's attachment or candidate href. Asked with the plan's
   * other requests (prefetch), so that every detail the run reads is read before the checks
   * hold each record read to its rules (groups/records-read.ts).
   */
  linked(kind: 'application' | 'attachment' | 'candidate'): Promise<Got> {
    return this.once(`linked ${kind}`, async () => {
      const hrefs = kind === 'application' ? (await this.records(CANDIDATES)).flatMap((c) => recs(c.applications).map((entry) => str(entry.href))) : (await this.records(TIMESHEETS)).map((r) => str(rec(r[kind]).href))
      return this.resolve(hrefs.filter((h): h is string => h !== undefined), `${kind} href`)
    })
  }

  /** The candidate whose detail is fetched: one a timesheet links to, when there is one, so that link resolves for free. */
  candidateDetail(): Promise<Pick> {
    return this.once('candidate-detail', async () => {
      const candidates = await this.records(CANDIDATES)
      const linked = new Set((await this.fetched(TIMESHEETS)).map((t) => str(rec(t.candidate).href)))
      const url = (record: Rec) => this.client.api(`/candidates/details/${String(record.id)}`)
      const record = candidates.find((c) => int(c.id) !== undefined && linked.has(url(c))) ?? candidates.find((c) => int(c.id) !== undefined)
      if (!record) return { got: await this.notMade('no candidate with an id was fetched', CANDIDATES), url: undefined, record: undefined, expected: NO_EXPECTATION }
      return { got: await this.client.get(url(record)), url: url(record), record, expected: NO_EXPECTATION }
    })
  }

  /** The application whose detail is fetched, by its own href: one a candidate links to, when there is one. */
  applicationDetail(): Promise<Pick> {
    return this.once('application-detail', async () => {
      const applications = (await this.records(APPLICATIONS)).filter((a) => int(a.id) !== undefined)
      const linked = new Set((await this.fetched(CANDIDATES)).flatMap((c) => recs(c.applications).map((a) => str(a.href))))
      const record = applications.find((a) => linked.has(str(a.href))) ?? applications[0]
      if (!record) return { got: await this.notMade('no application with an id was fetched', APPLICATIONS), url: undefined, record: undefined, expected: NO_EXPECTATION }
      const href = str(record.href)
      const url = href !== undefined && this.client.sameOrigin(href) ? href : this.client.api(`/applications/details/${String(record.id)}`)
      return { got: await this.client.get(url), url, record, expected: NO_EXPECTATION }
    })
  }

  /** A candidate file of one kind, by the href its File entry gives; a timesheet one that timesheets/list also lists, when there is one. */
  candidateFile(kind: FileKind): Promise<Pick> {
    return this.once(`file ${kind}`, async () => {
      const list = FILE_KINDS.find((k) => k.kind === kind)?.list as string
      const entries = (await this.records(CANDIDATES)).flatMap((c) => recs(c[list]))
      const listed = new Set((await this.fetched(TIMESHEETS)).map((t) => str(rec(t.attachment).href)))
      const usable = entries.filter((e) => typeof e.href === 'string' && this.client.sameOrigin(e.href))
      const entry = usable.find((e) => this.client.has(e.href as string)) ?? usable.find((e) => listed.has(str(e.href))) ?? usable[0]
      if (!entry) {
        const reason = entries.length === 0 ? `no candidate fetched has a file in ${list}` : `no ${list} href is on ${this.client.origin}`
        return { got: await this.notMade(reason, CANDIDATES), url: undefined, record: undefined, expected: NO_EXPECTATION }
      }
      const size = str(entry.filesize)
      const expected = {
        filename: str(entry.filename),
        filesize: size !== undefined && /^[0-9]+$/.test(size) ? Number(size) : undefined,
        source: `the candidate's ${list} entry`,
      }
      return { got: await this.client.get(entry.href as string), url: entry.href as string, record: entry, expected }
    })
  }

  /** An application's attachment, by its href: the fetched detail's application when there is one. */
  attachment(): Promise<Pick> {
    return this.once('attachment', async () => {
      const detail = (await this.applicationDetail()).record
      const applications = await this.records(APPLICATIONS)
      const record = [detail, ...applications].find((a) => a !== undefined && typeof rec(rec(a.applicant).attachment).href === 'string')
      const attachment = rec(rec(record?.applicant).attachment)
      const href = str(attachment.href)
      if (!record || href === undefined) return { got: await this.notMade('no application fetched has an attachment href', APPLICATIONS), url: undefined, record: undefined, expected: NO_EXPECTATION }
      if (!this.client.sameOrigin(href)) return { got: notMade(`the attachment href ${href} is not on ${this.client.origin}`), url: href, record, expected: NO_EXPECTATION }
      const expected = { filename: str(attachment.filename), filesize: undefined, source: "the application's attachment" }
      return { got: await this.client.get(href), url: href, record, expected }
    })
  }

  /** /candidates/timesheets/download/{id} of a listed timesheet. */
  timesheetDownload(): Promise<Pick> {
    return this.once('timesheet-download', async () => {
      const entry = (await this.records(TIMESHEETS)).find((t) => int(t.id) !== undefined)
      if (!entry) return { got: await this.notMade('no timesheet with an id was fetched', TIMESHEETS), url: undefined, record: undefined, expected: NO_EXPECTATION }
      const url = this.client.api(`/candidates/timesheets/download/${String(entry.id)}`)
      const attachment = rec(entry.attachment)
      const expected = { filename: str(attachment.filename), filesize: int(attachment.filesize), source: `timesheet ${String(entry.id)} of timesheets/list` }
      return { got: await this.client.get(url), url, record: entry, expected }
    })
  }
}
