// What every step of a draw of a board's relations shares (relations.ts,
// candidate-draws.ts): the one generator and the board's span of time (Draw), and the
// tools the steps draw with: sorted times, a kind's pinned records placed, a kind's ids
// in time order.
import { Prng, hash32 } from '../../core/random.js'
import { addMonth, parseTime } from '../../core/time.js'
import { ScenarioError, type LoadedScenario } from '../scenario.js'
import type { Kind } from './relation-arrays.js'

export const DAY = 86_400_000

/** `n` sorted times between two epochs, whole seconds: exponential spacings, no sort. */
export function sortedTimes(prng: Prng, n: number, fromMs: number, toMs: number): Float64Array {
  const out = new Float64Array(n)
  if (toMs <= fromMs) return out.fill(Math.floor(fromMs / 1000) * 1000)
  let sum = 0
  for (let i = 0; i < n; i++) {
    sum -= Math.log(1 - prng.float32())
    out[i] = sum
  }
  sum -= Math.log(1 - prng.float32())
  const span = toMs - fromMs
  for (let i = 0; i < n; i++) out[i] = Math.floor((fromMs + (span * (out[i] as number)) / sum) / 1000) * 1000
  return out
}

/** A time between two epochs, whole seconds. */
function between(prng: Prng, fromMs: number, toMs: number): number {
  if (toMs <= fromMs) return Math.floor(fromMs / 1000) * 1000
  return Math.floor(prng.int(fromMs, toMs) / 1000) * 1000
}

/** Grows a typed array to hold `n` items. */
export function grown<A extends Float64Array | Uint32Array | Uint8Array>(array: A, n: number): A {
  if (n <= array.length) return array
  const out = new (array.constructor as new (n: number) => A)(n)
  out.set(array)
  return out
}

/**
 * Places the scenario's pinned records of one kind: on a generated id (replacing it) or
 * after the last; gaps a pinned id leaves past the generated ones are absent.
 */
export function pin<P extends { id?: number }>(kind: Kind<P>, seeds: readonly P[], timeOf: (seed: P, id: number, existing: boolean) => number): number[] {
  const generated = kind.count
  const placed: number[] = []
  for (const seed of seeds) {
    const id = seed.id ?? kind.count + 1
    const existing = id <= kind.count && !kind.absent.includes(id)
    if (id > kind.count) {
      for (let gap = kind.count + 1; gap < id; gap++) kind.absent.push(gap)
      kind.count = id
      kind.created = grown(kind.created, id)
    }
    kind.absent = kind.absent.filter((a) => a !== id)
    kind.created[id - 1] = timeOf(seed, id, existing)
    kind.pinned.set(id, seed)
    placed.push(id)
  }
  if (generated !== kind.count) kind.created = kind.created.subarray(0, kind.count)
  return placed
}

/** The ids of a kind's present records, oldest first, with their times (for "registered by then"). */
export function byTime(kind: Kind<unknown>): { ids: Uint32Array | undefined; ms: Float64Array } {
  let monotone = kind.absent.length === 0
  for (let i = 1; i < kind.count && monotone; i++) monotone = (kind.created[i] as number) >= (kind.created[i - 1] as number)
  if (monotone) return { ids: undefined, ms: kind.created.subarray(0, kind.count) }
  const absent = new Set(kind.absent)
  const ids = Uint32Array.from({ length: kind.count }, (_, i) => i + 1).filter((id) => !absent.has(id))
  const order = [...ids].sort((a, b) => (kind.created[a - 1] as number) - (kind.created[b - 1] as number) || a - b)
  return { ids: Uint32Array.from(order), ms: Float64Array.from(order, (id) => kind.created[id - 1] as number) }
}

/**
 * What every step of a draw shares: one generator (the steps draw from it in this file's
 * order, so the same seed gives the same board), the board's span of time, and the count
 * of work done for the progress bar.
 */
export class Draw {
  readonly prng: Prng
  readonly nowMs: number
  readonly startMs: number
  readonly #total: number
  #done = 0

  constructor(
    readonly scenario: LoadedScenario,
    readonly progress: (share: number) => void,
  ) {
    const { counts } = scenario
    this.prng = new Prng(hash32(scenario.seed, 'relations'))
    this.nowMs = parseTime(scenario.now)
    this.startMs = addMonth(this.nowMs, -scenario.historyMonths)
    this.#total = counts.jobs + counts.candidates * 3 + counts.timesheets + counts.resumes + counts.documents + counts.marketing + 1
  }

  /** Says that `n` more units of the build are done. */
  did(n: number): void {
    this.#done += n
    this.progress(Math.min(1, this.#done / this.#total))
  }

  /** A kind of `count` records made between two epochs, in time order. */
  kind<P>(count: number, fromMs: number, toMs: number): Kind<P> {
    return { count, created: sortedTimes(this.prng, count, fromMs, toMs), absent: [], pinned: new Map() }
  }

  /** A time from `fromMs` to now, for a pinned record that gives none. */
  timeFrom(fromMs: number): number {
    return between(this.prng, fromMs, this.nowMs)
  }

  refuse(message: string, field: string): never {
    throw new ScenarioError(`Scenario "${this.scenario.name}": ${message}`, field)
  }
}
