// The journal's table: the newest ROWS requests that match the filters (or, while a finding
// is chosen, its requests alone), newest first; a row opens its request on a click or Enter.
import type { JournalRow } from '../page-data.js'
import { fmt, pathOf } from './journal-rows.js'
import { element, type PageState, type Panels } from './page-state.js'

/** Rows of the table at once (newest first). */
const ROWS = 300

export function journalTable(state: PageState, panels: Pick<Panels, 'openEntry'>): { renderTable(): void } {
  const body = document.querySelector('#journal tbody') as HTMLTableSectionElement

  function matches(e: JournalRow): boolean {
    const { highlight, filters } = state
    if (highlight) return highlight.ids.has(e[0])
    if (filters.user && e[5].indexOf(filters.user) < 0) return false
    if (filters.method && e[2].toUpperCase() !== filters.method.toUpperCase()) return false
    if (filters.path && pathOf(e[3]).indexOf(filters.path) < 0) return false
    if (filters.status && String(e[4]) !== filters.status) return false
    return true
  }

  function renderTable() {
    const { entries, highlight } = state
    // the row that has the focus keeps it when the rows are made again
    const active = document.activeElement as HTMLElement | null
    const focused = active && active.parentNode === body ? active.dataset.id : null
    let shown = 0
    let total = 0
    const frag = document.createDocumentFragment()
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i] as JournalRow
      if (!matches(e)) continue
      total++
      if (shown >= ROWS) continue
      shown++
      const tr = document.createElement('tr')
      tr.dataset.id = String(e[0])
      tr.tabIndex = 0
      tr.title = `Open request #${e[0]} (Enter)`
      if (highlight?.ids.has(e[0])) tr.className = 'hl'
      const cells = [String(e[0]), fmt(e[1]), e[5] || '(none)', e[2], e[3], String(e[4]), e[6] || (e[7] !== null ? `Retry-after ${e[7]} s` : '')]
      cells.forEach((text, k) => {
        const td = document.createElement('td')
        if (k === 4) td.className = 'url'
        td.textContent = text
        tr.appendChild(td)
      })
      frag.appendChild(tr)
    }
    body.textContent = ''
    body.appendChild(frag)
    if (focused !== null && focused !== undefined) {
      const again = body.querySelector<HTMLElement>(`tr[data-id="${focused}"]`)
      if (again) again.focus()
    }
    const whose = highlight ? "The finding's requests: " : ''
    const cut = total > shown ? `, the newest ${shown} shown` : ''
    element('journal-count').textContent = `${whose}${total} request${total === 1 ? '' : 's'}${cut}`
  }

  const rowOf = (ev: Event) => (ev.target as Element).closest('tr')
  body.addEventListener('click', (ev) => {
    const tr = rowOf(ev)
    if (tr) panels.openEntry(Number(tr.dataset.id))
  })
  body.addEventListener('keydown', (ev) => {
    const tr = rowOf(ev)
    if (tr && ev.key === 'Enter') panels.openEntry(Number(tr.dataset.id))
  })

  return { renderTable }
}
