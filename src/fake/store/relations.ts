// The relations of a generated board: when each record was made (ids in time order),
// which candidate made each file and consent, drawn in bulk into typed arrays, with each
// owner's records as index lists (CSR: offsets + ids), one per relation of
// src/fake/store/relation-table.ts and named by it; and the applications (ten times the
// candidates, ten million on xl), drawn one at a time when asked, each with its candidate
// and job, answering backwards too (src/fake/store/application-draw.ts). Records
// themselves are made later, one at a time, from these (src/fake/store/generate.ts). The
// rules of who can be linked to what when drawing are written here and there once: a
// candidate registered by then, a job posted in the two months before.
import { MARKETING_ACTIONS } from '../../../schemas/values.js'
import { Prng, hash32, hashAt, unitOf } from '../../core/random.js'
import { addMonth, parseTime } from '../../core/time.js'
import type { ApplicationSeed, CandidateSeed, JobSeed, MarketingSeed, TimesheetSeed } from '../../core/types.js'
import { ScenarioError, type LoadedScenario } from '../scenario.js'
import { DrawnApplications } from './application-draw.js'
import { FILE_KINDS, type FileKind } from './links.js'
import { RELATION_LIST, type RelationName } from './relation-table.js'

const DAY = 86_400_000
export const [APPROVED, REVOKED] = MARKETING_ACTIONS
/** Marketing actions as the arrays hold them. */
export const ACTION = { approved: 1, revoked: 2 } as const

/** Index lists by owner: owner o's ids are ids[offsets[o]] .. ids[offsets[o + 1] - 1], ascending. */
export interface Csr {
  readonly offsets: Uint32Array
  readonly ids: Uint32Array
}

export function idsOf(csr: Csr, owner: number): Uint32Array {
  return owner + 1 < csr.offsets.length ? csr.ids.subarray(csr.offsets[owner] as number, csr.offsets[owner + 1] as number) : new Uint32Array(0)
}

/** Counting sort of ids 1..owner.length by their owner (0 = none). */
function csrOf(owner: Uint32Array, owners: number, count = owner.length): Csr {
  const offsets = new Uint32Array(owners + 2)
  for (let i = 0; i < count; i++) (offsets[(owner[i] as number) + 1] as number)++
  for (let o = 1; o < offsets.length; o++) offsets[o] = (offsets[o] as number) + (offsets[o - 1] as number)
  const next = offsets.slice(0, owners + 1)
  const ids = new Uint32Array(count)
  for (let i = 0; i < count; i++) ids[(next[owner[i] as number] as number)++] = i + 1
  return { offsets, ids }
}

type FileSeed = { id?: number; filename?: string; filesize?: number }
type CandidateFields = Omit<CandidateSeed, 'resumes' | 'documents'>

interface Kind<P> {
  count: number
  /** Creation time by id - 1, ms. */
  created: Float64Array
  /** Ids in 1..count that were never made (pinned records past the generated ones leave gaps). */
  absent: number[]
  /** What the scenario pins, by id. */
  pinned: Map<number, P>
}

export interface Relations {
  nowMs: number
  startMs: number
  jobs: Kind<JobSeed>
  candidates: Kind<CandidateFields> & {
    /** A candidate's latest change, ms: the latest of its records, or an edit of its own. */
    updatedOf(id: number): number
    /** The candidates among 1..upTo (ascending) changed at or after `fromMs`: the applications made since then alone are drawn. */
    changedSince(fromMs: number, upTo: number): Uint32Array
  }
  files: Record<FileKind, Kind<FileSeed> & { candidate: Uint32Array }>
  /** Drawn when asked: each application's time, candidate (0 for a guest) and job, and each candidate's and job's applications. */
  applications: DrawnApplications
  marketing: Kind<MarketingSeed> & {
    /** The candidate by id - 1, or 0 for an e-mail with no account. */
    candidate: Uint32Array
    /** For an e-mail with no account: which of `strangers` e-mails. */
    stranger: Uint32Array
    action: Uint8Array
    strangers: number
  }
  /** Each owner's children, by relation drawn in bulk (the applications answer their own: Relations.applications). */
  byOwner: Record<BulkRelation, Csr>
}

/** The relations drawn in bulk into arrays: all but the applications'. */
export type BulkRelation = Exclude<RelationName, 'applicant' | 'vacancy'>

type Drawn = Omit<Relations, 'byOwner'>

/** Each relation drawn in bulk: the owner by child id - 1 (0 = none), the children's times, and how many owners there are. */
const DRAWN: { [R in BulkRelation]: (r: Drawn) => { owner: Uint32Array; created: Float64Array; owners: number } } = {
  timesheet: (r) => ({ owner: r.files.timesheet.candidate, created: r.files.timesheet.created, owners: r.candidates.count }),
  resume: (r) => ({ owner: r.files.resume.candidate, created: r.files.resume.created, owners: r.candidates.count }),
  document: (r) => ({ owner: r.files.document.candidate, created: r.files.document.created, owners: r.candidates.count }),
  consent: (r) => ({ owner: r.marketing.candidate, created: r.marketing.created, owners: r.candidates.count }),
}

/** The times of a relation's children, by child id - 1. */
export function childTimes(relations: Relations, name: BulkRelation): Float64Array {
  return DRAWN[name](relations).created
}

/** `n` sorted times between two epochs, whole seconds: exponential spacings, no sort. */
function sortedTimes(prng: Prng, n: number, fromMs: number, toMs: number): Float64Array {
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
function grown<A extends Float64Array | Uint32Array | Uint8Array>(array: A, n: number): A {
  if (n <= array.length) return array
  const out = new (array.constructor as new (n: number) => A)(n)
  out.set(array)
  return out
}

/**
 * Places the scenario's pinned records of one kind: on a generated id (replacing it) or
 * after the last; gaps a pinned id leaves past the generated ones are absent.
 */
function pin<P extends { id?: number }>(kind: Kind<P>, seeds: readonly P[], timeOf: (seed: P, id: number, existing: boolean) => number): number[] {
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
function byTime(kind: Kind<unknown>): { ids: Uint32Array | undefined; ms: Float64Array } {
  let monotone = kind.absent.length === 0
  for (let i = 1; i < kind.count && monotone; i++) monotone = (kind.created[i] as number) >= (kind.created[i - 1] as number)
  if (monotone) return { ids: undefined, ms: kind.created.subarray(0, kind.count) }
  const absent = new Set(kind.absent)
  const ids = Uint32Array.from({ length: kind.count }, (_, i) => i + 1).filter((id) => !absent.has(id))
  const order = [...ids].sort((a, b) => (kind.created[a - 1] as number) - (kind.created[b - 1] as number) || a - b)
  return { ids: Uint32Array.from(order), ms: Float64Array.from(order, (id) => kind.created[id - 1] as number) }
}

export interface RelationOptions {
  /** The candidate with this e-mail, if any: pinned marketing names candidates by e-mail. */
  emailOwner(email: string, relations: Relations): number | undefined
  /** Called now and then while drawing, with the share done (0..1). */
  progress?(share: number): void
}

/**
 * What every step of a draw shares: one generator (the steps draw from it in this file's
 * order, so the same seed gives the same board), the board's span of time, and the count
 * of work done for the progress bar.
 */
class Draw {
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

/**
 * The steps of a draw, in the order they use the generator: jobs, candidates, their
 * files, applications, marketing; then each candidate's latest change, and each owner's
 * children indexed.
 */
export function drawRelations(scenario: LoadedScenario, options: RelationOptions): Relations {
  const draw = new Draw(scenario, options.progress ?? (() => {}))
  const { counts } = scenario
  // every applicant may be a guest (behaviour.guestApplicants 1): then no candidate is needed
  if (counts.applications > 0 && (counts.jobs === 0 || (counts.candidates === 0 && scenario.behaviour.guestApplicants < 1))) {
    draw.refuse('applications need at least one job and one candidate (or every applicant a guest: behaviour.guestApplicants 1).', 'counts.applications')
  }
  const jobs = drawJobs(draw)
  const candidates = drawCandidates(draw)
  const files = drawFiles(draw, candidates)
  const applications = drawApplications(draw, jobs, candidates)
  const marketing = drawMarketing(draw, jobs, candidates, options.emailOwner)
  const drawn: Drawn = { nowMs: draw.nowMs, startMs: draw.startMs, jobs, candidates: datedCandidates(draw, candidates.kind, { files, applications, marketing }), files, applications, marketing }
  draw.did(counts.candidates)
  const byOwner = indexByOwner(drawn)
  draw.did(counts.candidates)
  return { ...drawn, byOwner }
}

/** Jobs, ids in time order; pinned ones take their id or come after. */
function drawJobs(draw: Draw): Kind<JobSeed> {
  const jobs = draw.kind<JobSeed>(draw.scenario.counts.jobs, draw.startMs, draw.nowMs - 7 * DAY)
  pin(jobs, (draw.scenario.records.jobs ?? []) as JobSeed[], (seed, id, existing) =>
    seed.created_at ? parseTime(seed.created_at) : existing ? (jobs.created[id - 1] as number) : draw.timeFrom(draw.startMs),
  )
  draw.did(draw.scenario.counts.jobs)
  return jobs
}

/** The candidates as drawn, with what later steps need to pick one of them. */
interface DrawnCandidates {
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
function drawCandidates(draw: Draw): DrawnCandidates {
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
const isCandidate = (candidates: DrawnCandidates, c: number | undefined): c is number =>
  c !== undefined && c <= candidates.kind.count && !candidates.kind.absent.includes(c)

/**
 * Picks a candidate registered by a time. Asked about times in order, it moves a pointer
 * on instead of searching: one picker per pass over a kind's records.
 */
class CandidatePicker {
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
function drawFiles(draw: Draw, candidates: DrawnCandidates): Relations['files'] {
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

/**
 * Applications: by a candidate registered by then, to a job posted in the two months
 * before, each drawn when asked (src/fake/store/application-draw.ts); then the scenario's.
 */
function drawApplications(draw: Draw, jobs: Kind<JobSeed>, candidates: DrawnCandidates): Relations['applications'] {
  const jobsByTime = byTime(jobs)
  const firstJobMs = jobsByTime.ms[0] ?? draw.nowMs
  // with no candidate at all every applicant is a guest, from the first job on
  const firstMs = Math.max(firstJobMs, candidates.byTime.ms[0] ?? firstJobMs)
  const applications = new DrawnApplications({
    seed: draw.scenario.seed,
    count: draw.scenario.counts.applications,
    fromMs: firstMs,
    nowMs: draw.nowMs,
    guestShare: draw.scenario.behaviour.guestApplicants,
    candidates: { ...candidates.byTime, count: candidates.kind.count, noApplications: candidates.noApplications },
    jobs: { ...jobsByTime, count: jobs.count },
  })
  pinApplications(draw, applications, jobs, candidates)
  return applications
}

/** The scenario's applications: on their id or after the last, by the candidate (or the guest) and for the job they name. */
function pinApplications(draw: Draw, applications: Relations['applications'], jobs: Kind<JobSeed>, candidates: DrawnCandidates): void {
  const present = candidates.byTime.ms.length
  for (const [index, seed] of ((draw.scenario.records.applications ?? []) as ApplicationSeed[]).entries()) {
    const id = seed.id ?? applications.count + 1
    const existing = applications.exists(id)
    if (seed.applicant !== undefined && seed.candidate_id !== undefined) {
      draw.refuse(
        `application ${id} names both candidate ${seed.candidate_id} and a guest applicant: an application is by a candidate or by a guest, not both.`,
        `records.applications[${index}].applicant`,
      )
    }
    // a guest: given as one, or a generated guest's application pinned without another applicant
    const guest = seed.applicant !== undefined || (seed.candidate_id === undefined && existing && applications.candidateOf(id) === 0)
    const owner = guest ? 0 : (seed.candidate_id ?? (existing ? applications.candidateOf(id) : undefined) ?? (present > 0 ? 1 : undefined))
    const job = seed.job_id ?? (existing ? applications.jobOf(id) : undefined) ?? (jobs.count > 0 ? 1 : undefined)
    const ownerOk = guest || isCandidate(candidates, owner)
    const jobOk = job !== undefined && job <= jobs.count && !jobs.absent.includes(job)
    if (!ownerOk || !jobOk) {
      const why = ownerOk
        ? `names job ${job ?? '(none: the board has no job)'}, which does not exist`
        : seed.candidate_id === undefined
          ? 'names no candidate and the board has none (give candidate_id, or a guest applicant)'
          : `names candidate ${seed.candidate_id}, which does not exist`
      draw.refuse(`application ${id} ${why}.`, `records.applications[${index}].${ownerOk ? 'job_id' : 'candidate_id'}`)
    }
    if (seed.created_at !== undefined && seed.updated_at !== undefined && seed.updated_at < seed.created_at) {
      draw.refuse(
        `application ${id} was updated (${seed.updated_at}) before it was created (${seed.created_at}): updated_at is never before created_at.`,
        `records.applications[${index}].updated_at`,
      )
    }
    const since = owner ? (candidates.kind.created[(owner as number) - 1] as number) : draw.startMs
    const drawn = seed.created_at ? parseTime(seed.created_at) : existing ? applications.at(id - 1) : draw.timeFrom(since)
    // with no created_at given, an updated_at given is the latest it can have been created
    const ms = seed.created_at === undefined && seed.updated_at !== undefined ? Math.min(drawn, parseTime(seed.updated_at)) : drawn
    // changed later when its seed says so (updated_at), else never
    const updated = seed.updated_at === undefined ? undefined : parseTime(seed.updated_at)
    applications.pin(id, { ms, candidate: owner as number, job: job as number, lateMs: updated !== undefined && updated > ms ? updated : undefined })
    applications.seeds.set(id, { ...seed, id })
    if (seed.attachment_filesize !== undefined) applications.attachmentSizes.set(id, seed.attachment_filesize)
  }
}

/** Marketing: approvals and revocations by candidates, and by e-mails with no account; then the scenario's. */
function drawMarketing(draw: Draw, jobs: Kind<JobSeed>, candidates: DrawnCandidates, emailOwner: RelationOptions['emailOwner']): Relations['marketing'] {
  const { prng } = draw
  const { mix } = draw.scenario
  const n = draw.scenario.counts.marketing
  const marketing: Relations['marketing'] = {
    ...draw.kind<MarketingSeed>(n, draw.startMs, draw.nowMs),
    candidate: new Uint32Array(n),
    stranger: new Uint32Array(n),
    action: new Uint8Array(n),
    strangers: Math.max(1, Math.ceil(n / 5)),
  }
  const present = candidates.byTime.ms.length
  const firstCandidateMs = candidates.byTime.ms[0] ?? draw.nowMs
  const picker = new CandidatePicker(prng, candidates)
  const lastByCandidate = new Uint8Array(candidates.kind.count + 1)
  const lastByStranger = new Uint8Array(marketing.strangers)
  for (let i = 0; i < n; i++) {
    const ms = marketing.created[i] as number
    // before the first registration only strangers can give consent
    const isStranger = present === 0 || ms < firstCandidateMs || prng.chance(mix.unknownMarketingEmail)
    const c = isStranger ? 0 : picker.pick(ms)
    const s = isStranger ? prng.int(0, marketing.strangers - 1) : 0
    const previous = isStranger ? lastByStranger[s] : lastByCandidate[c]
    // a revocation mostly follows an approval by the same person
    const action =
      previous === ACTION.approved
        ? prng.chance(mix.revoked * 2)
          ? ACTION.revoked
          : ACTION.approved
        : previous === 0 && prng.chance(mix.revoked / 3)
          ? ACTION.revoked
          : ACTION.approved
    if (isStranger) lastByStranger[s] = action
    else lastByCandidate[c] = action
    marketing.candidate[i] = c
    marketing.stranger[i] = s
    marketing.action[i] = action
  }
  draw.did(n)
  pinMarketing(draw, marketing, jobs, candidates, emailOwner)
  return marketing
}

/** The scenario's marketing records join the drawn ones in time order; one may name its candidate by e-mail. */
function pinMarketing(draw: Draw, marketing: Relations['marketing'], jobs: Kind<JobSeed>, candidates: DrawnCandidates, emailOwner: RelationOptions['emailOwner']): void {
  const seeds = (draw.scenario.records.marketing ?? []) as MarketingSeed[]
  if (seeds.length === 0) return
  const rows = Array.from({ length: marketing.count }, (_, i) => ({
    ms: marketing.created[i] as number,
    c: marketing.candidate[i] as number,
    s: marketing.stranger[i] as number,
    action: marketing.action[i] as number,
    seed: undefined as MarketingSeed | undefined,
  }))
  for (const [index, seed] of seeds.entries()) {
    // what the e-mail lookup needs of the relations: candidates' times, before they are dated
    const relations = { nowMs: draw.nowMs, startMs: draw.startMs, jobs, candidates: { ...candidates.kind } } as unknown as Relations
    const c = seed.candidate_id || (seed.email === undefined ? 0 : (emailOwner(seed.email, relations) ?? 0))
    if (seed.candidate_id && !isCandidate(candidates, c)) {
      draw.refuse(`a marketing record names candidate ${seed.candidate_id}, which does not exist.`, `records.marketing[${index}].candidate_id`)
    }
    const ms = seed.created_at ? parseTime(seed.created_at) : draw.timeFrom(c ? (candidates.kind.created[c - 1] as number) : draw.startMs)
    rows.push({ ms, c, s: 0, action: seed.action === REVOKED ? ACTION.revoked : ACTION.approved, seed })
  }
  rows.sort((a, b) => a.ms - b.ms)
  marketing.count = rows.length
  marketing.created = Float64Array.from(rows, (r) => r.ms)
  marketing.candidate = Uint32Array.from(rows, (r) => r.c)
  marketing.stranger = Uint32Array.from(rows, (r) => r.s)
  marketing.action = Uint8Array.from(rows, (r) => r.action)
  rows.forEach((r, i) => {
    if (r.seed) marketing.pinned.set(i + 1, r.seed)
  })
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
function datedCandidates(draw: Draw, kind: Kind<CandidateFields>, children: Pick<Drawn, 'files' | 'applications' | 'marketing'>): Relations['candidates'] {
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

/** Each owner's children, by relation drawn in bulk, as index lists. */
function indexByOwner(drawn: Drawn): Record<BulkRelation, Csr> {
  const byOwner = {} as Record<BulkRelation, Csr>
  for (const name of Object.keys(DRAWN) as BulkRelation[]) {
    const { owner, owners } = DRAWN[name](drawn)
    byOwner[name] = csrOf(owner, owners)
  }
  return byOwner
}
