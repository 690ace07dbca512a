// Turns the samples of several rounds into one row per endpoint (medians, and ratios to
// the ceiling measured in the same round) and renders them as a table or JSON. Reports
// only: nothing here passes or fails a run.
import type { Sample } from './load.js'

/** One round of one endpoint, beside the ceiling measured in that round. */
export interface RoundResult extends Sample {
  /** req/s as a fraction of the ceiling's: 0.5 is half its throughput. */
  rpsRatio: number
  /** Latency as a multiple of the ceiling's: 2 is twice as slow. */
  p50Ratio: number
  p99Ratio: number
  /** Server CPU time per answer, microseconds, and as a multiple of the ceiling's. */
  cpuPerAnswer: number
  cpuRatio: number
}

export interface Row {
  name: string
  expect: number
  rps: number
  rpsRatio: number
  p50: number
  p50Ratio: number
  p99: number
  p99Ratio: number
  bytesPerSecond: number
  /**
   * Server CPU microseconds per answer, and that as a multiple of the ceiling's: the
   * fake's own cost, whether or not the load generator was the limit of the run.
   */
  cpuPerAnswer: number
  cpuRatio: number
  /** Shares of one core used by the server and by the load generator. */
  serverCpu: number
  loadCpu: number
  /** Summed over the rounds. */
  unexpected: number
  statuses: Record<string, number>
  errors: number
  rounds: RoundResult[]
}

export interface Build {
  name: string
  ms: number
  rssBytes: number
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const cpuPer = (s: Sample) => (s.serverCpu / s.rps) * 1e6

export function againstCeiling(sample: Sample, ceiling: Sample): RoundResult {
  return {
    ...sample,
    rpsRatio: sample.rps / ceiling.rps,
    p50Ratio: sample.p50 / ceiling.p50,
    p99Ratio: sample.p99 / ceiling.p99,
    cpuPerAnswer: cpuPer(sample),
    cpuRatio: cpuPer(sample) / cpuPer(ceiling),
  }
}

/**
 * Medians over the rounds. The ratios are the medians of each round's own ratio, not the
 * ratio of the medians, so a round the whole machine ran slow in cancels out.
 */
export function summarise(name: string, expect: number, rounds: RoundResult[]): Row {
  const statuses: Record<string, number> = {}
  for (const round of rounds) for (const [code, n] of Object.entries(round.statuses)) statuses[code] = (statuses[code] ?? 0) + n
  const of = (pick: (r: RoundResult) => number) => median(rounds.map(pick))
  return {
    name,
    expect,
    rps: of((r) => r.rps),
    rpsRatio: of((r) => r.rpsRatio),
    p50: of((r) => r.p50),
    p50Ratio: of((r) => r.p50Ratio),
    p99: of((r) => r.p99),
    p99Ratio: of((r) => r.p99Ratio),
    bytesPerSecond: of((r) => r.bytesPerSecond),
    cpuPerAnswer: of((r) => r.cpuPerAnswer),
    cpuRatio: of((r) => r.cpuRatio),
    serverCpu: of((r) => r.serverCpu),
    loadCpu: of((r) => r.loadCpu),
    unexpected: rounds.reduce((sum, r) => sum + r.unexpected, 0),
    statuses,
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    rounds,
  }
}

const whole = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 })
const fixed = (digits: number) => (n: number) => (Number.isFinite(n) ? n.toFixed(digits) : '–')

/** "0", or the count and what it was made of: "12 (429×10, errors×2)". */
function unexpectedCell(row: Row): string {
  if (row.unexpected === 0) return '0'
  const parts = Object.entries(row.statuses)
    .filter(([code]) => code !== String(row.expect))
    .map(([code, n]) => `${code}×${n}`)
  if (row.errors > 0) parts.push(`errors×${row.errors}`)
  return `${row.unexpected} (${parts.join(', ')})`
}

export function renderTable(rows: Row[]): string {
  const header = ['endpoint', 'req/s', 'of ceiling', 'p50 ms', '× ceiling', 'p99 ms', '× ceiling', 'server µs/answer', '× ceiling', 'cpu server/load', 'unexpected']
  const cells = rows.map((row) => [
    row.name,
    whole.format(row.rps),
    `${fixed(0)(row.rpsRatio * 100)}%`,
    fixed(2)(row.p50),
    fixed(1)(row.p50Ratio),
    fixed(2)(row.p99),
    fixed(1)(row.p99Ratio),
    fixed(0)(row.cpuPerAnswer),
    fixed(2)(row.cpuRatio),
    `${fixed(0)(row.serverCpu * 100)}% / ${fixed(0)(row.loadCpu * 100)}%`,
    unexpectedCell(row),
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] ?? '').length)))
  // The endpoint and the unexpected counts read left to right; the numbers line up right.
  const format = (line: string[]) =>
    line.map((cell, i) => (i === 0 || i === line.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd()
  const rule = widths.map((w) => '-'.repeat(w)).join('  ')
  return [format(header), rule, ...cells.map(format)].join('\n')
}

export function renderBuilds(builds: Build[]): string {
  return builds
    .map((b) => `${b.name}: ${b.ms >= 10_000 ? `${(b.ms / 1000).toFixed(1)} s` : `${b.ms.toFixed(0)} ms`}, rss ${(b.rssBytes / 2 ** 20).toFixed(0)} MiB`)
    .join('\n')
}

/** Two rows whose latencies are compared: the row that should cost no more than the other. */
export interface LatencyPair {
  name: string
  /** The row latency is compared against (the first page, the recent since). */
  fast: string
  /** The row that might be slower (the last page, the old since). */
  slow: string
}

/** `slow`'s latency as a multiple of `fast`'s: the median of each round's own ratio. Goal: at most 1.3. */
export interface LatencyRatio extends LatencyPair {
  p50Ratio: number
  p99Ratio: number
}

export function latencyRatios(rows: Row[], pairs: LatencyPair[]): LatencyRatio[] {
  return pairs.flatMap((pair) => {
    const fast = rows.find((r) => r.name === pair.fast)
    const slow = rows.find((r) => r.name === pair.slow)
    if (fast === undefined || slow === undefined) return []
    const per = (pick: (r: RoundResult) => number) => median(slow.rounds.map((round, i) => pick(round) / pick(fast.rounds[i] ?? round)))
    return [{ ...pair, p50Ratio: per((r) => r.p50), p99Ratio: per((r) => r.p99) }]
  })
}

export function renderRatios(ratios: LatencyRatio[]): string {
  return ratios.map((r) => `${r.name}: latency p50 ×${fixed(2)(r.p50Ratio)}, p99 ×${fixed(2)(r.p99Ratio)} (goal ≤ 1.3)`).join('\n')
}

/**
 * What the verdict costs one endpoint: its row with the verdict on against its twin with
 * it off, round by round (the two were measured in the same round, in turns, against the
 * same ceiling sample, so the ceiling cancels out of each round's ratio). Each figure is
 * the median of the rounds' own figures, with the lowest and highest beside it: a spread
 * wider than the median says the machine, not the verdict, moved the number.
 */
export interface VerdictCost {
  name: string
  /** 1 − req/s on ÷ req/s off: 0.1 is a tenth fewer answers per second. */
  rpsCost: number
  rpsCostMin: number
  rpsCostMax: number
  /** Server CPU per answer on ÷ off, − 1: 0.1 is a tenth more CPU per answer, whichever side was the limit. */
  cpuCost: number
  cpuCostMin: number
  cpuCostMax: number
  /** Each round's req/s, on and off, as measured. */
  rounds: Array<{ on: number; off: number }>
}

export function verdictCosts(twins: ReadonlyArray<readonly [Row, Row]>): VerdictCost[] {
  return twins.map(([on, off]) => {
    const paired = on.rounds.flatMap((round, i) => {
      const twin = off.rounds[i]
      return twin === undefined || twin.rps === 0 || twin.cpuPerAnswer === 0 ? [] : [{ on: round, off: twin }]
    })
    const rps = paired.map(({ on, off }) => 1 - on.rps / off.rps)
    const cpu = paired.map(({ on, off }) => on.cpuPerAnswer / off.cpuPerAnswer - 1)
    const low = (values: number[]) => (values.length === 0 ? Number.NaN : Math.min(...values))
    const high = (values: number[]) => (values.length === 0 ? Number.NaN : Math.max(...values))
    return {
      name: on.name,
      rpsCost: median(rps),
      rpsCostMin: low(rps),
      rpsCostMax: high(rps),
      cpuCost: median(cpu),
      cpuCostMin: low(cpu),
      cpuCostMax: high(cpu),
      rounds: paired.map(({ on, off }) => ({ on: on.rps, off: off.rps })),
    }
  })
}

export function renderVerdictCost(costs: VerdictCost[]): string {
  const pct = (n: number) => `${fixed(1)(n * 100)} %`
  const header = ['endpoint', 'req/s cost', 'rounds from … to', 'server CPU/answer', 'rounds from … to']
  const cells = costs.map((c) => [c.name, pct(c.rpsCost), `${pct(c.rpsCostMin)} … ${pct(c.rpsCostMax)}`, `${c.cpuCost >= 0 ? '+' : ''}${pct(c.cpuCost)}`, `${pct(c.cpuCostMin)} … ${pct(c.cpuCostMax)}`])
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] ?? '').length)))
  const format = (line: string[]) => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd()
  return [
    'verdict cost: each endpoint with the verdict on against the same requests with it off, measured in turns in the same',
    'rounds against the same ceiling; the median of the rounds\' own figures, then the lowest and highest (goal: req/s at most 10 % less):',
    format(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.map(format),
  ].join('\n')
}
