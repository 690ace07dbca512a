// The /docs page in a real browser (Debian's chromium, driven by playwright-core): it
// renders every operation of the OpenAPI document, opens one to show its answers, and
// fetches nothing from any host but the fake's. The screenshot is left in .tap/screenshots/.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import t from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { checked } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'
import { CHROMIUM, haveTools, needs } from '../helpers/tools.js'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
]
export const SCREENSHOT = join(ROOT, '.tap', 'screenshots', 'docs.png')

t.test('renders every operation, opens one, and asks nothing of any other host', needs('chromium'), async (t) => {
  if (!haveTools(t, 'chromium')) return
  const mock = await createMockServer({ scenario: 'empty', ...checked(t) })
  const url = await mock.listen(0)
  t.teardown(() => mock.close())
  const document = (await mock.inject('/openapi.json')).json() as { paths: Record<string, Record<string, { responses: object }>> }

  const profile = await mkdtemp(join(tmpdir(), 'jobboard-kit-chromium-'))
  t.teardown(() => rm(profile, { recursive: true, force: true }))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    timeout: 90_000,
    viewport: { width: 1280, height: 900 },
  })
  t.teardown(() => browser.close())
  const requested: string[] = []
  // every request of the page is seen here; one for another host is recorded and never sent
  await browser.route('**/*', (route) => {
    const target = route.request().url()
    requested.push(target)
    return new URL(target).host === new URL(url).host ? route.continue() : route.abort()
  })
  const page = browser.pages()[0] ?? (await browser.newPage())
  const answer = await page.goto(`${url}/docs`, { waitUntil: 'load', timeout: 60_000 })
  t.equal(answer?.status(), 200, '/docs answers 200')
  const policy = (await answer?.allHeaders())?.['content-security-policy']
  t.match(policy, /default-src 'self'/, 'with a policy that keeps the page on this server')
  t.notMatch(policy, /https:|upgrade-insecure-requests/, 'and that works over plain http')
  await page.locator('.opblock-summary-path').first().waitFor({ timeout: 60_000 })

  const shown = await page.locator('.opblock-summary-path').evaluateAll((elements) =>
    elements.map((e) => `${e.closest('.opblock')?.querySelector('.opblock-summary-method')?.textContent?.trim()} ${e.getAttribute('data-path')}`),
  )
  const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
  const api = mock.app.endpoints.filter((e) => e.url.startsWith('/api/v1/') && e.method !== 'HEAD')
  t.equal(operations.length, api.length, `the document has the API's ${api.length} operations`)
  for (const operation of operations) t.ok(shown.includes(operation), `the page shows ${operation}`)

  const path = '/api/v1/candidates/details/{id}'
  const block = page.locator('.opblock').filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
  await block.locator('.opblock-summary').first().click()
  const codes = block.locator('.responses-table tr.response')
  await codes.first().waitFor({ timeout: 30_000 })
  const listed = await codes.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')))
  t.same(listed, Object.keys(document.paths[path]?.get?.responses ?? {}), `the opened ${path} lists every status it answers`)
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText(), the text a reader sees, not the DOM property
  t.match(await block.innerText(), /WWW-Authenticate/, 'and the headers of its answers')

  await mkdir(join(ROOT, '.tap', 'screenshots'), { recursive: true })
  await page.screenshot({ path: SCREENSHOT, fullPage: true })
  t.ok(existsSync(SCREENSHOT), `the screenshot is at ${SCREENSHOT}`)

  t.ok(requested.some((r) => r.startsWith(`${url}/docs`)), 'the page loaded its parts from the fake')
  t.same(
    requested.filter((r) => new URL(r).hostname !== '127.0.0.1'),
    [],
    'no request went to a host other than 127.0.0.1',
  )
})
