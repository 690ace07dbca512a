// The candidates of a drawn board and what is theirs alone: the candidates themselves
// (which keep no files, which never apply), a candidate registered by a time
// (CandidatePicker), their files of each kind with the scenario's pinned ones, and each
// candidate dated by its latest record or its own edit. Steps of relations.ts's draw, in
// its order.
import { hash32, hashAt, type Prng, unitOf } from '../../core/random.js'
import { parseTime } from '../../core/time.js'
import type { CandidateSeed, TimesheetSeed } from '../../core/types.js'
import { byTime, type Draw, grown, pin, sortedTimes } from './draw-context.js'
import { FILE_KINDS, type FileKind } from './record-links.js'
import { type BulkRelation, type CandidateFields, DRAWN, type Drawn, type FileSeed, type Kind, type Relations } from './relation-arrays.js'
import { RELATION_LIST } from './relation-table.js'

/** The candidates as drawn, with what later steps need to pick one of them. */
export interface DrawnCandidates {
  kind: Kind<CandidateFields>
  /** The files each pinned candidate's seed gives, by candidate id. */
  pinnedFiles: Map<number, Partial<Record<FileKind, readonly FileSeed[]>>>
  byTime: ReturnType<typeof byTime>
  /** Candidates with no files (soft: another is picked when one will do), by id. */
  quiet: Uint8Array
  /** Candidates who never apply (soft), by id. */
  noApplications: Uint8Array
}

/** Candidates, ids in time order, and which of them keep no files or never apply. */
export function drawCandidates(draw: Draw): DrawnCandidates {
  const { counts, records, mix } = draw.scenario
  const kind = draw.kind<CandidateFields>(counts.candidates, draw.startMs, draw.nowMs)
  const seeds = (records.candidates ?? []) as CandidateSeed[]
  const placed = pin(
    kind,
    seeds.map(({ resumes: _r, documents: _d, ...fields }) => fields),
    (seed, id, existing) => (seed.created_at ? parseTime(seed.created_at) : existing ? (kind.created[id - 1] as number) : draw.timeFrom(draw.startMs)),
  )
  const pinnedFiles: DrawnCandidates['pinnedFiles'] = new Map()
  seeds.forEach(({ resumes, documents }, i) => {
    pinnedFiles.set(placed[i] as number, { ...(resumes ? { resume: resumes } : {}), ...(documents ? { document: documents } : {}) })
  })
  const quiet = new Uint8Array(kind.count + 1)
  const noApplications = new Uint8Array(kind.count + 1)
  for (let c = 1; c <= kind.count; c++) quiet[c] = draw.prng.chance(mix.withoutFiles) ? 1 : 0
  for (let c = 1; c <= kind.count; c++) noApplications[c] = draw.prng.chance(mix.withoutApplications) ? 1 : 0
  for (const c of pinnedFiles.keys()) quiet[c] = 0
  draw.did(counts.candidates)
  return { kind, pinnedFiles, byTime: byTime(kind), quiet, noApplications }
}

/** Whether a candidate id names one on the board. */
export const isCandidate = (candidates: DrawnCandidates, c: number | undefined): c is number =>
  c !== undefined && c <= candidates.kind.count && !candidates.kind.absent.includes(c)

/**
 * Picks a candidate registered by a time. Asked about times in order, it moves a pointer
 * on instead of searching: one picker per pass over a kind's records.
 */
export class CandidatePicker {
  #registered = -1

  constructor(
    private readonly prng: Prng,
    private readonly candidates: DrawnCandidates,
  ) {}

  /** The index (by time) of the last candidate registered by `ms`. */
  #registeredBy(ms: number): number {
    const times = this.candidates.byTime.ms
    if (this.#registered >= 0 && (times[this.#registered] as number) > ms) this.#registered = -1
    while (this.#registered + 1 < times.length && (times[this.#registered + 1] as number) <= ms) this.#registered++
    return Math.max(0, this.#registered)
  }

  #at(index: number): number {
    const { ids } = this.candidates.byTime
    return ids ? (ids[index] as number) : index + 1
  }

  /** A candidate registered by `ms`, avoiding `except` when another will do, never one `hard` marks; 0 when none can be. */
  pick(ms: number, except?: Uint8Array, hard?: Uint8Array): number {
    const last = this.#registeredBy(ms)
    for (let tries = 0; tries < 8; tries++) {
      const c = this.#at(this.prng.int(0, last))
      if (!except?.[c] && !hard?.[c]) return c
    }
    const c = this.#at(this.prng.int(0, last))
    if (!hard?.[c]) return c
    for (let i = 0; i <= last; i++) if (!hard[this.#at(i)]) return this.#at(i)
    return 0
  }
}

/** Files of each kind, ids in time order, each kept by a candidate; then the scenario's pinned timesheets. */
export function drawFiles(draw: Draw, candidates: DrawnCandidates): Relations['files'] {
  const picker = new CandidatePicker(draw.prng, candidates)
  const files = {} as Relations['files']
  for (const fileKind of FILE_KINDS) files[fileKind] = drawFileKind(draw, candidates, picker, fileKind)
  pinTimesheets(draw, candidates, files.timesheet)
  return files
}

function drawFileKind(draw: Draw, candidates: DrawnCandidates, picker: CandidatePicker, fileKind: FileKind): Relations['files'][FileKind] {
  const present = candidates.byTime.ms.length
  const firstCandidateMs = candidates.byTime.ms[0] ?? draw.nowMs
  const count = present === 0 ? 0 : draw.scenario.counts[`${fileKind}s` as 'timesheets' | 'resumes' | 'documents']
  const created = sortedTimes(draw.prng, count, firstCandidateMs, draw.nowMs)
  const candidate = new Uint32Array(count)
  // candidates whose seed lists files of this kind keep only those
  const hard = new Uint8Array(candidates.kind.count + 1)
  let pinnedOfKind = 0
  for (const [c, pinned] of candidates.pinnedFiles) {
    if (pinned[fileKind]) {
      hard[c] = 1
      pinnedOfKind += pinned[fileKind].length
    }
  }
  let n = 0
  for (let i = 0; i < count; i++) {
    const c = picker.pick(draw.nowMs, candidates.quiet, pinnedOfKind > 0 || candidates.pinnedFiles.size > 0 ? hard : undefined)
    if (c === 0) continue
    created[n] = created[i] as number
    candidate[n++] = c
  }
  const file: Relations['files'][FileKind] = { count: n, created: created.subarray(0, n), absent: [], pinned: new Map(), candidate: candidate.subarray(0, n) }
  if (pinnedOfKind > 0) joinPinnedFiles(draw, candidates, fileKind, file)
  draw.did(count)
  return file
}

/** The pinned files of a kind join the generated ones in time order, as if generated with the rest. */
function joinPinnedFiles(draw: Draw, candidates: DrawnCandidates, fileKind: FileKind, file: Relations['files'][FileKind]): void {
  const extra: Array<{ ms: number; c: number; seed: FileSeed | undefined }> = []
  for (const [c, pinned] of candidates.pinnedFiles) {
    for (const seed of pinned[fileKind] ?? []) extra.push({ ms: draw.timeFrom(candidates.kind.created[c - 1] as number), c, seed })
  }
  const all = Array.from({ length: file.count }, (_, i) => ({ ms: file.created[i] as number, c: file.candidate[i] as number, seed: undefined as FileSeed | undefined })).concat(extra)
  all.sort((a, b) => a.ms - b.ms)
  file.count = all.length
  file.created = Float64Array.from(all, (f) => f.ms)
  file.candidate = Uint32Array.from(all, (f) => f.c)
  all.forEach((f, i) => {
    if (f.seed) file.pinned.set(i + 1, f.seed)
  })
}

/** The scenario's timesheets: on their id or after the last, kept by the candidate they name. */
function pinTimesheets(draw: Draw, candidates: DrawnCandidates, timesheets: Relations['files']['timesheet']): void {
  const present = candidates.byTime.ms.length
  for (const [index, seed] of ((draw.scenario.records.timesheets ?? []) as TimesheetSeed[]).entries()) {
    const id = seed.id ?? timesheets.count + 1
    const existing = id <= timesheets.count && !timesheets.absent.includes(id)
    const owner = seed.candidate_id ?? (existing ? timesheets.candidate[id - 1] : undefined) ?? (present > 0 ? 1 : undefined)
    if (!isCandidate(candidates, owner)) draw.refuse(`timesheet ${id} names candidate ${seed.candidate_id}, which does not exist.`, `records.timesheets[${index}].candidate_id`)
    const ms = seed.created_at ? parseTime(seed.created_at) : draw.timeFrom(candidates.kind.created[owner - 1] as number)
    pin(timesheets, [{ ...seed, id }], () => ms)
    timesheets.candidate = grown(timesheets.candidate, timesheets.count).subarray(0, timesheets.count)
    timesheets.candidate[id - 1] = owner
  }
}

/** The share of candidates who edit their profile after they registered. */
const EDITED = 0.4

/**
 * Each candidate dated by its latest record (of any relation it owns) or its own edit of
 * its profile, which some make. The files and consents are in arrays and are read now; a
 * candidate's applications are found when it is asked (DrawnApplications.latestOf), and
 * whether and when it edited is a draw of its own id, so which candidates changed since a
 * time is found from the applications made since then alone.
 */
export function datedCandidates(draw: Draw, kind: Kind<CandidateFields>, children: Pick<Drawn, 'files' | 'applications' | 'marketing'>): Relations['candidates'] {
  const records = Float64Array.from(kind.created)
  const drawn = { ...children, candidates: kind } as unknown as Drawn
  for (const [name, relation] of RELATION_LIST) {
    if (relation.owner !== 'candidates' || !(name in DRAWN)) continue
    const { owner, created } = DRAWN[name as BulkRelation](drawn)
    for (let i = 0; i < owner.length; i++) {
      const c = owner[i] as number
      if (c !== 0 && (created[i] as number) > (records[c - 1] as number)) records[c - 1] = created[i] as number
    }
  }
  const { applications } = children
  const { nowMs } = draw
  const edits = hash32(draw.scenario.seed, 'candidates', 'edited')
  const editTimes = hash32(draw.scenario.seed, 'candidates', 'edited at')
  /** When a candidate edited its profile, 0 if it never did: a time between its registration and now. */
  const edited = (c: number): number => {
    if (unitOf(hashAt(edits, c)) >= EDITED) return 0
    const from = kind.created[c - 1] as number
    return Math.floor((from + Math.floor(unitOf(hashAt(editTimes, c)) * Math.max(0, nowMs - from + 1))) / 1000) * 1000
  }
  return {
    ...kind,
    updatedOf: (c) => Math.max(records[c - 1] as number, applications.latestOf(c), edited(c)),
    changedSince: (fromMs, upTo) => {
      const applied = applications.candidatesSince(fromMs)
      const ids = new Uint32Array(upTo)
      let n = 0
      for (let c = 1; c <= upTo; c++) if ((records[c - 1] as number) >= fromMs || applied[c] === 1 || edited(c) >= fromMs) ids[n++] = c
      return ids.subarray(0, n)
    },
  }
}
