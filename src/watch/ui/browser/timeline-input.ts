// The timeline under the pointer and the keys: zoom (the buttons, the wheel, + - 0), pan by
// dragging, the whole day again on a double-click, a lane's name opens it into one lane per
// full URL, a mark opens its request, and the canvas's title says what is under the pointer.
import { fmt } from './journal-rows.js'
import { element, type PageState, type Panels, type Span } from './page-state.js'
import { LABEL, LANE, TOP, type TimelineDrawing } from './timeline-draw.js'

export function timelineInput(state: PageState, canvas: HTMLCanvasElement, drawing: TimelineDrawing, panels: Pick<Panels, 'openEntry'>): void {
  const { draw, extent, drawn } = drawing
  const wholeDay = () => {
    state.view = null
    draw()
  }

  function zoom(factor: number, cx?: number) {
    const span = state.view || extent()
    const width = canvas.clientWidth - LABEL - 8
    const at = span[0] + ((cx === undefined ? width / 2 : cx - LABEL) / width) * (span[1] - span[0])
    const size = Math.max(2000, (span[1] - span[0]) * factor)
    const left = (at - span[0]) / (span[1] - span[0])
    state.view = [at - size * left, at + size * (1 - left)]
    draw()
  }
  element('zoom-in').addEventListener('click', () => zoom(0.5))
  element('zoom-out').addEventListener('click', () => zoom(2))
  element('zoom-all').addEventListener('click', wholeDay)
  canvas.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault()
      zoom(ev.deltaY < 0 ? 0.8 : 1.25, ev.offsetX)
    },
    { passive: false },
  )
  canvas.addEventListener('dblclick', wholeDay)
  canvas.addEventListener('keydown', (ev) => {
    if (ev.key === '+') zoom(0.5)
    else if (ev.key === '-') zoom(2)
    else if (ev.key === '0') wholeDay()
  })
  let drag: { x: number; span: Span; moved: boolean } | null = null
  canvas.addEventListener('mousedown', (ev) => {
    drag = { x: ev.offsetX, span: state.view || extent(), moved: false }
  })
  window.addEventListener('mouseup', () => {
    setTimeout(() => {
      drag = null
    }, 0)
  })

  /** The id of the mark at (px, py), the topmost where marks overlap. */
  function markAt(px: number, py: number): number | undefined {
    for (let j = drawn.hits.length - 1; j >= 0; j--) {
      const h = drawn.hits[j] as [number, number, number, number, number]
      if (px >= h[0] - 2 && px <= h[0] + h[2] + 2 && py >= h[1] && py <= h[1] + h[3]) return h[4]
    }
    return undefined
  }

  // what is under the pointer, as the canvas's title: a request, or an activity event
  function describe(px: number, py: number): string {
    const id = markAt(px, py)
    if (id !== undefined) {
      const e = state.byId.get(id)
      return e ? `#${e[0]} ${fmt(e[1])} ${e[2]} ${e[3]} → ${e[4] || 'no answer'}${e[6] ? ` (${e[6]})` : ''}` : ''
    }
    const board = state.board
    if (py < TOP && board?.activity) {
      const span = state.view || extent()
      const per = (span[1] - span[0]) / (canvas.clientWidth - LABEL - 8)
      const at = span[0] + (px - LABEL) * per
      const near = board.activity.steps.filter((st) => Math.abs(st[0] - at) <= 4 * per)[0]
      if (near) return `${near[1]} at ${fmt(near[0])}${near[2] ? '' : ' (to come)'}`
    }
    return 'Timeline of the requests'
  }
  canvas.addEventListener('mousemove', (ev) => {
    if (!drag || ev.buttons !== 1) {
      canvas.title = describe(ev.offsetX, ev.offsetY)
      return
    }
    const dx = ev.offsetX - drag.x
    if (Math.abs(dx) > 3) drag.moved = true
    const per = (drag.span[1] - drag.span[0]) / (canvas.clientWidth - LABEL - 8)
    state.view = [drag.span[0] - dx * per, drag.span[1] - dx * per]
    draw()
  })
  canvas.addEventListener('click', (ev) => {
    if (drag?.moved) return
    const px = ev.offsetX
    const py = ev.offsetY
    if (px < LABEL) {
      const lane = drawn.laneHits.find(([top]) => py >= top && py < top + LANE)
      if (lane) {
        const f = lane[1]
        if (state.expanded.has(f)) state.expanded.delete(f)
        else state.expanded.add(f)
        draw()
      }
      return
    }
    const id = markAt(px, py)
    if (id !== undefined) panels.openEntry(id)
  })
  window.addEventListener('resize', draw)
}
