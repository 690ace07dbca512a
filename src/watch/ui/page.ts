// The page of /__mock/ui: its HTML and its style as text, and its script (page-script.ts:
// the browser code of browser/, bundled). Imported only when the page is first asked for
// (routes.ts), so the fake's start never reads it. No library: the timeline is drawn on one
// canvas by hand (see docs/architecture.md, "The page of a day's traffic"), the rest is
// plain DOM. The script reads the JSON routes of routes.ts: a window of the journal every
// half second (polling, see docs/api.md), the board and the verdict every two seconds.
import { SCRIPT } from './page-script.js'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The page; a notice (an ignored filter) is shown above everything. */
export function html(base: string, notice: string | undefined): string {
  return page(`<link rel="stylesheet" href="${base}/ui.css">\n<script src="${base}/ui.js" defer></script>`, notice, '')
}

/** The day as written at shutdown (serve --verdict-html): the journal and the board, for the page's script. */
export interface Day {
  journal: unknown[][]
  board: object
}

/**
 * The page as one file that carries its day and loads nothing (serve --verdict-html): the
 * style, the script and the data inline, under a policy that forbids every load. The data
 * is JSON in a script element, `<` written as \u003c so that no string in it ends the element.
 */
export function dayHtml(day: Day, notice: string): string {
  const data = JSON.stringify(day).replace(/</g, '\\u003c')
  const head = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<style>${STYLE}</style>`
  return page(head, notice, `<script type="application/json" id="day">${data}</script>\n<script>${SCRIPT}</script>`)
}

function page(head: string, notice: string | undefined, end: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>jobboard-kit: the fake's day</title>
<link rel="icon" href="data:,">
${head}
</head>
<body>
<header>
<h1>The fake's day</h1>
<p id="clock" aria-live="off">loading…</p>
</header>
${notice === undefined ? '' : `<p id="notice" role="status">${escapeHtml(notice)}</p>`}
<main>
<section id="timeline-section" aria-labelledby="timeline-title">
<h2 id="timeline-title">Timeline</h2>
<p class="help">Wheel or the buttons to zoom, drag to pan, double-click to see the whole day. Click a lane's name to open it into one lane per full URL; click a mark to open its request.</p>
<div class="tools">
<button type="button" id="zoom-in">Zoom in</button>
<button type="button" id="zoom-out">Zoom out</button>
<button type="button" id="zoom-all">Whole day</button>
<span class="legend" id="legend"></span>
</div>
<div id="lanes-wrap"><canvas id="timeline" role="img" aria-label="Timeline of the requests" tabindex="0"></canvas></div>
<p id="timeline-summary" class="help" aria-live="polite"></p>
</section>
<div class="columns">
<section id="verdict-section" aria-labelledby="verdict-title">
<h2 id="verdict-title">Verdict</h2>
<p id="verdict-outcome"></p>
<ul id="verdict"></ul>
</section>
<section id="board-section" aria-labelledby="board-title">
<h2 id="board-title">Board</h2>
<dl id="board"></dl>
</section>
</div>
<section id="journal-section" aria-labelledby="journal-title">
<h2 id="journal-title">Journal</h2>
<form id="filters">
<label>User <input name="user" id="f-user" autocomplete="off"></label>
<label>Method <input name="method" id="f-method" autocomplete="off" size="6"></label>
<label>Path <input name="path" id="f-path" autocomplete="off"></label>
<label>Status <input name="status" id="f-status" autocomplete="off" size="4" inputmode="numeric"></label>
<button type="button" id="clear-highlight" hidden>Show every request</button>
</form>
<p id="journal-count" class="help" aria-live="polite"></p>
<table id="journal">
<thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">User</th><th scope="col">Method</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Note</th></tr></thead>
<tbody></tbody>
</table>
</section>
</main>
<aside id="entry-section" aria-labelledby="entry-title" hidden>
<div class="entry-head"><h2 id="entry-title" tabindex="-1">Request</h2><button type="button" id="entry-close" aria-label="Close the request (Escape)">Close</button></div>
<div id="entry"></div>
</aside>
${end}
</body>
</html>
`
}

export const STYLE = `
:root { --ok: #1a7f37; --c4xx: #a40e26; --c412: #7d4e00; --c429: #bc4c00; --c5xx: #d1242f; --fault: #6f42c1; --none: #57606a; font-family: system-ui, sans-serif; color: #1f2328; background: #fff; }
body { margin: 0 1rem 2rem; }
header { display: flex; gap: 2rem; align-items: baseline; flex-wrap: wrap; }
h1 { font-size: 1.4rem; margin: .6rem 0; }
h2 { font-size: 1.1rem; margin: 1rem 0 .4rem; }
.help { color: #57606a; font-size: .85rem; margin: .2rem 0; }
#notice { background: #fff8c5; border: 1px solid #d4a72c; padding: .4rem .6rem; }
.tools { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin-bottom: .3rem; }
.legend span { display: inline-flex; align-items: center; gap: .25rem; margin-right: .7rem; font-size: .85rem; }
.legend i { display: inline-block; width: .7rem; height: .7rem; border-radius: 2px; }
#lanes-wrap { border: 1px solid #d0d7de; overflow: hidden; }
#timeline { display: block; width: 100%; cursor: grab; }
.columns { display: grid; grid-template-columns: 2fr 1fr; gap: 1.5rem; }
@media (max-width: 900px) { .columns { grid-template-columns: 1fr; } }
#verdict { list-style: none; padding: 0; margin: 0; }
#verdict > li { border-bottom: 1px solid #d0d7de; padding: .3rem 0; }
.outcome { display: inline-block; min-width: 7.5rem; font-weight: 600; font-size: .8rem; }
.outcome.pass { color: var(--ok); } .outcome.fail { color: var(--c5xx); } .outcome.not-exercised { color: var(--none); }
.rule-id { font-family: ui-monospace, monospace; font-weight: 600; margin-right: .4rem; }
.finding { display: block; margin: .2rem 0 .2rem 1.5rem; text-align: left; background: #fff; border: 1px solid #d0d7de; border-radius: 4px; padding: .2rem .4rem; cursor: pointer; font: inherit; font-size: .85rem; }
.finding[aria-pressed="true"] { background: #ddf4ff; border-color: #0969da; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: 0; font-size: .9rem; }
dt { font-weight: 600; }
dd { margin: 0; }
#filters { display: flex; gap: .8rem; flex-wrap: wrap; align-items: end; }
#filters label { display: flex; flex-direction: column; font-size: .8rem; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; margin-top: .4rem; }
th, td { text-align: left; padding: .15rem .4rem; border-bottom: 1px solid #eaeef2; vertical-align: top; }
td.url { font-family: ui-monospace, monospace; word-break: break-all; }
tbody tr { cursor: pointer; }
tbody tr:hover, tbody tr:focus { background: #f6f8fa; }
tbody tr.hl { background: #ddf4ff; }
#entry-section { position: fixed; top: 0; right: 0; bottom: 0; width: min(46rem, 100%); box-sizing: border-box; overflow: auto; background: #fff; border-left: 1px solid #d0d7de; box-shadow: -4px 0 12px rgba(31, 35, 40, .12); padding: 0 1rem 1rem; }
.entry-head { position: sticky; top: 0; background: #fff; display: flex; justify-content: space-between; align-items: center; gap: 1rem; border-bottom: 1px solid #d0d7de; }
#entry h3 { font-size: 1rem; margin: 1rem 0 .3rem; }
#entry h4 { font-size: .85rem; margin: .6rem 0 .2rem; }
#entry .line { font-family: ui-monospace, monospace; font-weight: 600; word-break: break-all; margin: .2rem 0; }
#entry dl.headers { font-family: ui-monospace, monospace; font-size: .8rem; }
#entry dl.headers dd { word-break: break-all; }
#entry pre.body { background: #f6f8fa; padding: .6rem; margin: 0; white-space: pre-wrap; word-break: break-all; max-height: 22rem; overflow: auto; font-size: .8rem; }
#entry .cut { color: #7d4e00; font-size: .85rem; margin: .2rem 0; }
#entry .dropped { background: #fff8c5; border: 1px solid #d4a72c; padding: .3rem .5rem; }
button { font: inherit; }
`

export { SCRIPT }
