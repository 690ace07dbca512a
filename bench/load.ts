// One bounded load run with autocannon: a target's requests against one server for a
// set time (and at most a set count), answered as req/s, latency percentiles, the
// statuses seen and how busy each side was. Nothing here judges the numbers.
import autocannon from 'autocannon'

/** What to send: autocannon's request sequence, plus the status every answer should have. */
export interface Target {
  name: string
  /** The server's origin. */
  url: string
  requests: autocannon.Request[]
  /** The status every answer should carry; any other is counted as unexpected. */
  expect: number
  /** Replace `[<id>]` in each request with a fresh unique id (distinct URLs for the rate limit). */
  unique?: boolean
  /** Puts the server back in the state every measured run starts from; not measured. */
  prepare?: () => Promise<void>
}

export interface LoadSettings {
  connections: number
  /** Seconds of measured load. */
  duration: number
  /** Seconds of unmeasured load first, so connections are open and the code is hot. */
  warmup: number
  /** Requests at the most in one measured run, whatever the time left. */
  maxRequests: number
}

export interface Sample {
  requests: number
  seconds: number
  rps: number
  /** Response bytes (headers and body) per second. */
  bytesPerSecond: number
  /** Latency percentiles in milliseconds. */
  p50: number
  p99: number
  /** Share of one core the server used during the run: near 1, the server was the limit. */
  serverCpu: number
  /** The same for this process, the load generator: near 1, the generator was the limit. */
  loadCpu: number
  /** Answers by status code. */
  statuses: Record<string, number>
  /** Connection errors, timeouts included. */
  errors: number
  /** Answers whose status is not the target's, plus connection errors. */
  unexpected: number
}

/** The value at quantile q of sorted values (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

/** A run ends after a time (and, if given, a count), or after an exact count. */
type Bound = { duration: number; maxOverallRequests?: number } | { amount: number }

function fire(target: Target, connections: number, bound: Bound, onResponse?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        requests: target.requests,
        connections,
        ...bound,
        idReplacement: target.unique === true,
        timeout: 10,
      },
      (error: unknown, result) => (error ? reject(error) : resolve(result)),
    )
    if (onResponse) instance.on('response', (_client, _status, _bytes, ms) => onResponse(ms))
  })
}

/** Sends a target's requests a given number of times, unmeasured (to fill a server up). */
export async function send(target: Target, connections: number, amount: number): Promise<void> {
  await fire(target, Math.min(connections, amount), { amount })
}

/** Loads a target for a time, unmeasured: the server's code settles before anything is measured. */
export async function warm(target: Target, settings: LoadSettings, seconds: number): Promise<void> {
  await target.prepare?.()
  await fire(target, settings.connections, { duration: seconds })
}

/**
 * Warms up, prepares the server, then measures. `serverCpu` reads the server process's
 * CPU time in microseconds.
 */
export async function runLoad(target: Target, settings: LoadSettings, serverCpu: () => Promise<number>): Promise<Sample> {
  if (settings.warmup > 0) await fire(target, settings.connections, { duration: settings.warmup })
  await target.prepare?.()
  // autocannon's own latency histogram counts whole milliseconds, and these answers take
  // well under one; its 'response' event carries the exact time, so keep those instead.
  const cap = Math.max(settings.maxRequests, settings.connections)
  const times = new Float64Array(cap + settings.connections)
  let count = 0
  const serverBefore = await serverCpu()
  const loadBefore = process.cpuUsage()
  const started = performance.now()
  // maxOverallRequests ends a run early; autocannon refuses one below the connection count.
  const result = await fire(target, settings.connections, { duration: settings.duration, maxOverallRequests: cap }, (ms) => {
    if (count < times.length) times[count++] = ms
  })
  const elapsedMicros = (performance.now() - started) * 1000
  const load = process.cpuUsage(loadBefore)
  const serverMicros = (await serverCpu()) - serverBefore

  const sorted = times.subarray(0, count).sort()
  const statuses: Record<string, number> = {}
  for (const [code, { count: n = 0 }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = n
  const answered = Object.values(statuses).reduce((sum, n) => sum + n, 0)
  const perSecond = (n: number) => (result.duration > 0 ? n / result.duration : 0)
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: perSecond(result.requests.total),
    bytesPerSecond: perSecond(result.throughput.total),
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    serverCpu: serverMicros / elapsedMicros,
    loadCpu: (load.user + load.system) / elapsedMicros,
    statuses,
    errors: result.errors,
    unexpected: answered - (statuses[String(target.expect)] ?? 0) + result.errors,
  }
}
