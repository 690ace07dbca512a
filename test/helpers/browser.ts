// Debian's chromium driven by playwright-core, for the page tests (the fake's /__mock/ui,
// the proxy's): a fresh profile, headless, closed at teardown; every request the page
// makes is recorded, and one for another origin than the loopback's (or a file) is
// aborted, never sent.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import type { Test } from 'tap'
import { CHROMIUM } from './tools.js'

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync']

export async function launch(t: Test): Promise<{ browser: BrowserContext; page: Page; requested: string[] }> {
  const profile = await mkdtemp(join(tmpdir(), 'jobboard-kit-chromium-'))
  t.teardown(() => rm(profile, { recursive: true, force: true }))
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 90_000, viewport: { width: 1400, height: 1000 } })
  t.teardown(() => browser.close())
  const requested: string[] = []
  // every request of the page is seen here; one for another origin is recorded and never sent
  await browser.route('**/*', (route) => {
    requested.push(route.request().url())
    const target = new URL(route.request().url())
    return target.hostname === '127.0.0.1' || target.protocol === 'file:' ? route.continue() : route.abort()
  })
  const page = browser.pages()[0] ?? (await browser.newPage())
  return { browser, page, requested }
}
