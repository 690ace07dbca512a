// The clock line and the board's panel: a fake's counts, clock, window, armed faults and
// activity. A proxy's page has no board: its panel is left out, and the heading and the
// clock line say whose traffic it shows.
import { fmt } from './journal-rows.js'
import { element, type PageState } from './page-state.js'

export function renderBoard(state: PageState): void {
  const b = state.board
  if (!b) return
  const clock = element('clock')
  clock.textContent = `Board time ${fmt(b.clock.now)} (${b.clock.mode} clock${b.clock.mode === 'real' ? `, ×${b.clock.speed}` : ''})`
  const rows: Array<[string, string]> = []
  if (b.proxy) {
    const heading = document.querySelector('h1')
    if (heading) heading.textContent = `The proxy in front of ${b.proxy.to}`
    state.clockName = 'proxy time'
    const { upstreamRequests, violations } = b.proxy
    clock.textContent =
      `Proxy time ${fmt(b.clock.now)}; ${upstreamRequests}${upstreamRequests === 1 ? ' request' : ' requests'} passed upstream, ` +
      `${violations}${violations === 1 ? ' violation' : ' violations'} of the upstream`
  }
  const counts = b.counts
  element('board-section').hidden = !counts
  if (!counts) return
  rows.push(['Records', Object.keys(counts).map((k) => `${k} ${counts[k]}`).join(', ')])
  rows.push(['Clock', `${fmt(b.clock.now)}, ${b.clock.mode}${b.clock.mode === 'real' ? ` at ×${b.clock.speed}` : ''}`])
  rows.push(['Rate-limit window', b.window > 0 ? `${b.window} s; ${b.openWindows} open now` : 'off'])
  rows.push(['Faults armed', b.faults.length === 0 ? 'none' : b.faults.map((f) => `${f.kind}${f.path ? ` on ${f.path}` : ''} (${f.remaining} left)`).join('; ')])
  if (b.activity) {
    rows.push(['Activity', `${b.activity.name}: ${b.activity.played} played, ${b.activity.pending} to come`])
    rows.push(['Next event', b.activity.next ? `${b.activity.next.event} at ${b.activity.next.at}` : 'none: the day is over'])
    if (b.activity.failures.length > 0) rows.push(['Refused events', String(b.activity.failures.length)])
  } else rows.push(['Activity', 'none playing'])
  rows.push(['Journal', `${state.entries.length} requests held by the page`])
  const dl = element('board')
  dl.textContent = ''
  for (const [term, value] of rows) {
    const dt = document.createElement('dt')
    dt.textContent = term
    const dd = document.createElement('dd')
    dd.textContent = value
    dl.appendChild(dt)
    dl.appendChild(dd)
  }
}
