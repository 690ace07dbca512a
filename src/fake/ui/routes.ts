// /__mock/ui: the fake's day as a page (timeline, verdict, journal, board), read-only.
// Only this file is loaded with the fake: the page itself (page.ts, its HTML, CSS and
// script) is imported the first time someone asks for /__mock/ui, so a fake nobody looks
// at never loads it and its first answer never waits for it. The page reads the small
// JSON routes below, which read the first account's board (the one `/__mock/...` acts on),
// or the named account's under /__mock/accounts/{name}/ui (src/fake/accounts.ts, accountUrl).
//
// The journal is read in windows (`after` an id, at most `limit` entries: Journal.window),
// so the fake never copies more than one window per request, and a poll with nothing new
// costs nothing; the page keeps at most twice as many entries as the journal holds.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createHash, timingSafeEqual } from 'node:crypto'
import { BoardError, boardError } from '../../core/errors.js'
import { formatTimestamp } from '../../core/time.js'
import { namedAccount } from '../accounts.js'
import type { Board } from '../board.js'
import type { Verdict } from '../verdict/evaluator.js'
import { ruleById, type RuleId } from '../verdict/rules.js'
import type { Controller } from '../control.js'
import { entryDetail } from '../http/journal-detail.js'
import type { Journal } from '../http/journal.js'

export interface UiOptions {
  /** The control token, when one is set: the data routes ask for it as the control API does (the page reads it from its URL's #token=). */
  token?: string
  /** What the page shows when it is no board's (the proxy's, src/proxy/): its journal, and what /board answers; the board panel is then absent. */
  source?: UiSource
}

/** A journal and a view of it that are not a board's: the page reads these instead of the board's. */
export interface UiSource {
  readonly journal: Journal
  /** What /__mock/ui/board answers: the clock, the window and the verdict as boardView gives them, without counts (no board panel). */
  view(): object
}

/** Where the page is served. */
export const UI_PATH = '/__mock/ui'

/** The journal's fields a filter may name (?user=, ?method=, ?path=, ?status=). */
export const UI_FILTERS = ['user', 'method', 'path', 'status'] as const
/** Entries one journal window holds at most. */
export const UI_WINDOW_MAX = 5_000
/** Characters of a URL a window shows; the entry route shows up to UI_URL_SHOWN. */
const URL_IN_WINDOW = 512
const UI_URL_SHOWN = 4_096
/** Request ids a finding gives the page at most (a finding names few; a runaway loop may name many). */
const FINDING_IDS_MAX = 10_000

const digest = (text: string) => createHash('sha256').update(text).digest()

/** 'YYYY-MM-DD HH:MM:SS' (UTC, the journal's form) as epoch milliseconds. */
const epoch = (time: string) => Date.parse(`${time.replace(' ', 'T')}Z`)

/** A URL shown whole up to `max` characters, then how many more there were. */
const capped = (url: string, max: number) => (url.length <= max ? url : `${url.slice(0, max)}… (${url.length - max} more characters)`)

/** The notice for a query the page does not know: its filters are the journal's fields, anything else is ignored. */
export function uiNotice(query: Record<string, unknown>): string | undefined {
  const unknown = Object.keys(query).filter((key) => !(UI_FILTERS as readonly string[]).includes(key))
  const notes: string[] = []
  if (unknown.length > 0) {
    notes.push(`Ignored ${unknown.map((key) => `"${key.slice(0, 40)}"`).join(', ')}: the journal can be filtered by ${UI_FILTERS.join(', ')} only.`)
  }
  const status = query.status
  if (typeof status === 'string' && status !== '' && !/^[0-9]{1,3}$/.test(status)) notes.push(`Ignored status "${status.slice(0, 40)}": a status is a number such as 429.`)
  return notes.length > 0 ? notes.join(' ') : undefined
}

/** The page's modules, imported once on the first request for the page (never at start). */
type Page = typeof import('./page.js')

export default async function ui(app: FastifyInstance, { token, source }: UiOptions): Promise<void> {
  /** The board a request reads: the account its path names (/__mock/accounts/{name}/ui, accountUrl), else the first. */
  const scope = (request: FastifyRequest): { board: Board; controller: Controller; base: string } => {
    const name = namedAccount(request)
    if (name === undefined) return { board: app.board, controller: app.controller, base: UI_PATH }
    const account = app.accounts.require(name)
    return { board: account.board, controller: account.controller, base: `/__mock/accounts/${encodeURIComponent(name)}/ui` }
  }
  let page: Promise<Page> | undefined
  const load = () => {
    page ??= import('./page.js')
    return page
  }

  const expected = token === undefined ? undefined : digest(`Bearer ${token}`)
  /** The data routes hold the board's journal: behind the control token when one is set. */
  const guard = async (request: FastifyRequest) => {
    if (expected !== undefined && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) throw boardError.controlToken()
  }
  // the page's own parts hold nothing of the board: they are served to anyone who can reach the control API
  const asset = (type: string, body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type(type).header('cache-control', 'no-cache').header('content-security-policy', CSP).send(body)

  app.get('/', async (request, reply) => {
    const { html } = await load()
    const query = (request.query ?? {}) as Record<string, unknown>
    return asset('text/html; charset=utf-8', html(source ? UI_PATH : scope(request).base, uiNotice(query)))(request, reply)
  })
  app.get('/ui.js', async (request, reply) => asset('text/javascript; charset=utf-8', (await load()).SCRIPT)(request, reply))
  app.get('/ui.css', async (request, reply) => asset('text/css; charset=utf-8', (await load()).STYLE)(request, reply))

  // a window of the journal: entries after an id, oldest first, as arrays (10,000 objects' keys would double the bytes)
  app.get<{ Querystring: { after?: string; limit?: string } }>('/journal', { onRequest: guard }, async (request) => {
    const after = Math.max(0, Math.trunc(Number(request.query.after) || 0))
    const limit = Math.min(UI_WINDOW_MAX, Math.max(1, Math.trunc(Number(request.query.limit) || UI_WINDOW_MAX)))
    return { status: 200, ...journalWindow(source ?? scope(request).board, after, limit) }
  })

  // one entry with its request and answer, as GET /__mock/requests/{id} gives it (journal-detail.ts), its URL capped
  app.get<{ Params: { id: string } }>('/entry/:id', { onRequest: guard }, async (request) => {
    const id = Number(request.params.id)
    const journal = source?.journal ?? scope(request).board.journal
    const held = /^[0-9]{1,15}$/.test(request.params.id) ? journal.entry(id) : undefined
    if (held === undefined) throw new BoardError('NOT_FOUND', `The journal holds no request ${String(request.params.id).slice(0, 40)}: it keeps the newest requests since it was last emptied.`)
    return { status: 200, entry: entryDetail(journal, held, { urlShown: UI_URL_SHOWN }) }
  })

  // the board, the clock, the faults, the activity and the verdict with each rule's sentence
  app.get('/board', { onRequest: guard }, async (request) => {
    if (source) return source.view()
    const { board, controller } = scope(request)
    return boardView(board, controller)
  })
}

/** Entries after an id, at most `limit`, as the page reads them: [id, ms, method, url, status, user, fault, retryAfter, nextPage]. */
export function journalWindow(board: { readonly journal: Journal }, after: number, limit: number) {
  const window = board.journal.window(after, limit)
  const entries = window.entries.map((e) => [
    e.id,
    typeof e.time === 'number' ? e.time : epoch(e.time),
    e.method,
    capped(e.url, URL_IN_WINDOW),
    e.status,
    e.user,
    e.fault ?? null,
    e.retryAfter ?? null,
    e.nextPage ?? null,
  ])
  return { first: window.first, newest: window.newest, held: board.journal.size, entries }
}

/** What /__mock/ui/board answers: counts, clock, window, faults, the activity with its steps, the verdict with each rule's sentence. */
export function boardView(board: Board, controller: Controller) {
  const store = board.store
  const counts = {
    jobs: store.jobs.size,
    candidates: store.candidates.size,
    applications: store.applications.size,
    timesheets: store.timesheets.size,
    marketing: store.marketing.size,
    resumes: store.files.resume.size,
    documents: store.files.document.size,
  }
  const activity = board.activity
  const verdict = board.verdict === undefined ? undefined : controller.verdict()
  return {
    status: 200,
    clock: { now: board.clock.now(), mode: board.clock.mode, speed: board.clock.speed },
    window: board.scenario.rateLimitWindow,
    counts,
    faults: controller.faults(),
    openWindows: board.limiter.open().length,
    activity: activity && { ...activity.status(), steps: activity.steps().map((s) => [s.atMs, s.event, s.played]) },
    verdict: verdict && verdictView(verdict),
  }
}

/** The verdict as the page shows it: each rule with its sentence, each finding with the requests it names. */
export function verdictView(verdict: Pick<Verdict, 'outcome' | 'rules'>) {
  return {
    outcome: verdict.outcome,
    rules: verdict.rules.map((rule) => ({
      id: rule.id as string,
      sentence: ruleById(rule.id as RuleId).sentence,
      outcome: rule.outcome as string,
      findings: rule.findings.map((f) => ({ message: f.message, requests: f.requests.slice(0, FINDING_IDS_MAX) })),
    })),
  }
}

/**
 * The fake's day as one HTML file (serve --verdict-html): the page of /__mock/ui with the
 * journal the fake holds (its newest 10,000 entries) and the board, verdict included,
 * carried inside. The page's module is imported only here and on /__mock/ui.
 */
export async function dayFile(board: Board, controller: Controller): Promise<string> {
  const { dayHtml } = await import('./page.js')
  const journal = journalWindow(board, 0, board.journal.size)
  const notice = `Written at ${formatTimestamp(board.clock.now())} (board time) when the fake stopped: ${journal.entries.length} requests, the newest the journal held.`
  return dayHtml({ journal: journal.entries, board: boardView(board, controller) }, notice)
}

/** The page loads nothing from anywhere but this fake. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"
