// `contract --html FILE`: one self-contained HTML file of the run, against a deployment
// that breaks a rule (the fake behind a proxy that drops each candidate list's `total`):
// it says the exit and what it means, each failing check with the spec's words it
// enforces, and never the password; a path that cannot be written is refused before the
// run (exit 2, naming the path). In chromium, from file://, it asks for nothing and
// axe-core finds no serious accessibility violation.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import t from 'tap'
import { EXIT_MEANING } from '../../src/contract/html.js'
import type { ContractReport } from '../../src/contract/report.js'
import { citationLines } from '../../src/contract/citations.js'
import { runToEnd } from '../helpers/cli.js'
import { seriousViolations } from '../helpers/axe.js'
import { CHROMIUM, haveTools, needs } from '../helpers/tools.js'
import { board, changeJson } from './helpers.js'

const PASSWORD = 'Html-Report-Secret-77'
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

t.test('a failing run as one HTML file: exit and meaning, failing checks with the spec words, no password', async (t) => {
  const { url } = await board(
    t,
    changeJson(/^\/candidates\/list/, (body) => {
      const { total: _, ...rest } = body
      return rest
    }),
    { password: PASSWORD },
  )
  const dir = t.testdir()
  const [html, report] = [join(dir, 'out', 'contract.html'), join(dir, 'report.json')]
  const run = await runToEnd(['contract', '--base-url', url, '--username', 'jobboard', '--password', PASSWORD, '--only', 'candidates', '--html', html, '--report', report])
  t.equal(run.code, 1, 'the run fails')
  const page = await readFile(html, 'utf8')
  const json = JSON.parse(await readFile(report, 'utf8')) as ContractReport
  t.match(page, `Exit 1: ${EXIT_MEANING[1]}`, 'the page says the exit code and what it means')
  const failing = json.checks.filter((c) => c.status === 'fail')
  t.ok(failing.length > 0, `${failing.length} checks failed`)
  for (const check of failing) {
    t.match(page, escaped(check.name), `the page names the failing check "${check.name}"`)
    // the words the finding contradicts first, the rest of the check's after them (folded)
    for (const line of citationLines(`${check.endpoint}: ${check.name}`, undefined, check.failures)) t.match(page, escaped(line), `with the spec's words: ${line.slice(0, 60)}`)
    for (const failure of check.failures) t.match(page, escaped(failure), 'and what it found')
  }
  t.ok(
    failing.some((c) => citationLines(`${c.endpoint}: ${c.name}`).length > 0),
    'at least one failing check cites the spec',
  )
  t.notMatch(page, PASSWORD, 'the password is nowhere in the page')
  t.notMatch(page, Buffer.from(`jobboard:${PASSWORD}`).toString('base64'), 'nor the Authorization header')
  t.notMatch(page, /<script|\bsrc=|<link/i, 'it loads nothing: no script, no source, no link')
  t.match(page, /Content-Security-Policy" content="default-src 'none'/, 'and forbids every load')
  t.match(page, /id="matrix"/, 'the request matrix has its place')
  t.match(page, /Request matrix: \d+ cells, \d+ checked/, 'with its count line and every cell')
  t.match(page, /id="walks"/, 'the walks have their place')
  t.match(page, /<code>candidates\/list none<\/code><\/th><td class="(pass|skip)">in (full|part)<\/td>/, 'saying which list was walked in full and which in part')

  t.test('from file:// in chromium it asks for nothing and is accessible', needs('chromium'), async (t) => {
    if (!haveTools(t, 'chromium')) return
    const profile = await mkdtemp(join(tmpdir(), 'jobboard-kit-chromium-'))
    t.teardown(() => rm(profile, { recursive: true, force: true }))
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      headless: true,
    })
    t.teardown(() => browser.close())
    const asked: string[] = []
    await browser.route('**/*', (route) => {
      asked.push(route.request().url())
      return route.request().url().startsWith('file:') ? route.continue() : route.abort()
    })
    const tab = browser.pages()[0] ?? (await browser.newPage())
    const address = pathToFileURL(html).href
    await tab.goto(address)
    t.match(await tab.locator('h1').textContent(), /Contract run against/, 'the page opens')
    t.same(
      asked.filter((a) => a !== address),
      [],
      'no request left the page',
    )
    t.same(await seriousViolations(tab), [], 'axe-core finds no serious or critical violation')
  })
})

t.test('--html to a path that cannot be written is refused before the run, naming the path', async (t) => {
  const dir = t.testdir()
  const file = join(dir, 'a-file')
  await writeFile(file, 'not a folder')
  const target = join(file, 'contract.html')
  // nothing listens on this port: a run that started would fail to connect, with another message
  const run = await runToEnd(['contract', '--base-url', 'http://127.0.0.1:9', '--username', 'u', '--password', 'p', '--html', target])
  t.equal(run.code, 2, 'exit 2')
  t.match(run.stderr, `--html ${target} cannot be written`, 'the reason names the path')
  t.notMatch(run.stderr, /reach|connect/i, 'the run never started')
  t.notOk(existsSync(target), 'and nothing was written')
})
