// One request and its answer, in a panel asked for when opened (GET /__mock/ui/entry/{id}):
// the request line, headers and body, the status, headers and body answered, what the
// journal let go. The focus moves into the panel and back to what opened it on Escape or
// Close, to the row's successor when the table was made again meanwhile.
import type { DataSource, EntryDetail, ShownBody } from './data-source.js'
import { element, type PageState } from './page-state.js'

function el(tag: string, text?: string, cls?: string): HTMLElement {
  const n = document.createElement(tag)
  if (text !== undefined) n.textContent = text
  if (cls) n.className = cls
  return n
}

function headerList(h: Record<string, string> | undefined, what: 'request' | 'answer'): HTMLElement {
  if (!h) return el('p', what === 'answer' ? 'No headers kept (none were sent, or they were dropped).' : 'No headers kept (dropped).', 'help')
  const dl = el('dl', undefined, 'headers')
  for (const k of Object.keys(h)) {
    dl.appendChild(el('dt', k))
    dl.appendChild(el('dd', h[k]))
  }
  return dl
}

const bytes = (n: number | undefined) => (n === undefined ? '' : `${n.toLocaleString('en-US')} bytes`)

/** A whole JSON body is indented to be read; a cut one is shown as it came. */
function readable(b: ShownBody): string | undefined {
  if (b.omittedBytes === undefined && /json/i.test(b.contentType || '')) {
    try {
      return JSON.stringify(JSON.parse(b.text as string), null, 2)
    } catch {
      return b.text
    }
  }
  return b.text
}

function bodyView(parent: HTMLElement, b: ShownBody, label: string) {
  parent.appendChild(el('h4', 'Body'))
  if (b.kind === 'text') {
    parent.appendChild(el('p', bytes(b.bytes) + (b.contentType ? `, ${b.contentType}` : ''), 'help'))
    const pre = el('pre', readable(b), 'body')
    // a scrolled box is reached by the keyboard too
    pre.tabIndex = 0
    pre.setAttribute('aria-label', `${label} body`)
    parent.appendChild(pre)
    if (b.note) parent.appendChild(el('p', b.note, 'cut'))
    return
  }
  parent.appendChild(el('p', b.kind === 'none' ? 'No body.' : b.note || b.kind, b.kind === 'dropped' ? 'dropped' : 'help'))
}

function renderEntry(e: EntryDetail, clockName: string) {
  const box = element('entry')
  box.textContent = ''
  element('entry-title').textContent = `Request #${e.id}`
  box.appendChild(el('p', `Request #${e.id} at ${e.time} (${clockName}), ${e.user ? `user ${e.user}` : 'no credentials'}${e.fault ? `; ${e.fault}` : ''}`))
  if (e.dropped) box.appendChild(el('p', e.dropped, 'dropped'))
  const rq = e.request || { method: e.method, url: e.url }
  box.appendChild(el('h3', 'Request'))
  box.appendChild(el('p', `${rq.method} ${rq.url}`, 'line'))
  if (e.request) {
    box.appendChild(el('h4', 'Headers'))
    box.appendChild(headerList(e.request.headers, 'request'))
    bodyView(box, e.request.body, 'Request')
  }
  box.appendChild(el('h3', 'Answer'))
  const retry = e.retryAfter !== undefined ? `, Retry-after ${e.retryAfter} s` : ''
  const next = e.nextPage !== undefined ? `, next_page ${e.nextPage ? 'given' : 'none (the last page)'}` : ''
  box.appendChild(el('p', `status: ${e.status === 0 ? 'none sent' : e.status}${retry}${next}`, 'line'))
  if (e.answer) {
    box.appendChild(el('h4', 'Headers'))
    box.appendChild(headerList(e.answer.headers, 'answer'))
    bodyView(box, e.answer.body, 'Answer')
  }
  if (!e.request) box.appendChild(el('p', `This file carries the journal's entries, not their headers or bodies: GET /__mock/requests/${e.id} gives them while the fake runs.`, 'help'))
}

export function entryPanel(state: PageState, data: DataSource): { openEntry(id: number): void } {
  const section = element('entry-section')
  /** What had the focus: it gets it back when the panel closes. */
  let opener: { id: number; node: HTMLElement } | null = null

  function showPanel() {
    section.hidden = false
    element('entry-title').focus()
  }
  function openEntry(id: number) {
    const active = document.activeElement as HTMLElement | null
    opener = active && active !== document.body && !section.contains(active) ? { id, node: active } : opener
    data
      .entry(id)
      .then((a) => {
        renderEntry(a.entry, state.clockName)
        showPanel()
      })
      .catch((err: Error) => {
        element('entry-title').textContent = `Request #${id}`
        const box = element('entry')
        box.textContent = ''
        box.appendChild(el('p', String(err.message), 'dropped'))
        showPanel()
      })
  }
  function closeEntry() {
    section.hidden = true
    if (!opener) return
    // the row may have been made again since: its successor takes the focus
    let node: HTMLElement | null = opener.node
    if (!node.isConnected) node = document.querySelector<HTMLElement>(`#journal tbody tr[data-id="${opener.id}"]`)
    opener = null
    if (node) node.focus()
  }
  element('entry-close').addEventListener('click', closeEntry)
  section.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.preventDefault()
      closeEntry()
    }
  })
  return { openEntry }
}
