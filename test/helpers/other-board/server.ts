// The second server's HTTP side: node:http, Basic auth, the rate limit per full request,
// paging, downloads, the job API and its public pages, each answer in the style chosen.
// See ../other-board.ts for what it chooses and why each choice is legal.
import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Board, type Counts, fileBytes, JOB_FIELDS, PLACES, parseStamp, type Style, stamp } from './data.js'
import { applicationView, candidateView, encode, type Json, type Links, marketingView, metricsView, ordered, timesheetFileId, timesheetView } from './views.js'

export interface OtherBoardOptions {
  style?: Style
  username: string
  password: string
  /** Serve the API under this path: `{base_url}` is then origin + basePath (e.g. `/staging`). */
  basePath?: string
  /** The board's "now", `YYYY-MM-DD HH:MM:SS` (UTC); default 2026-11-20 12:00:00. */
  now?: string
  seed?: number
  /** Records per page of every paged list; default 7 (style a) or 9 (style b). */
  pageSize?: number
  /** A page size of its own for some lists (the spec gives none, nor says it is one for all lists). */
  pageSizes?: Partial<Record<'candidates' | 'applications' | 'timesheets' | 'marketing', number>>
  counts?: Partial<Counts>
  /** Share of applications by people with no candidate account; default 0.2 (a) or 0.3 (b). */
  guestShare?: number
  /** Seconds each full request is limited for; 0 turns the limit off. Default 900 (the spec's 15 minutes). */
  rateLimitWindow?: number
  /** Milliseconds of a monotonic clock, for the rate limit's windows (default: process.hrtime). */
  elapsed?: () => number
  /** What next_page holds on the last page: left out (style a's default), false (style b's) or the empty string. */
  lastPageNextPage?: 'absent' | false | ''
  /** A live board: a record arrives before every `live`-th request that passes authentication. */
  live?: number
}

export interface OtherBoard {
  /** The deployment's {base_url}, without /api/v1. */
  url: string
  close(): Promise<void>
  /** The true totals of each list, and the jobs not deleted. */
  counts(): ReturnType<Board['counts']>
  /** Makes one record arrive now, as a live board receives one. */
  arrive(): void
}

const DEFAULT_COUNTS: Record<Style, Counts> = {
  a: { candidates: 31, applications: 47, timesheets: 19, marketing: 17 },
  // style b: an account whose candidates never gave or revoked marketing consent
  b: { candidates: 26, applications: 58, timesheets: 23, marketing: 0 },
}

class HttpError {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly httpStatus = status,
  ) {}
}

const monotonic = () => Number(process.hrtime.bigint() / 1_000_000n)

export async function startOtherBoard(options: OtherBoardOptions): Promise<OtherBoard> {
  const style = options.style ?? 'a'
  const a = style === 'a'
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  const now = parseStamp(options.now ?? '2026-11-20 12:00:00')
  if (now === undefined) throw new Error(`now ${options.now} is not YYYY-MM-DD HH:MM:SS`)
  const board = new Board({
    style,
    seed: options.seed ?? (a ? 20261 : 90210),
    now,
    counts: { ...DEFAULT_COUNTS[style], ...options.counts },
    guestShare: options.guestShare ?? (a ? 0.2 : 0.3),
  })
  const pageSize = options.pageSize ?? (a ? 7 : 9)
  const lastPage = options.lastPageNextPage ?? (a ? 'absent' : false)
  const window = (options.rateLimitWindow ?? 900) * 1000
  const elapsed = options.elapsed ?? monotonic
  const windows = new Map<string, number>()
  const expected = Buffer.from(`${options.username}:${options.password}`, 'utf8')
  let admitted = 0
  let jobsAdded = 0

  const json = (response: ServerResponse, httpStatus: number, body: unknown, headers: Record<string, string> = {}) => {
    const bytes = Buffer.from(encode(style, body), 'utf8')
    // style b streams its JSON (chunked, no Content-Length), as a framework writing as it encodes does
    const length: Record<string, string> = a ? { 'Content-Length': String(bytes.length) } : {}
    response.writeHead(httpStatus, { 'Content-Type': a ? 'application/json' : 'application/json;charset=UTF-8', ...length, ...headers })
    if (a) response.end(bytes)
    else {
      const half = bytes.length >> 1
      response.write(bytes.subarray(0, half))
      response.end(bytes.subarray(half))
    }
  }
  const error = (response: ServerResponse, e: HttpError) => json(response, e.httpStatus, a ? { message: e.message, status: e.status } : { status: e.status, message: e.message })

  function authorised(request: IncomingMessage): boolean {
    const header = request.headers.authorization ?? ''
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
    if (!m) return false
    const given = Buffer.from(m[1] as string, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  /** Milliseconds until this full request may be made again, or 0 (and the window opened). */
  function limited(key: string): number {
    if (window === 0) return 0
    const at = elapsed()
    const opened = windows.get(key)
    if (opened !== undefined && at - opened < window) return window - (at - opened)
    windows.set(key, at)
    return 0
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((e: unknown) => {
      if (e instanceof HttpError) return error(response, e)
      json(response, 500, { status: 500, message: 'Internal error' })
    })
  })

  async function readBody(request: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of request) {
      size += (chunk as Buffer).length
      if (size > 1_000_000) throw new HttpError(413, 'The request body is too large.')
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = request.url ?? '/'
    const url = new URL(raw, 'http://board.invalid')
    const links: Links = { base: `http://${request.headers.host ?? '127.0.0.1'}${basePath}` }
    if (basePath !== '' && !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
      response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>')
      return
    }
    const path = url.pathname.slice(basePath.length)
    if (!path.startsWith('/api/v1/')) return publicPage(path, response)
    if (!authorised(request)) {
      await readBody(request).catch(() => undefined)
      const challenge = a ? 'Basic realm="Job Board API"' : 'Basic realm="staging", charset="UTF-8"'
      return json(response, 401, a ? { message: 'Unauthorised.', status: 401 } : { status: 401, message: 'Authentication required' }, { 'WWW-Authenticate': challenge })
    }
    // a full request: method, path and query as sent
    const wait = limited(`${request.method} ${raw}`)
    if (wait > 0) {
      await readBody(request).catch(() => undefined)
      const seconds = String(Math.max(1, Math.ceil(wait / 1000)))
      return json(response, 429, a ? { message: 'Too many requests.', status: 429 } : { status: 429, message: `Slow down: try again in ${seconds} s` }, { [a ? 'Retry-after' : 'Retry-After']: seconds })
    }
    admitted++
    if (options.live !== undefined && options.live > 0 && admitted % options.live === 0) board.arrive()
    const route = path.slice('/api/v1'.length)
    if (request.method === 'POST') {
      const body = await readBody(request)
      return json(response, 200, jobs(route, request, body, links))
    }
    if (request.method !== 'GET') throw new HttpError(405, `${request.method} is not allowed here.`)
    return read(route, url.searchParams, links, response)
  }

  // ---- public job pages ----

  const publicPath = (id: number, title: string) => (a ? `/job/${id}` : `/vacancies/${id}/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`)

  function publicPage(path: string, response: ServerResponse): void {
    const m = a ? /^\/job\/(\d+)$/.exec(path) : /^\/vacancies\/(\d+)(?:\/[a-z0-9-]*)?$/.exec(path)
    const job = m ? board.jobs.find((j) => j.id === Number(m[1])) : undefined
    if (!job || job.deleted || !job.published) {
      response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>This page does not exist</h1>')
      return
    }
    const note = job.expired ? '<p>This job is no longer accepting applications.</p>' : '<p><a href="#apply">Apply now</a></p>'
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${job.title}</title><h1>${job.title}</h1>${note}`)
  }

  // ---- reads ----

  type Answer = { json: Json } | { file: { type: string; filename: string; bytes: Buffer } }

  function read(route: string, query: URLSearchParams, links: Links, response: ServerResponse): void {
    const answer = readAnswer(route, query, links)
    if ('json' in answer) json(response, 200, answer.json)
    else download(response, answer.file.type, answer.file.filename, answer.file.bytes)
  }

  function readAnswer(route: string, query: URLSearchParams, links: Links): Answer {
    const lists = { '/candidates/list': 'candidates', '/applications/list': 'applications', '/timesheets/list': 'timesheets', '/marketing/list': 'marketing' } as const
    if (route in lists) return { json: list(route, query, links, lists[route as keyof typeof lists]) }
    if (route === '/metrics/list') {
      const metrics = metricsView(board, jobsAdded)
      return { json: a ? { metrics, status: 200 } : { status: 200, metrics } }
    }
    if (route === '/job/fields') {
      const values = ordered(style, { ...JOB_FIELDS } as unknown as { [key: string]: Json })
      return { json: a ? { status: 200, data: values } : { status: 200, ...values } }
    }
    const [, family, kind, id] = /^\/(candidates|applications)\/(details|timesheet|resume|document|timesheets\/download|attachment)\/([^/]+)$/.exec(route) ?? []
    if (family === 'candidates' && kind === 'details') {
      const c = board.candidates.find((x) => String(x.id) === id)
      if (!c) throw missing('Candidate', id as string)
      return { json: envelope(1, [candidateView(board, links, c)]) }
    }
    if (family === 'applications' && kind === 'details') {
      const x = board.applications.find((y) => String(y.id) === id)
      if (!x) throw missing('Application', id as string)
      return { json: envelope(1, [applicationView(board, links, x, false)]) }
    }
    if (family === 'candidates' && kind !== undefined && kind !== 'attachment') {
      const fileKind = kind === 'timesheets/download' ? 'timesheet' : kind
      const file = board.files.find((f) => f.kind === fileKind && String(kind === 'timesheet' ? timesheetFileId(style, f) : f.id) === id)
      if (!file) throw missing(fileKind === 'timesheet' ? 'Timesheet' : fileKind === 'resume' ? 'Resume' : 'Document', id as string)
      const type = fileKind === 'timesheet' ? (a ? 'application/vnd.timesheet.octet-stream' : 'application/timesheet-octet-stream') : a ? 'application/pdf' : 'application/octet-stream'
      return { file: { type, filename: file.filename, bytes: fileBytes(file.id, file.filename, file.filesize) } }
    }
    if (family === 'applications' && kind === 'attachment') {
      const x = board.applications.find((y) => String(y.id) === id)
      if (!x) throw missing('Attachment', id as string)
      return { file: { type: a ? 'application/octet-stream' : 'application/octet-stream; charset=binary', filename: x.filename, bytes: fileBytes(x.id, x.filename, x.filesize) } }
    }
    throw new HttpError(404, a ? 'Endpoint not found.' : `No route for ${route}`)
  }

  const missing = (what: string, id: string) => new HttpError(404, a ? `${what} not found.` : `${what} #${id} does not exist`)

  /** Content-Disposition per RFC 6266: a quoted name with an RFC 5987 filename* for what is not ASCII (a), or a bare token (b). */
  function disposition(filename: string): string {
    if (!a && /^[A-Za-z0-9._-]+$/.test(filename)) return `Attachment; filename=${filename}`
    const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
    const extended = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    return ascii === filename ? `attachment; filename="${filename}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${extended}`
  }

  function download(response: ServerResponse, type: string, filename: string, bytes: Buffer): void {
    response.writeHead(200, {
      'Content-Type': type,
      'Content-Length': String(bytes.length),
      'Content-Disposition': disposition(filename),
      'Content-Transfer-Encoding': a ? 'binary' : 'Binary',
    })
    response.end(bytes)
  }

  function envelope(total: number, data: Json[], paging: { next?: string | false; prev?: string | false } = {}): { [key: string]: Json } {
    const body: { [key: string]: Json } = a ? { data, total, status: 200 } : { status: 200, total }
    if (paging.next !== undefined) body.next_page = paging.next
    if (paging.prev !== undefined) body.prev_page = paging.prev
    if (!a) body.data = data
    return body
  }

  /** A paging link in the style's own query order and encoding. */
  function pageLink(links: Links, route: string, given: { since?: string; vacancy?: string }, page: number): string {
    const enc = (v: string) => (a ? encodeURIComponent(v).replace(/%3A/gi, ':') : encodeURIComponent(v).replace(/%20/g, '+'))
    const parts: string[] = []
    if (a) {
      parts.push(`page=${page}`)
      if (given.since !== undefined) parts.push(`since=${enc(given.since)}`)
      if (given.vacancy !== undefined) parts.push(`vacancy=${enc(given.vacancy)}`)
    } else {
      if (given.vacancy !== undefined) parts.push(`vacancy=${enc(given.vacancy)}`)
      if (given.since !== undefined) parts.push(`since=${enc(given.since)}`)
      // style b names no page for the first page: the list's own URL is page 1
      if (page > 1) parts.push(`page=${page}`)
    }
    return `${links.base}/api/v1${route}${parts.length > 0 ? `?${parts.join('&')}` : ''}`
  }

  function list(route: string, query: URLSearchParams, links: Links, kind: 'candidates' | 'applications' | 'timesheets' | 'marketing') {
    const given: { since?: string; vacancy?: string } = {}
    let since: number | undefined
    const sinceText = query.get('since')
    if (sinceText !== null) {
      since = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(sinceText) ? parseStamp(sinceText) : undefined
      if (since === undefined && a) throw new HttpError(412, 'The since parameter must be YYYY-MM-DD HH:MM.', 412)
      // style b drops a since it cannot read and answers the whole list
      if (since !== undefined) given.since = sinceText
    }
    let vacancy: number | undefined
    const vacancyText = kind === 'applications' ? query.get('vacancy') : null
    if (vacancyText !== null) {
      if (!/^\d+$/.test(vacancyText)) throw new HttpError(412, a ? 'The vacancy parameter must be an integer.' : 'Invalid value for vacancy', a ? 412 : 200)
      vacancy = Number(vacancyText)
      given.vacancy = vacancyText
    }
    const pageText = query.get('page')
    let page = 1
    if (pageText !== null) {
      if (/^[1-9]\d{0,8}$/.test(pageText)) page = Number(pageText)
      else if (a) throw new HttpError(412, 'The page parameter must be a whole number from 1.')
    }
    // since compares updated_at for candidates and applications in style a, created_at everywhere in style b
    const after = (created: number, updated: number) => since === undefined || (a ? updated : created) >= since
    let rows: Json[]
    if (kind === 'candidates') {
      const items = board.candidates.filter((c) => after(c.created, c.updated)).sort((x, y) => (a ? y.id - x.id : x.id - y.id))
      rows = items.map((c) => candidateView(board, links, c))
    } else if (kind === 'applications') {
      const items = board.applications.filter((x) => after(x.created, x.updated) && (vacancy === undefined || x.jobId === vacancy)).sort((x, y) => y.id - x.id)
      rows = items.map((x) => applicationView(board, links, x, true))
    } else if (kind === 'timesheets') {
      const items = board.files.filter((f) => f.kind === 'timesheet' && after(f.created, f.created)).sort((x, y) => (a ? y.id - x.id : x.id - y.id))
      rows = items.map((f) => timesheetView(board, links, f))
    } else {
      const items = board.marketing.filter((m) => after(m.created, m.created)).sort((x, y) => y.created - x.created || y.seq - x.seq)
      rows = items.map((m) => marketingView(board, m))
    }
    const total = rows.length
    const size = options.pageSizes?.[kind] ?? pageSize
    const pages = Math.max(1, Math.ceil(total / size))
    if (page > pages && !a) throw new HttpError(404, `Page ${page} does not exist`)
    const data = rows.slice((page - 1) * size, page * size)
    // the last page: style a leaves next_page out, style b says false (as prev_page does)
    const next = page < pages ? pageLink(links, route, given, page + 1) : lastPage === 'absent' ? undefined : lastPage
    const prev = kind !== 'timesheets' ? undefined : page === 1 ? false : pageLink(links, route, given, page - 1)
    return envelope(total, data, { next: next, prev })
  }

  // ---- the job API ----

  const words = (field: string) => field.replace(/_/g, ' ')
  /** A 412 naming the field: HTTP 412 in style a, HTTP 200 with status 412 in the body in style b. */
  const invalid = (field: string, missingField = false) =>
    new HttpError(412, a ? `The ${field} field is ${missingField ? 'required' : 'invalid'}.` : `The ${words(field)} is ${missingField ? 'missing' : 'invalid'}.`, a ? 412 : 200)

  const REQUIRED = [
    'published', 'featured', 'job_title', 'job_reference', 'job_industry', 'job_telecommute', 'job_location', 'job_latitude', 'job_longitude', 'job_type',
    'contract_type', 'job_description', 'contact_name', 'contact_email', 'salary_visible', 'salary_precise', 'salary_unit', 'salary_currency', 'require_cv',
  ]
  const FLAG = (v: unknown) => v === 0 || v === 1
  const TEXT = (v: unknown) => typeof v === 'string'
  const DATE = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(v) && parseStamp(v) !== undefined
  const ONE_OF = (values: readonly string[]) => (v: unknown) => typeof v === 'string' && values.includes(v)
  const RULES: Record<string, (v: unknown) => boolean> = {
    published: FLAG,
    featured: FLAG,
    require_cv: FLAG,
    job_title: TEXT,
    job_reference: TEXT,
    job_location: TEXT,
    job_description: TEXT,
    contact_name: TEXT,
    salary_visible: TEXT,
    job_industry: ONE_OF(JOB_FIELDS.job_industry),
    job_telecommute: ONE_OF(JOB_FIELDS.job_telecommute),
    job_type: ONE_OF(JOB_FIELDS.job_type),
    contract_type: ONE_OF(JOB_FIELDS.contract_type),
    salary_unit: ONE_OF(JOB_FIELDS.salary_unit),
    salary_currency: ONE_OF(JOB_FIELDS.salary_currencies),
    job_latitude: (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 90,
    job_longitude: (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 180,
    contact_email: (v) => typeof v === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v),
    salary_precise: (v) => typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v),
    available_from: DATE,
    closing_date: DATE,
    expiry_date: DATE,
    close_automatically: FLAG,
    hot: FLAG,
    internal: FLAG,
    // "comma-separated list": items with something in them ("vet,,nurse" has an empty one)
    keywords: (v) => typeof v === 'string' && v.split(',').every((item) => item.trim() !== ''),
    job_hours: TEXT,
    job_duration: TEXT,
    job_skills: TEXT,
    salary_benefits: TEXT,
    // "URL of an external application page"
    application_url: (v) => typeof v === 'string' && /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v),
    job_benefits: (v) => Array.isArray(v) && v.every(TEXT),
    job_requirements: (v) => Array.isArray(v) && v.every(TEXT),
    job_responsibilities: (v) => Array.isArray(v) && v.every(TEXT),
  }

  function parseJson(request: IncomingMessage, body: Buffer): Record<string, unknown> {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) throw new HttpError(415, 'Send the body as application/json.')
    let value: unknown
    try {
      value = JSON.parse(body.toString('utf8'))
    } catch {
      throw new HttpError(400, 'The body is not JSON.')
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'The body must be a JSON object.')
    return value as Record<string, unknown>
  }

  function jobOf(body: Record<string, unknown>) {
    // the body of close and expire is not shown: style b also takes job_id
    const raw = body.id ?? (a ? undefined : body.job_id)
    if (typeof raw !== 'number' || !Number.isInteger(raw)) throw invalid('id', raw === undefined)
    const job = board.jobs.find((j) => j.id === raw)
    if (!job || job.deleted) throw new HttpError(404, a ? `Job ${raw} not found.` : `No such job: ${raw}`, a ? 404 : 200)
    return job
  }

  const addMonth = (date: string) => {
    const t = parseStamp(date) as number
    const d = new Date(t * 1000)
    return stamp(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()) / 1000).slice(0, 16)
  }

  function jobs(route: string, request: IncomingMessage, raw: Buffer, links: Links): Json {
    const ok = (message: string, extra: { [key: string]: Json } = {}): Json => (a ? { ...extra, message, status: 200 } : { status: 200, message, ...extra })
    if (!['/job/add', '/job/delete', '/job/close', '/job/expire', '/job/repost'].includes(route)) throw new HttpError(404, a ? 'Endpoint not found.' : `No route for ${route}`)
    const body = parseJson(request, raw)
    if (route === '/job/add') {
      const place = typeof body.job_location === 'string' ? PLACES[body.job_location] : undefined
      for (const field of REQUIRED) {
        if (body[field] === undefined && !(place && (field === 'job_latitude' || field === 'job_longitude'))) throw invalid(field, true)
      }
      for (const [field, value] of Object.entries(body)) {
        const rule = RULES[field]
        // fields the add operation does not list are dropped (not refused)
        if (rule && !rule(value)) throw invalid(field)
      }
      const job = board.addJob(board.rand, board.now, body.published === 1, {
        title: body.job_title as string,
        reference: body.job_reference as string,
        location: body.job_location as string,
        salary: `£${body.salary_precise as string} ${(body.salary_unit as string).toLowerCase()}`,
      })
      if (typeof body.closing_date === 'string') job.closingDate = body.closing_date
      if (typeof body.expiry_date === 'string') job.expiryDate = body.expiry_date
      jobsAdded++
      const page = `${links.base}${publicPath(job.id, job.title)}`
      return ok(a ? page : `The job has been added and is live at ${page}`, { id: job.id })
    }
    const job = jobOf(body)
    if (route === '/job/delete') {
      job.deleted = true
      return ok(a ? `Job ${job.id} has been deleted.` : 'Vacancy deleted')
    }
    if (route === '/job/close') {
      job.published = false
      return ok(a ? `Job ${job.id} has been closed (unpublished).` : 'Vacancy closed (unpublished)')
    }
    if (route === '/job/expire') {
      job.expired = true
      return ok(a ? `Job ${job.id} has been expired.` : 'Vacancy expired')
    }
    // repost: new closing and expiry dates one month later; closing_date as sent when sent
    if (body.closing_date !== undefined && !DATE(body.closing_date)) throw invalid('closing_date')
    job.closingDate = typeof body.closing_date === 'string' ? body.closing_date : addMonth(job.closingDate)
    job.expiryDate = addMonth(job.expiryDate)
    job.published = true
    job.expired = false
    return ok(a ? `Job ${job.id} has been reposted.` : `Vacancy reposted until ${job.closingDate}`)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    counts: () => board.counts(),
    arrive: () => board.arrive(),
  }
}
