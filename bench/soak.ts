// The soak: one fake in a child process on 127.0.0.1, hit for a while by concurrent
// clients with mixed reads, writes, control calls and faults, the rate limit on. It
// prints what it did and three verdicts: 5xx nobody asked for (must be 0), writes lost
// (every job added and not deleted must still be on the board: 0), and the server's RSS
// growth after warm-up (under 10 %). Exits 1 when a verdict fails. Never a test: run it
// with `npm run soak` (60 s) or `npm run soak -- --seconds 20`.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { jobInputSample } from '../test/fixtures/samples.js'

/** Users of the soak's board: job/add may be made once per window per credential, so several credentials write in parallel. */
const USERS = Array.from({ length: 20 }, (_, i) => ({ username: `soak${i}`, password: `soak-password-${i}` }))
const FAULT_MARK = 'x-soak-fault'

interface Settings {
  seconds: number
  warmup: number
  concurrency: number
}

function settings(): Settings {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      concurrency: { type: 'string', default: '16' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    process.stdout.write('npm run soak [-- --seconds N] [--concurrency N]\n  --seconds N      how long to run (default 60); the first quarter is warm-up\n  --concurrency N  clients at once (default 16)\n')
    process.exit(0)
  }
  const seconds = Number(values.seconds)
  const concurrency = Number(values.concurrency)
  if (!Number.isFinite(seconds) || seconds < 4 || !Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write('soak: --seconds must be a number from 4, --concurrency a whole number from 1\n')
    process.exit(2)
  }
  return { seconds, warmup: seconds / 4, concurrency }
}

// ---- the server side ---------------------------------------------------------------

async function child(): Promise<void> {
  const { createMockServer } = await import('../src/fake/server.js')
  const server = await createMockServer({
    scenarioData: { name: 'soak', credentials: USERS },
    clock: 'virtual',
    rateLimitWindow: 900,
    controlToken: 'soak-control-token',
    host: '127.0.0.1',
  })
  const url = await server.listen(0)
  const gc = (globalThis as { gc?: () => void }).gc
  process.send?.({ type: 'ready', url })
  process.on('message', (message) => {
    if (message === 'rss') {
      // after a full collection, so that what is measured is what the fake holds
      gc?.()
      process.send?.({ type: 'rss', rss: process.memoryUsage().rss })
    }
    if (message === 'close') void server.close().then(() => process.exit(0))
  })
  process.on('disconnect', () => void server.close().then(() => process.exit(0)))
}

// ---- the client side ---------------------------------------------------------------

class Tally {
  requests = 0
  byStatus = new Map<number, number>()
  unasked5xx: string[] = []
  faultsMet = 0
  networkErrors = 0
  lostWrites = 0
  jobsAdded = 0
  jobsDeleted = 0
  checks = 0

  count(status: number): void {
    this.requests += 1
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1)
  }
}

/** A small deterministic generator: the soak's mix is the same on every run. */
function rng(seed: number): () => number {
  let x = seed || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

const basic = (user: { username: string; password: string }) => `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`
const CONTROL = { authorization: 'Bearer soak-control-token' }

// the job it adds: the suite's valid job/add sample, with a reference of its own
const JOB = { ...jobInputSample(), job_reference: 'SOAK' }

async function run(): Promise<void> {
  const config = settings()
  const server = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const url = await new Promise<string>((resolve, reject) => {
    server.once('message', (m: { url: string }) => resolve(m.url))
    server.once('exit', (code) => reject(new Error(`the fake exited (${code}) before listening`)))
  })
  const rss = () =>
    new Promise<number>((resolve) => {
      const on = (m: { type: string; rss: number }) => {
        if (m.type !== 'rss') return
        server.off('message', on)
        resolve(m.rss)
      }
      server.on('message', on)
      server.send('rss')
    })

  const tally = new Tally()
  /** Jobs added and not deleted since the last check, by id. */
  const live = new Set<number>()
  const pendingDelete = new Set<number>()
  const rssStart = await rss()
  const started = performance.now()
  const endAt = started + config.seconds * 1000
  let rssWarm: number | undefined
  let busyChecking = false
  /** Workers in the middle of a step: a check waits for them, so no write lands between reading the board and resetting it. */
  let active = 0

  const request = async (path: string, init: RequestInit & { asked?: boolean } = {}): Promise<{ status: number; body: string } | undefined> => {
    try {
      const answer = await fetch(`${url}${path}`, init)
      tally.count(answer.status)
      const body = await answer.text().catch(() => {
        tally.faultsMet += 1
        return ''
      })
      const marked = answer.headers.get(FAULT_MARK) !== null
      if (marked) tally.faultsMet += 1
      if (answer.status >= 500 && !marked && !init.asked) tally.unasked5xx.push(`${init.method ?? 'GET'} ${path} → ${answer.status} ${body.slice(0, 120)}`)
      return { status: answer.status, body }
    } catch {
      // a drop or truncate fault, or a connection the fake closed: counted, not a verdict
      tally.networkErrors += 1
      return undefined
    }
  }

  /** Lost writes: every job added and not deleted since the last check must be on the board. Then a reset keeps the board's size steady. */
  const check = async () => {
    busyChecking = true
    while (active > 0) await new Promise((resolve) => setTimeout(resolve, 2))
    const saved = await request('/__mock/state', { headers: CONTROL })
    if (saved?.status === 200) {
      const ids = new Set((JSON.parse(saved.body) as { store: { jobs: Array<{ id: number }> } }).store.jobs.map((j) => j.id))
      for (const id of live) if (!ids.has(id) && !pendingDelete.has(id)) tally.lostWrites += 1
      tally.checks += 1
    }
    live.clear()
    pendingDelete.clear()
    await request('/__mock/reset', { method: 'POST', headers: CONTROL })
    busyChecking = false
  }

  const worker = async (index: number) => {
    const random = rng(0x9e3779b9 ^ (index + 1))
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T
    while (performance.now() < endAt) {
      if (busyChecking) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        continue
      }
      active += 1
      try {
        await step(random, pick)
      } finally {
        active -= 1
      }
    }
  }

  const step = async (random: () => number, pick: <T>(items: readonly T[]) => T) => {
    const user = pick(USERS)
    const auth = { authorization: basic(user) }
    const roll = random()
    if (roll < 0.45) {
      // reads, most of them distinct URLs so that the rate limit admits them
      const n = 1 + Math.floor(random() * 400)
      const path = pick([
        `/api/v1/candidates/list?page=${n}`,
        `/api/v1/applications/list?page=${n}`,
        `/api/v1/applications/list?vacancy=${n}`,
        `/api/v1/timesheets/list?page=${n}`,
        `/api/v1/marketing/list?page=${n}`,
        `/api/v1/candidates/details/${n}`,
        `/api/v1/applications/details/${n}`,
        `/api/v1/applications/attachment/${n}`,
        `/api/v1/candidates/timesheet/${n}`,
        `/api/v1/candidates/resume/${n}`,
        '/api/v1/metrics/list',
        '/api/v1/job/fields',
        `/api/v1/candidates/list?since=2026-0${1 + (n % 9)}-01+09%3A30`,
      ])
      await request(path, { headers: auth })
    } else if (roll < 0.65) {
      // writes through the API, one job/add per credential and window
      const answer = await request('/api/v1/job/add', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(JOB) })
      if (answer?.status === 200) {
        live.add((JSON.parse(answer.body) as { id: number }).id)
        tally.jobsAdded += 1
      }
    } else if (roll < 0.72 && live.size > 0) {
      const id = pick([...live])
      pendingDelete.add(id)
      const answer = await request('/api/v1/job/delete', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ id }) })
      if (answer?.status === 200) {
        live.delete(id)
        tally.jobsDeleted += 1
      }
      pendingDelete.delete(id)
    } else if (roll < 0.82) {
      // writes through the control API: not rate limited
      const answer = await request('/__mock/jobs', { method: 'POST', headers: { ...CONTROL, 'content-type': 'application/json' }, body: JSON.stringify(JOB) })
      if (answer?.status === 201) {
        live.add((JSON.parse(answer.body) as { id: number }).id)
        tally.jobsAdded += 1
      }
    } else if (roll < 0.92) {
      // control calls: move time on (windows close), read the journal and the windows, refused inputs
      const call = pick([
        () => request('/__mock/clock/advance', { method: 'POST', headers: { ...CONTROL, 'content-type': 'application/json' }, body: '{"seconds":901}' }),
        () => request('/__mock/requests?path=/api/v1/candidates', { headers: CONTROL }),
        () => request('/__mock/rate-limits', { headers: CONTROL }),
        () => request('/__mock/clock', { headers: CONTROL }),
        () => request('/__mock/faults', { method: 'POST', headers: { ...CONTROL, 'content-type': 'application/json' }, body: '{"path":"/x","status":999}' }),
        () => request('/__mock/candidates', { method: 'POST', headers: { ...CONTROL, 'content-type': 'application/json' }, body: '{"name":123}' }),
      ])
      await call()
    } else {
      // faults: each marks its answer, so a 5xx it asked for is told from one nobody asked for
      const path = pick(['/api/v1/metrics/list', '/api/v1/job/fields', '/api/v1/candidates/details/1'])
      const fault = pick([
        { path, status: 503, headers: { [FAULT_MARK]: '1' } },
        { path, status: 500, headers: { [FAULT_MARK]: '1' }, body: { status: 500, message: 'soak' } },
        { path, delayMs: 20 },
        { path, truncate: true },
        { path, drop: true },
      ])
      await request('/__mock/faults', { method: 'POST', headers: { ...CONTROL, 'content-type': 'application/json' }, body: JSON.stringify(fault) })
      await request(path, { headers: auth, asked: 'status' in fault })
    }
  }

  const checker = (async () => {
    // a lost-writes check and a reset every 5 seconds
    while (performance.now() < endAt) {
      await new Promise((resolve) => setTimeout(resolve, 5_000))
      if (performance.now() < endAt) await check()
    }
  })()
  const warm = (async () => {
    await new Promise((resolve) => setTimeout(resolve, config.warmup * 1000))
    rssWarm = await rss()
  })()
  await Promise.all([...Array.from({ length: config.concurrency }, (_, i) => worker(i)), checker, warm])
  await check()
  const rssEnd = await rss()
  server.send('close')
  await new Promise((resolve) => server.once('exit', resolve))

  const seconds = (performance.now() - started) / 1000
  const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`
  const growth = ((rssEnd - (rssWarm ?? rssStart)) / (rssWarm ?? rssStart)) * 100
  const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ')
  const lines = [
    `soak: ${seconds.toFixed(1)} s, ${config.concurrency} clients, rate limit on (900 s windows, virtual clock)`,
    `requests made:        ${tally.requests} (${(tally.requests / seconds).toFixed(0)}/s)`,
    `statuses:             ${statuses}`,
    `faults met:           ${tally.faultsMet} marked or cut short, ${tally.networkErrors} connections dropped`,
    `jobs added / deleted: ${tally.jobsAdded} / ${tally.jobsDeleted}, checked ${tally.checks} times`,
    `unasked 5xx:          ${tally.unasked5xx.length}`,
    `lost writes:          ${tally.lostWrites}`,
    `RSS start:            ${mib(rssStart)}`,
    `RSS after warm-up:    ${mib(rssWarm ?? rssStart)} (${config.warmup.toFixed(0)} s)`,
    `RSS end:              ${mib(rssEnd)} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % after warm-up)`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  for (const line of tally.unasked5xx.slice(0, 10)) process.stdout.write(`  unasked: ${line}\n`)
  const ok = tally.unasked5xx.length === 0 && tally.lostWrites === 0 && growth < 10
  process.stdout.write(ok ? 'soak: ok\n' : 'soak: FAILED\n')
  process.exitCode = ok ? 0 : 1
}

if (process.argv.includes('--child')) {
  child().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
} else {
  run().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
