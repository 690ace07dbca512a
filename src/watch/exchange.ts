// What the watching layer takes: one exchange (a request and its answer, its time, the
// account it was sent as), from any source. The fake hands one over for each request it
// answered (src/fake/http/request-journal.ts), the proxy for each it passed upstream
// (src/proxy/judged-traffic.ts); a new source makes the same object (docs/architecture.md, "A new
// source of traffic"). The journal (journal.ts) keeps it and tells the verdict
// (verdict/evaluator.ts), with the facts beside it that only the source knew.
//
// Also here: what every source reads of a request the same way (its Basic user, whether it
// gave credentials, a body's digest, the constrained lists of job/fields), so that the
// verdict holds a client to one reading whichever door its traffic came through.
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { FIELD_NAMES, FIELD_OF_LIST } from '../../schemas/values.js'
import type { JournalEntry } from '../core/types.js'

/** An answer's headers as reply.getHeaders() gives them. */
export type AnswerHeaders = Record<string, string | number | string[] | undefined>

/** How an answer's body was held: 'text' (a string, or bytes of a text type), or only its size ('binary', 'stream'), or 'none'. */
export type AnswerHold = 'none' | 'text' | 'binary' | 'stream'

/**
 * What an exchange holds of its request and answer beyond the entry's own fields, for
 * GET /__mock/requests/{id}: references, read and formatted only when asked for
 * (journal-detail.ts). Headers and bodies are let go (set undefined,
 * `headersDropped`/`bodiesDropped`) past the journal's bounds.
 */
export interface Detail {
  /** The request's headers as Node parsed them. */
  requestHeaders: IncomingHttpHeaders | undefined
  /** Its Content-Length and Transfer-Encoding as sent (what an unread body was), kept past the headers. */
  readonly requestLength: string | undefined
  readonly requestChunked: boolean
  /** Its Content-Type as sent. */
  readonly requestType: string | undefined
  /** The body as the JSON parser read it (text), else as parsed; undefined when none was read. */
  requestBody: unknown
  /** The answer's headers; undefined when none were sent. */
  answerHeaders: AnswerHeaders | undefined
  readonly answerHold: AnswerHold
  /** The answer's body: held only when text ('text'). */
  answerBody: string | Buffer | undefined
  /** Bytes of a binary or streamed answer (its Content-Length; -1 when unknown). */
  readonly answerBytes: number
  readonly answerType: string | undefined
  readonly headerBytes: number
  readonly bodyBytes: number
  headersDropped: boolean
  bodiesDropped: boolean
}

/**
 * One exchange as a source hands it over: the journal entry's fields (the request's method
 * and URL as sent, the status answered, the user it was sent as), its time (epoch ms; a
 * formatted time is kept as it is and not judged), and its Detail. The source's new
 * object: the journal gives it its id in place and keeps it.
 */
export type Exchange = Omit<JournalEntry, 'time' | 'id'> & { time: string | number; id?: number; detail?: Detail | undefined }

/** What a rule of the verdict needs beyond the exchange itself: what the source knew when it answered. */
export interface Facts {
  /** Whether the request carried an `Authorization: Basic ...` header (default: it gave a user). */
  readonly credentials?: boolean | undefined
  /** The request opened a rate-limit window that stayed open. */
  readonly opened?: boolean | undefined
  /** A 429: when the window that refused it opened (epoch ms). */
  readonly windowOpened?: number | undefined
  /** A job/fields read: a digest of each constrained list as answered. */
  readonly fieldsRead?: Readonly<Record<string, string>> | undefined
  /** A refused job write: the constrained fields whose values were not current, each with a digest of its current values. */
  readonly staleFields?: Readonly<Record<string, string>> | undefined
  /**
   * How the verdict reads the answer where the entry shows another (the proxy's: a job write
   * answered HTTP 200 with `status` 412 in its body is judged a 412; a note on a malformed
   * request is no fault). Absent: as the entry shows it.
   */
  readonly judged?: { readonly status: number; readonly fault: string | undefined } | undefined
}

/** The user name of a Basic Authorization header (never the password), or '' when there is none. */
export function basicUser(header: string | undefined): string {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=_-]{1,4096})\s*$/i.exec(header)
  if (!match) return ''
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return (colon < 0 ? decoded : decoded.slice(0, colon)).slice(0, 256)
}

/** An Authorization header that gives Basic credentials (whether they are right is the server's business). */
export const BASIC_GIVEN = /^Basic\s+\S/i

/** A Content-Type whose bytes are text: what the journal holds of an answer sent as bytes. */
export const TEXT_TYPE = /^\s*(text\/|application\/([\w.+-]*\+)?(json|xml|yaml|javascript|x-www-form-urlencoded)\b)/i

/** A short digest of a text: what a job write's body and a constrained list are remembered by. */
export const shortDigest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22)

/** Constrained lists by name (job_industry, ...), as a board holds them or a job/fields answer gave them. */
export type ConstrainedLists = Readonly<Record<string, readonly string[]>>

/** A digest of each constrained list, by the job/add field it governs: what a read of job/fields is remembered by. */
export function listDigests(lists: ConstrainedLists): Record<string, string> {
  return Object.fromEntries(FIELD_NAMES.map((name) => [FIELD_OF_LIST[name], shortDigest([...(lists[name] ?? [])].sort().join('\n'))]))
}

/** The constrained fields of a job/add body whose values the lists do not hold, each with the digest of its current list. */
export function staleFieldsOf(lists: ConstrainedLists, body: unknown, digests: Readonly<Record<string, string>> = listDigests(lists)): Record<string, string> | undefined {
  if (body === null || typeof body !== 'object') return undefined
  const stale: Record<string, string> = {}
  for (const name of FIELD_NAMES) {
    const field = FIELD_OF_LIST[name]
    const given = (body as Record<string, unknown>)[field]
    if (typeof given === 'string' && !(lists[name] ?? []).includes(given)) stale[field] = digests[field] as string
  }
  return Object.keys(stale).length > 0 ? stale : undefined
}
