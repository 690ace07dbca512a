// The verdict's panel: each rule by id with its outcome and sentence, each finding a button
// that shows its requests alone (on the timeline and in the journal) until pressed again
// or "Show every request".
import { element, type PageState, type Panels } from './page-state.js'

export interface VerdictPanel {
  renderVerdict(): void
  setHighlight(ids: number[] | null, key?: string): void
}

export function verdictPanel(state: PageState, panels: Pick<Panels, 'draw' | 'renderTable'>): VerdictPanel {
  function renderVerdict() {
    const list = element('verdict')
    const outcomeLine = element('verdict-outcome')
    const verdict = state.board?.verdict
    if (!verdict) {
      outcomeLine.textContent = 'The verdict is off on this fake (started with --no-verdict).'
      list.textContent = ''
      return
    }
    outcomeLine.textContent = `Outcome: ${verdict.outcome.toUpperCase()}`
    const pressed = state.highlight ? state.highlight.key : null
    list.textContent = ''
    for (const rule of verdict.rules) {
      const li = document.createElement('li')
      li.dataset.rule = rule.id
      const o = document.createElement('span')
      o.className = `outcome ${rule.outcome}`
      o.textContent = rule.outcome === 'not-exercised' ? 'not exercised' : rule.outcome
      const id = document.createElement('span')
      id.className = 'rule-id'
      id.textContent = rule.id
      li.appendChild(o)
      li.appendChild(id)
      li.appendChild(document.createTextNode(rule.sentence))
      rule.findings.forEach((f, n) => {
        const b = document.createElement('button')
        b.type = 'button'
        b.className = 'finding'
        const key = `${rule.id}#${n}`
        b.dataset.finding = key
        b.setAttribute('aria-pressed', String(pressed === key))
        b.textContent = `${f.message} (${f.requests.length} request${f.requests.length === 1 ? '' : 's'})`
        b.addEventListener('click', () => {
          if (state.highlight && state.highlight.key === key) setHighlight(null)
          else setHighlight(f.requests, key)
        })
        li.appendChild(b)
      })
      list.appendChild(li)
    }
  }

  function setHighlight(ids: number[] | null, key = '') {
    state.highlight = ids ? { ids: new Set(ids), key } : null
    element('clear-highlight').hidden = !state.highlight
    renderVerdict()
    panels.draw()
    panels.renderTable()
  }
  element('clear-highlight').addEventListener('click', () => setHighlight(null))

  return { renderVerdict, setHighlight }
}
