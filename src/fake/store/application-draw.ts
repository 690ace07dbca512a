// The applications of a generated board, drawn one at a time when asked rather than all at
// build: xl's ten million cost nothing until a request reads them. Application i is a pure
// function of (seed, i): its time a draw within its own share of the board's span (so ids
// stay in time order, and a month's count is a binary search), whether it changed later a
// hash of its id, and its candidate and job a keyed shuffle of the block of ids it is in
// (src/core/random.ts, Shuffle), which answers backwards as cheaply as forwards: a
// candidate's or a job's applications are found without drawing the others. The answers
// are the same whatever order they are asked in, in every process and worker.
//
// The rules are those of the bulk draw before it (src/fake/store/relations.ts calls this):
// a candidate registered by then, avoiding those who never apply when another will do, a
// job posted in the two months before; both read at the block's first application (a
// block is 1/256 of the ids at most, days on a board of years, and ends sooner where the
// candidates and jobs grow fast), so every application of a block picks from the same
// ones. The scenario's pinned applications are laid over the drawn ones (pin), as few as
// a scenario file lists.
import { hash32, hashAt, Prng, Shuffle, unitOf } from '../../core/random.js'
import type { ApplicationSeed } from '../../core/types.js'

const DAY = 86_400_000
/** How long before an application its job may have been posted. */
const RECENT = 60 * DAY
/** The share of applications changed after they were made. */
const CHANGED = 0.1
/** Blocks of ids a board's applications are cut into at the least: each draws its candidates and jobs through a shuffle of its own. */
const BLOCKS = 256
/**
 * How much the candidates and jobs to pick from may grow within a block: a block ends
 * sooner where they grow fast (the board's first weeks, when a few have registered), so
 * that the first ones are not given a whole block's applications.
 */
const GROWTH = 0.1

/** Ids (by time) and their times of a kind others pick from: ids undefined where id = index + 1. */
export interface ByTime {
  readonly ids: Uint32Array | undefined
  readonly ms: Float64Array
}

export interface ApplicationDrawInput {
  seed: number
  count: number
  fromMs: number
  nowMs: number
  /** behaviour.guestApplicants: the share of applications by guests (candidate 0). */
  guestShare: number
  candidates: ByTime & { readonly count: number; /** By id: 1 for a candidate who never applies (soft). */ readonly noApplications: Uint8Array }
  jobs: ByTime & { readonly count: number }
}

/** The last index in a sorted array whose value is <= `ms`, plus one: how many were there by then. */
function countBy(sorted: Float64Array, ms: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) <= ms) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Where each id stands in a list of ids (-1: not in it). */
function positions(ids: Uint32Array | undefined, length: number, count: number): Int32Array {
  const at = new Int32Array(count + 1).fill(-1)
  for (let i = 0; i < length; i++) at[ids === undefined ? i + 1 : (ids[i] as number)] = i
  return at
}

/** One block of ids: the candidates and jobs its applications pick from, and the shuffles that pick. */
interface Block {
  readonly first: number
  readonly size: number
  /** The candidates picked from (by time; undefined: id = index + 1), how many, and which of the two lists. */
  readonly people: Uint32Array | undefined
  readonly peopleCount: number
  readonly applying: boolean
  readonly pickPerson: Shuffle
  /** The jobs picked from: indexes jobLo .. jobLo + jobCount - 1 of the jobs by time. */
  readonly jobLo: number
  readonly jobCount: number
  readonly pickJob: Shuffle
}

/** What a scenario pins of one application. */
export interface PinnedApplication {
  ms: number
  candidate: number
  job: number
  /** When it changed after it was made, if it did. */
  lateMs: number | undefined
}

/** Every late change of a list, ids ascending. */
export interface LateChanges {
  readonly ids: Uint32Array
  readonly ms: Float64Array
}

export class DrawnApplications {
  /** Generated ids (1..drawn); pinned ones past them make count larger. */
  readonly drawn: number
  #count: number
  readonly #fromMs: number
  readonly #spanMs: number
  readonly #nowMs: number
  readonly #timeKey: number
  readonly #lateKey: number
  readonly #lateWhenKey: number
  readonly #guestShare: number
  readonly #guestPhase: number
  /** The first index of each block, ascending. */
  readonly #firsts: number[] = []
  readonly #blocks: Block[] = []
  readonly #input: ApplicationDrawInput
  /** The applying candidates by time: ids and their times. */
  readonly #applying: ByTime
  #where: { applying: Int32Array; all: Int32Array; jobs: Int32Array } | undefined
  readonly pinned = new Map<number, PinnedApplication>()
  /** What the scenario gives of each pinned application, by id. */
  readonly seeds = new Map<number, ApplicationSeed>()
  /** Attachment sizes the scenario pins. */
  readonly attachmentSizes = new Map<number, number>()
  /** Ids past the drawn ones that no pin took. */
  readonly absent: number[] = []
  #late: LateChanges | undefined

  constructor(input: ApplicationDrawInput) {
    this.#input = input
    const { seed, count, fromMs, nowMs, candidates } = input
    this.drawn = count
    this.#count = count
    this.#fromMs = fromMs
    this.#spanMs = Math.max(0, nowMs - fromMs)
    this.#nowMs = nowMs
    this.#timeKey = hash32(seed, 'applications', 'time')
    this.#lateKey = hash32(seed, 'applications', 'changed')
    this.#lateWhenKey = hash32(seed, 'applications', 'changed at')
    this.#guestShare = input.guestShare
    // the guests' places as the bulk draw had them
    this.#guestPhase = new Prng(hash32(seed, 'guests')).float32()
    const present = candidates.ms.length
    const ids = new Uint32Array(present)
    const ms = new Float64Array(present)
    let n = 0
    for (let i = 0; i < present; i++) {
      const c = candidates.ids === undefined ? i + 1 : (candidates.ids[i] as number)
      if (candidates.noApplications[c] === 0) {
        ids[n] = c
        ms[n++] = candidates.ms[i] as number
      }
    }
    this.#applying = { ids: ids.subarray(0, n), ms: ms.subarray(0, n) }
    const most = Math.max(1, Math.ceil(count / BLOCKS))
    for (let first = 0; first < count; ) {
      const size = this.#blockEnd(first, Math.min(count, first + most)) - first
      this.#firsts.push(first)
      this.#blocks.push(this.#block(first, size))
      first += size
    }
  }

  /**
   * Where a block starting at `first` ends (its last index + 1, at most `limit`): before
   * the candidates registered, or the jobs posted, grow past GROWTH of those at its start.
   */
  #blockEnd(first: number, limit: number): number {
    const { candidates, jobs } = this.#input
    const startMs = this.#timeAt(first)
    const people = countBy(candidates.ms, startMs)
    const posts = countBy(jobs.ms, startMs)
    const recent = posts - countBy(jobs.ms, startMs - RECENT)
    const fits = (end: number) => {
      const ms = this.#timeAt(end - 1)
      return countBy(candidates.ms, ms) <= people * (1 + GROWTH) + 1 && countBy(jobs.ms, ms) <= posts + recent * GROWTH + 1
    }
    // the times never decrease, so neither do the counts: the last end that fits, by bisection
    let lo = first + 1
    let hi = limit
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (fits(mid)) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  #block(first: number, size: number): Block {
    const { seed, candidates, jobs } = this.#input
    const b = this.#blocks.length
    const startMs = this.#timeAt(first)
    const endMs = this.#timeAt(first + size - 1)
    // the candidates registered by then who apply, else every one registered by then
    const applying = countBy(this.#applying.ms, startMs)
    const everyone = countBy(candidates.ms, startMs)
    const [people, peopleCount] = applying > 0 ? [this.#applying.ids, applying] : [candidates.ids, everyone]
    // the jobs posted in the two months before every application of the block, else the latest one posted by then
    const hi = Math.max(Math.min(1, jobs.ms.length), countBy(jobs.ms, startMs))
    const lo = Math.min(Math.max(0, hi - 1), countBy(jobs.ms, endMs - RECENT))
    // each pick is a value of a shuffle of (size rounded up to a multiple of the pool) taken modulo the pool
    const spread = (pool: number) => Math.max(1, pool) * Math.max(1, Math.ceil(size / Math.max(1, pool)))
    return {
      first,
      size,
      people,
      peopleCount,
      applying: applying > 0,
      pickPerson: new Shuffle(spread(peopleCount), hash32(seed, 'applications', 'candidate', b)),
      jobLo: lo,
      jobCount: hi - lo,
      pickJob: new Shuffle(spread(hi - lo), hash32(seed, 'applications', 'job', b)),
    }
  }

  /** Ids 1..count: the drawn ones and the pinned ones past them. */
  get count(): number {
    return this.#count
  }

  /** When drawn application index i (id i + 1) was made: its share of the span, whole seconds, never before the one before it. */
  #timeAt(i: number): number {
    const n = this.drawn
    if (this.#spanMs <= 0 || n === 0) return Math.floor(this.#fromMs / 1000) * 1000
    const u = unitOf(hashAt(this.#timeKey, i))
    return Math.floor((this.#fromMs + (this.#spanMs * (i + u)) / n) / 1000) * 1000
  }

  #isGuest(i: number): boolean {
    const share = this.#guestShare
    return share > 0 && Math.floor((i + 1) * share + this.#guestPhase) > Math.floor(i * share + this.#guestPhase)
  }

  #blockOf(i: number): Block {
    const firsts = this.#firsts
    let lo = 0
    let hi = firsts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if ((firsts[mid] as number) <= i) lo = mid
      else hi = mid - 1
    }
    return this.#blocks[lo] as Block
  }

  /** The time an application was made, by index (id - 1); 0 for an absent one. */
  at(index: number): number {
    const pinned = this.pinned.get(index + 1)
    if (pinned !== undefined) return pinned.ms
    return index < this.drawn ? this.#timeAt(index) : 0
  }

  /** The drawn times alone, which never decrease: what a month's count is searched in. */
  drawnAt(index: number): number {
    return this.#timeAt(index)
  }

  /** The candidate who made application `id`, 0 for a guest. */
  candidateOf(id: number): number {
    const pinned = this.pinned.get(id)
    if (pinned !== undefined) return pinned.candidate
    return id >= 1 && id <= this.drawn ? this.#drawnCandidate(id - 1) : 0
  }

  #drawnCandidate(i: number): number {
    if (this.#isGuest(i)) return 0
    const block = this.#blockOf(i)
    if (block.peopleCount === 0) return 0
    const r = block.pickPerson.at(i - block.first) % block.peopleCount
    return block.people === undefined ? r + 1 : (block.people[r] as number)
  }

  /** The job application `id` is for. */
  jobOf(id: number): number {
    const pinned = this.pinned.get(id)
    if (pinned !== undefined) return pinned.job
    if (id < 1 || id > this.drawn) return 0
    const block = this.#blockOf(id - 1)
    const index = block.jobLo + (block.pickJob.at(id - 1 - block.first) % Math.max(1, block.jobCount))
    const { ids } = this.#input.jobs
    return ids === undefined ? index + 1 : (ids[index] as number)
  }

  /** When application `id` changed after it was made, if it did. */
  lateMs(id: number): number | undefined {
    const pinned = this.pinned.get(id)
    if (pinned !== undefined) return pinned.lateMs
    if (id < 1 || id > this.drawn) return undefined
    const i = id - 1
    if (unitOf(hashAt(this.#lateKey, i)) >= CHANGED) return undefined
    const made = this.#timeAt(i)
    const later = Math.floor((made + Math.floor(unitOf(hashAt(this.#lateWhenKey, i)) * (this.#nowMs - made + 1))) / 1000) * 1000
    return later > made ? later : undefined
  }

  /** Every late change, ids ascending: drawn for every application the first time a list by updated_at asks, then kept. */
  late(): LateChanges {
    if (this.#late !== undefined) return this.#late
    const ids: number[] = []
    const ms: number[] = []
    for (let id = 1; id <= this.#count; id++) {
      const later = this.lateMs(id)
      if (later !== undefined) {
        ids.push(id)
        ms.push(later)
      }
    }
    this.#late = { ids: Uint32Array.from(ids), ms: Float64Array.from(ms) }
    return this.#late
  }

  /** Where each candidate and job stands in the lists picked from, made on the first backward question. */
  #positions() {
    if (this.#where === undefined) {
      const { candidates, jobs } = this.#input
      this.#where = {
        applying: positions(this.#applying.ids, this.#applying.ms.length, candidates.count),
        all: positions(candidates.ids, candidates.ms.length, candidates.count),
        jobs: positions(jobs.ids, jobs.ms.length, jobs.count),
      }
    }
    return this.#where
  }

  /** The drawn indexes of a block that fell to pool index `r`, through its shuffle. */
  static #fellTo(block: Block, shuffle: Shuffle, pool: number, r: number, out: number[]): void {
    for (let v = r; v < shuffle.size; v += pool) {
      const s = shuffle.from(v)
      if (s < block.size) out.push(block.first + s)
    }
  }

  /** A candidate's applications, ids ascending. */
  ofCandidate(c: number): number[] {
    const where = this.#positions()
    const found: number[] = []
    const inApplying = where.applying[c] ?? -1
    const inAll = where.all[c] ?? -1
    for (const block of this.#blocks) {
      const r = block.applying ? inApplying : inAll
      if (r < 0 || r >= block.peopleCount) continue
      DrawnApplications.#fellTo(block, block.pickPerson, block.peopleCount, r, found)
    }
    return this.#withPins(
      found.filter((i) => !this.#isGuest(i)),
      (p) => p.candidate === c,
    )
  }

  /** A job's applications, ids ascending. */
  ofJob(job: number): number[] {
    const j = this.#positions().jobs[job] ?? -1
    const found: number[] = []
    if (j >= 0) {
      for (const block of this.#blocks) {
        if (j < block.jobLo || j >= block.jobLo + block.jobCount) continue
        DrawnApplications.#fellTo(block, block.pickJob, block.jobCount, j - block.jobLo, found)
      }
    }
    return this.#withPins(found, (p) => p.job === job)
  }

  /** Drawn indexes as ids, less those a pin took, with the pinned ones that match; ascending. */
  #withPins(indexes: number[], mine: (p: PinnedApplication) => boolean): number[] {
    const ids = indexes.map((i) => i + 1).filter((id) => !this.pinned.has(id))
    for (const [id, p] of this.pinned) if (mine(p)) ids.push(id)
    return ids.sort((a, b) => a - b)
  }

  /**
   * The candidates who made an application at or after `fromMs`, marked by id: the
   * applications since then alone are drawn (a binary search finds the first).
   */
  candidatesSince(fromMs: number): Uint8Array {
    const marks = new Uint8Array(this.#input.candidates.count + 1)
    let lo = 0
    let hi = this.drawn
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#timeAt(mid) < fromMs) lo = mid + 1
      else hi = mid
    }
    for (let i = lo; i < this.drawn; i++) if (!this.pinned.has(i + 1)) marks[this.#drawnCandidate(i)] = 1
    for (const p of this.pinned.values()) if (p.ms >= fromMs) marks[p.candidate] = 1
    // 0 is a guest, no candidate
    marks[0] = 0
    return marks
  }

  /** A candidate's latest application, 0 for none. */
  latestOf(c: number): number {
    let latest = 0
    for (const id of this.ofCandidate(c)) latest = Math.max(latest, this.at(id - 1))
    return latest
  }

  /** Pins an application over a drawn one or past the last (ids between left absent). */
  pin(id: number, pinned: PinnedApplication): void {
    if (id > this.#count) {
      for (let gap = this.#count + 1; gap < id; gap++) this.absent.push(gap)
      this.#count = id
    }
    const at = this.absent.indexOf(id)
    if (at >= 0) this.absent.splice(at, 1)
    this.pinned.set(id, pinned)
    this.#late = undefined
  }

  /** Whether an id holds an application. */
  exists(id: number): boolean {
    return id >= 1 && id <= this.#count && !this.absent.includes(id)
  }

  /**
   * Whether the times by id never decrease, late changes never before their record: the
   * drawn ones never do, so only the pinned ones and their neighbours are looked at.
   */
  monotone(): boolean {
    if (this.absent.length > 0) return false
    for (const id of this.pinned.keys()) {
      const ms = this.at(id - 1)
      if (id > 1 && this.at(id - 2) > ms) return false
      if (id < this.#count && this.at(id) < ms) return false
    }
    return true
  }
}
