// `npm run bench`: load the fake's endpoints with autocannon and report req/s and
// latency as ratios to a bare Fastify server measured in the same run, plus how long
// the boards take to build. Servers run in child processes (bench/server.ts), the load
// generator here, so on a two-core machine each has a core. Reports; never fails on
// slowness. See bench/README.md.
import { fork, type ChildProcess } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { runLoad, type LoadSettings, type Target } from './load.js'
import { againstCeiling, renderBuilds, renderTable, summarise, type Build, type RoundResult, type Row } from './report.js'
import type { ServerCpu, ServerReady, ServerSpec } from './server.js'
import { applicationPages, ceilingTarget, largeTargets, limitedTargets, openTargets, readBoard } from './targets.js'

const HELP = `Usage: npm run bench -- [options]

  --rounds N          rounds of every endpoint; medians are reported (default 3)
  --duration S        seconds of measured load per endpoint and round (default 2)
  --warmup S          seconds of unmeasured load before each (default 0.5)
  --connections N     concurrent connections (default 10)
  --max-requests N    requests at the most per measured run (default 200000)
  --large             also build the large scenario and page deep in it (adds ~1 min)
  --json FILE         also write the results as JSON
  -h, --help          this text`

interface Settings extends LoadSettings {
  rounds: number
  large: boolean
  json: string | undefined
}

function parseSettings(argv: string[]): Settings | undefined {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '0.5' },
      connections: { type: 'string', default: '10' },
      'max-requests': { type: 'string', default: '200000' },
      large: { type: 'boolean', default: false },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) return undefined
  const number = (flag: string, text: string, { integer = true, min = 1, max = 3600 } = {}) => {
    const n = Number(text)
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
      throw new Error(`--${flag} takes ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not ${JSON.stringify(text)}.`)
    }
    return n
  }
  return {
    rounds: number('rounds', values.rounds, { max: 20 }),
    duration: number('duration', values.duration, { integer: false, min: 0.1, max: 60 }),
    warmup: number('warmup', values.warmup, { integer: false, min: 0, max: 10 }),
    connections: number('connections', values.connections, { max: 1000 }),
    maxRequests: number('max-requests', values['max-requests'], { max: 10_000_000 }),
    large: values.large,
    json: values.json,
  }
}

interface Server {
  url: string
  build: Build
  /** CPU time the server process has used, in microseconds. */
  cpu(): Promise<number>
  close(): Promise<void>
}

const SERVER_FILE = fileURLToPath(new URL('./server.ts', import.meta.url))

/** Starts bench/server.ts in a child process and waits, at most timeoutMs, until it listens. */
function startServer(name: string, spec: ServerSpec, timeoutMs: number): Promise<Server> {
  // fork keeps this process's execArgv, so the child loads TypeScript through tsx too.
  const child: ChildProcess = fork(SERVER_FILE, [JSON.stringify(spec)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    if (child.connected) child.send('close')
    const late = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(late)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name} did not listen within ${timeoutMs / 1000} s.`))
    }, timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${signal ?? code}) before it listened.`))
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    // The child answers one message at a time, so each 'cpu' reply belongs to the oldest asker.
    const cpuWaiting: Array<(micros: number) => void> = []
    const cpu = () =>
      new Promise<number>((answer) => {
        cpuWaiting.push(answer)
        child.send('cpu')
      })
    child.on('message', (message: ServerReady | ServerCpu) => {
      if (message.type === 'cpu') {
        cpuWaiting.shift()?.(message.micros)
        return
      }
      clearTimeout(timer)
      resolve({ url: message.url, build: { name, ms: message.buildMs, rssBytes: message.rss }, cpu, close })
    })
  })
}

function progress(text: string): void {
  process.stderr.write(`${text}\n`)
}

/** A target and the server it loads. */
type Load = [Target, Server]

/**
 * Every round measures the ceiling, then each target once, so each target's ratio is
 * taken against a ceiling measured moments before it on the same machine state.
 */
async function measure(label: string, ceiling: Load, loads: Load[], settings: Settings): Promise<Row[]> {
  const results = new Map<Target, RoundResult[]>([ceiling, ...loads].map(([target]) => [target, []]))
  for (let round = 1; round <= settings.rounds; round++) {
    const run = async ([target, server]: Load) => {
      const sample = await runLoad(target, settings, server.cpu)
      progress(`${label} round ${round}/${settings.rounds}: ${target.name} ${sample.rps.toFixed(0)} req/s`)
      return sample
    }
    const top = await run(ceiling)
    results.get(ceiling[0])?.push(againstCeiling(top, top))
    for (const load of loads) results.get(load[0])?.push(againstCeiling(await run(load), top))
  }
  return [...results].map(([target, rounds]) => summarise(target.name, target.expect, rounds))
}

async function main(): Promise<void> {
  const settings = parseSettings(process.argv.slice(2))
  if (settings === undefined) {
    console.log(HELP)
    return
  }
  const servers: Server[] = []
  const started = async (name: string, spec: ServerSpec, timeoutMs = 60_000) => {
    const server = await startServer(name, spec, timeoutMs)
    servers.push(server)
    return server
  }
  try {
    // One at a time: a board builds on one core, and two at once would time each other.
    const ceilingServer = await started('ceiling app', { kind: 'ceiling' })
    const open = await started('default board (rate limit off)', { kind: 'fake', scenario: 'default', rateLimitWindow: 0 })
    const limited = await started('default board (window 900)', { kind: 'fake', scenario: 'default', rateLimitWindow: 900 })
    const facts = await readBoard(open.url)
    const ceiling: Load = [ceilingTarget(ceilingServer.url), ceilingServer]
    const loads: Load[] = [
      ...openTargets(open.url, facts).map((t): Load => [t, open]),
      ...limitedTargets(limited.url, facts, settings.connections).map((t): Load => [t, limited]),
    ]
    const rows = await measure('default', ceiling, loads, settings)

    let largeRows: Row[] = []
    if (settings.large) {
      // Free the default boards' memory before the large one is built beside the ceiling.
      await Promise.all([open.close(), limited.close()])
      progress('building the large board (about 30 s)…')
      const large = await started('large board (rate limit off)', { kind: 'fake', scenario: 'large', rateLimitWindow: 0 }, 300_000)
      const pages = await applicationPages(large.url)
      const loads = largeTargets(large.url, pages).map((t): Load => [t, large])
      // Its own row: the large rows' ratios are taken against this ceiling, not the first.
      const again: Load = [{ ...ceiling[0], name: 'ceiling, in the large rounds' }, ceilingServer]
      largeRows = await measure('large', again, loads, settings)
    }

    const builds = servers.map((s) => s.build)
    const allRows = [...rows, ...largeRows]
    console.log(
      [
        '',
        `jobboard-kit bench: node ${process.version}, ${availableParallelism()} CPUs; ${settings.rounds} rounds × ${settings.duration} s ` +
          `(+${settings.warmup} s warm-up), ${settings.connections} connections; medians over the rounds`,
        '',
        renderBuilds(builds),
        '',
        renderTable(allRows),
        '',
        'of ceiling: req/s as a share of the bare Fastify route in the same round (higher is better).',
        '× ceiling: latency as a multiple of that route\'s (lower is better). See bench/README.md.',
      ].join('\n'),
    )
    if (settings.json !== undefined) {
      const { rounds, duration, warmup, connections, maxRequests, large } = settings
      const report = {
        node: process.version,
        cpus: availableParallelism(),
        settings: { rounds, duration, warmup, connections, maxRequests, large },
        builds,
        rows: allRows,
      }
      await writeFile(settings.json, `${JSON.stringify(report, null, 2)}\n`)
      progress(`wrote ${settings.json}`)
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()))
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
