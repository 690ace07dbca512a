// Monthly counts behind metrics/list, kept up to date as records are written, so the
// answer never scans the store. Each metric covers the months from its first activity
// (or the months of history a scenario gives it) to the current month, newest first,
// with 0 for months without activity.
import { METRIC_LABELS } from '../../../schemas/values.js'
import { hash32, Prng } from '../../core/random.js'
import { monthName, shiftMonth, styledMonth } from '../../core/time.js'
import type { Metric, MetricsState } from '../../core/types.js'

export type MetricLabel = (typeof METRIC_LABELS)[number]

/** The metrics the store counts from its own records; the others are generated history plus live counts. */
export const COUNTED_METRICS = {
  jobs: 'Jobs created',
  candidates: 'Registrations',
  applications: 'Applications',
  timesheets: 'Timesheets',
  optIns: 'Consent opt-ins',
  optOuts: 'Consent opt-outs',
} as const satisfies Record<string, MetricLabel>

/** How many months a label the spec does not name covers (the spec: "The number of months per metric differs"). */
const EXTRA_METRIC_MONTHS = 6

/**
 * The metrics of labels the spec does not name (behaviour.extraMetricLabels), as a
 * deployment that answers more may: each with its months up to `now`, newest first, its
 * totals drawn from the board's seed and the label, so the same board answers the same.
 */
export function extraMetrics(labels: readonly string[], now: string, seed: number, style: 'long' | 'short' = 'long'): Metric[] {
  return labels.map((label) => {
    const prng = new Prng(hash32(seed, 'extra metric', label))
    const aggregations: Metric['aggregations'] = []
    let total = 0
    for (let i = 0; i < EXTRA_METRIC_MONTHS; i++) {
      const key = shiftMonth(now, -i)
      const count = prng.int(0, 40)
      total += count
      aggregations.push({ year: key.slice(0, 4), month: styledMonth(monthName(key), style), total: count })
    }
    // the Metric type knows the spec's labels only; a deployment's own label is what this knob adds
    return { label: label as MetricLabel, total, aggregations }
  })
}

export class Metrics {
  readonly #counts = new Map<MetricLabel, Map<string, number>>()
  /** Where a metric's months begin when that is not its first activity. */
  readonly #starts = new Map<MetricLabel, string>()
  /** The metrics these read until their first change, then copy (a board's over the shared generated one's, never changed). */
  #under: Metrics | undefined

  /** Empty metrics, or (`under`) ones that read those until they first change, and never change them. */
  constructor(under?: Metrics) {
    this.#under = under
    if (under === undefined) for (const label of METRIC_LABELS) this.#counts.set(label, new Map())
  }

  /** The counts to read: those under these until their first change. */
  #read(): Metrics {
    return this.#under ?? this
  }

  /** These metrics' own counts, copied from those under them at the first change. */
  #own(): void {
    const under = this.#under
    if (under === undefined) return
    this.#under = undefined
    for (const [label, months] of under.#counts) this.#counts.set(label, new Map(months))
    for (const [label, month] of under.#starts) this.#starts.set(label, month)
  }

  /** Whether the board lists a metric of this label. */
  static knows(label: string): label is MetricLabel {
    return (METRIC_LABELS as readonly string[]).includes(label)
  }

  add(label: MetricLabel, month: string, n = 1): void {
    this.#own()
    const months = this.#counts.get(label) as Map<string, number>
    months.set(month, (months.get(month) ?? 0) + n)
  }

  /** Makes a metric's months start at `month` even where it has no activity yet. */
  startAt(label: MetricLabel, month: string): void {
    this.#own()
    const current = this.#starts.get(label)
    if (current === undefined || month < current) this.#starts.set(label, month)
  }

  /** The metrics/list `metrics` array as of the month `now`. */
  answer(now: string, style: 'long' | 'short' = 'long'): Metric[] {
    const read = this.#read()
    return METRIC_LABELS.map((label) => {
      const months = read.#counts.get(label) as Map<string, number>
      let first = read.#starts.get(label) ?? now
      let last = now
      for (const key of months.keys()) {
        if (key < first) first = key
        if (key > last) last = key
      }
      const aggregations: Metric['aggregations'] = []
      let total = 0
      for (let key = last; key >= first; key = shiftMonth(key, -1)) {
        const count = months.get(key) ?? 0
        total += count
        aggregations.push({ year: key.slice(0, 4), month: styledMonth(monthName(key), style), total: count })
      }
      return { label, total, aggregations }
    })
  }

  export(): MetricsState {
    const read = this.#read()
    const counts: MetricsState['counts'] = {}
    for (const [label, months] of read.#counts) counts[label] = Object.fromEntries(months)
    return { counts, starts: Object.fromEntries(read.#starts) }
  }

  static import(state: MetricsState): Metrics {
    const metrics = new Metrics()
    for (const [label, months] of Object.entries(state.counts)) {
      for (const [month, n] of Object.entries(months)) metrics.add(label as MetricLabel, month, n)
    }
    for (const [label, month] of Object.entries(state.starts)) metrics.startAt(label as MetricLabel, month)
    return metrics
  }
}
