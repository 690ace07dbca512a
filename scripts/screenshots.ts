// `npx tsx scripts/screenshots.ts`: remakes the screenshots docs/ and README.md show, from
// a fake that lives a client's day (the quiet-day activity on a virtual clock, the
// client of test/helpers/ui-day.ts) and Debian's chromium (/usr/bin/chromium, driven by
// playwright-core; it downloads no browser). Writes docs/images/ui.png (the page of the
// fake's day, /__mock/ui), docs/images/ui-finding.png (a verdict finding chosen, its
// requests highlighted on the timeline and alone in the journal), docs/images/ui-request.png
// (a journal row opened: its request and answer), docs/images/contract.png (`contract --html`
// of a run against a fake whose first listed candidate's details answer that candidate with
// one field of the wrong type and one the schemas do not know, armed as a fault: one failing
// check with the spec's words, drift, the request matrix's count line) and
// docs/images/proxy-ui.png (/__mock/ui on the proxy: the example client's day through it in
// front of the second server, behind a tap that answers the first page of candidates/list
// with its `total` as a string).
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { main } from '../src/cli/main.js'
import { createMockServer } from '../src/fake/server.js'
import { proxiedDay } from '../test/helpers/proxy-day.js'
import { liveADay } from '../test/helpers/ui-day.js'

const CHROMIUM = '/usr/bin/chromium'
const OUT = fileURLToPath(new URL('../docs/images/', import.meta.url))
const AUTH = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: apt-get install -y chromium`)
  process.exit(2)
}
const fake = await createMockServer({ clock: 'virtual', now: '2026-03-02 08:00:00', activity: 'quiet-day' })
const profile = await mkdtemp(join(tmpdir(), 'jobboard-kit-screenshots-'))
try {
  const url = await fake.listen(0)
  await liveADay(url, AUTH)
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    headless: true,
    viewport: { width: 1280, height: 1000 },
  })
  try {
    const page = browser.pages()[0] ?? (await browser.newPage())
    page.on('pageerror', (error) => console.error('page error:', error.message))
    await page.goto(`${url}/__mock/ui`)
    const held = fake.app.board.journal.size
    await page.locator(`#timeline[data-marks="${held}"]`).waitFor()
    await page.locator('#verdict li').first().waitFor()
    // one lane opened into its full URLs, as a reader would
    await page.locator('#timeline').click({ position: { x: 40, y: 34 + 22 + 11 } })
    await mkdir(OUT, { recursive: true })
    await page.screenshot({ path: join(OUT, 'ui.png'), clip: { x: 0, y: 0, width: 1280, height: 1000 } })
    await page.locator('[data-finding]').first().click()
    await page.locator('#timeline:not([data-highlighted="0"])').waitFor()
    await page.screenshot({ path: join(OUT, 'ui-finding.png'), fullPage: true })
    // a journal row opened: the request and its answer, headers and bodies
    await page.locator('#clear-highlight').click()
    await page.locator('#journal tbody tr', { hasText: '/candidates/list?page=1' }).first().click()
    await page.locator('#entry-section pre.body').first().waitFor()
    await page.screenshot({ path: join(OUT, 'ui-request.png'), clip: { x: 0, y: 0, width: 1280, height: 1000 } })
    await page.keyboard.press('Escape')

    // a contract run's HTML report, against the same fake with the details of its first
    // listed candidate broken: `hot` a word, not 1 or 0, and a field the schemas do not know
    const post = (path: string, body: object) =>
      fetch(`${url}/__mock${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.arrayBuffer())
    const read = async (path: string) => (await (await fetch(`${url}/api/v1${path}`, { headers: AUTH })).json()) as { data: Array<Record<string, unknown>> }
    await post('/clock/advance', { seconds: 3600 })
    const first = (await read('/candidates/list')).data[0]?.id
    const detail = await read(`/candidates/details/${first}`)
    const broken = { ...detail, data: detail.data.map((c) => ({ ...c, hot: 'yes', channel: 'referral' })) }
    await post('/clock/advance', { seconds: 3600 })
    await post('/faults', { path: `/api/v1/candidates/details/${first}`, status: 200, body: broken, times: 1000 })
    const report = join(profile, 'contract.html')
    const quiet = { write: () => true }
    await main([process.execPath, 'jobboard-kit', 'contract', '--base-url', url, '--username', 'jobboard', '--password', 'jobboard', '--rate-limit-window', '0', '--only', 'candidates', '--html', report], {
      stdout: quiet,
      stderr: quiet,
      env: {},
      exit: () => undefined,
      onSignal: () => () => undefined,
    })
    await page.goto(pathToFileURL(report).href)
    // the whole report, its long tables folded: the exit, failing checks, drift, the request matrix's count line, coverage
    await page.screenshot({ path: join(OUT, 'contract.png'), fullPage: true })

    // the page on the proxy: the example client's day in front of the second server, a tap
    // between them answering the first page of candidates/list with its total as a string
    // (what staging broke, one rule, three answers: the client's verdict stays in view)
    const closers: Array<() => unknown> = []
    try {
      const asText = (path: string, body: unknown, sent: string) =>
        path.endsWith('/api/v1/candidates/list') && !sent.includes('?') && typeof body === 'object' && body !== null && 'total' in body ? { ...body, total: String(body.total) } : body
      const { proxy } = await proxiedDay({ teardown: (close) => void closers.push(close) }, { style: 'a', username: 'sync', password: 'jobboard', basePath: '/staging', tap: { mutate: asText } })
      const proxied = proxy.journal.size
      await page.goto(`${proxy.url}/__mock/ui`)
      await page.locator(`#timeline[data-marks="${proxied}"]`).waitFor()
      await page.locator('#verdict li').first().waitFor()
      await page.screenshot({ path: join(OUT, 'proxy-ui.png'), clip: { x: 0, y: 0, width: 1280, height: 1000 } })
    } finally {
      for (const close of closers.reverse()) await close()
    }
    console.log(`wrote ui.png, ui-finding.png, ui-request.png, contract.png and proxy-ui.png in ${OUT}`)
  } finally {
    await browser.close()
  }
} finally {
  await fake.close()
  await rm(profile, { recursive: true, force: true })
}
