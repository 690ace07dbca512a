// The script of /__mock/ui (bundled into one file by ../page-script.ts): makes the page's
// state and its panels, reads the filters the URL gives, and keeps the page live by polling
// (docs/api.md says why not server-sent events): a window of the journal every half
// second, after the last id held, and the board and verdict every two seconds. A file that
// carries its day (serve --verdict-html) is read once.
import { UI_FILTERS } from '../page-data.js'
import { renderBoard } from './board-panel.js'
import { dataSource } from './data-source.js'
import { entryPanel } from './entry-panel.js'
import { journalTable } from './journal-table.js'
import { element, newState, type Panels } from './page-state.js'
import { drawLegend, timelineDrawing } from './timeline-draw.js'
import { timelineInput } from './timeline-input.js'
import { verdictPanel } from './verdict-panel.js'

/** The journal holds 10,000: the page never holds more than twice that. */
const MAX_ENTRIES = 20000
/** A journal window's size at most (../routes.ts, UI_WINDOW_MAX): a full one means more are waiting. */
const WINDOW = 5000

const state = newState()
const data = dataSource()
const canvas = element<HTMLCanvasElement>('timeline')
const drawing = timelineDrawing(state, canvas)
// each panel asks the others through these, made below
const panels: Panels = {
  draw: () => drawing.draw(),
  renderTable: () => table.renderTable(),
  renderBoard: () => renderBoard(state),
  renderVerdict: () => verdict.renderVerdict(),
  setHighlight: (ids, key) => verdict.setHighlight(ids, key),
  openEntry: (id) => entry.openEntry(id),
}
const params = new URLSearchParams(location.search)
for (const name of UI_FILTERS) {
  const input = element<HTMLInputElement>(`f-${name}`)
  const given = params.get(name)
  if (given !== null && !(name === 'status' && !/^[0-9]{1,3}$/.test(given))) input.value = given
  state.filters[name] = input.value
  input.addEventListener('input', () => {
    state.filters[name] = input.value.trim()
    panels.renderTable()
  })
}
const table = journalTable(state, panels)
const verdict = verdictPanel(state, panels)
const entry = entryPanel(state, data)
drawLegend(element('legend'))
timelineInput(state, canvas, drawing, panels)

// ---- the journal, read in windows ----
let polling = false
function poll() {
  if (polling) return
  polling = true
  data
    .journal(state.lastId, WINDOW)
    .then((w) => {
      // the journal was emptied since the last window: start again
      if (w.newest < state.lastId) {
        state.entries = []
        state.byId = new Map()
        state.lastId = 0
      }
      for (const e of w.entries) {
        state.entries.push(e)
        state.byId.set(e[0], e)
        state.lastId = e[0]
      }
      if (state.entries.length > MAX_ENTRIES) {
        const drop = state.entries.splice(0, state.entries.length - MAX_ENTRIES)
        for (const d of drop) state.byId.delete(d[0])
      }
      polling = false
      if (w.entries.length > 0) {
        panels.draw()
        panels.renderTable()
        if (state.board) panels.renderBoard()
      }
      // a long journal comes in several windows, one right after another
      if (w.entries.length >= WINDOW) poll()
    })
    .catch(() => {
      polling = false
    })
}

function refreshBoard() {
  return data
    .board()
    .then((b) => {
      state.board = b
      panels.renderBoard()
      panels.renderVerdict()
      panels.draw()
    })
    .catch(() => {})
}

refreshBoard().then(poll)
if (!data.carried) {
  setInterval(poll, 500)
  setInterval(refreshBoard, 2000)
}
