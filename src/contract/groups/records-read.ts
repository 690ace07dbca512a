// Every answer of a list and of its details that the run read, and every record in them:
// each page of the list (every walk's pages, the answers with filters, the last page, a page
// asked with a Content-Type) and each detail of one of its records (the one the detail
// checks pick, the last listed one's, the one a link of another list names), whoever asked
// for it — taken from the client's log of answers, once the plan has asked what the run
// reads (its prefetch asks every page, detail and link). The rules of a record (its links,
// the fields derived from another, its display texts) are held on each of them, in one
// place, at no cost in requests: a fault on page 5 or in a linked detail is a fault as on
// page 1.
import { where } from '../checks.js'
import type { RunContext } from '../context.js'
import type { ListDef } from '../lists.js'
import type { Answer } from '../request-outcomes.js'
import { pageOf, type Rec } from '../records.js'

export interface RecordRead {
  readonly record: Rec
  /** The answer it came in (the first, where several hold it alike), for messages: `/candidates/list?page=3`. */
  readonly in: string
  /** From a detail (candidates/details/{id}, applications/details/{id}) rather than a page of the list. */
  readonly detail: boolean
}

/** The detail path of a list's records, where the spec gives one. */
const DETAIL = /^\/(candidates|applications)\/details\/[^/]+$/

/** Whether an API path is a detail of the list's records. */
const isDetailOf = (list: ListDef, path: string) => DETAIL.exec(path)?.[1] === list.group

/**
 * The answers of the list (`pages`) or of its details (`details`) the run read so far that
 * hold records: GETs answered 200 with a JSON object and a data array, each once.
 */
export async function answersRead(ctx: RunContext, list: ListDef, of: 'pages' | 'details'): Promise<Answer[]> {
  // the walks read pages as they go: wait for them, so that every page is in the log (a list the run does not
  // select is not walked: what of it the run read, a detail a link named, is in the log already)
  if (ctx.settings.groups.includes(list.group)) await ctx.plan.walks(list)
  const answers = new Set<Answer>()
  for (const { outcome } of ctx.client.seen) {
    if (outcome.kind !== 'answer' || outcome.method !== 'GET' || !pageOf(outcome)) continue
    const path = ctx.client.apiPath(outcome.url)
    if (path !== undefined && (of === 'pages' ? path === list.path : isDetailOf(list, path))) answers.add(outcome)
  }
  return [...answers]
}

/**
 * Every record of the list the run read, on its pages, then in its details, and where each
 * came from: each once however many answers hold it alike (the first page and the answer
 * with since), so that a fault is said once; a record answered otherwise elsewhere is
 * another record read.
 */
export async function recordsRead(ctx: RunContext, list: ListDef): Promise<RecordRead[]> {
  const read = new Map<string, RecordRead>()
  for (const of of ['pages', 'details'] as const) {
    for (const answer of await answersRead(ctx, list, of)) {
      for (const record of pageOf(answer)?.data ?? []) {
        const key = JSON.stringify(record)
        if (!read.has(key)) read.set(key, { record, in: where(answer.url), detail: of === 'details' })
      }
    }
  }
  return [...read.values()]
}
