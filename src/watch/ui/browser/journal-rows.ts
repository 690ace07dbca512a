// What the page reads off one journal row (../page-data.ts, JournalRow): how it ended, the
// family of URLs its lane is, the page of a list it asked for, and times as the journal
// writes them.
import type { JournalRow } from '../page-data.js'

/** How a request ended, as the timeline colours it. */
export type Outcome = 'ok' | 'c4xx' | 'c412' | 'c429' | 'c5xx' | 'fault'

export const COLOURS: Record<Outcome | 'none', string> = { ok: '#1a7f37', c4xx: '#a40e26', c412: '#7d4e00', c429: '#bc4c00', c5xx: '#d1242f', fault: '#6f42c1', none: '#57606a' }
export const NAMES: Record<Outcome, string> = { ok: '2xx/3xx', c4xx: '4xx', c412: '412', c429: '429', c5xx: '5xx', fault: 'injected fault' }

export function outcome(e: JournalRow): Outcome {
  if (e[6] !== null || e[4] === 0) return 'fault'
  const s = e[4]
  if (s === 429) return 'c429'
  if (s === 412) return 'c412'
  if (s >= 500) return 'c5xx'
  if (s >= 400) return 'c4xx'
  return 'ok'
}

export function pathOf(url: string): string {
  const q = url.indexOf('?')
  return q < 0 ? url : url.slice(0, q)
}

/** The lane of a URL: its path under the API, each id as {id}. */
export const family = (url: string) => pathOf(url).replace(/^\/api\/v1/, '').replace(/\/[0-9]+(?=\/|$)/g, '/{id}')

export function pageOf(url: string): number {
  const m = /[?&]page=([0-9]+)/.exec(url)
  return m ? Number(m[1]) : 1
}

export const withoutPage = (url: string) => url.replace(/([?&])page=[0-9]+&?/, '$1').replace(/[?&]$/, '')

/** Epoch ms as the journal writes a time: 'YYYY-MM-DD HH:MM:SS' (UTC). */
export const fmt = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19)

/** Whether the API admitted the request (its rate-limit window opened). */
export const admitted = (e: JournalRow) => e[6] === null && e[4] > 0 && e[4] < 400
