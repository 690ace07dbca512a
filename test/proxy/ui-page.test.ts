// /__mock/ui on the proxy in a real browser (Debian's chromium, driven by playwright-core):
// after the correct client's day in front of the second server and a deviation of the
// upstream, the page shows whose traffic it is, one mark per request on the timeline,
// what staging broke above what the client broke, no board panel, opens a request
// without its credentials, asks nothing of another origin, and axe-core finds no serious
// accessibility violation.
import t from 'tap'
import { seriousViolations } from '../helpers/axe.js'
import { launch } from '../helpers/browser.js'
import { proxiedDay } from '../helpers/proxy-day.js'
import { haveTools, needs } from '../helpers/tools.js'

const PASSWORD = 'Tr0ub4dor-proxy-page-2026'

t.test('the page of the proxy: its traffic, staging beside the client, no board, one origin, accessible', needs('chromium'), async (t) => {
  if (!haveTools(t, 'chromium')) return
  // the upstream breaks one rule: metrics/list's status is a string
  const tap = { mutate: (path: string, body: unknown) => (path === '/api/v1/metrics/list' ? { ...(body as object), status: 'ok' } : body) }
  const { proxy, sent } = await proxiedDay(t, { style: 'a', username: 'sync', password: PASSWORD, tap })
  await (await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: { authorization: `Basic ${Buffer.from(`sync:${PASSWORD}`).toString('base64')}` } })).arrayBuffer()
  sent.push('GET /api/v1/metrics/list')
  const held = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { total: number }
  t.equal(held.total, sent.length)

  const { page, requested } = await launch(t)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const answer = await page.goto(`${proxy.url}/__mock/ui`, { waitUntil: 'load', timeout: 60_000 })
  t.equal(answer?.status(), 200)
  await page.locator(`#timeline[data-marks="${held.total}"]`).waitFor({ timeout: 30_000 })
  t.pass(`the timeline draws one mark per request (${held.total})`)
  await page.locator('#verdict li').first().waitFor({ timeout: 10_000 })
  t.match(await page.locator('h1').textContent(), /^The proxy in front of http:\/\/127\.0\.0\.1:[0-9]+$/, 'the page says whose traffic it shows')
  t.ok(await page.locator('#board-section').isHidden(), 'no board panel: a proxy has no board')
  const clock = /^Proxy time .*; [0-9]+ requests passed upstream, ([0-9]+) (violations?) of the upstream$/.exec((await page.locator('#clock').textContent()) ?? '')
  t.ok(clock && Number(clock[1]) > 0 && clock[2] === (clock[1] === '1' ? 'violation' : 'violations'), 'its clock is the proxy\'s, with the violations of the upstream counted')
  t.match(await page.locator('#timeline-summary').textContent(), /\(proxy time\)\.$/, 'the timeline\'s times are said to be the proxy\'s, not a board\'s')
  const rules = await page.locator('#verdict > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-rule')))
  t.ok(rules.includes('copy-in-step') && rules.includes('credentials'), 'the client verdict by rule')
  t.equal(rules[0], 'staging: metrics/list: the answer fits the metrics schema', 'what staging broke comes first')
  t.match(await page.locator('#verdict > li').first().textContent(), /fail.*The upstream answers as the spec says: ".*status/s, 'with the spec\'s words and the answer')
  const client = await page.locator('#verdict > li:not([data-rule^="staging: "]) .outcome').allTextContents()
  t.notOk(client.includes('fail'), 'the correct client broke nothing')
  t.match(await page.locator('#verdict-outcome').textContent(), /FAIL/, 'the outcome fails for staging')

  // a request opens without its credentials
  await page.locator('#journal tbody tr').first().click()
  await page.locator('#entry-section:not([hidden])').waitFor({ timeout: 5_000 })
  const entry = (await page.locator('#entry').textContent()) ?? ''
  t.match(entry, /authorizationBasic \[redacted\]/)
  t.notMatch(entry, PASSWORD, 'never the password')
  t.same(await seriousViolations(page), [], 'axe-core finds no serious or critical accessibility violation')
  t.same(errors, [], 'the page threw no error')
  t.same(requested.filter((r) => new URL(r).origin !== proxy.url), [], 'nothing asked of another origin')
})
