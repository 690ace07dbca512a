// The page of /__mock/ui: its HTML, its style and its script, as text. Imported only when
// the page is first asked for (routes.ts), so the fake's start never reads it. No
// library: the timeline is drawn on one canvas by hand (see docs/architecture.md, "The
// page of the fake's day"), the rest is plain DOM. The script reads the JSON routes of
// routes.ts: a window of the journal every half second (polling, see docs/api.md), the
// board and the verdict every two seconds.

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

/*
 * The script, plain ES2020 for the browser. Written without template literals so that it
 * can live in this one: the strings it builds are joined with +.
 */
export const SCRIPT = String.raw`
'use strict';
(function () {
  var MAX_ENTRIES = 20000; // the journal holds 10,000: the page never holds more than twice that
  var ROWS = 300; // rows of the table at once (newest first)
  var LANE = 22, TOP = 34, LABEL = 190, AXIS = 20;
  var COLOURS = { ok: '#1a7f37', c4xx: '#a40e26', c412: '#7d4e00', c429: '#bc4c00', c5xx: '#d1242f', fault: '#6f42c1', none: '#57606a' };
  var NAMES = { ok: '2xx/3xx', c4xx: '4xx', c412: '412', c429: '429', c5xx: '5xx', fault: 'injected fault' };
  // whose clock the times are on: the board's, or on a proxy the proxy's own (it has no board)
  var clockName = 'board time';
  var token = (/(?:^#|&)token=([^&]*)/.exec(location.hash) || [])[1];
  var headers = token ? { authorization: 'Bearer ' + decodeURIComponent(token) } : {};
  var own = document.querySelector('script[src$="/ui.js"]');
  var base = own ? own.getAttribute('src').replace(/\/ui\.js$/, '') : '';
  // a file written at shutdown (serve --verdict-html) carries its day: the same routes, answered from it
  var carried = document.getElementById('day');
  var day = carried ? JSON.parse(carried.textContent) : null;

  var entries = []; // [id, ms, method, url, status, user, fault, retryAfter, nextPage]
  var byId = new Map();
  var lastId = 0;
  var board = null;
  var highlight = null; // Set of ids, or null
  var expanded = new Set();
  var view = null; // [t0, t1] ms; null: the whole day
  var marksDrawn = 0;
  var hits = []; // [x, y, w, h, id] of the marks drawn, for clicks
  var laneHits = []; // [y, family]

  var canvas = document.getElementById('timeline');
  var ctx = canvas.getContext('2d');
  var filters = {};
  var params = new URLSearchParams(location.search);
  ['user', 'method', 'path', 'status'].forEach(function (name) {
    var input = document.getElementById('f-' + name);
    var given = params.get(name);
    if (given !== null && !(name === 'status' && !/^[0-9]{1,3}$/.test(given))) input.value = given;
    filters[name] = input.value;
    input.addEventListener('input', function () { filters[name] = input.value.trim(); renderTable(); });
  });

  function fromDay(path) {
    var after = /^\/journal\?after=([0-9]+)/.exec(path);
    if (after) {
      var rest = day.journal.filter(function (e) { return e[0] > Number(after[1]); });
      return { first: day.journal.length ? day.journal[0][0] : 0, newest: day.journal.length ? day.journal[day.journal.length - 1][0] : 0, entries: rest };
    }
    if (path === '/board') return day.board;
    var id = Number(path.replace('/entry/', ''));
    var e = day.journal.find(function (x) { return x[0] === id; });
    if (!e) throw new Error('The file holds no request ' + id);
    var entry = { id: e[0], method: e[2], url: e[3], status: e[4], time: fmt(e[1]), user: e[5] };
    if (e[6] !== null) entry.fault = e[6];
    if (e[7] !== null) entry.retryAfter = e[7];
    if (e[8] !== null) entry.nextPage = e[8];
    return { entry: entry };
  }

  function get(path) {
    if (day) return new Promise(function (resolve) { resolve(fromDay(path)); });
    // a poll that hangs must not stop the next ones: each gives up after five seconds
    var signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(5000) : undefined;
    return fetch(base + path, { headers: headers, cache: 'no-store', signal: signal }).then(function (r) {
      if (!r.ok) throw new Error(path + ': ' + r.status);
      return r.json();
    });
  }

  function outcome(e) {
    if (e[6] !== null || e[4] === 0) return 'fault';
    var s = e[4];
    if (s === 429) return 'c429';
    if (s === 412) return 'c412';
    if (s >= 500) return 'c5xx';
    if (s >= 400) return 'c4xx';
    return 'ok';
  }
  function pathOf(url) { var q = url.indexOf('?'); return q < 0 ? url : url.slice(0, q); }
  function family(url) { return pathOf(url).replace(/^\/api\/v1/, '').replace(/\/[0-9]+(?=\/|$)/g, '/{id}'); }
  function pageOf(url) { var m = /[?&]page=([0-9]+)/.exec(url); return m ? Number(m[1]) : 1; }
  function withoutPage(url) { return url.replace(/([?&])page=[0-9]+&?/, '$1').replace(/[?&]$/, ''); }
  function fmt(ms) { return new Date(ms).toISOString().replace('T', ' ').slice(0, 19); }
  function admitted(e) { return e[6] === null && e[4] > 0 && e[4] < 400; }

  // ---- the journal, read in windows ----
  var polling = false;
  function poll() {
    if (polling) return;
    polling = true;
    get('/journal?after=' + lastId + '&limit=5000').then(function (w) {
      // the journal was emptied since the last window: start again
      if (w.newest < lastId) reset();
      for (var i = 0; i < w.entries.length; i++) {
        var e = w.entries[i];
        entries.push(e);
        byId.set(e[0], e);
        lastId = e[0];
      }
      if (entries.length > MAX_ENTRIES) {
        var drop = entries.splice(0, entries.length - MAX_ENTRIES);
        drop.forEach(function (d) { byId.delete(d[0]); });
      }
      polling = false;
      if (w.entries.length > 0) { draw(); renderTable(); if (board) renderBoard(); }
      // a long journal comes in several windows, one right after another
      if (w.entries.length >= 5000) poll();
    }).catch(function () { polling = false; });
  }
  function reset() { entries = []; byId = new Map(); lastId = 0; }

  function refreshBoard() {
    return get('/board').then(function (b) { board = b; renderBoard(); renderVerdict(); draw(); }).catch(function () {});
  }

  // ---- the timeline ----
  function lanes() {
    var fams = new Map();
    for (var i = 0; i < entries.length; i++) {
      var f = family(entries[i][3]);
      var lane = fams.get(f);
      if (!lane) { lane = { name: f, urls: new Map(), count: 0 }; fams.set(f, lane); }
      lane.count++;
      if (expanded.has(f)) {
        var u = entries[i][3].replace(/^\/api\/v1/, '');
        if (!lane.urls.has(u)) lane.urls.set(u, lane.urls.size);
      }
    }
    var list = [];
    Array.from(fams.keys()).sort().forEach(function (f) {
      var lane = fams.get(f);
      list.push({ key: f, family: f, label: (expanded.has(f) ? '▾ ' : '▸ ') + f + ' (' + lane.count + ')', head: true });
      if (expanded.has(f)) Array.from(lane.urls.keys()).sort().forEach(function (u) { list.push({ key: f + '\u0000' + u, family: f, label: '   ' + u, head: false }); });
    });
    return list;
  }

  function extent() {
    var t0 = Infinity, t1 = -Infinity;
    if (entries.length > 0) { t0 = entries[0][1]; t1 = entries[entries.length - 1][1]; }
    if (board) {
      t1 = Math.max(t1, board.clock.now);
      if (board.activity && board.activity.steps.length > 0) {
        t0 = Math.min(t0, board.activity.steps[0][0]);
        t1 = Math.max(t1, board.activity.steps[board.activity.steps.length - 1][0]);
      }
      if (t0 === Infinity) t0 = board.clock.now - 3600000;
    }
    if (!(t0 < t1)) { t0 = (t0 === Infinity ? 0 : t0) - 60000; t1 = t0 + 120000; }
    var pad = (t1 - t0) * 0.02;
    return [t0 - pad, t1 + pad];
  }

  function draw() {
    var list = lanes();
    var index = new Map();
    list.forEach(function (l, i) { index.set(l.key, i); });
    var width = canvas.clientWidth || 1000;
    var height = TOP + Math.max(list.length, 1) * LANE + AXIS;
    var ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio); canvas.style.height = height + 'px';
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    var span = view || extent();
    var t0 = span[0], t1 = span[1];
    var plot = width - LABEL - 8;
    function x(t) { return LABEL + ((t - t0) / (t1 - t0)) * plot; }
    function laneOf(e) {
      var f = family(e[3]);
      if (expanded.has(f)) return index.get(f + '\u0000' + e[3].replace(/^\/api\/v1/, ''));
      return index.get(f);
    }
    function y(i) { return TOP + i * LANE; }

    // lanes and their names
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    laneHits = [];
    list.forEach(function (l, i) {
      if (i % 2 === 1) { ctx.fillStyle = '#f6f8fa'; ctx.fillRect(0, y(i), width, LANE); }
      ctx.fillStyle = '#1f2328';
      ctx.fillText(l.label.length > 30 ? l.label.slice(0, 29) + '…' : l.label, 4, y(i) + LANE / 2);
      if (l.head) laneHits.push([y(i), l.family]);
    });
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL, 0, plot, height); ctx.clip();

    // activity events: ticks on the top band
    ctx.fillStyle = '#57606a';
    ctx.fillText('activity', LABEL + 4, 10);
    if (board && board.activity) {
      board.activity.steps.forEach(function (s) {
        var sx = x(s[0]);
        if (sx < LABEL - 2 || sx > width) return;
        ctx.strokeStyle = s[2] ? '#0969da' : '#8c959f';
        ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(sx, 16); ctx.lineTo(sx, TOP - 4); ctx.stroke();
      });
    }

    var windowMs = board ? board.window * 1000 : 900000;
    var fade = highlight !== null;
    // the window each admitted request opened, shaded
    if (windowMs > 0) {
      ctx.fillStyle = 'rgba(9, 105, 218, 0.07)';
      for (var i = 0; i < entries.length; i++) {
        var e = entries[i];
        if (!admitted(e) || e[1] > t1 || e[1] + windowMs < t0) continue;
        var li = laneOf(e);
        ctx.fillRect(x(e[1]), y(li) + 2, Math.max(1, x(e[1] + windowMs) - x(e[1])), LANE - 4);
      }
    }
    // each 429's Retry-after, drawn to its end
    ctx.strokeStyle = COLOURS.c429; ctx.lineWidth = 1.5;
    for (var j = 0; j < entries.length; j++) {
      var r = entries[j];
      if (r[4] !== 429 || r[7] === null) continue;
      var ry = y(laneOf(r)) + LANE / 2, rx = x(r[1]), rend = x(r[1] + r[7] * 1000);
      ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.moveTo(rx, ry); ctx.lineTo(rend, ry); ctx.stroke();
      ctx.setLineDash([]); ctx.beginPath(); ctx.moveTo(rend, ry - 5); ctx.lineTo(rend, ry + 5); ctx.stroke();
    }
    // each list walk, from its first page to where it stopped: solid when it reached the last page
    var walks = new Map();
    function endWalk(key) {
      var w = walks.get(key);
      if (!w || w.points.length < 1) return;
      ctx.strokeStyle = w.done ? '#0550ae' : '#cf222e';
      ctx.lineWidth = 1.5;
      ctx.setLineDash(w.done ? [] : [2, 3]);
      ctx.beginPath();
      w.points.forEach(function (p, k) { if (k === 0) ctx.moveTo(p[0], p[1]); else ctx.lineTo(p[0], p[1]); });
      if (w.points.length === 1) ctx.lineTo(w.points[0][0] + 4, w.points[0][1]);
      ctx.stroke(); ctx.setLineDash([]);
      var last = w.points[w.points.length - 1];
      ctx.beginPath(); ctx.arc(last[0], last[1], 3, 0, Math.PI * 2); ctx.stroke();
      walks.delete(key);
    }
    for (var k = 0; k < entries.length; k++) {
      var we = entries[k];
      if (we[8] === null) continue; // not a list page answered 200
      var key = we[5] + '\u0000' + withoutPage(we[3]);
      var point = [x(we[1]), y(laneOf(we)) + LANE / 2 - 6];
      if (pageOf(we[3]) === 1 || !walks.has(key)) { endWalk(key); walks.set(key, { points: [], done: false }); }
      var walk = walks.get(key);
      walk.points.push(point);
      if (we[8] === false) { walk.done = true; endWalk(key); }
    }
    Array.from(walks.keys()).forEach(endWalk);

    // the marks
    hits = [];
    marksDrawn = 0;
    var highlighted = 0;
    for (var m = 0; m < entries.length; m++) {
      var me = entries[m];
      var mx = x(me[1]);
      if (mx < LABEL - 3 || mx > width + 3) continue;
      var my = y(laneOf(me));
      var lit = fade && highlight.has(me[0]);
      ctx.globalAlpha = fade && !lit ? 0.2 : 1;
      ctx.fillStyle = COLOURS[outcome(me)];
      ctx.fillRect(mx - 1.5, my + 4, 3, LANE - 8);
      if (lit) { highlighted++; ctx.strokeStyle = '#000'; ctx.lineWidth = 1; ctx.strokeRect(mx - 3, my + 2, 6, LANE - 4); }
      hits.push([mx - 3, my + 2, 6, LANE - 4, me[0]]);
      marksDrawn++;
    }
    ctx.globalAlpha = 1;
    // now
    if (board) {
      var nx = x(board.clock.now);
      ctx.strokeStyle = '#1f2328'; ctx.lineWidth = 1; ctx.setLineDash([1, 2]);
      ctx.beginPath(); ctx.moveTo(nx, 14); ctx.lineTo(nx, height - AXIS); ctx.stroke(); ctx.setLineDash([]);
    }
    ctx.restore();
    // the axis
    ctx.fillStyle = '#57606a';
    ctx.textBaseline = 'alphabetic';
    for (var a = 0; a <= 5; a++) {
      var at = t0 + ((t1 - t0) * a) / 5;
      var label = fmt(at).slice(t1 - t0 > 86400000 ? 5 : 11, 19);
      ctx.fillText(label, Math.min(width - 60, LABEL + (plot * a) / 5 - (a === 0 ? 0 : 30)), height - 5);
    }
    canvas.dataset.marks = String(marksDrawn);
    canvas.dataset.highlighted = String(highlighted);
    canvas.dataset.lanes = String(list.length);
    canvas.setAttribute('aria-label', 'Timeline of ' + marksDrawn + ' requests in ' + list.length + ' lanes, ' + fmt(t0) + ' to ' + fmt(t1));
    document.getElementById('timeline-summary').textContent = marksDrawn + ' requests shown in ' + list.length + ' lanes, ' + fmt(t0) + ' to ' + fmt(t1) + ' (' + clockName + ').' + (highlight ? ' ' + highlighted + ' highlighted.' : '');
  }

  var legend = document.getElementById('legend');
  Object.keys(NAMES).forEach(function (k) {
    var s = document.createElement('span');
    var i = document.createElement('i');
    i.style.background = COLOURS[k];
    s.appendChild(i); s.appendChild(document.createTextNode(NAMES[k]));
    legend.appendChild(s);
  });

  function zoom(factor, cx) {
    var span = view || extent();
    var width = canvas.clientWidth - LABEL - 8;
    var at = span[0] + ((cx === undefined ? width / 2 : cx - LABEL) / width) * (span[1] - span[0]);
    var size = Math.max(2000, (span[1] - span[0]) * factor);
    var left = (at - span[0]) / (span[1] - span[0]);
    view = [at - size * left, at + size * (1 - left)];
    draw();
  }
  document.getElementById('zoom-in').addEventListener('click', function () { zoom(0.5); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoom(2); });
  document.getElementById('zoom-all').addEventListener('click', function () { view = null; draw(); });
  canvas.addEventListener('wheel', function (ev) { ev.preventDefault(); zoom(ev.deltaY < 0 ? 0.8 : 1.25, ev.offsetX); }, { passive: false });
  canvas.addEventListener('dblclick', function () { view = null; draw(); });
  canvas.addEventListener('keydown', function (ev) {
    if (ev.key === '+') zoom(0.5); else if (ev.key === '-') zoom(2); else if (ev.key === '0') { view = null; draw(); }
  });
  var drag = null;
  canvas.addEventListener('mousedown', function (ev) { drag = { x: ev.offsetX, span: view || extent(), moved: false }; });
  window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });
  // what is under the pointer, as the canvas's title: a request, or an activity event
  function describe(px, py) {
    for (var j = hits.length - 1; j >= 0; j--) {
      var h = hits[j];
      if (px >= h[0] - 2 && px <= h[0] + h[2] + 2 && py >= h[1] && py <= h[1] + h[3]) {
        var e = byId.get(h[4]);
        return e ? '#' + e[0] + ' ' + fmt(e[1]) + ' ' + e[2] + ' ' + e[3] + ' → ' + (e[4] || 'no answer') + (e[6] ? ' (' + e[6] + ')' : '') : '';
      }
    }
    if (py < TOP && board && board.activity) {
      var span = view || extent();
      var per = (span[1] - span[0]) / (canvas.clientWidth - LABEL - 8);
      var at = span[0] + (px - LABEL) * per;
      var near = board.activity.steps.filter(function (st) { return Math.abs(st[0] - at) <= 4 * per; })[0];
      if (near) return near[1] + ' at ' + fmt(near[0]) + (near[2] ? '' : ' (to come)');
    }
    return 'Timeline of the requests';
  }
  canvas.addEventListener('mousemove', function (ev) {
    if (!drag || ev.buttons !== 1) { canvas.title = describe(ev.offsetX, ev.offsetY); return; }
    var dx = ev.offsetX - drag.x;
    if (Math.abs(dx) > 3) drag.moved = true;
    var per = (drag.span[1] - drag.span[0]) / (canvas.clientWidth - LABEL - 8);
    view = [drag.span[0] - dx * per, drag.span[1] - dx * per];
    draw();
  });
  canvas.addEventListener('click', function (ev) {
    if (drag && drag.moved) return;
    var px = ev.offsetX, py = ev.offsetY;
    if (px < LABEL) {
      for (var i = 0; i < laneHits.length; i++) {
        if (py >= laneHits[i][0] && py < laneHits[i][0] + LANE) {
          var f = laneHits[i][1];
          if (expanded.has(f)) expanded.delete(f); else expanded.add(f);
          draw();
          return;
        }
      }
      return;
    }
    for (var j = hits.length - 1; j >= 0; j--) {
      var h = hits[j];
      if (px >= h[0] - 2 && px <= h[0] + h[2] + 2 && py >= h[1] && py <= h[1] + h[3]) { openEntry(h[4]); return; }
    }
  });
  window.addEventListener('resize', draw);

  // ---- the verdict ----
  function renderVerdict() {
    var list = document.getElementById('verdict');
    var outcomeLine = document.getElementById('verdict-outcome');
    if (!board.verdict) { outcomeLine.textContent = 'The verdict is off on this fake (started with --no-verdict).'; list.textContent = ''; return; }
    outcomeLine.textContent = 'Outcome: ' + board.verdict.outcome.toUpperCase();
    var pressed = highlight ? highlight.key : null;
    list.textContent = '';
    board.verdict.rules.forEach(function (rule) {
      var li = document.createElement('li');
      li.dataset.rule = rule.id;
      var o = document.createElement('span');
      o.className = 'outcome ' + rule.outcome;
      o.textContent = rule.outcome === 'not-exercised' ? 'not exercised' : rule.outcome;
      var id = document.createElement('span');
      id.className = 'rule-id'; id.textContent = rule.id;
      li.appendChild(o); li.appendChild(id); li.appendChild(document.createTextNode(rule.sentence));
      rule.findings.forEach(function (f, n) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'finding';
        var key = rule.id + '#' + n;
        b.dataset.finding = key;
        b.setAttribute('aria-pressed', String(pressed === key));
        b.textContent = f.message + ' (' + f.requests.length + ' request' + (f.requests.length === 1 ? '' : 's') + ')';
        b.addEventListener('click', function () {
          if (highlight && highlight.key === key) setHighlight(null); else setHighlight(f.requests, key);
        });
        li.appendChild(b);
      });
      list.appendChild(li);
    });
  }
  function setHighlight(ids, key) {
    highlight = ids ? new Set(ids) : null;
    if (highlight) highlight.key = key;
    document.getElementById('clear-highlight').hidden = !highlight;
    renderVerdict(); draw(); renderTable();
  }
  document.getElementById('clear-highlight').addEventListener('click', function () { setHighlight(null); });

  // ---- the board ----
  function renderBoard() {
    var b = board;
    document.getElementById('clock').textContent = 'Board time ' + fmt(b.clock.now) + ' (' + b.clock.mode + ' clock' + (b.clock.mode === 'real' ? ', ×' + b.clock.speed : '') + ')';
    var rows = [];
    // a proxy's page has no board: its panel is left out, and the page says whose traffic it shows
    if (b.proxy) {
      document.querySelector('h1').textContent = 'The proxy in front of ' + b.proxy.to;
      clockName = 'proxy time';
      document.getElementById('clock').textContent = 'Proxy time ' + fmt(b.clock.now) + '; ' + b.proxy.upstreamRequests + (b.proxy.upstreamRequests === 1 ? ' request' : ' requests') + ' passed upstream, ' + b.proxy.violations + (b.proxy.violations === 1 ? ' violation' : ' violations') + ' of the upstream';
    }
    document.getElementById('board-section').hidden = !b.counts;
    if (!b.counts) return;
    rows.push(['Records', Object.keys(b.counts).map(function (k) { return k + ' ' + b.counts[k]; }).join(', ')]);
    rows.push(['Clock', fmt(b.clock.now) + ', ' + b.clock.mode + (b.clock.mode === 'real' ? ' at ×' + b.clock.speed : '')]);
    rows.push(['Rate-limit window', b.window > 0 ? b.window + ' s; ' + b.openWindows + ' open now' : 'off']);
    rows.push(['Faults armed', b.faults.length === 0 ? 'none' : b.faults.map(function (f) { return f.kind + (f.path ? ' on ' + f.path : '') + ' (' + f.remaining + ' left)'; }).join('; ')]);
    if (b.activity) {
      rows.push(['Activity', b.activity.name + ': ' + b.activity.played + ' played, ' + b.activity.pending + ' to come']);
      rows.push(['Next event', b.activity.next ? b.activity.next.event + ' at ' + b.activity.next.at : 'none: the day is over']);
      if (b.activity.failures.length > 0) rows.push(['Refused events', String(b.activity.failures.length)]);
    } else rows.push(['Activity', 'none playing']);
    rows.push(['Journal', entries.length + ' requests held by the page']);
    var dl = document.getElementById('board');
    dl.textContent = '';
    rows.forEach(function (r) {
      var dt = document.createElement('dt'); dt.textContent = r[0];
      var dd = document.createElement('dd'); dd.textContent = r[1];
      dl.appendChild(dt); dl.appendChild(dd);
    });
  }

  // ---- the journal table ----
  function matches(e) {
    if (highlight) return highlight.has(e[0]);
    if (filters.user && e[5].indexOf(filters.user) < 0) return false;
    if (filters.method && e[2].toUpperCase() !== filters.method.toUpperCase()) return false;
    if (filters.path && pathOf(e[3]).indexOf(filters.path) < 0) return false;
    if (filters.status && String(e[4]) !== filters.status) return false;
    return true;
  }
  function renderTable() {
    var body = document.querySelector('#journal tbody');
    // the row that has the focus keeps it when the rows are made again
    var focused = document.activeElement && document.activeElement.parentNode === body ? document.activeElement.dataset.id : null;
    var shown = 0, total = 0;
    var frag = document.createDocumentFragment();
    for (var i = entries.length - 1; i >= 0; i--) {
      var e = entries[i];
      if (!matches(e)) continue;
      total++;
      if (shown >= ROWS) continue;
      shown++;
      var tr = document.createElement('tr');
      tr.dataset.id = String(e[0]);
      tr.tabIndex = 0;
      tr.title = 'Open request #' + e[0] + ' (Enter)';
      if (highlight && highlight.has(e[0])) tr.className = 'hl';
      [String(e[0]), fmt(e[1]), e[5] || '(none)', e[2], e[3], String(e[4]), e[6] || (e[7] !== null ? 'Retry-after ' + e[7] + ' s' : '')].forEach(function (text, k) {
        var td = document.createElement('td');
        if (k === 4) td.className = 'url';
        td.textContent = text;
        tr.appendChild(td);
      });
      frag.appendChild(tr);
    }
    body.textContent = '';
    body.appendChild(frag);
    if (focused !== null) { var again = body.querySelector('tr[data-id="' + focused + '"]'); if (again) again.focus(); }
    document.getElementById('journal-count').textContent = (highlight ? 'The finding\'s requests: ' : '') + total + ' request' + (total === 1 ? '' : 's') + (total > shown ? ', the newest ' + shown + ' shown' : '');
  }
  document.querySelector('#journal tbody').addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr');
    if (tr) openEntry(Number(tr.dataset.id));
  });
  document.querySelector('#journal tbody').addEventListener('keydown', function (ev) {
    var tr = ev.target.closest('tr');
    if (tr && ev.key === 'Enter') openEntry(Number(tr.dataset.id));
  });

  // ---- one request and its answer, in a panel, asked for when opened ----
  var opener = null; // what had the focus: it gets it back when the panel closes
  function el(tag, text, cls) {
    var n = document.createElement(tag);
    if (text !== undefined) n.textContent = text;
    if (cls) n.className = cls;
    return n;
  }
  function headerList(h, what) {
    if (!h) return el('p', what === 'answer' ? 'No headers kept (none were sent, or they were dropped).' : 'No headers kept (dropped).', 'help');
    var dl = el('dl', undefined, 'headers');
    Object.keys(h).forEach(function (k) { dl.appendChild(el('dt', k)); dl.appendChild(el('dd', h[k])); });
    return dl;
  }
  function bytes(n) { return n === undefined ? '' : n.toLocaleString('en-US') + ' bytes'; }
  // a whole JSON body is indented to be read; a cut one is shown as it came
  function readable(b) {
    if (b.omittedBytes === undefined && /json/i.test(b.contentType || '')) {
      try { return JSON.stringify(JSON.parse(b.text), null, 2); } catch (err) { return b.text; }
    }
    return b.text;
  }
  function bodyView(parent, b, label) {
    parent.appendChild(el('h4', 'Body'));
    if (b.kind === 'text') {
      parent.appendChild(el('p', bytes(b.bytes) + (b.contentType ? ', ' + b.contentType : ''), 'help'));
      var pre = el('pre', readable(b), 'body');
      // a scrolled box is reached by the keyboard too
      pre.tabIndex = 0;
      pre.setAttribute('aria-label', label + ' body');
      parent.appendChild(pre);
      if (b.note) parent.appendChild(el('p', b.note, 'cut'));
      return;
    }
    parent.appendChild(el('p', b.kind === 'none' ? 'No body.' : b.note || b.kind, b.kind === 'dropped' ? 'dropped' : 'help'));
  }
  function renderEntry(e) {
    var box = document.getElementById('entry');
    box.textContent = '';
    document.getElementById('entry-title').textContent = 'Request #' + e.id;
    box.appendChild(el('p', 'Request #' + e.id + ' at ' + e.time + ' (' + clockName + '), ' + (e.user ? 'user ' + e.user : 'no credentials') + (e.fault ? '; ' + e.fault : '')));
    if (e.dropped) box.appendChild(el('p', e.dropped, 'dropped'));
    var rq = e.request || { method: e.method, url: e.url };
    box.appendChild(el('h3', 'Request'));
    box.appendChild(el('p', rq.method + ' ' + rq.url, 'line'));
    if (e.request) {
      box.appendChild(el('h4', 'Headers'));
      box.appendChild(headerList(rq.headers, 'request'));
      bodyView(box, rq.body, 'Request');
    }
    box.appendChild(el('h3', 'Answer'));
    box.appendChild(el('p', 'status: ' + (e.status === 0 ? 'none sent' : e.status) + (e.retryAfter !== undefined ? ', Retry-after ' + e.retryAfter + ' s' : '') + (e.nextPage !== undefined ? ', next_page ' + (e.nextPage ? 'given' : 'none (the last page)') : ''), 'line'));
    if (e.answer) {
      box.appendChild(el('h4', 'Headers'));
      box.appendChild(headerList(e.answer.headers, 'answer'));
      bodyView(box, e.answer.body, 'Answer');
    }
    if (!e.request) box.appendChild(el('p', 'This file carries the journal\'s entries, not their headers or bodies: GET /__mock/requests/' + e.id + ' gives them while the fake runs.', 'help'));
  }
  function showPanel() {
    var section = document.getElementById('entry-section');
    section.hidden = false;
    document.getElementById('entry-title').focus();
  }
  function openEntry(id) {
    var active = document.activeElement;
    opener = active && active !== document.body && !document.getElementById('entry-section').contains(active) ? { id: id, node: active } : opener;
    get('/entry/' + id).then(function (a) {
      renderEntry(a.entry);
      showPanel();
    }).catch(function (err) {
      document.getElementById('entry-title').textContent = 'Request #' + id;
      var box = document.getElementById('entry');
      box.textContent = '';
      box.appendChild(el('p', String(err.message), 'dropped'));
      showPanel();
    });
  }
  function closeEntry() {
    document.getElementById('entry-section').hidden = true;
    if (!opener) return;
    // the row may have been made again since: its successor takes the focus
    var node = opener.node;
    if (!node.isConnected) node = document.querySelector('#journal tbody tr[data-id="' + opener.id + '"]');
    opener = null;
    if (node) node.focus();
  }
  document.getElementById('entry-close').addEventListener('click', closeEntry);
  document.getElementById('entry-section').addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') { ev.preventDefault(); closeEntry(); }
  });

  refreshBoard().then(poll);
  if (!day) {
    setInterval(poll, 500);
    setInterval(refreshBoard, 2000);
  }
})();
`
