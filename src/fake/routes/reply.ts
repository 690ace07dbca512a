// What the read routes have in common: the envelope of a list or detail answer with its
// paging links (on the origin of src/fake/http/origin.ts), and a file download's headers.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import { behaviourProperties } from '../../../schemas/behaviour.js'
import { boardError } from '../../core/errors.js'
import type { Board } from '../board/board.js'
import { FILES } from '../http/downloads.js'
import { baseUrl } from '../http/origin.js'
import { API_PREFIX, type FileKind } from '../store/record-links.js'
import type { Page } from '../store/store.js'

type Params = Readonly<Record<string, unknown>>

export interface Envelope<T> {
  status: 200
  total: number
  data: T[]
  next_page?: string | false | null
  prev_page?: string | false
}

/**
 * `{status, total, data}` of one page, with `next_page` (and `prev_page` for lists that
 * have it): full URLs of the same list carrying `page` and the query given. What the
 * last page's `next_page` holds follows behaviour.lastPageNextPage.
 */
export function pageAnswer<T>(
  request: FastifyRequest,
  page: Page<T>,
  list: string,
  params: Params,
  { prev = false, paged = true }: { prev?: boolean; paged?: boolean } = {},
): Envelope<T> {
  const behaviour = request.board.scenario.behaviour
  if (page.beyond && behaviour.outOfRangePage === 'not-found') {
    throw boardError.notFound('Page', `${page.page} of ${list}`)
  }
  const url = (n: number) => {
    // the list's own filters only, in a fixed order: unknown parameters are not carried on
    const query = new URLSearchParams()
    for (const key of ['since', 'vacancy']) if (params[key] !== undefined) query.set(key, String(params[key]))
    query.set('page', String(n))
    return `${baseUrl(request)}${API_PREFIX}/${list}?${query}`
  }
  const answer: Envelope<T> = { status: 200, total: page.total, data: page.items }
  // what the verdict follows a walk by (src/fake/http/request-journal.ts), told here rather than read back out of the body
  request.nextPage = paged && page.hasNext
  if (!paged) return answer
  if (page.hasNext) answer.next_page = url(page.page + 1)
  else if (behaviour.lastPageNextPage === 'false') answer.next_page = false
  else if (behaviour.lastPageNextPage === 'null') answer.next_page = null
  else if (behaviour.lastPageNextPage === 'empty') answer.next_page = ''
  if (prev) answer.prev_page = page.page > 1 ? url(page.page - 1) : false
  return answer
}

/** The answer of a detail endpoint: one record in a list of one. */
export function detailAnswer<T>(record: T): Envelope<T> {
  return { status: 200, total: 1, data: [record] }
}

/** `attachment; filename="..."`, with an RFC 5987 `filename*` when the name is not plain ASCII. */
export function contentDisposition(filename: string): string {
  const plain = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const disposition = `attachment; filename="${plain}"`
  return plain === filename ? disposition : `${disposition}; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/**
 * A download: the file's bytes as made once in this process (http/downloads.ts), or, for a
 * file too large to hold, streamed piece by piece as it is made.
 */
export function sendDownload(reply: FastifyReply, board: Board, kind: FileKind | 'attachment', id: number, contentType: string): FastifyReply {
  const store = board.store
  const download = store.download(kind, id)
  const bytes = FILES.bytes(download)
  return reply
    .header('content-type', contentType)
    .header('content-length', String(download.size))
    .header('content-disposition', contentDisposition(download.filename))
    .header('content-transfer-encoding', 'binary')
    .send(bytes ?? Readable.from(download.chunks(), { objectMode: false }))
}

export const OCTET_STREAM = 'application/octet-stream'
/** The timesheet type a board answers unless its behaviour says otherwise (for the OpenAPI document). */
export const TIMESHEET = behaviourProperties.timesheetContentType.default
