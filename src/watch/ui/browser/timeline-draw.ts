// The timeline, drawn by hand on one canvas (no chart library: docs/architecture.md, "The
// page of a day's traffic"): a lane per family of URLs (opened, one per full URL), a mark
// per request coloured by how it ended, the window each admitted request opened shaded,
// each 429's Retry-after as a dashed line to its end, each list walk as a polyline, the
// activity's events as ticks on the top band, now, and a time axis. What it drew where is
// kept for the pointer (timeline-input.ts).
import type { JournalRow } from '../page-data.js'
import { admitted, COLOURS, family, fmt, NAMES, outcome, pageOf, withoutPage } from './journal-rows.js'
import { element, type PageState, type Span } from './page-state.js'

export const LANE = 22
export const TOP = 34
export const LABEL = 190
export const AXIS = 20

/** Where the last drawing put each mark ([x, y, w, h, id]) and each lane's name ([y, family]): for clicks. */
export interface Drawn {
  hits: Array<[number, number, number, number, number]>
  laneHits: Array<[number, string]>
}

export interface TimelineDrawing {
  draw(): void
  /** The whole day: the journal's first to last request, the board's now and its activity, padded. */
  extent(): Span
  readonly drawn: Drawn
}

interface Lane {
  key: string
  family: string
  label: string
  head: boolean
}

export function timelineDrawing(state: PageState, canvas: HTMLCanvasElement): TimelineDrawing {
  const context = canvas.getContext('2d')
  if (context === null) throw new Error('the timeline has no 2d context')
  const ctx = context
  const drawn: Drawn = { hits: [], laneHits: [] }

  function lanes(): Lane[] {
    const fams = new Map<string, { urls: Map<string, number>; count: number }>()
    for (const entry of state.entries) {
      const f = family(entry[3])
      let lane = fams.get(f)
      if (!lane) {
        lane = { urls: new Map(), count: 0 }
        fams.set(f, lane)
      }
      lane.count++
      if (state.expanded.has(f)) {
        const u = entry[3].replace(/^\/api\/v1/, '')
        if (!lane.urls.has(u)) lane.urls.set(u, lane.urls.size)
      }
    }
    const list: Lane[] = []
    for (const f of Array.from(fams.keys()).sort()) {
      const lane = fams.get(f) as { urls: Map<string, number>; count: number }
      list.push({ key: f, family: f, label: `${state.expanded.has(f) ? '▾ ' : '▸ '}${f} (${lane.count})`, head: true })
      if (state.expanded.has(f)) {
        for (const u of Array.from(lane.urls.keys()).sort()) list.push({ key: `${f}\u0000${u}`, family: f, label: `   ${u}`, head: false })
      }
    }
    return list
  }

  function extent(): Span {
    const { entries, board } = state
    let t0 = Infinity
    let t1 = -Infinity
    const first = entries[0]
    const last = entries[entries.length - 1]
    if (first && last) {
      t0 = first[1]
      t1 = last[1]
    }
    if (board) {
      t1 = Math.max(t1, board.clock.now)
      const steps = board.activity ? board.activity.steps : []
      const firstStep = steps[0]
      const lastStep = steps[steps.length - 1]
      if (firstStep && lastStep) {
        t0 = Math.min(t0, firstStep[0])
        t1 = Math.max(t1, lastStep[0])
      }
      if (t0 === Infinity) t0 = board.clock.now - 3600000
    }
    if (!(t0 < t1)) {
      t0 = (t0 === Infinity ? 0 : t0) - 60000
      t1 = t0 + 120000
    }
    const pad = (t1 - t0) * 0.02
    return [t0 - pad, t1 + pad]
  }

  function draw() {
    const { entries, board, highlight, expanded } = state
    const list = lanes()
    const index = new Map<string, number>()
    list.forEach((l, i) => {
      index.set(l.key, i)
    })
    const width = canvas.clientWidth || 1000
    const height = TOP + Math.max(list.length, 1) * LANE + AXIS
    const ratio = window.devicePixelRatio || 1
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio)
      canvas.height = Math.round(height * ratio)
      canvas.style.height = `${height}px`
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    ctx.clearRect(0, 0, width, height)
    const [t0, t1] = state.view || extent()
    const plot = width - LABEL - 8
    const x = (t: number) => LABEL + ((t - t0) / (t1 - t0)) * plot
    const laneOf = (e: JournalRow) => {
      const f = family(e[3])
      if (expanded.has(f)) return index.get(`${f}\u0000${e[3].replace(/^\/api\/v1/, '')}`) as number
      return index.get(f) as number
    }
    const y = (i: number) => TOP + i * LANE

    // lanes and their names
    ctx.font = '12px system-ui, sans-serif'
    ctx.textBaseline = 'middle'
    drawn.laneHits = []
    list.forEach((l, i) => {
      if (i % 2 === 1) {
        ctx.fillStyle = '#f6f8fa'
        ctx.fillRect(0, y(i), width, LANE)
      }
      ctx.fillStyle = '#1f2328'
      ctx.fillText(l.label.length > 30 ? `${l.label.slice(0, 29)}…` : l.label, 4, y(i) + LANE / 2)
      if (l.head) drawn.laneHits.push([y(i), l.family])
    })
    ctx.save()
    ctx.beginPath()
    ctx.rect(LABEL, 0, plot, height)
    ctx.clip()

    // activity events: ticks on the top band
    ctx.fillStyle = '#57606a'
    ctx.fillText('activity', LABEL + 4, 10)
    if (board?.activity) {
      for (const s of board.activity.steps) {
        const sx = x(s[0])
        if (sx < LABEL - 2 || sx > width) continue
        ctx.strokeStyle = s[2] ? '#0969da' : '#8c959f'
        ctx.lineWidth = 2
        ctx.beginPath()
        ctx.moveTo(sx, 16)
        ctx.lineTo(sx, TOP - 4)
        ctx.stroke()
      }
    }

    const windowMs = board ? board.window * 1000 : 900000
    const fade = highlight !== null
    // the window each admitted request opened, shaded
    if (windowMs > 0) {
      ctx.fillStyle = 'rgba(9, 105, 218, 0.07)'
      for (const e of entries) {
        if (!admitted(e) || e[1] > t1 || e[1] + windowMs < t0) continue
        ctx.fillRect(x(e[1]), y(laneOf(e)) + 2, Math.max(1, x(e[1] + windowMs) - x(e[1])), LANE - 4)
      }
    }
    // each 429's Retry-after, drawn to its end
    ctx.strokeStyle = COLOURS.c429
    ctx.lineWidth = 1.5
    for (const r of entries) {
      if (r[4] !== 429 || r[7] === null) continue
      const ry = y(laneOf(r)) + LANE / 2
      const rx = x(r[1])
      const rend = x(r[1] + r[7] * 1000)
      ctx.setLineDash([4, 3])
      ctx.beginPath()
      ctx.moveTo(rx, ry)
      ctx.lineTo(rend, ry)
      ctx.stroke()
      ctx.setLineDash([])
      ctx.beginPath()
      ctx.moveTo(rend, ry - 5)
      ctx.lineTo(rend, ry + 5)
      ctx.stroke()
    }
    // each list walk, from its first page to where it stopped: solid when it reached the last page
    const walks = new Map<string, { points: Array<[number, number]>; done: boolean }>()
    const endWalk = (key: string) => {
      const w = walks.get(key)
      const last = w?.points[w.points.length - 1]
      if (!w || !last) return
      ctx.strokeStyle = w.done ? '#0550ae' : '#cf222e'
      ctx.lineWidth = 1.5
      ctx.setLineDash(w.done ? [] : [2, 3])
      ctx.beginPath()
      w.points.forEach((p, k) => {
        if (k === 0) ctx.moveTo(p[0], p[1])
        else ctx.lineTo(p[0], p[1])
      })
      if (w.points.length === 1) ctx.lineTo(last[0] + 4, last[1])
      ctx.stroke()
      ctx.setLineDash([])
      ctx.beginPath()
      ctx.arc(last[0], last[1], 3, 0, Math.PI * 2)
      ctx.stroke()
      walks.delete(key)
    }
    for (const we of entries) {
      if (we[8] === null) continue // not a list page answered 200
      const key = `${we[5]}\u0000${withoutPage(we[3])}`
      const point: [number, number] = [x(we[1]), y(laneOf(we)) + LANE / 2 - 6]
      if (pageOf(we[3]) === 1 || !walks.has(key)) {
        endWalk(key)
        walks.set(key, { points: [], done: false })
      }
      const walk = walks.get(key) as { points: Array<[number, number]>; done: boolean }
      walk.points.push(point)
      if (we[8] === false) {
        walk.done = true
        endWalk(key)
      }
    }
    Array.from(walks.keys()).forEach(endWalk)

    // the marks
    drawn.hits = []
    let marksDrawn = 0
    let highlighted = 0
    for (const me of entries) {
      const mx = x(me[1])
      if (mx < LABEL - 3 || mx > width + 3) continue
      const my = y(laneOf(me))
      const lit = fade && highlight.ids.has(me[0])
      ctx.globalAlpha = fade && !lit ? 0.2 : 1
      ctx.fillStyle = COLOURS[outcome(me)]
      ctx.fillRect(mx - 1.5, my + 4, 3, LANE - 8)
      if (lit) {
        highlighted++
        ctx.strokeStyle = '#000'
        ctx.lineWidth = 1
        ctx.strokeRect(mx - 3, my + 2, 6, LANE - 4)
      }
      drawn.hits.push([mx - 3, my + 2, 6, LANE - 4, me[0]])
      marksDrawn++
    }
    ctx.globalAlpha = 1
    // now
    if (board) {
      const nx = x(board.clock.now)
      ctx.strokeStyle = '#1f2328'
      ctx.lineWidth = 1
      ctx.setLineDash([1, 2])
      ctx.beginPath()
      ctx.moveTo(nx, 14)
      ctx.lineTo(nx, height - AXIS)
      ctx.stroke()
      ctx.setLineDash([])
    }
    ctx.restore()
    // the axis
    ctx.fillStyle = '#57606a'
    ctx.textBaseline = 'alphabetic'
    for (let a = 0; a <= 5; a++) {
      const at = t0 + ((t1 - t0) * a) / 5
      const label = fmt(at).slice(t1 - t0 > 86400000 ? 5 : 11, 19)
      ctx.fillText(label, Math.min(width - 60, LABEL + (plot * a) / 5 - (a === 0 ? 0 : 30)), height - 5)
    }
    canvas.dataset.marks = String(marksDrawn)
    canvas.dataset.highlighted = String(highlighted)
    canvas.dataset.lanes = String(list.length)
    canvas.setAttribute('aria-label', `Timeline of ${marksDrawn} requests in ${list.length} lanes, ${fmt(t0)} to ${fmt(t1)}`)
    const shownLit = highlight ? ` ${highlighted} highlighted.` : ''
    element('timeline-summary').textContent = `${marksDrawn} requests shown in ${list.length} lanes, ${fmt(t0)} to ${fmt(t1)} (${state.clockName}).${shownLit}`
  }

  return { draw, extent, drawn }
}

/** The legend of the marks' colours. */
export function drawLegend(legend: HTMLElement): void {
  for (const k of Object.keys(NAMES) as Array<keyof typeof NAMES>) {
    const s = document.createElement('span')
    const i = document.createElement('i')
    i.style.background = COLOURS[k]
    s.appendChild(i)
    s.appendChild(document.createTextNode(NAMES[k]))
    legend.appendChild(s)
  }
}
