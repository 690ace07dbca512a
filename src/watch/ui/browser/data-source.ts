// Where the page reads its data: the JSON routes of ../routes.ts beside the page (with the
// control token its URL carries as #token=), or, in a file written at shutdown (serve
// --verdict-html), the day that file carries, answered as those routes would.
import type { JournalRow, JournalWindow } from '../page-data.js'
import type { BoardView } from './page-state.js'
import { fmt } from './journal-rows.js'

/** A body as GET /__mock/requests/{id} shows it (schemas/control.ts, journalBody). */
export interface ShownBody {
  kind: string
  bytes?: number
  contentType?: string
  text?: string
  omittedBytes?: number
  note?: string
}

/** One journal entry with its request and its answer (schemas/control.ts, journalEntryDetail); a carried day's has neither. */
export interface EntryDetail {
  id: number
  method: string
  url: string
  status: number
  time: string
  user: string
  fault?: string
  retryAfter?: number
  nextPage?: boolean
  dropped?: string
  request?: { method: string; url: string; headers?: Record<string, string>; body: ShownBody }
  answer?: { status: number; headers?: Record<string, string>; body: ShownBody }
}

/** The day a file carries: the journal's rows and the board's view. */
interface Day {
  journal: JournalRow[]
  board: BoardView
}

export interface DataSource {
  /** Whether the page is a file that carries its day (nothing to poll). */
  readonly carried: boolean
  journal(after: number, limit: number): Promise<JournalWindow>
  board(): Promise<BoardView>
  entry(id: number): Promise<{ entry: EntryDetail }>
}

export function dataSource(): DataSource {
  const token = (/(?:^#|&)token=([^&]*)/.exec(location.hash) || [])[1]
  const headers: Record<string, string> = token ? { authorization: `Bearer ${decodeURIComponent(token)}` } : {}
  const own = document.querySelector('script[src$="/ui.js"]')
  const base = own ? (own.getAttribute('src') ?? '').replace(/\/ui\.js$/, '') : ''
  const carried = document.getElementById('day')
  const day = carried ? (JSON.parse(carried.textContent ?? '') as Day) : null

  function fromDay(day: Day, path: string): unknown {
    const after = /^\/journal\?after=([0-9]+)/.exec(path)
    if (after) {
      const rest = day.journal.filter((e) => e[0] > Number(after[1]))
      const first = day.journal[0]
      const newest = day.journal[day.journal.length - 1]
      return { first: first ? first[0] : 0, newest: newest ? newest[0] : 0, entries: rest }
    }
    if (path === '/board') return day.board
    const id = Number(path.replace('/entry/', ''))
    const e = day.journal.find((x) => x[0] === id)
    if (!e) throw new Error(`The file holds no request ${id}`)
    const entry: EntryDetail = { id: e[0], method: e[2], url: e[3], status: e[4], time: fmt(e[1]), user: e[5] }
    if (e[6] !== null) entry.fault = e[6]
    if (e[7] !== null) entry.retryAfter = e[7]
    if (e[8] !== null) entry.nextPage = e[8]
    return { entry }
  }

  function get(path: string): Promise<unknown> {
    if (day) return new Promise((resolve) => resolve(fromDay(day, path)))
    // a poll that hangs must not stop the next ones: each gives up after five seconds
    const signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(5000) : undefined
    return fetch(base + path, { headers, cache: 'no-store', ...(signal ? { signal } : {}) }).then((r) => {
      if (!r.ok) throw new Error(`${path}: ${r.status}`)
      return r.json()
    })
  }

  return {
    carried: day !== null,
    journal: (after, limit) => get(`/journal?after=${after}&limit=${limit}`) as Promise<JournalWindow>,
    board: () => get('/board') as Promise<BoardView>,
    entry: (id) => get(`/entry/${id}`) as Promise<{ entry: EntryDetail }>,
  }
}
