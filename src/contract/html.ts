// `contract --html FILE`: the run as one self-contained HTML file for people and CI
// artifacts (no script, no request: a policy in the file forbids every load). It is made
// from the report the run returns, which is redacted as every output is
// (src/contract/redact.ts), so no password can reach it: the summary and what the exit
// code means, the coverage per group, each failing check with the spec's words it
// enforces (citationLines: the words the finding contradicts first, the rest folded after
// them) and what it found, the observations (schema drift first), the requests made, and
// the jobs made, deleted and pending in the ledger.
//
// The request matrix (src/contract/matrix.ts) has its section: the count line and every
// cell, checked, skipped and why, or not reached; so do the walks (src/contract/walk.ts):
// which lists and filters the run read in full by next_page, which in part, and why.
import { type ContractReport, tallyLine } from './report.js'
import { citationLines } from './citations.js'
import { markOf, matrixCountLine } from './matrix.js'

const esc = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** What each exit code of `contract` means (docs/contract.md). */
export const EXIT_MEANING: Record<number, string> = {
  0: 'conforming: every planned check was made (or --min-coverage of them) and none failed',
  1: 'not conforming: a check failed, or a job the run made is left behind',
  2: 'not run to the end: a usage or connection error, refused credentials, or interrupted',
  3: 'incomplete: planned checks were left unmade (rate limit, ledger, outage), none failed',
}

const STYLE = `
body { font-family: system-ui, sans-serif; color: #1f2328; margin: 1rem 2rem 3rem; max-width: 72rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .2rem .5rem; border-bottom: 1px solid #eaeef2; vertical-align: top; }
code, .mono { font-family: ui-monospace, monospace; font-size: .85rem; word-break: break-all; }
.pass { color: #1a7f37; } .fail { color: #cf222e; font-weight: 600; } .skip { color: #57606a; } .error { color: #bc4c00; font-weight: 600; }
.exit { font-size: 1.1rem; padding: .5rem .8rem; border-radius: 6px; background: #f6f8fa; border: 1px solid #d0d7de; }
.exit.code-0 { background: #dafbe1; border-color: #1a7f37; } .exit.code-1 { background: #ffebe9; border-color: #cf222e; }
blockquote { margin: .3rem 0 .3rem 1rem; padding-left: .6rem; border-left: 3px solid #d0d7de; color: #3b434b; }
.failure { margin: .2rem 0 .2rem 1rem; }
details { margin: .4rem 0; } summary { cursor: pointer; }
`

/** The request matrix (src/contract/matrix.ts): every cell, checked, skipped and why, or not reached. */
function matrixSection(report: ContractReport): string {
  const matrix = report.matrix ?? []
  const css = (status: string) => (status === 'checked' ? 'pass' : status === 'skipped' ? 'skip' : 'error')
  const rows = matrix.map((c) => `<tr><th scope="row"><code>${esc(c.id)}</code></th><td>${esc(c.shape)}</td><td class="${css(c.status)}">${esc(markOf(c))}</td><td>${esc(c.reason ?? '')}</td></tr>`)
  return `<h2 id="matrix">Request matrix</h2>
<p>${esc(matrixCountLine(matrix))}</p>
<details><summary>Every cell</summary>
<table><thead><tr><th scope="col">cell</th><th scope="col">request shape</th><th scope="col">status</th><th scope="col">why</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></details>`
}

/** The walks (src/contract/walk.ts): each list and filter, in full or in part this run, the pages read and why. */
function walksSection(report: ContractReport): string {
  const walks = report.walks ?? []
  if (walks.length === 0) return ''
  const rows = walks.map(
    (w) =>
      `<tr><th scope="row"><code>${esc(w.id)}</code></th><td class="${w.full ? 'pass' : 'skip'}">${w.full ? 'in full' : 'in part'}</td><td>${esc(w.read)}${w.pages === undefined ? '' : ` of ${w.pages}`}</td><td>${esc(`${w.complete ? '' : 'not every page answered; '}${w.full ? '' : w.why}${w.lastFull === undefined || w.full ? '' : `; walked in full last ${w.lastFull}`}`)}</td></tr>`,
  )
  return `<h2 id="walks">Walks</h2>
<p>Each list and filter followed by next_page from page 1: ${walks.filter((w) => w.full).length} of ${walks.length} in full this run; the others in part, their first pages and a run at their end (the ledger walks them in full on a later run).</p>
<table><thead><tr><th scope="col">walk</th><th scope="col">this run</th><th scope="col">pages read</th><th scope="col">why</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`
}

function coverageSection(report: ContractReport): string {
  const rows = report.coverage.map((c) => {
    const unmade = Object.entries(c.unmade)
    return `<tr><th scope="row">${esc(c.group)}</th><td>${c.checked}</td><td>${c.notApplicable}</td><td>${c.notDue}</td><td>${unmade.length === 0 ? '0' : esc(unmade.map(([why, n]) => `${n} (${why})`).join(', '))}</td></tr>`
  })
  return `<h2 id="coverage">Coverage per group</h2>
<table><thead><tr><th scope="col">group</th><th scope="col">checked</th><th scope="col">do not apply</th><th scope="col">not due</th><th scope="col">left unmade (why)</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`
}

function failingSection(report: ContractReport): string {
  const failing = report.checks.filter((c) => c.status === 'fail' || c.status === 'error')
  if (failing.length === 0) return '<h2 id="failing">Failing checks</h2>\n<p class="pass">None.</p>'
  const items = failing.map((check) => {
    const lines = check.status === 'fail' ? citationLines(`${check.endpoint}: ${check.name}`, undefined, check.failures) : []
    // the words the finding contradicts first; the rest of the check's words folded after them
    const cited = lines.filter((line) => !line.startsWith('also: '))
    const also = lines.filter((line) => line.startsWith('also: '))
    const found = check.status === 'fail' ? check.failures : [check.reason ?? 'the service erred']
    return `<li><span class="${check.status}">${check.status === 'fail' ? 'FAIL' : 'ERROR'}</span> <code>${esc(check.endpoint)}</code>: ${esc(check.name)}
${cited.length > 0 ? `<blockquote>${cited.map(esc).join('<br>')}</blockquote>` : ''}
${also.length > 0 ? `<details><summary>${also.length} more of the spec's words behind the check</summary><blockquote>${also.map(esc).join('<br>')}</blockquote></details>` : ''}
${found.map((f) => `<div class="failure mono">${esc(f)}</div>`).join('\n')}</li>`
  })
  return `<h2 id="failing">Failing checks (${failing.length})</h2>\n<ul>${items.join('\n')}</ul>`
}

function checksSection(report: ContractReport): string {
  const rows = report.checks.map(
    (c) =>
      `<tr><td class="${c.status}">${c.status}</td><td><code>${esc(c.endpoint)}</code></td><td>${esc(c.name)}</td><td>${esc(c.status === 'skip' || c.status === 'error' ? (c.reason ?? '') : '')}</td></tr>`,
  )
  return `<h2 id="checks">Every check (${report.checks.length})</h2>
<details><summary>Show the ${report.checks.length} checks</summary>
<table><thead><tr><th scope="col">outcome</th><th scope="col">endpoint</th><th scope="col">check</th><th scope="col">why skipped</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></details>`
}

function observationsSection(report: ContractReport): string {
  const sorted = [...report.observations].sort((a, b) => Number(b.topic === 'drift') - Number(a.topic === 'drift'))
  const drift = sorted.filter((o) => o.topic === 'drift').length
  const items = sorted.map((o) => `<li><strong>[${esc(o.topic)}]</strong> <code>${esc(o.endpoint)}</code>: ${esc(o.summary)}</li>`)
  return `<h2 id="observations">Observations and drift (${report.observations.length}; they warn, they do not fail)</h2>
<p>${drift === 0 ? 'No drift: every answer held only the fields the schemas know.' : `${drift} answer${drift === 1 ? '' : 's'} held fields the schemas do not know (drift).`}</p>
${items.length > 0 ? `<ul>${items.join('\n')}</ul>` : ''}`
}

function requestsSection(report: ContractReport): string {
  const rows = report.requests.map(
    (r) =>
      `<tr><td>${esc(r.method)}</td><td>${r.status ?? '—'}</td><td class="mono">${esc(r.url)}</td><td>${esc(r.credentials)}</td><td>${r.attempts}</td><td>${r.waited > 0 ? `${r.waited} s` : ''}</td><td>${esc(r.note ?? (r.outcome === 'answered' ? '' : r.outcome))}</td></tr>`,
  )
  return `<h2 id="requests">Requests (${report.requests.length})</h2>
<details><summary>Show the ${report.requests.length} requests</summary>
<table><thead><tr><th scope="col">method</th><th scope="col">status</th><th scope="col">URL</th><th scope="col">credentials</th><th scope="col">attempts</th><th scope="col">waited</th><th scope="col">note</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></details>`
}

function jobsSection(report: ContractReport): string {
  const { created, deleted, notDeleted, pending } = report.jobs
  if (created.length === 0 && pending.length === 0) return ''
  return `<h2 id="jobs">Jobs and the ledger</h2>
<p>Created: ${esc(created.map((j) => `${j.id} (${j.reference})`).join(', ') || 'none')}; deleted: ${esc(deleted.map((j) => j.id).join(', ') || 'none')}.</p>
${notDeleted.map((j) => `<p class="fail">NOT DELETED: job ${esc(j.id)} (${esc(j.reference)}): ${esc(j.cleanupError ?? 'no delete was tried')}</p>`).join('\n')}
${pending.length > 0 ? `<p>Pending deletion in the ledger (the next run deletes them first): ${esc(pending.map((j) => `${j.id} (${j.reference})`).join(', '))}</p>` : ''}`
}

/** The report as one HTML file that loads nothing. */
export function contractHtml(report: ContractReport): string {
  const meaning = EXIT_MEANING[report.exitCode] ?? 'an exit code this kit does not give'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>jobboard-kit contract: ${esc(report.baseUrl)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Contract run against <code>${esc(report.baseUrl)}</code></h1>
<p>${esc(report.startedAt)} to ${esc(report.finishedAt)}; user ${esc(report.username ?? '(none)')}; groups ${esc(report.groups.join(', '))}; writes ${report.writes ? 'on' : 'off'}.</p>
</header>
<main>
<p class="exit code-${report.exitCode}">Exit ${report.exitCode}: ${esc(meaning)}.${report.reason ? ` ${esc(report.reason)}` : ''}</p>
<p>${esc(tallyLine(report.summary))}</p>
${failingSection(report)}
${observationsSection(report)}
${matrixSection(report)}
${walksSection(report)}
${coverageSection(report)}
${checksSection(report)}
${requestsSection(report)}
${jobsSection(report)}
</main>
</body>
</html>
`
}
