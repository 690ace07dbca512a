// `npm run bench`: load the fake's endpoints with autocannon and report req/s and
// latency as ratios to a bare Fastify server measured in the same run, plus how long
// the boards take to build, on Node 24, 22 and 20 in one run (bench/nodes.ts); judge the
// throughput goal on rounds loaded with wrk, a C load generator that is not the limit
// (bench/throughput.ts; autocannon's same-bytes rows when wrk is not on PATH); and
// print each figure issue 30 sets a goal for beside its goal, met or missed by how much
// (bench/goals.ts). Servers run in child processes (bench/server.ts) on the Node being
// measured, the load generator here, so on a two-core machine each has a core. Reports;
// never fails on slowness. See bench/README.md.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { runLoad, warm, type LoadSettings, type Target } from './load.js'
import {
  againstCeiling,
  latencyRatios,
  renderBuilds,
  renderRatios,
  renderTable,
  renderVerdictCost,
  summarise,
  verdictCosts,
  type Build,
  type LatencyPair,
  type LatencyRatio,
  type RoundResult,
  type Row,
  type VerdictCost,
} from './report.js'
import type { ServerSpec } from './server.js'
import { type Server, startServer } from './servers.js'
import { measureRecord, renderRecord, type RecordFigures } from './record.js'
import { measureContract, renderContract, type ContractFigures } from './contract.js'
import { IN_PROCESS_COST_SETTINGS, type InProcessCost, measureVerdictCostInProcess, renderInProcessCost } from './verdict-cost.js'
import { measureVerdictScale, renderVerdictScale, type VerdictScaleFigures } from './verdict.js'
import { measureUi, renderUi, type UiFigures } from './ui.js'
import { describeCompared, describeStop } from './start-as-user.js'
import { buildExecutable, buildPackage, measureBuild, measureStartup, removeSnapshot, snapshotPackage, type BuildFigures, type StartupFigures } from './startup.js'
import { ceilingTarget, depthTargets, fetchEach, limitedTargets, openTargets, readBoard, readDepth, SAME_BYTES_ROWS, sameBytes } from './targets.js'
import { ACCOUNTS, type AccountsFigures, accountPairs, measureAccounts } from './accounts.js'
import { type BoardsFigures, boardsTable, LARGE_WORKERS, measureBoards } from './boards.js'
import { DEFAULT_MAJORS, findNodes, type FoundNode, isFound, type NodeBinary, parseMajors, pathsFromEnv } from './nodes.js'
import { type GoalTable, judgeRow, misses, renderGoalTable } from './goals.js'
import { accountsTable, type NodeColumn, startupTable, throughputTable, verdictTable } from './goal-tables.js'
import { measureWithWrk, renderWrkTable, WRK_ROWS, type WrkRow, type WrkSettings } from './throughput.js'
import { findWrk } from './wrk.js'
import { measureProxy, type ProxyFigures, proxyTable } from './proxy.js'
import { rewriteTable } from './table-page.js'

const HELP = `Usage: npm run bench -- [options]

  --rounds N          rounds of every endpoint; medians are reported (default 3)
  --duration S        seconds of measured load per endpoint and round (default 2)
  --warmup S          seconds of unmeasured load before each (default 0.5)
  --connections N     concurrent connections (default 10)
  --max-requests N    requests at the most per measured run (default 200000)
  --nodes LIST        the Node majors to measure on, first the one every row runs on (default 24,22,20)
  --node PATH         a Node binary to use for its major (repeatable; also JOBBOARD_KIT_BENCH_NODES=PATH:PATH);
                      a major not given is found as .ci/run finds it, and installed from npm when missing
  --no-install        do not install a missing Node from npm: report it missing
  --every-row         load every row on every Node (default: all rows on the first, the same-bytes rows on the others)
  --large             also build the large scenario and page deep in it (adds ~1 min)
  --xl                also build the xl scenario in a fresh process: build time and peak RSS
  --no-verdict        do not load the first Node's rows on twin boards with the verdict off (saves ~3 min; no verdict cost)
  --verdict           also measure the verdict's cost in process (adds ~1 min)
  --json FILE         also write the results as JSON (bench/results/latest.json is always written)
  --startup-runs N    fresh processes per start-up measure; 0 skips them (default 5)
  --readme            rewrite the performance table of docs/performance.md with this run's figures
  --throughput-only   only the wrk rounds (the throughput goals), on each Node; nothing is written
  --accounts-only     only the accounts and shared-board measures (issue 36), on each Node; nothing is written
  --proxy-only        only the proxy's side-by-side wrk rounds (issue 35), on each Node; nothing is written
  --from-source       with --accounts-only: run the sources through tsx, not a build of them (a checkout that does not build)
  -h, --help          this text`

interface Settings extends LoadSettings {
  rounds: number
  majors: number[]
  nodePaths: string[]
  install: boolean
  everyRow: boolean
  large: boolean
  xl: boolean
  /** Twin boards with the verdict off beside the first Node's rows (default on; --no-verdict). */
  verdictTwins: boolean
  /** The in-process verdict cost too (--verdict). */
  verdict: boolean
  json: string | undefined
  startupRuns: number
  readme: boolean
  /** Only the wrk rounds (--throughput-only). */
  throughputOnly: boolean
  /** Only the accounts and shared-board measures (--accounts-only), from the sources through tsx with --from-source. */
  accountsOnly: boolean
  /** Only the proxy's side-by-side rounds (--proxy-only). */
  proxyOnly: boolean
  fromSource: boolean
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
      nodes: { type: 'string', default: DEFAULT_MAJORS.join(',') },
      node: { type: 'string', multiple: true, default: [] },
      'no-install': { type: 'boolean', default: false },
      'every-row': { type: 'boolean', default: false },
      large: { type: 'boolean', default: false },
      xl: { type: 'boolean', default: false },
      verdict: { type: 'boolean', default: false },
      'no-verdict': { type: 'boolean', default: false },
      json: { type: 'string' },
      'startup-runs': { type: 'string', default: '5' },
      readme: { type: 'boolean', default: false },
      'throughput-only': { type: 'boolean', default: false },
      'accounts-only': { type: 'boolean', default: false },
      'proxy-only': { type: 'boolean', default: false },
      'from-source': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) return undefined
  if (values.verdict && values['no-verdict']) throw new Error('--verdict and --no-verdict ask for opposite things; give one.')
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
    majors: parseMajors(values.nodes),
    nodePaths: [...values.node, ...pathsFromEnv(process.env.JOBBOARD_KIT_BENCH_NODES)],
    install: !values['no-install'],
    everyRow: values['every-row'],
    large: values.large,
    xl: values.xl,
    verdictTwins: !values['no-verdict'],
    verdict: values.verdict,
    json: values.json,
    startupRuns: number('startup-runs', values['startup-runs'], { min: 0, max: 50 }),
    readme: values.readme,
    throughputOnly: values['throughput-only'],
    accountsOnly: values['accounts-only'],
    proxyOnly: values['proxy-only'],
    fromSource: values['from-source'],
  }
}

const RESULTS = new URL('./results/', import.meta.url)

/** What the start-up goals leave out: the executable and the container image, in a line each. */
function renderStartupExtras(s: StartupFigures): string {
  return [`  single executable: ${exeLine(s)}`, `  container image: ${'missing' in s.image ? s.image.missing : `${mib(s.image.bytes)} (${s.image.builder})`}`].join('\n')
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`

/** The executable's size and start-up as a ratio to the npm CLI's on the Node it is made of (the issue's goal: within 1.3×). */
const exeLine = (s: StartupFigures) =>
  'missing' in s.exe
    ? s.exe.missing
    : `${mib(s.exe.bytes)}; serve, spawn to first 200: ${s.exe.ms.toFixed(0)} ms ÷ the npm CLI's on Node ${s.exe.beside} ${s.exe.cliMs.toFixed(0)} ms = ${(s.exe.ms / s.exe.cliMs).toFixed(2)}`

/** The scenarios whose build the flags ask for, those that exist, and why the others are left out. */
function buildScenarios(settings: Settings): { scenarios: string[]; skipped: Array<{ scenario: string; reason: string }> } {
  const asked = [...(settings.large ? ['large'] : []), ...(settings.xl ? ['xl'] : [])]
  const exists = (name: string) => existsSync(new URL(`../scenarios/${name}.json`, import.meta.url))
  return {
    scenarios: asked.filter(exists),
    skipped: asked.filter((name) => !exists(name)).map((scenario) => ({ scenario, reason: `scenarios/${scenario}.json does not exist yet` })),
  }
}

/** docs/performance.md's table: the issue's measures from one run, with the machine it ran on. */
function performanceTable(
  rows: Row[],
  ratios: LatencyRatio[],
  startup: StartupFigures | undefined,
  boards: BuildFigures[],
  skipped: Array<{ scenario: string; reason: string }>,
  settings: Settings,
  node: NodeBinary,
  wrkRows: WrkRow[] | undefined,
): string {
  const pct = (n: number) => `${(n * 100).toFixed(0)}%`
  const lines = [
    `Measured by \`npm run bench -- --readme\` on ${availableParallelism()} CPUs (shared), Node ${node.version}, ` +
      `${settings.rounds} rounds × ${settings.duration} s. Throughput is a share of a bare Fastify route sending the same bytes in the same round; compare ratios, not req/s.`,
    '',
    '| measure | figure |',
    '|---|---|',
  ]
  // the throughput goal's rows: wrk's when it ran (bench/README.md, Throughput), else autocannon's same-bytes rows
  for (const row of wrkRows ?? []) {
    lines.push(
      `| ${row.name}: throughput ÷ bare Fastify (same bytes, status, headers, Basic check; wrk), rounds from … to; server CPU per answer, bare ÷ fake | ` +
        `${row.rpsRatio.toFixed(2)}× (${row.ratioMin.toFixed(2)} … ${row.ratioMax.toFixed(2)}); ${row.bareCpuPerAnswer.toFixed(0)} µs ÷ ${row.cpuPerAnswer.toFixed(0)} µs = ${row.cpuRatio.toFixed(2)}× |`,
    )
  }
  for (const name of wrkRows === undefined ? SAME_BYTES_ROWS : []) {
    const row = rows.find((r) => r.name === name)
    if (row) {
      lines.push(
        `| ${name}: throughput ÷ bare Fastify (same bytes); server CPU per answer ÷ its; p99 | ` +
          `${pct(row.rpsRatio)}; ${row.cpuPerAnswer.toFixed(0)} µs ÷ ${(row.cpuPerAnswer / row.cpuRatio).toFixed(0)} µs = ${row.cpuRatio.toFixed(2)}; ${row.p99.toFixed(1)} ms (×${row.p99Ratio.toFixed(1)}) |`,
      )
    }
  }
  const own = startup?.nodes[node.version]
  if (startup && own) {
    for (const { stop, figures } of own.serve) lines.push(`| \`serve\` spawn to first 200 ÷ bare Fastify, each run ${describeStop(stop)} | ${describeCompared(figures)} |`)
    lines.push(`| \`import 'jobboard-kit'\` ÷ \`import 'fastify'\` | ${describeCompared(own.import)} |`)
    lines.push(`| in-process: createMockServer + first answer / a second answer / a later fake + first answer | ${own.createFirstMs.toFixed(0)} ms / ${own.secondMs.toFixed(1)} ms / ${own.laterMs.toFixed(1)} ms |`)
    lines.push(`| single executable: size; spawn to first 200 ÷ the npm CLI's | ${exeLine(startup)} |`)
    lines.push(`| container image size | ${'missing' in startup.image ? startup.image.missing : mib(startup.image.bytes)} |`)
  }
  for (const row of rows.filter((r) => r.name.startsWith('rate-limited'))) {
    lines.push(`| ${row.name}: throughput ÷ bare Fastify ({"hello":"world"}); server CPU per answer; p99 | ${pct(row.rpsRatio)}; ${row.cpuPerAnswer.toFixed(0)} µs; ${row.p99.toFixed(1)} ms (×${row.p99Ratio.toFixed(1)}) |`)
  }
  for (const r of ratios) lines.push(`| ${r.name}: latency ratio p50 / p99 (answers made, not kept; goal ≤ 1.3) | ×${r.p50Ratio.toFixed(2)} / ×${r.p99Ratio.toFixed(2)} |`)
  for (const b of boards) lines.push(`| \`${b.scenario}\`: CLI spawn to first answer; createMockServer to first answer; peak RSS | ${(b.spawnMs / 1000).toFixed(1)} s; ${(b.firstAnswerMs / 1000).toFixed(1)} s; ${(b.peakRss / 1048576).toFixed(0)} MiB |`)
  for (const s of skipped) lines.push(`| \`${s.scenario}\`: createMockServer to first answer, peak RSS | not measured: ${s.reason} |`)
  return lines.join('\n')
}

function progress(text: string): void {
  process.stderr.write(`${text}\n`)
}

const VERDICT_OFF = ' (verdict off)'
/** Seconds of unmeasured load on each row and its twin before the first round (--verdict). */
const VERDICT_SETTLE_SECONDS = 3

/**
 * A target and the server it loads; the ceiling that sends the same bytes, if measured;
 * and, with --verdict, the same target on a board with the verdict off.
 */
interface Load {
  target: Target
  server: Server
  own?: Load | undefined
  off?: Load | undefined
}

/**
 * Every round measures the ceiling, then each target once, so each target's ratio is
 * taken against a ceiling measured moments before it on the same machine state. A
 * target with a verdict-off twin is measured beside it in the same round, against the
 * same ceiling sample, the two in turns (on first in odd rounds, off first in even ones)
 * so that neither always meets the machine warmer or busier. Answers the rows, and each
 * pair of rows (verdict on, verdict off) as measured.
 */
async function measure(label: string, ceiling: Load, loads: Load[], settings: Settings): Promise<{ rows: Row[]; twins: Array<[Row, Row]> }> {
  // each row below the bare route that sent its bytes, when there is one, and above its twin
  const order = [ceiling.target, ...loads.flatMap(({ target, own, off }) => [...(own ? [own.target] : []), target, ...(off ? [off.target] : [])])]
  const results = new Map<Target, RoundResult[]>(order.map((target) => [target, []]))
  // A row and its twin are compared round by round; a server's code takes some seconds of
  // a route's load to settle (the first rounds of a row ran up to 15 % slower on one board
  // of two identical ones), so before the first round each of them is loaded, unmeasured.
  for (const { target, server, off } of loads) {
    if (off === undefined) continue
    for (const turn of [{ target, server }, off]) {
      progress(`${label} settling: ${turn.target.name}`)
      await warm(turn.target, settings, VERDICT_SETTLE_SECONDS)
    }
  }
  for (let round = 1; round <= settings.rounds; round++) {
    const run = async ({ target, server }: Load) => {
      const sample = await runLoad(target, settings, server.cpu)
      progress(`${label} round ${round}/${settings.rounds}: ${target.name} ${sample.rps.toFixed(0)} req/s`)
      return sample
    }
    const top = await run(ceiling)
    results.get(ceiling.target)?.push(againstCeiling(top, top))
    for (const load of loads) {
      const { own, off } = load
      // the same bytes from a bare route, just before: the row's ratio is taken against it
      const same = own === undefined ? top : await run(own)
      if (own !== undefined) results.get(own.target)?.push(againstCeiling(same, top))
      const turns = off === undefined ? [load] : round % 2 === 1 ? [load, off] : [off, load]
      for (const turn of turns) results.get(turn.target)?.push(againstCeiling(await run(turn), same))
    }
  }
  const rows = new Map([...results].map(([target, rounds]) => [target, summarise(target.name, target.expect, rounds)]))
  const twins = loads.flatMap(({ target, off }): Array<[Row, Row]> => {
    const on = rows.get(target)
    const offRow = off === undefined ? undefined : rows.get(off.target)
    return on && offRow ? [[on, offRow]] : []
  })
  return { rows: [...rows.values()], twins }
}

/** Starts servers on a Node, one at a time, and keeps them for the caller to close. */
function starter(node: NodeBinary): { started: (name: string, spec: ServerSpec, timeoutMs?: number) => Promise<Server>; servers: Server[] } {
  const servers: Server[] = []
  const started = async (name: string, spec: ServerSpec, timeoutMs = 60_000) => {
    const server = await startServer(`${name}, Node ${node.version}`, spec, timeoutMs, node.path)
    servers.push(server)
    return server
  }
  return { started, servers }
}

/** The wrk rounds' settings: the same rounds, in whole seconds (wrk's unit). */
const wrkSettings = (settings: Settings): WrkSettings => ({
  rounds: settings.rounds,
  duration: Math.max(1, Math.round(settings.duration)),
  warmup: settings.warmup > 0 ? Math.max(1, Math.round(settings.warmup)) : 0,
})

/** The wrk rounds on one Node (bench/throughput.ts), its servers stopped after. */
async function wrkOn(wrk: string, node: NodeBinary, settings: Settings): Promise<WrkRow[]> {
  const { started, servers } = starter(node)
  try {
    return await measureWithWrk(wrk, node, wrkSettings(settings), started, progress)
  } finally {
    await Promise.all(servers.map((s) => s.close()))
  }
}

/** One Node's throughput rounds: its server builds, rows, latency pairs and, where measured, the verdict's cost. */
interface NodeRun {
  builds: Build[]
  rows: Row[]
  pairs: LatencyPair[]
  costs?: VerdictCost[] | undefined
}

/**
 * The throughput rounds on one Node: the ceiling and the default boards started on it,
 * then measured. `full`: every row (else the rows with a same-bytes twin alone); `twin`:
 * each row beside the same row on a board with the verdict off; `large`: then the large
 * board's rows, after the default boards are stopped.
 */
async function measureOn(node: NodeBinary, settings: Settings, { full, twin, large }: { full: boolean; twin: boolean; large: boolean }): Promise<NodeRun> {
  const { started, servers } = starter(node)
  try {
    // One at a time: a board builds on one core, and two at once would time each other.
    const ceilingServer = await started('ceiling app', { kind: 'ceiling' })
    // with twin each process also holds the board's twin with the verdict off
    const open = await started(`default board (rate limit off)${twin ? ', and its twin' : ''}`, { kind: 'fake', scenario: 'default', rateLimitWindow: 0, twin })
    const limited = full ? await started(`default board (window 900)${twin ? ', and its twin' : ''}`, { kind: 'fake', scenario: 'default', rateLimitWindow: 900, twin }) : undefined
    const facts = await readBoard(open.url)
    const ceiling: Load = { target: ceilingTarget(ceilingServer.url), server: ceilingServer }
    const openLoads: Load[] = []
    for (const target of openTargets(open.url, facts)) {
      const same = SAME_BYTES_ROWS.includes(target.name)
      if (!full && !same) continue
      const own = same ? await sameBytes(ceilingServer.url, target) : undefined
      openLoads.push({ target, server: open, own: own === undefined ? undefined : { target: own, server: ceilingServer } })
    }
    const depth = full ? depthTargets(open.url, await readDepth(open.url)) : { targets: [], pairs: [] }
    const pairs: LatencyPair[] = [...depth.pairs]
    const loads: Load[] = [
      ...openLoads,
      ...depth.targets.map((target): Load => ({ target, server: open })),
      ...(limited ? limitedTargets(limited.url, facts, settings.connections).map((target): Load => ({ target, server: limited })) : []),
    ]
    if (twin) {
      // the same endpoints on the twin boards, which judge nothing: each row's twin, measured beside it (measure)
      const twinOf = (server: Server): Server => {
        if (server.offUrl === undefined) throw new Error(`${server.build.name} started without its twin.`)
        return { ...server, url: server.offUrl }
      }
      const openOff = twinOf(open)
      const off = (target: Target, server: Server): [string, Load] => [target.name, { target: { ...target, name: `${target.name}${VERDICT_OFF}` }, server }]
      const twins = new Map<string, Load>([
        ...openTargets(openOff.url, facts).map((t) => off(t, openOff)),
        ...(full ? depthTargets(openOff.url, await readDepth(openOff.url)).targets.map((t) => off(t, openOff)) : []),
      ])
      if (limited) {
        const limitedOff = twinOf(limited)
        for (const [name, load] of limitedTargets(limitedOff.url, facts, settings.connections).map((t) => off(t, limitedOff))) twins.set(name, load)
      }
      for (const load of loads) {
        load.off = twins.get(load.target.name)
        // the on board met these requests once when its bytes were copied (sameBytes): the twin meets them too
        if (load.off && load.own) await fetchEach(load.off.target)
      }
    }
    const label = `Node ${node.major}`
    const { rows, twins } = await measure(label, ceiling, loads, settings)
    const costs = twin ? verdictCosts(twins) : undefined

    let largeRows: Row[] = []
    if (large) {
      // Free the default boards' memory before the large one is built beside the ceiling.
      await Promise.all([open.close(), limited?.close()])
      progress(`${label}: building the large board…`)
      const largeServer = await started('large board (rate limit off)', { kind: 'fake', scenario: 'large', rateLimitWindow: 0 }, 300_000)
      const largeDepth = depthTargets(largeServer.url, await readDepth(largeServer.url), 'large: ')
      pairs.push(...largeDepth.pairs)
      const largeLoads = largeDepth.targets.map((target): Load => ({ target, server: largeServer }))
      // Its own row: the large rows' ratios are taken against this ceiling, not the first.
      const again: Load = { target: { ...ceiling.target, name: 'ceiling, in the large rounds' }, server: ceilingServer }
      largeRows = (await measure(`${label} large`, again, largeLoads, settings)).rows
    }
    return { builds: servers.map((s) => s.build), rows: [...rows, ...largeRows], pairs, costs }
  } finally {
    await Promise.all(servers.map((s) => s.close()))
  }
}

/** --accounts-only: the accounts and shared-board measures on each Node (the built package, or the sources with --from-source), their goal tables, nothing written. */
async function accountsOnly(settings: Settings, nodes: NodeBinary[], columns: NodeColumn[]): Promise<void> {
  const runs = Math.max(1, settings.startupRuns)
  const measureAll = async (pkg: string | undefined) => {
    progress(`accounts: ${ACCOUNTS} accounts asked once against one asked ${ACCOUNTS} times, ${accountPairs(runs)} pairs of fresh processes after one not counted…`)
    const accounts = await measureAccounts(runs, nodes, pkg, settings.fromSource)
    progress(`shared boards: ${LARGE_WORKERS} workers on large, resets, a later fake, ${runs} fresh processes each…`)
    return { accounts, shared: await measureBoards(runs, nodes, pkg, settings.fromSource) }
  }
  let figures: Awaited<ReturnType<typeof measureAll>>
  if (settings.fromSource) figures = await measureAll(undefined)
  else {
    progress('building dist/ for the measures…')
    await buildPackage()
    const pkg = await snapshotPackage()
    try {
      figures = await measureAll(pkg)
    } finally {
      await removeSnapshot(pkg)
    }
  }
  const tables = [accountsTable(columns, figures.accounts, accountPairs(runs), ACCOUNTS), boardsTable(columns, figures.shared, runs)]
  const missed = misses(tables)
  const from = settings.fromSource ? 'the sources through tsx (--from-source), not the built package' : 'the built package'
  console.log(
    [`=== accounts and shared boards (issue 36), on ${from}`, '', ...tables.flatMap((table) => [renderGoalTable(table), '']), missed.length === 0 ? 'every goal measured was met.' : `missed (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}`].join('\n'),
  )
}

async function main(): Promise<void> {
  const settings = parseSettings(process.argv.slice(2))
  if (settings === undefined) {
    console.log(HELP)
    return
  }
  const began = performance.now()
  const found: FoundNode[] = await findNodes(settings.majors, settings.nodePaths, progress, { installMissing: settings.install })
  const nodes = found.filter(isFound)
  const columns: NodeColumn[] = found.map((n) => (isFound(n) ? { label: `Node ${n.major}`, major: n.major, version: n.version } : { label: `Node ${n.major}`, major: n.major, missing: n.missing }))
  for (const n of found) progress(isFound(n) ? `Node ${n.major}: ${n.version} (${n.source}: ${n.path})` : `Node ${n.major}: MISSING, ${n.missing}; the bench goes on without it`)
  const primary = nodes[0]
  if (primary === undefined) throw new Error(`none of the Nodes asked for (${settings.majors.join(', ')}) could be found or installed: ${found.map((n) => ('missing' in n ? n.missing : '')).join('; ')}`)
  if (settings.accountsOnly) {
    await accountsOnly(settings, nodes, columns)
    return
  }

  // the throughput goal's rounds, with wrk when it is on PATH (bench/README.md, Throughput)
  const wrk = findWrk()
  progress('path' in wrk ? `throughput goal: wrk (${wrk.path})` : `throughput goal: NO wrk rounds, ${wrk.missing}; the goal table falls back on autocannon's same-bytes rows, where autocannon may be the limit`)
  const wrkRows = new Map<NodeBinary, WrkRow[]>()
  // the proxy beside a bare pass-through (issue 35): wrk's rounds on each Node, as many as the throughput rounds
  const proxyFigures: Record<string, ProxyFigures> = {}
  const proxyRounds = Math.max(3, settings.rounds)
  if ('path' in wrk && !settings.throughputOnly) {
    for (const node of nodes) {
      progress(`Node ${node.version}: the proxy beside a bare pass-through, ${proxyRounds} side-by-side wrk rounds…`)
      proxyFigures[node.version] = await measureProxy(node.path, wrk.path, proxyRounds, Math.max(2, Math.round(settings.duration)), progress)
    }
  }
  const proxy = () => proxyTable(columns, 'path' in wrk ? proxyFigures : undefined, proxyRounds, 'path' in wrk ? undefined : wrk.missing)
  if (settings.proxyOnly) {
    const table = proxy()
    const missed = misses([table])
    console.log([renderGoalTable(table), '', missed.length === 0 ? 'every goal measured was met.' : `missed (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}`].join('\n'))
    return
  }
  // the rounds, a Node at a time: with wrk, its rounds on each; every autocannon row on the first, the goal rows on the others
  const runs = new Map<NodeBinary, NodeRun>()
  for (const node of nodes) {
    const first = node === primary
    if ('path' in wrk) {
      progress(`Node ${node.version}: the wrk rounds…`)
      wrkRows.set(node, await wrkOn(wrk.path, node, settings))
    }
    // with wrk the goal rows are its own: autocannon loads the other Nodes only with --every-row
    if (settings.throughputOnly || (!first && !settings.everyRow && 'path' in wrk)) continue
    progress(`Node ${node.version}: ${first || settings.everyRow ? 'every row' : 'the same-bytes rows'}${first && settings.verdictTwins ? ', each beside its twin with the verdict off' : ''}…`)
    runs.set(node, await measureOn(node, settings, { full: first || settings.everyRow, twin: first && settings.verdictTwins, large: first && settings.large }))
  }
  const own = runs.get(primary) ?? { builds: [], rows: [], pairs: [] }
  // the throughput goal: wrk's rows when it ran, else autocannon's same-bytes rows
  const throughput = () =>
    'path' in wrk
      ? throughputTable(columns, Object.fromEntries([...wrkRows].map(([node, rows]) => [node.version, rows])), WRK_ROWS, 'loaded with wrk, the same status, headers and Basic check')
      : throughputTable(columns, Object.fromEntries([...runs].map(([node, run]) => [node.version, run.rows])), SAME_BYTES_ROWS, `loaded with autocannon: ${wrk.missing}`)
  const wrkTables = [...wrkRows].flatMap(([node, rows]) => [`--- Node ${node.version}`, renderWrkTable(rows, wrkSettings(settings)), ''])
  if (settings.throughputOnly) {
    const table = throughput()
    const missed = misses([table])
    console.log([...wrkTables, renderGoalTable(table), '', missed.length === 0 ? 'every goal measured was met.' : `missed (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}`].join('\n'))
    return
  }

  let startup: StartupFigures | undefined
  let accounts: Record<string, AccountsFigures> | undefined
  let sharedBoards: Record<string, BoardsFigures> | undefined
  const boards: BuildFigures[] = []
  const builds = buildScenarios(settings)
  for (const { scenario, reason } of builds.skipped) progress(`--${scenario}: ${reason}; its build is not measured.`)
  if (settings.startupRuns > 0 || builds.scenarios.length > 0) {
    // the stand-alone measures run the built package, as users do: build this commit first,
    // then measure a copy of it (others may rebuild dist/ in this checkout meanwhile)
    progress('building dist/ for the start-up measures…')
    await buildPackage()
    let exeMissing: string | undefined
    if (settings.startupRuns > 0) {
      progress('building the single executable (dist/exe/jobboard-kit) from it…')
      exeMissing = await buildExecutable()
    }
    const pkg = await snapshotPackage()
    try {
      if (settings.startupRuns > 0) {
        progress(`start-up: ${settings.startupRuns} fresh processes each, on ${nodes.map((n) => n.version).join(', ')}…`)
        startup = await measureStartup(settings.startupRuns, nodes, exeMissing, pkg)
        progress(`accounts: ${ACCOUNTS} accounts asked once against one asked ${ACCOUNTS} times, ${accountPairs(settings.startupRuns)} pairs of fresh processes after one not counted…`)
        accounts = await measureAccounts(settings.startupRuns, nodes, pkg)
        progress(`shared boards: ${LARGE_WORKERS} workers on large, resets, a later fake, ${settings.startupRuns} fresh processes each…`)
        sharedBoards = await measureBoards(settings.startupRuns, nodes, pkg)
      }
      for (const scenario of builds.scenarios) {
        progress(`${scenario} board: build to first answer and peak RSS, in a fresh process on ${primary.version}…`)
        boards.push(await measureBuild(scenario, primary.path, pkg))
      }
    } finally {
      await removeSnapshot(pkg)
    }
  }

  progress('record: the default board, requests per record…')
  const recordings: RecordFigures[] = [await measureRecord('default')]
  progress('contract: the requests of a read run and a --writes run against the default fake…')
  const contractRuns: ContractFigures[] = await measureContract()
  progress('verdict: a journal of 100,000 entries, then the verdict…')
  const verdictScale: VerdictScaleFigures = await measureVerdictScale()
  progress("/__mock/ui: a journal of 100,000 entries, the fake's heap, the page in chromium…")
  const ui: UiFigures = await measureUi()
  let inProcessCosts: InProcessCost[] = []
  if (settings.verdict) {
    progress('verdict: its cost in process, every endpoint on and off in turns (about a minute)…')
    inProcessCosts = await measureVerdictCostInProcess()
  }

  const primaryColumn = columns.find((c) => c.version === primary.version)
  const tables: GoalTable[] = [
    startupTable(columns, startup),
    accountsTable(columns, accounts, accountPairs(settings.startupRuns), ACCOUNTS),
    boardsTable(columns, sharedBoards, settings.startupRuns),
    throughput(),
    proxy(),
    verdictTable(columns, own.costs, own.costs ? primaryColumn : undefined),
  ]
  const missed = misses(tables)
  const ratios = latencyRatios(own.rows, own.pairs)
  const minutes = (performance.now() - began) / 60_000
  const others = nodes.filter((n) => n !== primary)
  console.log(
    [
      '',
      `jobboard-kit bench: ${availableParallelism()} CPUs; ${settings.rounds} rounds × ${settings.duration} s (+${settings.warmup} s warm-up), ${settings.connections} connections; medians over the rounds; ${minutes.toFixed(1)} min`,
      `Nodes: ${found.map((n) => (isFound(n) ? `${n.version} (${n.source})` : `Node ${n.major} MISSING (${n.missing})`)).join('; ')}`,
      '',
      ...[...runs].flatMap(([node, run]) => [
        `--- Node ${node.version}: ${node === primary || settings.everyRow ? 'every row' : 'the rows with a same-bytes twin (--every-row for all)'}`,
        renderBuilds(run.builds),
        '',
        renderTable(run.rows),
        '',
      ]),
      ...wrkTables,
      ...(ratios.length > 0 ? [`on Node ${primary.version}:`, renderRatios(ratios), ''] : []),
      ...(own.costs ? [renderVerdictCost(own.costs), ''] : []),
      ...(settings.verdict ? [`in the bench's own process (Node ${process.version}):`, renderInProcessCost(inProcessCosts, IN_PROCESS_COST_SETTINGS), ''] : []),
      ...(startup ? [renderStartupExtras(startup), ''] : []),
      ...boards.map((b) => `${b.scenario} board (Node ${primary.version}), CLI spawn to first answer: ${b.spawnMs.toFixed(0)} ms; createMockServer to first answer: ${b.firstAnswerMs.toFixed(0)} ms; peak RSS ${(b.peakRss / 1048576).toFixed(0)} MiB`),
      ...builds.skipped.map((s) => `${s.scenario} board: not measured (${s.reason})`),
      `in the bench's own process (Node ${process.version}), on one Node only:`,
      ...recordings.map(renderRecord),
      ...contractRuns.map(renderContract),
      renderVerdictScale(verdictScale),
      renderUi(ui),
      'of ceiling: req/s as a share of the bare Fastify route in the same round (higher is better).',
      "× ceiling: latency as a multiple of that route's (lower is better). See bench/README.md.",
      '',
      `=== goals (issue 30), each Node a column${others.length === 0 ? '' : `; ${primary.version} ran every row, ${others.map((n) => n.version).join(' and ')} the goal rows`}`,
      '',
      ...tables.flatMap((table) => [renderGoalTable(table), '']),
      missed.length === 0 ? 'every goal measured was met.' : `missed (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}`,
    ].join('\n'),
  )
  const { rounds, duration, warmup, connections, maxRequests, large, xl, everyRow } = settings
  const report = {
    date: new Date().toISOString(),
    cpus: availableParallelism(),
    minutes,
    /** The Node running the load generator and the in-process measures (record, contract, verdict scale, UI). */
    benchNode: process.version,
    nodes: found,
    settings: { rounds, duration, warmup, connections, maxRequests, large, xl, everyRow, verdict: settings.verdictTwins, verdictInProcess: settings.verdict },
    goals: tables.map((table) => ({ title: table.title, notes: table.notes ?? [], rows: table.rows.map(judgeRow) })),
    missed,
    /** By Node version: its servers' builds, its rows, and (the first Node) its latency ratios and the verdict's cost. */
    perNode: Object.fromEntries(
      [...runs].map(([node, run]) => [
        node.version,
        { builds: run.builds, rows: run.rows, wrk: wrkRows.get(node), ...(node === primary ? { latencyRatios: ratios, ...(run.costs ? { verdictCosts: run.costs } : {}) } : {}) },
      ]),
    ),
    /** The throughput goal's load generator: wrk's path, or why it was not used. */
    wrk,
    /** Nodes measured with wrk but not with autocannon: their wrk rows. */
    wrkOnly: Object.fromEntries([...wrkRows].filter(([node]) => !runs.has(node)).map(([node, rows]) => [node.version, rows])),
    /** By Node version: the proxy's side-by-side rounds with the bare pass-through (issue 35). */
    proxy: proxyFigures,
    startup,
    accounts,
    sharedBoards,
    boards,
    skippedBoards: builds.skipped,
    ...(settings.verdict ? { verdictCostsInProcess: inProcessCosts } : {}),
    record: recordings,
    contract: contractRuns,
    verdictScale,
    ui,
  }
  const text = `${JSON.stringify(report, null, 2)}\n`
  await mkdir(RESULTS, { recursive: true })
  await writeFile(new URL('latest.json', RESULTS), text)
  progress('wrote bench/results/latest.json')
  if (settings.json !== undefined) {
    await writeFile(settings.json, text)
    progress(`wrote ${settings.json}`)
  }
  if (settings.readme) {
    await rewriteTable(performanceTable(own.rows, ratios, startup, boards, builds.skipped, settings, primary, wrkRows.get(primary)))
    progress('rewrote the performance table in docs/performance.md')
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
