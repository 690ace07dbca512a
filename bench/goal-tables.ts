// Issue 30's goals and the tables that set each figure beside its goal, one per group
// (start-up, accounts, throughput, the verdict's cost), a column per Node asked for.
// Built from the figures the measures answer; nothing here measures or judges a run.
import type { AccountsFigures } from './accounts.js'
import { atLeast, atMost, type Cell, type Goal, type GoalRow, type GoalTable } from './goals.js'
import type { Row, VerdictCost } from './report.js'
import { type Compared, describeStop } from './start-as-user.js'
import type { StartupFigures } from './startup.js'

/** A Node asked for: its column, and its version when it was found (else why it is missing). */
export interface NodeColumn {
  label: string
  major: number
  version?: string | undefined
  missing?: string | undefined
}

/** The Nodes the throughput goal is set on (issue 37, item 2); the others are printed beside them. */
export const THROUGHPUT_GOAL_MAJORS: readonly number[] = [24, 22]

export const GOALS = {
  /** `serve` spawn → first 200 ÷ bare Fastify: ≤ 1.1× on Node 22 and 24, ≤ 1.3× on Node 20. */
  spawn: (major: number): Goal => atMost(major <= 20 ? 1.3 : 1.1, 'ratio'),
  /** Importing the package ÷ importing `fastify` alone, in pairs of fresh processes (issue 45: an absolute time does not carry between machines). */
  importRatio: atMost(1.3, 'ratio'),
  laterMs: atMost(15, 'ms'),
  /** 64 accounts each asked once ÷ one account asked 64 times. */
  accountsTime: atMost(1.2, 'ratio'),
  /** The same, heap kept (issue 36: the accounts share their scenario and seed's board, each keeping its own changes). */
  accountsMemory: atMost(1.2, 'ratio'),
  /** The fake's req/s ÷ a bare Fastify route sending the same bytes, in the same round. */
  throughput: atLeast(0.9, 'ratio'),
  /** 1 − req/s with the verdict on ÷ with it off. */
  verdictCost: atMost(0.1, 'share'),
}

const missingNotes = (columns: NodeColumn[]) => columns.flatMap((c) => (c.missing === undefined ? [] : [`${c.label}: not measured, ${c.missing}.`]))

/** A row from one figure per found Node. */
function row(figure: string, columns: NodeColumn[], cell: (column: NodeColumn & { version: string }) => Cell | undefined): GoalRow {
  const cells: GoalRow['cells'] = {}
  for (const column of columns) cells[column.label] = column.version === undefined ? undefined : cell({ ...column, version: column.version })
  return { figure, cells }
}

/** The CPU ratio set beside a wall-clock one (` (CPU 1.20×)`), when both were read: on a busy machine the wall clock is mostly waiting for a core. */
const cpuBeside = (ms: number | undefined, against: number | undefined) => (ms !== undefined && against !== undefined ? ` (CPU ${(ms / against).toFixed(2)}×)` : '')

/** A pair measure's cell: ours ÷ bare (medians), the CPU beside, judged on the wall clock's ratio. */
const comparedCell = (c: Compared, goal: Goal | undefined): Cell => ({
  value: c.ratio,
  unit: 'ratio',
  shown: `${c.ownMs.toFixed(0)} ÷ ${c.bareMs.toFixed(0)} ms = ${c.ratio.toFixed(2)}×${cpuBeside(c.ownCpuMs, c.bareCpuMs)}`,
  goal,
})

export function startupTable(columns: NodeColumn[], startup: StartupFigures | undefined): GoalTable {
  const title = `start-up, ${startup?.runs ?? 0} pairs of fresh processes a line on each Node (the built package, dist/), as bench/start-as-user.ts measures it:`
  if (startup === undefined) return { group: 'start-up', title, columns: columns.map((c) => c.label), rows: [], notes: ['not measured (--startup-runs 0)'] }
  const on = (version: string) => startup.nodes[version]
  const stops = Object.values(startup.nodes)[0]?.serve.map((s) => s.stop) ?? []
  return {
    group: 'start-up',
    title,
    columns: columns.map((c) => c.label),
    rows: [
      ...stops.map((stop, i) =>
        row(`serve, spawn → first 200 ÷ bare Fastify, each run ${describeStop(stop)}`, columns, ({ version, major }) => {
          const s = on(version)?.serve[i]
          // a kill at once never leaves the code cache a later start reads: printed, not judged
          return s && comparedCell(s.figures, stop.kind === 'killed' && stop.afterMs === 0 ? undefined : GOALS.spawn(major))
        }),
      ),
      row('import the package ÷ import fastify', columns, ({ version }) => {
        const s = on(version)
        return s && comparedCell(s.import, GOALS.importRatio)
      }),
      row('a later in-process fake + first answer', columns, ({ version }) => {
        const s = on(version)
        return s && { value: s.laterMs, unit: 'ms', goal: GOALS.laterMs }
      }),
      row('the first in-process fake + first answer', columns, ({ version }) => {
        const s = on(version)
        return s && { value: s.createFirstMs, unit: 'ms' }
      }),
      row('a second answer', columns, ({ version }) => {
        const s = on(version)
        return s && { value: s.secondMs, unit: 'ms' }
      }),
    ],
    notes: [
      'serve and the import: medians of each side over pairs whose order alternates, each line from empty caches (a TMPDIR of its own) after a first pair not counted; the bare server is bench/bare-server.mjs',
      'a later fake: createMockServer + its first answer (inject) in a process that made one before, the median of 5 in each process',
      ...missingNotes(columns),
    ],
  }
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)

export function accountsTable(columns: NodeColumn[], figures: Record<string, AccountsFigures> | undefined, runs: number, accounts: number): GoalTable {
  const title = `accounts: a fake with ${accounts} accounts, each asked once, ÷ a fake with one account asked ${accounts} times (fresh processes, medians of ${runs} pairs' ratios):`
  if (figures === undefined) return { group: 'accounts', title, columns: columns.map((c) => c.label), rows: [], notes: ['not measured (--startup-runs 0)'] }
  return {
    group: 'accounts',
    title,
    columns: columns.map((c) => c.label),
    rows: [
      row('time, createMockServer → last answer', columns, ({ version }) => {
        const f = figures[version]
        return f && { value: f.timeRatio, unit: 'ratio', shown: `${f.many.ms.toFixed(0)} ÷ ${f.one.ms.toFixed(0)} ms = ${f.timeRatio.toFixed(2)}× (CPU ${f.cpuRatio.toFixed(2)}×)`, goal: GOALS.accountsTime }
      }),
      row('memory: heap in use after a GC, growth', columns, ({ version }) => {
        const f = figures[version]
        return f && { value: f.heapRatio, unit: 'ratio', shown: `${mib(f.many.heapBytes)} ÷ ${mib(f.one.heapBytes)} MiB = ${f.heapRatio.toFixed(2)}×`, goal: GOALS.accountsMemory }
      }),
      row('memory: resident set, growth', columns, ({ version }) => {
        const f = figures[version]
        return f && { value: f.rssRatio, unit: 'ratio', shown: `${mib(f.many.rssBytes)} ÷ ${mib(f.one.rssBytes)} MiB = ${f.rssRatio.toFixed(2)}×` }
      }),
    ],
    notes: [
      'the memory goal is judged on the heap (what the fake keeps, after a collection); the resident set (no collection, the build\'s garbage included) is beside it',
      ...missingNotes(columns),
    ],
  }
}

/**
 * Each throughput row as a share of a bare Fastify route sending the same bytes in the
 * same rounds (with wrk: the same status, headers and Basic check too), judged on
 * Node 24 and 22 (its goal), the other Nodes beside them. `generator` says how it was loaded.
 */
export function throughputTable(columns: NodeColumn[], rowsByVersion: Record<string, ReadonlyArray<Pick<Row, 'name' | 'rpsRatio'>>>, names: readonly string[], generator: string): GoalTable {
  const judged = columns.filter((c) => THROUGHPUT_GOAL_MAJORS.includes(c.major) && c.version !== undefined)
  return {
    group: 'throughput',
    title: `throughput: the fake's req/s ÷ a bare Fastify route sending the same bytes, in the same rounds (medians of the rounds; ${generator}):`,
    columns: columns.map((c) => c.label),
    rows: names.map((name) =>
      row(name, columns, ({ version, label }) => {
        const found = rowsByVersion[version]?.find((r) => r.name === name)
        return found && { value: found.rpsRatio, unit: 'ratio', goal: judged.some((c) => c.label === label) ? GOALS.throughput : undefined }
      }),
    ),
    notes: [
      `the goal is judged on Node ${THROUGHPUT_GOAL_MAJORS.join(' and ')}${judged.length === 0 ? ' (neither measured in this run, so nothing is judged)' : ''}; the other Nodes are beside them`,
      ...missingNotes(columns),
    ],
  }
}

/** Each row's verdict cost over sockets (twins measured on the first Node only), judged where measured. */
export function verdictTable(columns: NodeColumn[], costs: VerdictCost[] | undefined, on: NodeColumn | undefined): GoalTable {
  const title = 'the verdict\'s cost: 1 − req/s with the verdict on ÷ with it off, the same requests in turns in the same rounds (medians; lowest … highest round):'
  if (costs === undefined || on === undefined) return { group: 'verdict cost', title, columns: columns.map((c) => c.label), rows: [], notes: ['not measured (--no-verdict)'] }
  return {
    group: 'verdict cost',
    title,
    columns: columns.map((c) => c.label),
    rows: costs.map((cost) => ({
      figure: cost.name,
      cells: Object.fromEntries(
        columns.map((c): [string, Cell | undefined] => [
          c.label,
          c.label === on.label
            ? {
                value: cost.rpsCost,
                unit: 'share',
                shown: `${(cost.rpsCost * 100).toFixed(1)} % (${(cost.rpsCostMin * 100).toFixed(1)} … ${(cost.rpsCostMax * 100).toFixed(1)})`,
                goal: GOALS.verdictCost,
              }
            : undefined,
        ]),
      ),
    })),
    notes: [`measured on ${on.label} (${on.version}) alone: twin boards with the verdict off, in the same process as each board`],
  }
}
