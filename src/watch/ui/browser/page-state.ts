// What the page holds while it is open (made once by page-main.ts and handed to every
// panel), and how a panel asks the others to show it again. The answers it reads are
// typed by ../page-data.ts; what /__mock/ui/board answers beside the verdict is the
// source's view (the fake's board, or the proxy's own figures).
import type { JournalRow, UiFilter, VerdictView } from '../page-data.js'

/** A span of time on the timeline, [from, to] in epoch ms. */
export type Span = [number, number]

/** GET /__mock/ui/board: the clock, the window and the verdict; a fake's board, or what the proxy saw of its upstream. */
export interface BoardView {
  clock: { now: number; mode: string; speed: number }
  window: number
  verdict?: VerdictView | null
  /** A proxy's page: it has no board. */
  proxy?: { to: string; upstreamRequests: number; violations: number }
  counts?: Record<string, number>
  openWindows: number
  faults: Array<{ kind: string; path?: string; remaining: number }>
  activity?: {
    name: string
    played: number
    pending: number
    next: { event: string; at: string } | null
    failures: unknown[]
    /** [at ms, event, played] */
    steps: Array<[number, string, boolean]>
  } | null
}

/** The requests a finding names, shown alone while it is chosen. */
export interface Highlight {
  readonly ids: ReadonlySet<number>
  /** The finding chosen: `ruleId#n`. */
  readonly key: string
}

export interface PageState {
  /** The journal as the page holds it, oldest first, at most MAX_ENTRIES. */
  entries: JournalRow[]
  byId: Map<number, JournalRow>
  lastId: number
  board: BoardView | null
  highlight: Highlight | null
  /** The lanes opened into one lane per full URL, by their family. */
  readonly expanded: Set<string>
  /** The timeline's span; null: the whole day. */
  view: Span | null
  /** Whose clock the times are on: the board's, or on a proxy the proxy's own (it has no board). */
  clockName: string
  readonly filters: Record<UiFilter, string>
}

export function newState(): PageState {
  return {
    entries: [],
    byId: new Map(),
    lastId: 0,
    board: null,
    highlight: null,
    expanded: new Set(),
    view: null,
    clockName: 'board time',
    filters: { user: '', method: '', path: '', status: '' },
  }
}

/** What a panel asks of the others: each shows the state again, or opens a request. */
export interface Panels {
  draw(): void
  renderTable(): void
  renderBoard(): void
  renderVerdict(): void
  setHighlight(ids: number[] | null, key?: string): void
  openEntry(id: number): void
}

/** An element the page's HTML (../page.ts) holds. */
export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the page has no #${id}`)
  return found as T
}
