// /__mock/ui: the day's traffic as a page (timeline, verdict, journal, and a board where
// there is one), read-only, for any source of the watching layer: the fake (each account's
// board: src/fake/board-view.ts) or the proxy. Only this file is loaded with them: the page
// itself (page.ts, its HTML and CSS, and page-script.ts, the script bundled from the browser
// code of browser/) is imported the first time someone asks for
// /__mock/ui, so a server nobody looks at never loads it and its first answer never waits
// for it. The page reads the small JSON routes below, which read the journal and the view
// the request's source gives (UiOptions.source).
//
// The journal is read in windows (`after` an id, at most `limit` entries: Journal.window),
// so a window is all that is copied per request, and a poll with nothing new costs
// nothing; the page keeps at most twice as many entries as the journal holds.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createHash, timingSafeEqual } from 'node:crypto'
import { BoardError, boardError } from '../../core/errors.js'
import { entryDetail } from '../journal-detail.js'
import type { Journal } from '../journal.js'
import type { Verdict } from '../verdict/verdict-types.js'
import { ruleById, type RuleId } from '../verdict/client-rules.js'
import { UI_FILTERS, type JournalRow, type JournalWindow, type VerdictView } from './page-data.js'

export interface UiOptions {
  /** The control token, when one is set: the data routes ask for it as the control API does (the page reads it from its URL's #token=). */
  token?: string
  /** What a request to the page reads: its source's journal and view (the fake's: the account the path names). */
  source: (request: FastifyRequest) => UiSource
}

/** What the page shows: a journal, and a view of what holds it. */
export interface UiSource {
  readonly journal: Journal
  /**
   * What /__mock/ui/board answers: the clock, the window and the verdict (verdictView); a
   * fake's also the board's counts, faults and activity (the board panel, absent without).
   */
  view(): object
  /** Where the page's own parts are served for it (the page's links): UI_PATH, or an account's (/__mock/accounts/{name}/ui). */
  readonly base: string
}

/** Where the page is served. */
export const UI_PATH = '/__mock/ui'

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
    return asset('text/html; charset=utf-8', html(source(request).base, uiNotice(query)))(request, reply)
  })
  app.get('/ui.js', async (request, reply) => asset('text/javascript; charset=utf-8', (await load()).SCRIPT)(request, reply))
  app.get('/ui.css', async (request, reply) => asset('text/css; charset=utf-8', (await load()).STYLE)(request, reply))

  // a window of the journal: entries after an id, oldest first, as arrays (10,000 objects' keys would double the bytes)
  app.get<{ Querystring: { after?: string; limit?: string } }>('/journal', { onRequest: guard }, async (request) => {
    const after = Math.max(0, Math.trunc(Number(request.query.after) || 0))
    const limit = Math.min(UI_WINDOW_MAX, Math.max(1, Math.trunc(Number(request.query.limit) || UI_WINDOW_MAX)))
    return { status: 200, ...journalWindow(source(request), after, limit) }
  })

  // one entry with its request and answer, as GET /__mock/requests/{id} gives it (journal-detail.ts), its URL capped
  app.get<{ Params: { id: string } }>('/entry/:id', { onRequest: guard }, async (request) => {
    const id = Number(request.params.id)
    const journal = source(request).journal
    const held = /^[0-9]{1,15}$/.test(request.params.id) ? journal.entry(id) : undefined
    if (held === undefined) throw new BoardError('NOT_FOUND', `The journal holds no request ${String(request.params.id).slice(0, 40)}: it keeps the newest requests since it was last emptied.`)
    return { status: 200, entry: entryDetail(journal, held, { urlShown: UI_URL_SHOWN }) }
  })

  // the clock, the window and the verdict with each rule's sentence; a board's counts, faults and activity
  app.get('/board', { onRequest: guard }, async (request) => source(request).view())
}

/** Entries after an id, at most `limit`, as the page reads them: [id, ms, method, url, status, user, fault, retryAfter, nextPage]. */
export function journalWindow(board: { readonly journal: Journal }, after: number, limit: number): JournalWindow & { held: number } {
  const window = board.journal.window(after, limit)
  const entries = window.entries.map((e): JournalRow => [
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

/** The verdict as the page shows it: each rule with its sentence, each finding with the requests it names. */
export function verdictView(verdict: Pick<Verdict, 'outcome' | 'rules'>): VerdictView {
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
 * The day as one HTML file (serve --verdict-html, proxy --html): the page of /__mock/ui
 * with the journal the source holds (its newest 10,000 entries) and its view carried
 * inside; `notice` says when it was written, given how many requests it holds. The page's
 * module is imported only here and on /__mock/ui.
 */
export async function dayFile(source: Pick<UiSource, 'journal' | 'view'>, notice: (requests: number) => string): Promise<string> {
  const { dayHtml } = await import('./page.js')
  const { entries } = journalWindow(source, 0, source.journal.size)
  return dayHtml({ journal: entries, board: source.view() }, notice(entries.length))
}

/** The page loads nothing from anywhere but the server it is served by. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"
