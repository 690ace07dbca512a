// One load run with wrk (Debian's `wrk`, a load generator written in C): a list of
// requests sent in turn over keep-alive connections for whole seconds, answered as
// req/s, latency percentiles, how many answers were not 2xx, and the CPU time wrk and the
// server process used, both read from /proc. wrk is not an npm package: the bench uses it
// when it is on PATH and says how to get it when it is not (bench/README.md, Throughput).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'

/** wrk's threads and connections: one thread is a core's worth of C, far more than a Node server's answers need. */
export const WRK_THREADS = 1
export const WRK_CONNECTIONS = 32

/** Where wrk is, or why the bench cannot use it and how to get it. */
export type WrkFound = { path: string } | { missing: string }

export function findWrk(): WrkFound {
  const folders = (process.env.PATH ?? '').split(delimiter).filter((folder) => folder !== '')
  const path = folders.map((folder) => join(folder, 'wrk')).find((candidate) => existsSync(candidate))
  if (path !== undefined) return { path }
  if (process.platform !== 'linux') return { missing: 'the wrk rounds read CPU times from /proc, which only Linux has' }
  return { missing: 'wrk is not on PATH: install it (`sudo apt-get install wrk` on Debian or Ubuntu, `dnf install wrk` on Fedora) and run the bench again' }
}

/** One request wrk sends, in turn with the others. */
export interface WrkRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string | undefined
}

export interface WrkSample {
  requests: number
  seconds: number
  rps: number
  p50Ms: number
  p99Ms: number
  /** Answers whose status was not 2xx or 3xx. */
  non2xx: number
  /** Connection, read, write errors and timeouts. */
  errors: number
  /** Shares of one core wrk and the server process used over the run: the one near 1 was the limit. */
  wrkCpu: number
  serverCpu: number
}

/** A Lua long string that no text can close early. */
function luaString(text: string): string {
  let level = ''
  while (text.includes(`]${level}]`)) level += '='
  return `[${level}[${text}]${level}]`
}

/**
 * The script: every request formatted once at start, then sent in turn (a request
 * hook that only picks one costs wrk next to nothing); at the end one line of JSON.
 */
export function wrkScript(requests: readonly WrkRequest[]): string {
  const formatted = requests.map((r) => {
    const headers = Object.entries(r.headers)
      .map(([name, value]) => `[ ${luaString(name)} ] = ${luaString(value)}`)
      .join(', ')
    return `    wrk.format(${luaString(r.method)}, ${luaString(r.path)}, { ${headers} }, ${r.body === undefined ? 'nil' : luaString(r.body)}),`
  })
  return [
    'local requests = {}',
    'local at = 0',
    'init = function(args)',
    '  requests = {',
    ...formatted,
    '  }',
    'end',
    'request = function()',
    '  at = at % #requests + 1',
    '  return requests[at]',
    'end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK {"requests":%d,"micros":%d,"status":%d,"errors":%d,"p50":%d,"p99":%d}\\n\',',
    '    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,',
    '    latency:percentile(50), latency:percentile(99)))',
    'end',
    '',
  ].join('\n')
}

const TICKS_PER_SECOND = 100

/** utime + stime (own), or cutime + cstime (children waited for), of a /proc/PID/stat line, in seconds. */
function statSeconds(line: string, children: boolean): number {
  // the fields after the command's closing parenthesis start at field 3 (state)
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ')
  const [a, b] = children ? [fields[13], fields[14]] : [fields[11], fields[12]]
  return (Number(a) + Number(b)) / TICKS_PER_SECOND
}

/** CPU seconds a process has used so far. */
export async function processSeconds(pid: number): Promise<number> {
  return statSeconds(await readFile(`/proc/${pid}/stat`, 'utf8'), false)
}

/**
 * Runs wrk for `seconds` (whole seconds: wrk's unit) against `origin`. wrk runs under a
 * shell that, once wrk has exited, reads its own /proc entry: its children's CPU time is
 * wrk's. `serverPid`'s CPU time is read before and after.
 */
export async function runWrk(wrk: string, origin: string, requests: readonly WrkRequest[], seconds: number, serverPid: number, scriptFile: string, connections = WRK_CONNECTIONS): Promise<WrkSample> {
  await writeFile(scriptFile, wrkScript(requests))
  const args = ['-t', String(WRK_THREADS), '-c', String(connections), '-d', `${Math.max(1, Math.round(seconds))}s`, '--timeout', '10s', '-s', scriptFile, origin]
  const serverBefore = await processSeconds(serverPid)
  const started = performance.now()
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('sh', ['-c', 'wrk="$1"; shift; "$wrk" "$@"; s=$?; read -r line < /proc/$$/stat; echo "STAT $line"; exit $s', 'sh', wrk, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${err.trim() || out.trim()}`))))
  })
  const elapsed = (performance.now() - started) / 1000
  const serverSeconds = (await processSeconds(serverPid)) - serverBefore
  const summary = /^WRK (\{.*\})$/m.exec(output)?.[1]
  const stat = /^STAT (.*)$/m.exec(output)?.[1]
  if (summary === undefined || stat === undefined) throw new Error(`wrk printed no summary: ${output.trim()}`)
  const s = JSON.parse(summary) as { requests: number; micros: number; status: number; errors: number; p50: number; p99: number }
  const measured = s.micros / 1e6
  return {
    requests: s.requests,
    seconds: measured,
    rps: measured > 0 ? s.requests / measured : 0,
    p50Ms: s.p50 / 1000,
    p99Ms: s.p99 / 1000,
    non2xx: s.status,
    errors: s.errors,
    wrkCpu: statSeconds(stat, true) / elapsed,
    serverCpu: serverSeconds / elapsed,
  }
}
