// /__mock/ui in a real browser (Debian's chromium, driven by playwright-core) against a
// fake that lived through an activity day on a virtual clock with a client that walks
// lists, repeats a URL inside its window (429s, a verdict finding) and meets an injected
// fault: the timeline draws one mark per request, a click on a finding highlights exactly
// its requests, a new request appears within a second, nothing is asked of another
// origin, an unknown filter is ignored with a notice, and axe-core finds no serious
// accessibility violation. The same page written as a file (serve --verdict-html) opens
// from file:// and asks for nothing. The screenshot is left in .tap/screenshots/ui.png.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { boardDayFile } from '../../../src/fake/board-view.js'
import { basic, checked, USER } from '../../helpers/board.js'
import { ROOT } from '../../helpers/cli.js'
import { liveADay } from '../../helpers/ui-day.js'
import { seriousViolations } from '../../helpers/axe.js'
import { launch } from '../../helpers/browser.js'
import { haveTools, needs } from '../../helpers/tools.js'

export const SCREENSHOT = join(ROOT, '.tap', 'screenshots', 'ui.png')

/** A password the page must never show (the scenario's default equals the user name). */
const PASSWORD = 's3cret-Pa55word'
const AUTH = { authorization: basic(USER, PASSWORD) }

interface Finding {
  message: string
  requests: number[]
}

t.test('the page of a day: marks, findings, live journal, one origin, accessible', needs('chromium'), async (t) => {
  if (!haveTools(t, 'chromium')) return
  const mock = await createMockServer({ clock: 'virtual', now: '2026-03-02 08:00:00', activity: 'quiet-day', password: PASSWORD, ...checked(t) })
  const url = await mock.listen(0)
  t.teardown(() => mock.close())
  await liveADay(url, AUTH)
  const held = (await mock.inject('/__mock/requests')).json() as { total: number; data: Array<{ id: number; status: number }> }
  const verdict = (await mock.inject('/__mock/verdict')).json() as { rules: Array<{ id: string; outcome: string; findings: Finding[] }> }
  t.ok(held.data.some((e) => e.status === 429) && held.data.some((e) => e.status === 503), 'the day has 429s and an injected fault')

  const { page, requested } = await launch(t)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const answer = await page.goto(`${url}/__mock/ui`, { waitUntil: 'load', timeout: 60_000 })
  t.equal(answer?.status(), 200, '/__mock/ui answers 200')
  t.match((await answer?.allHeaders())?.['content-security-policy'], /default-src 'self'/, 'with a policy that keeps the page on this server')
  const canvas = page.locator('#timeline')
  await page.locator(`#timeline[data-marks="${held.total}"]`).waitFor({ timeout: 30_000 })
  t.equal(await canvas.getAttribute('data-marks'), String(held.total), `the timeline draws one mark per request of the journal (${held.total})`)
  t.equal(await page.locator('#journal tbody tr').count(), held.total, 'the journal table lists every request')
  t.equal((await mock.inject('/__mock/requests')).json().total, held.total, 'the page itself added nothing to the journal (no favicon asked of the fake)')

  // every rule by id, with its outcome
  await page.locator('#verdict li').first().waitFor({ timeout: 10_000 })
  const shownRules = await page.locator('#verdict > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-rule')))
  t.same(shownRules, verdict.rules.map((r) => r.id), 'the verdict lists every rule by its id')
  const failed = verdict.rules.find((r) => r.outcome === 'fail' && r.findings.some((f) => f.requests.length > 0))
  t.ok(failed, 'the day broke a rule')
  const finding = [...(failed?.findings ?? [])].sort((a, b) => b.requests.length - a.requests.length)[0] as Finding
  const index = failed?.findings.indexOf(finding) ?? 0
  await page.locator(`[data-finding="${failed?.id}#${index}"]`).click()
  const ids = finding.requests.filter((id) => held.data.some((e) => e.id === id)).sort((a, b) => a - b)
  await page.locator(`#timeline[data-highlighted="${ids.length}"]`).waitFor({ timeout: 5_000 })
  t.equal(await canvas.getAttribute('data-highlighted'), String(ids.length), `a click on a finding of ${failed?.id} highlights its ${ids.length} requests on the timeline`)
  const rows = await page.locator('#journal tbody tr.hl').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-id'))))
  t.same(
    rows.sort((a, b) => a - b),
    ids,
    'and exactly those rows in the journal',
  )
  t.equal(await page.locator('#journal tbody tr').count(), ids.length, 'the journal shows only them while the finding is chosen')
  await page.locator('#clear-highlight').click()

  await mkdir(join(ROOT, '.tap', 'screenshots'), { recursive: true })
  await page.screenshot({ path: SCREENSHOT, fullPage: true })

  // a request made now is in the table within a second
  const fresh = await fetch(`${url}/api/v1/candidates/list?page=2`, { headers: AUTH })
  const newest = held.total + 1
  const started = Date.now()
  await page.locator(`#journal tbody tr[data-id="${newest}"]`).waitFor({ timeout: 1_000 })
  t.ok(Date.now() - started <= 1_000, `a new request appears in the journal within a second (${Date.now() - started} ms)`)
  await page.locator(`#timeline[data-marks="${newest}"]`).waitFor({ timeout: 1_000 })
  t.pass('and on the timeline')

  // a click on a row opens its request and answer (headers, bodies), never a password
  const freshBody = (await fresh.json()) as { data: Array<{ email: string }> }
  await page.locator(`#journal tbody tr[data-id="${newest}"]`).click()
  await page.locator('#entry-section:not([hidden])').waitFor({ timeout: 5_000 })
  const entry = await page.locator('#entry').textContent()
  t.match(entry, /GET \/api\/v1\/candidates\/list\?page=2/, 'a row opens its request')
  t.match(entry, `status: ${fresh.status}`, `and its answer (${fresh.status})`)
  t.match(await page.locator('#entry dl.headers').first().textContent(), /authorizationBasic \[redacted\]/, 'the request headers, Authorization redacted')
  t.match(await page.locator('#entry pre.body').last().textContent(), freshBody.data[0]?.email ?? '', 'the answer body as the client got it')
  t.match(await page.locator('#entry dl.headers').last().textContent(), /content-typeapplication\/json/, 'and its headers')
  t.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'entry-title', 'the panel takes the focus')
  t.notMatch(entry, PASSWORD, 'and never the password')
  t.notMatch(entry, AUTH.authorization.slice(6), 'nor the Authorization header')
  t.same(await seriousViolations(page), [], 'axe-core finds no serious or critical accessibility violation with the panel open')
  await page.keyboard.press('Escape')
  await page.locator('#entry-section').waitFor({ state: 'hidden', timeout: 5_000 })
  t.equal(await page.evaluate<string | null | undefined>("document.activeElement?.getAttribute('data-id')"), String(newest), 'Escape closes it and gives the focus back to the row')

  // from the keyboard: Tab to the next row (an older request), Enter; a request without a body says so
  await page.keyboard.press('Tab')
  const focused = await page.evaluate<string | null | undefined>("document.activeElement?.getAttribute('data-id')")
  t.ok(focused !== null && focused !== String(newest), `Tab reaches the next row (#${focused})`)
  await page.keyboard.press('Enter')
  await page.locator('#entry-section:not([hidden])').waitFor({ timeout: 5_000 })
  t.match(await page.locator('#entry-title').textContent(), `Request #${focused}`, 'Enter on a row opens its request')
  t.match(await page.locator('#entry').textContent(), /No body\./, 'a GET is said to carry no body')
  await page.locator('#entry-close').click()
  await page.locator('#entry-section').waitFor({ state: 'hidden', timeout: 5_000 })
  t.pass('the Close button closes it')

  t.same(await seriousViolations(page), [], 'axe-core finds no serious or critical accessibility violation')

  t.same(errors, [], 'the page threw no error')
  t.same(
    requested.filter((r) => new URL(r).origin !== new URL(url).origin),
    [],
    'no request left for another origin',
  )
})

t.test('an unknown filter is ignored with a notice; a known one filters the journal', needs('chromium'), async (t) => {
  if (!haveTools(t, 'chromium')) return
  const mock = await createMockServer({ clock: 'virtual', password: PASSWORD, ...checked(t) })
  const url = await mock.listen(0)
  t.teardown(() => mock.close())
  for (const path of ['/candidates/list', '/metrics/list', '/metrics/list']) await fetch(`${url}/api/v1${path}`, { headers: AUTH })
  const { page } = await launch(t)
  const answer = await page.goto(`${url}/__mock/ui?colour=red&status=429`, { waitUntil: 'load', timeout: 60_000 })
  t.equal(answer?.status(), 200, 'the page answers 200, not an error page')
  t.match(await page.locator('#notice').textContent(), /Ignored "colour"/, 'a notice names the ignored filter')
  await page.locator('#timeline[data-marks="3"]').waitFor({ timeout: 10_000 })
  t.equal(await page.locator('#f-status').inputValue(), '429', 'the known filter is applied')
  const statuses = await page.locator('#journal tbody tr td:nth-child(6)').allTextContents()
  t.same(statuses, ['429'], 'the journal shows only the 429')
})

t.test('the day as a file (serve --verdict-html) opens from file://: every mark, the verdict, no request, accessible', needs('chromium'), async (t) => {
  if (!haveTools(t, 'chromium')) return
  const mock = await createMockServer({ clock: 'virtual', now: '2026-03-02 08:00:00', activity: 'quiet-day', password: PASSWORD, ...checked(t) })
  const url = await mock.listen(0)
  t.teardown(() => mock.close())
  await liveADay(url, AUTH, 4)
  const held = mock.app.board.journal.size
  const dir = t.testdir()
  const file = join(dir, 'day.html')
  await writeFile(file, await boardDayFile(mock.app.board, mock.app.controller))
  await mock.close()

  const { page, requested } = await launch(t)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const address = pathToFileURL(file).href
  await page.goto(address)
  await page.locator(`#timeline[data-marks="${held}"]`).waitFor({ timeout: 10_000 })
  t.pass(`the timeline draws the ${held} requests the file carries`)
  t.equal(await page.locator('#journal tbody tr').count(), held, 'the journal lists them')
  t.ok((await page.locator('#verdict > li').count()) > 0, 'the verdict is shown')
  const failing = page.locator('[data-finding]').first()
  await failing.click()
  await page.locator('#timeline:not([data-highlighted="0"])').waitFor({ timeout: 5_000 })
  t.pass('a finding highlights its requests')
  await page.locator('#journal tbody tr').first().click()
  await page.locator('#entry-section:not([hidden])').waitFor({ timeout: 5_000 })
  t.match(await page.locator('#entry').textContent(), /Request #\d+/, 'a row opens its request')
  t.match(await page.locator('#notice').textContent(), /when the fake stopped/, 'the notice says when it was written')
  t.same(await seriousViolations(page), [], 'axe-core finds no serious or critical violation')
  t.same(errors, [], 'the page threw no error')
  t.same(
    requested.filter((r) => r !== address),
    [],
    'no request left the file',
  )
})
