// Reading answers that have not been proven to fit the schemas: loose accessors that
// never throw, so a check can say what is wrong instead of crashing on it.
import type { Answer } from './request-outcomes.js'

export type Rec = Readonly<Record<string, unknown>>

export const isRec = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value)
export const rec = (value: unknown): Rec => (isRec(value) ? value : {})
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
export const int = (value: unknown): number | undefined => (Number.isInteger(value) ? (value as number) : undefined)
export const recs = (value: unknown): Rec[] => (Array.isArray(value) ? value.filter(isRec) : [])

/**
 * An answer of success: any 2xx. The spec names the status a success's JSON body carries
 * ("On success the JSON body carries `status` 200."), never the HTTP status of a success;
 * HTTP's words make every 2xx one ("The 2xx (Successful) class of status code indicates
 * that the client's request was successfully received, understood, and accepted", RFC 9110
 * §15.3). A success answered otherwise than 200 is an observation (groups/wire-checks.ts).
 */
export const succeeded = (answer: Pick<Answer, 'status'>): boolean => answer.status >= 200 && answer.status < 300

/** A write's success as the spec writes it: an answer of success whose JSON body carries `status` 200. */
export const saysSuccess = (answer: Pick<Answer, 'status' | 'json'>): boolean => succeeded(answer) && rec(answer.json).status === 200

/** One page of a list as answered: the envelope's parts, present or not. */
export interface Page {
  readonly answer: Answer
  readonly body: Rec
  readonly data: Rec[]
  readonly total: unknown
  readonly hasNextPage: boolean
  readonly nextPage: unknown
  readonly hasPrevPage: boolean
  readonly prevPage: unknown
}

/** The page an answer holds, or undefined when it is not a success (2xx) with a JSON object holding a data array. */
export function pageOf(answer: Answer): Page | undefined {
  const body = answer.json
  if (!succeeded(answer) || !isRec(body) || !Array.isArray(body.data)) return undefined
  return {
    answer,
    body,
    data: recs(body.data),
    total: body.total,
    hasNextPage: 'next_page' in body,
    // an empty next_page is a last page's (the spec does not say what one holds): no link to follow
    nextPage: body.next_page === '' ? undefined : body.next_page,
    hasPrevPage: 'prev_page' in body,
    prevPage: body.prev_page,
  }
}

/** Why an answer is not a page, in words. */
export function notAPage(answer: Answer): string {
  if (!succeeded(answer)) return `answered HTTP ${answer.status}, not a success (2xx)`
  if (!isRec(answer.json)) return 'answered a body that is not a JSON object'
  return 'answered an object without a data array'
}

/** What next_page holds, as the report writes it. */
export function describeLink(page: Page, field: 'next_page' | 'prev_page'): string {
  const present = field === 'next_page' ? page.hasNextPage : page.hasPrevPage
  return present ? JSON.stringify(page.body[field]) : 'no such field'
}
