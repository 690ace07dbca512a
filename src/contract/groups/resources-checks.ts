// Checks shared by the detail and download endpoints and by the links that point at
// them: a detail holds the one record listed; a download carries the headers the spec
// names; an href points at the endpoint the spec names for it. What an unknown id
// answers is not shown by the spec: it is observed, never failed.
import { isDeepStrictEqual } from 'node:util'
import type { Minimal } from '@tapjs/core'
import { check, fewProblems, need, Skip, where, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import type { Answer } from '../request-outcomes.js'
import type { Client } from '../http.js'
import { excerpt } from '../request-outcomes.js'
import type { Pick } from '../record-picks.js'
import { ID_PATHS } from '../spare-requests.js'
import { contentLengthProblem, parseDisposition } from '../wire.js'
import { int, isRec, rec, recs, succeeded } from '../records.js'
import type { ListDef } from '../lists.js'
import { arrivals, undecidable } from './lists-checks.js'
import { lastDetailCheck } from './matrix-checks.js'
import { linksOf } from './record-links.js'

/** What is wrong with an href, given the API path it must have (`/candidates/details/12`), or a pattern of it. */
export function hrefProblem(href: unknown, client: Client, path: RegExp | string, what: string): string | undefined {
  if (typeof href !== 'string') return `${what} is ${JSON.stringify(href) ?? 'absent'}, not a URL`
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return `${what} ${JSON.stringify(href)} is not an absolute URL`
  }
  // a link points home: the base URL's origin, under its path
  if (url.origin !== client.origin) return `${what} ${href} is on ${url.origin}, not on ${client.origin}`
  const prefix = new URL(client.api('')).pathname
  const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : undefined
  const fits = rest !== undefined && url.search === '' && (typeof path === 'string' ? rest === path : path.test(rest))
  return fits ? undefined : `${what} ${href} does not point at ${prefix}${typeof path === 'string' ? path : path.source.replace(/^\^|\$$/g, '')}`
}

/** Every href problem of some records, one failure each (at most 10, then a count). */
export function hrefsPointAt(a: Asserter, ctx: RunContext, hrefs: Array<{ href: unknown; path: RegExp | string; what: string }>, message: string): void {
  if (hrefs.length === 0) throw new Skip('no such link in the records fetched')
  const problems = hrefs.map(({ href, path, what }) => hrefProblem(href, ctx.client, path, what)).filter((p): p is string => p !== undefined)
  a.none(fewProblems(problems), `${hrefs.length} ${message}`)
}

/**
 * A detail read as the target of another list's link (a candidate's application entry, a
 * timesheet's candidate), held as every detail and every record read is: one record ("data
 * array of one"), its table (the schema), and its record's links (record-links.ts).
 */
export function heldAsDetail(a: Asserter, ctx: RunContext, detail: { list: ListDef; endpoint: string; schema: object }, answer: Answer, what: string): void {
  const body = rec(answer.json)
  const records = recs(body.data)
  a.ok(body.total === 1 && records.length === 1, `${what}: total 1 and one record`, `${what} (${where(answer.url)}) holds total ${JSON.stringify(body.total) ?? 'absent'} and ${records.length} records, not 1 and 1: a detail is "data array of one"`)
  ctx.fits(a, detail.schema, answer, detail.endpoint, what)
  const links = records.flatMap((record) => linksOf(detail.list, { record, in: where(answer.url), detail: true }))
  const problems = links.map(({ href, path, what: link }) => hrefProblem(href, ctx.client, path, link)).filter((p): p is string => p !== undefined)
  a.none(problems, `${what}: its ${links.length} links point at the endpoints the spec names`)
}

/** A link followed: it must answer a success (2xx). */
export function resolves(a: Asserter, answer: Answer, what: string): void {
  a.ok(succeeded(answer), `${what} ${where(answer.url)} answers HTTP ${answer.status}, a success`, `${what} ${where(answer.url)} answered HTTP ${answer.status}, not a success (2xx)`)
}

/** What an unknown id answers on each detail and download path the run asked: an observation. */
export async function observeUnknownIds(ctx: RunContext): Promise<void> {
  for (const group of ctx.settings.groups) {
    for (const path of ID_PATHS[group] ?? []) {
      const got = await ctx.plan.unknown(path)
      const endpoint = `${path.slice(1)}/{id}`
      const seen = got.kind === 'answer' ? `HTTP ${got.status}${isRec(got.json) ? ` ${JSON.stringify(got.json).slice(0, 100)}` : ` (${got.headers['content-type'] ?? 'no content type'})`}` : got.reason
      ctx.observations.add({
        topic: 'unknown-id',
        endpoint,
        summary: `an unknown id answers ${seen}`,
        details: got.kind === 'answer' ? { status: got.status, contentType: got.headers['content-type'], body: got.json ?? excerpt(got) } : { reason: got.reason },
      })
    }
  }
}

export interface DetailOptions {
  endpoint: string
  /** The list the record was taken from: what arrived on it tells a live board from a fault. */
  list: ListDef
  noun: string
  schema: object
  pick: () => Promise<Pick>
}

export function detailChecks(t: Minimal, ctx: RunContext, options: DetailOptions): void {
  const { endpoint, list, noun, schema, pick } = options
  check(t, `the detail of a listed ${noun} fits the schema`, async (a) => {
    const answer = need((await pick()).got)
    if (!a.ok(succeeded(answer), `answers HTTP ${answer.status}, a success`, `${where(answer.url)} answered HTTP ${answer.status}, not a success (2xx)`)) return
    ctx.fits(a, schema, answer, endpoint, 'the detail')
  })
  // the request matrix's second details cell: the last listed record (src/contract/matrix.ts)
  lastDetailCheck(t, ctx, { endpoint, schema }, noun, () => ctx.plan.lastDetail(list), pick)
  check(t, `the detail holds exactly the listed ${noun}`, async (a) => {
    const { got, record } = await pick()
    const answer = need(got)
    if (!succeeded(answer) || !isRec(answer.json)) throw new Skip(`${where(answer.url)} answered HTTP ${answer.status} (see the schema check)`)
    const data = recs(answer.json.data)
    a.ok(answer.json.total === 1 && data.length === 1, 'total 1 and one record', `total ${JSON.stringify(answer.json.total)} and ${data.length} records, not 1 and 1`)
    const held = data[0]
    a.ok(held !== undefined && int(held.id) === int(record?.id), `it is ${noun} ${String(record?.id)}`, `it holds ${noun} ${String(held?.id)}, not ${String(record?.id)}`)
    // a record changed between the two requests may differ; one that did not must not
    if (held && record && held.updated_at === record.updated_at) {
      // a field the list gives but a detail need not (an application's href) is left out of the comparison
      const declared = new Set(Object.keys((schema as { properties?: { data?: { items?: { properties?: object } } } }).properties?.data?.items?.properties ?? {}))
      const keys = [...new Set([...Object.keys(held), ...Object.keys(record).filter((k) => declared.has(k))])]
      // compared as values: the members of an object in any order (RFC 8259 §4), the list's and the detail's alike
      const differing = keys.filter((k) => !isDeepStrictEqual(held[k], record[k]))
      // entries added to a list of the record (a file uploaded, an application made) may be arrivals its updated_at does not show
      const grew = (k: string) => {
        const [before, after] = [held[k], record[k]]
        const within = (x: unknown[], y: unknown[]) => x.every((e) => y.some((f) => isDeepStrictEqual(e, f)))
        return Array.isArray(before) && Array.isArray(after) && (within(before, after) || within(after, before))
      }
      if (differing.length > 0 && differing.every(grew) && (await arrivals(ctx, list)).live) {
        throw undecidable(`the detail and the listed record differ only in entries of ${differing.join(', ')}, on a board that changed during the run`)
      }
      a.ok(differing.length === 0, 'it equals the listed record', `it differs from the listed record in ${differing.join(', ')}`)
    }
  })
}

/**
 * "a timesheet-specific octet-stream type for timesheets": a type whose subtype ends in
 * octet-stream (`application/vnd.timesheet.octet-stream`, `application/x-timesheet-octet-stream`),
 * other than plain application/octet-stream, which the same sentence gives attachments.
 */
export const isTimesheetType = (essence: string | undefined): boolean =>
  essence !== undefined && essence !== 'application/octet-stream' && /^[a-z]+\/[a-z0-9.+-]*octet-stream$/.test(essence)

export interface DownloadOptions {
  endpoint: string
  pick: () => Promise<Pick>
  /** The other downloads of the endpoint the run read (in-turn-checks.ts: a share of the files listed, in turn across runs), each with what its listing says. */
  also?: () => Promise<ReadonlyArray<{ answer: Answer; expected: Pick['expected'] }>>
  /**
   * The Content-Type the spec names: `application/octet-stream` exactly (attachments),
   * a timesheet-specific octet-stream type (timesheets: isTimesheetType), or none
   * (resumes, documents: only observed).
   */
  contentType: 'application/octet-stream' | 'octet-stream' | 'observed'
}

/**
 * The checks of a download endpoint, each held on every download of it the run read: the
 * one the plan picks, and the others read in turn (`also`), each against what its own
 * listing says.
 */
export function downloadChecks(t: Minimal, ctx: RunContext, options: DownloadOptions): void {
  const { endpoint, pick } = options
  // the pick is read once, as the pick
  const others = async () => {
    const picked = (await pick()).url
    return options.also === undefined ? [] : (await options.also()).filter(({ answer }) => answer.url !== picked)
  }
  /** Every download read that succeeded: the pick's (a Skip when it did not come and no other did), then the others. */
  const files = async (): Promise<Array<{ answer: Answer; expected: Pick['expected'] }>> => {
    const { got, expected } = await pick()
    const more = (await others()).filter(({ answer }) => succeeded(answer))
    if (got.kind !== 'answer' && more.length === 0) need(got)
    if (got.kind === 'answer' && !succeeded(got) && more.length === 0) throw new Skip(`${where(got.url)} answered HTTP ${got.status} (see the first check)`)
    return [...(got.kind === 'answer' && succeeded(got) ? [{ answer: got, expected }] : []), ...more]
  }
  const typeRule = options.contentType === 'observed' ? '' : options.contentType === 'octet-stream' ? ' with an octet-stream Content-Type' : ` with Content-Type ${options.contentType}`
  check(t, `the listed link answers 200${typeRule}`, async (a) => {
    const got = (await pick()).got
    const answers = [...(got.kind === 'answer' || (await others()).length === 0 ? [need(got)] : []), ...(await others()).map(({ answer }) => answer)]
    answers.forEach((answer, i) => {
      if (!a.ok(succeeded(answer), `${where(answer.url)} answers HTTP ${answer.status}, a success`, `${where(answer.url)} answered HTTP ${answer.status}, not a success (2xx)`)) return
      const type = answer.headers['content-type']
      const essence = type?.split(';')[0]?.trim().toLowerCase()
      if (i === 0) ctx.observations.add({ topic: 'download', endpoint, summary: `Content-Type: ${type ?? '(none)'}` })
      if (options.contentType === 'application/octet-stream') a.ok(essence === options.contentType, `Content-Type is ${options.contentType}`, `${where(answer.url)}: Content-Type is ${type ?? 'missing'}, expected ${options.contentType}`)
      else if (options.contentType === 'octet-stream') a.ok(isTimesheetType(essence), `Content-Type ${type} is a timesheet-specific octet-stream type`, `${where(answer.url)}: Content-Type is ${type ?? 'missing'}, expected a timesheet-specific octet-stream type${essence === 'application/octet-stream' ? ' (plain application/octet-stream is the attachments’ type, not one specific to timesheets)' : ''}`)
    })
  })
  check(t, 'Content-Length equals the bytes received', async (a) => {
    for (const { answer } of await files()) {
      const length = answer.headers['content-length']
      if (!a.ok(length !== undefined, `Content-Length is ${length}`, `${where(answer.url)}: Content-Length is missing`)) continue
      // RFC 9110 §8.6's grammar and the body's length, as the "every answer" check holds every other answer to (wire.ts)
      const problem = contentLengthProblem(answer)
      a.ok(problem === undefined, `${answer.bytes.length} bytes came`, `${where(answer.url)}: ${problem ?? ''}`)
    }
  })
  check(t, 'Content-Length equals the listed filesize', async (a) => {
    const sized = (await files()).filter(({ expected }) => expected.filesize !== undefined)
    if (sized.length === 0) throw new Skip(`${(await pick()).expected.source || 'the list'} gives no filesize`)
    for (const { answer, expected } of sized) {
      const length = answer.headers['content-length']
      // a number of bytes, compared as one: RFC 9110 §8.6's 1*DIGIT lets 0917 be 917
      const bytes = length !== undefined && /^[0-9]+$/.test(length.trim()) ? Number(length.trim()) : undefined
      a.ok(bytes === Number(expected.filesize), `Content-Length ${length} is the filesize ${expected.source} gives`, `${where(answer.url)}: Content-Length is ${length ?? 'missing'} but ${expected.source} gives filesize ${expected.filesize}`)
    }
  })
  check(t, 'Content-Disposition is attachment with the listed filename', async (a) => {
    for (const { answer, expected } of await files()) {
      const header = answer.headers['content-disposition']
      if (!a.ok(header !== undefined, 'Content-Disposition is sent', `${where(answer.url)}: there is no Content-Disposition`)) continue
      // RFC 6266 §4: the disposition type is case-insensitive; filename a token or a quoted-string, filename* an ext-value
      const { type, filename: name, problems } = parseDisposition(header as string)
      a.none(problems.map((p) => `Content-Disposition ${JSON.stringify(header)} is not as RFC 6266 §4 writes it: ${p}`), 'it is as RFC 6266 §4 writes it')
      a.ok(type === 'attachment', 'it is attachment', `${where(answer.url)}: it is ${JSON.stringify(header)}, not attachment`)
      if (!a.ok(name !== undefined && name !== '', `it names the file ${JSON.stringify(name)}`, `${where(answer.url)}: it names no filename (${JSON.stringify(header)})`)) continue
      if (expected.filename !== undefined) {
        a.ok(name === expected.filename, `the filename is the one ${expected.source} gives`, `${where(answer.url)}: the filename is ${JSON.stringify(name)} but ${expected.source} gives ${JSON.stringify(expected.filename)}`)
      }
    }
  })
  check(t, 'Content-Transfer-Encoding is binary', async (a) => {
    for (const { answer } of await files()) {
      const encoding = answer.headers['content-transfer-encoding']
      a.ok(encoding?.trim().toLowerCase() === 'binary', 'Content-Transfer-Encoding: binary', `${where(answer.url)}: Content-Transfer-Encoding is ${encoding === undefined ? 'missing' : JSON.stringify(encoding)}`)
    }
  })
}
