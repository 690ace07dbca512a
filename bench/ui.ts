// The bench's figures for /__mock/ui at scale (issue 29): a fake whose journal recorded
// 100,000 API requests of a busy client (list walks, details, 429s with their
// Retry-after, an injected fault now and then), then the fake's heap with them, how long
// one journal window (5,000 entries) takes to answer, and how long chromium takes from
// asking for the page to drawing every mark the journal holds, with the page's own heap.
// The journal keeps its last 10,000 entries, so the page's memory does not grow with the
// day. Reports only; without chromium the page's figures are left out, with the reason.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { chromium } from 'playwright-core'
import { createMockServer } from '../src/fake/server.js'

const CHROMIUM = '/usr/bin/chromium'
const API = '/api/v1'

export interface UiFigures {
  entries: number
  journalHeld: number
  /** The process's heap after a collection: before the fake was built, and with its 100,000 requests recorded. */
  heapBeforeMiB: number
  heapAfterMiB: number
  /** GET /__mock/ui/journal?after=0&limit=5000, in-process. */
  windowMs: number
  /** From asking for the page to every mark drawn; undefined without chromium. */
  pageLoadMs?: number
  /** The page's JavaScript heap once it has drawn them. */
  pageHeapMiB?: number
  skipped?: string
}

const gc = () => (globalThis as { gc?: () => void }).gc?.()
const heapMiB = () => {
  gc()
  return process.memoryUsage().heapUsed / 1048576
}

export async function measureUi(entries = 100_000): Promise<UiFigures> {
  const heapBefore = heapMiB()
  const fake = await createMockServer({ scenario: 'default', clock: 'virtual', rateLimitWindow: 900 })
  try {
    const board = fake.app.board
    const start = board.clock.now() - entries * 1000
    for (let i = 0; i < entries; i++) {
      const time = start + i * 1000
      const kind = i % 10
      const page = ((i >> 2) % 40) + 1
      if (kind < 5) board.journal.record({ method: 'GET', url: `${API}/applications/list?page=${page}`, status: 200, time, user: 'jobboard', nextPage: page < 40 })
      else if (kind < 8) board.journal.record({ method: 'GET', url: `${API}/candidates/details/${(i % 500) + 1}`, status: 200, time, user: 'jobboard' })
      else if (kind === 8) board.journal.record({ method: 'GET', url: `${API}/metrics/list`, status: 429, time, user: 'jobboard', retryAfter: 600 })
      else board.journal.record({ method: 'GET', url: `${API}/timesheets/list`, status: i % 100 === 9 ? 503 : 200, time, user: 'reporting', ...(i % 100 === 9 ? { fault: 'status 503' } : {}) })
    }
    const heapAfter = heapMiB()
    const began = performance.now()
    const window = await fake.inject('/__mock/ui/journal?after=0&limit=5000')
    const windowMs = performance.now() - began
    if (window.statusCode !== 200) throw new Error(`the journal window answered ${window.statusCode}`)
    const figures: UiFigures = { entries, journalHeld: board.journal.size, heapBeforeMiB: heapBefore, heapAfterMiB: heapAfter, windowMs }
    if (!existsSync(CHROMIUM)) return { ...figures, skipped: `${CHROMIUM} is missing (apt-get install -y chromium)` }
    const url = await fake.listen(0)
    const profile = await mkdtemp(join(tmpdir(), 'jobboard-kit-bench-chromium-'))
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-precise-memory-info'],
      headless: true,
      viewport: { width: 1400, height: 1000 },
    })
    try {
      const page = browser.pages()[0] ?? (await browser.newPage())
      // from source, the page's script is bundled from its browser code when first asked for
      // (src/watch/ui/page-script.ts; the package carries it bundled): asked once before, so
      // that the figure is the page's, as it is from the package
      await fake.inject('/__mock/ui/ui.js')
      const asked = performance.now()
      await page.goto(`${url}/__mock/ui`)
      await page.locator(`#timeline[data-marks="${board.journal.size}"]`).waitFor({ timeout: 120_000 })
      const pageLoadMs = performance.now() - asked
      const pageHeap = (await page.evaluate('performance.memory ? performance.memory.usedJSHeapSize : 0')) as number
      return { ...figures, pageLoadMs, pageHeapMiB: pageHeap / 1048576 }
    } finally {
      await browser.close()
      await rm(profile, { recursive: true, force: true })
    }
  } finally {
    await fake.close()
  }
}

export function renderUi(f: UiFigures): string {
  const fake =
    `/__mock/ui at ${f.entries.toLocaleString('en')} journal entries (the journal holds ${f.journalHeld.toLocaleString('en')}): ` +
    `the fake's heap ${f.heapAfterMiB.toFixed(0)} MiB (${f.heapBeforeMiB.toFixed(0)} MiB before it was built); one window of 5,000 entries ${f.windowMs.toFixed(0)} ms`
  const page =
    f.pageLoadMs === undefined
      ? `the page: not measured (${f.skipped})`
      : `the page, asked to every mark drawn: ${f.pageLoadMs.toFixed(0)} ms; its JavaScript heap ${f.pageHeapMiB?.toFixed(0)} MiB`
  return `${fake}; ${page}`
}

// `node --expose-gc --import tsx bench/ui.ts`: this measure alone
if (import.meta.url === `file://${process.argv[1]}`) {
  measureUi().then((f) => console.log(renderUi(f)))
}
