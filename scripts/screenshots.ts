// `npx tsx scripts/screenshots.ts`: remakes the screenshots docs/ and README.md show, from
// a fake that lives a client's day (the quiet-day activity on a virtual clock, the
// client of test/helpers/ui-day.ts) and Debian's chromium (/usr/bin/chromium, driven by
// playwright-core; it downloads no browser). Writes docs/images/ui.png (the page of the
// fake's day, /__mock/ui) and docs/images/ui-finding.png (a verdict finding chosen, its
// requests highlighted on the timeline and alone in the journal).
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { createMockServer } from '../src/fake/server.js'
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
    console.log(`wrote ${join(OUT, 'ui.png')} and ${join(OUT, 'ui-finding.png')}`)
  } finally {
    await browser.close()
  }
} finally {
  await fake.close()
  await rm(profile, { recursive: true, force: true })
}
