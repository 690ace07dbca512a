// The procedural board: a generated board as a function of (seed, scenario, id). The
// relations are drawn at build, the applications' when asked (src/fake/store/relations.ts);
// a record is made only when a request needs it, by RecordMaker on a faker seeded from
// (seed, kind, id), so it is the same on every call and in every process. Metrics' monthly
// counts come from the relations' times, a binary search per month.
import type { DeepReadonly } from '../../core/freeze.js'
import { createFaker, hash32, Prng, reseedableFaker } from '../../core/random.js'
import { ScenarioError, type BoardLists, type LoadedScenario } from '../scenario.js'
import { LISTED_METRICS } from '../../../schemas/scenario.js'
import { formatTimestamp, monthKey, shiftMonth } from '../../core/time.js'
import type { Application, Candidate, CandidateApplicationEntry, MarketingRecord, PredefinedLocation, StoredFile, StoredJob, Timesheet } from '../../core/types.js'
import { increasing, isMonotone, type BaseRecords, type Times } from './collection.js'
import type { DrawnApplications, LateChanges } from './application-draw.js'
import { FILE_KINDS, type FileKind, type Links } from './record-links.js'
import { coverLetterPool, RecordMaker, type CandidateBase } from './maker.js'
import { COUNTED_METRICS, Metrics, type MetricLabel } from './metric-counts.js'
import { RELATIONS, type EntryOf, type ListedRelation } from './relation-table.js'
import { ACTION, childTimes, idsOf, REVOKED, type BulkRelation, type Relations } from './relation-arrays.js'
import { drawRelations } from './relations.js'
import { timesheetEntry, vacancyOf, type Vacancy } from './views.js'


export type { CandidateBase }
export { RecordMaker }

export interface BoardContext {
  lists: BoardLists
  locations: readonly DeepReadonly<PredefinedLocation>[]
  links: Links
  /** Called now and then while the relations are drawn, with the share done (0..1). */
  progress?: (share: number) => void
}

/** Made records kept for the next one that needs them (a candidate's files need its name). */
function memo<T>(limit: number, make: (id: number) => T): (id: number) => T {
  const made = new Map<number, T>()
  return (id) => {
    let found = made.get(id)
    if (found === undefined) {
      found = make(id)
      if (made.size >= limit) made.delete(made.keys().next().value as number)
      made.set(id, found)
    }
    return found
  }
}

/** Newest first, then highest id first, as every list of the board. */
function newestIds(ids: ArrayLike<number>, created: Times): number[] {
  return Array.from(ids).sort((a, b) => (created.at(b - 1) as number) - (created.at(a - 1) as number) || b - a)
}

/** Late changes made on their first read (a list by `since`), not at build: reading them costs a pass over every record. */
class LateOnRead implements LateChanges {
  #made: LateChanges | undefined
  constructor(private readonly make: () => LateChanges) {}
  get ids(): Uint32Array {
    this.#made ??= this.make()
    return this.#made.ids
  }
  get ms(): Float64Array {
    this.#made ??= this.make()
    return this.#made.ms
  }
}

export interface GeneratedBoard {
  relations: Relations
  jobs: BaseRecords<StoredJob>
  candidates: BaseRecords<Candidate>
  applications: BaseRecords<Application>
  timesheets: BaseRecords<Timesheet>
  files: Record<'resume' | 'document', BaseRecords<StoredFile>>
  marketing: BaseRecords<MarketingRecord>
  metrics: Metrics
  /** The generated candidate with this e-mail, if any. */
  emailOwner(email: string): number | undefined
}

/**
 * The board's build, as a pipeline: the records' maker is set up, the relations are drawn
 * (src/fake/store/relations.ts), and each kind becomes a base list whose records are made
 * when first read, with the metrics counted from the relations.
 */
export function generateBoard(scenario: LoadedScenario, ctx: BoardContext): GeneratedBoard {
  const records = new GeneratedRecords(scenario, ctx)
  const relations = drawRelations(scenario, {
    // pinned marketing may name its candidate by e-mail before the relations are done
    emailOwner: (email, drawn) => records.use(drawn).emailOwner(email, false),
    ...(ctx.progress ? { progress: ctx.progress } : {}),
  })
  records.use(relations)
  return listBoard(scenario, relations, records)
}

/** Each kind as a base list (count, time order, absent ids, late changes) over its records' makers. */
function listBoard(scenario: LoadedScenario, rel: Relations, records: GeneratedRecords): GeneratedBoard {
  const late = scenario.behaviour.sinceField === 'updated_at'
  const base = <T>(kind: { count: number; created: Times; absent: number[] }, make: (id: number) => T): BaseRecords<T> => ({
    count: kind.count,
    orderMs: kind.created,
    absent: kind.absent,
    make,
  })
  const apps = rel.applications
  const { candidates } = rel
  // late changes are never before their record: the order times alone say whether a list is a binary search
  const candidatesMonotone = isMonotone({ count: candidates.count, orderMs: candidates.created })
  const candidateLate = (id: number) => {
    const updated = candidates.updatedOf(id)
    return updated > (candidates.created[id - 1] as number) ? updated : undefined
  }
  return {
    relations: rel,
    jobs: base(rel.jobs, records.job),
    candidates: {
      ...base(candidates, (id) => records.candidate(id)),
      monotone: candidatesMonotone,
      ...(late ? { lateSince: (fromMs: number, upTo: number) => candidates.changedSince(fromMs, upTo), lateMs: candidateLate } : {}),
    },
    applications: {
      count: apps.count,
      orderMs: apps,
      absent: apps.absent,
      monotone: apps.monotone(),
      make: (id) => records.application(id),
      ...(late ? { late: new LateOnRead(() => apps.late()), lateMs: (id: number) => apps.lateMs(id) } : {}),
    },
    timesheets: base(rel.files.timesheet, (id) => records.timesheet(id)),
    files: {
      resume: base(rel.files.resume, (id) => records.file('resume', id)),
      document: base(rel.files.document, (id) => records.file('document', id)),
    },
    marketing: base(rel.marketing, (id) => records.marketing(id)),
    metrics: countMetrics(scenario, rel),
    emailOwner: (email) => records.emailOwner(email, true),
  }
}

/**
 * How each generated record is made from the relations: on a faker seeded by (seed,
 * kind, id), so a record is the same whenever and wherever it is made. The parts other
 * records repeat (a candidate's name and e-mail, a job's title) are kept for the next.
 */
class GeneratedRecords {
  readonly #seed: number
  readonly #reseedable = reseedableFaker()
  readonly #maker: RecordMaker
  readonly #links: Links
  /** The board's word for an approval (behaviour.marketingApprovalAction): the spec shows only Revoked. */
  readonly #approval: string
  #rel = undefined as unknown as Relations

  constructor(scenario: LoadedScenario, ctx: BoardContext) {
    this.#seed = scenario.seed
    this.#links = ctx.links
    this.#approval = scenario.behaviour.marketingApprovalAction
    this.#maker = new RecordMaker({
      faker: this.#reseedable.faker,
      lists: ctx.lists,
      locations: ctx.locations,
      links: ctx.links,
      mix: scenario.mix,
      coverLetters: coverLetterPool(createFaker(hash32(scenario.seed, 'cover-letters'))),
    })
  }

  /** Makes records from these relations from now on (while they are drawn, from what is drawn so far). */
  use(relations: Relations): this {
    this.#rel = relations
    return this
  }

  #at(kind: string, id: number): void {
    this.#reseedable.seed(this.#seed, kind, id)
  }

  #makeBase(id: number): CandidateBase {
    const rel = this.#rel
    const created = rel.candidates.created[id - 1] as number
    this.#at('candidate', id)
    const base = this.#maker.candidate(id, created, rel.nowMs, rel.candidates.pinned.get(id) ?? {})
    // while the relations are drawn a candidate is asked for its e-mail only
    const updated = rel.candidates.updatedOf?.(id) ?? created
    return { ...base, updated_at: formatTimestamp(updated), last_login: formatTimestamp(this.#maker.between(updated, rel.nowMs)) }
  }

  readonly candidateBase = memo(4096, (id: number) => this.#makeBase(id))

  /**
   * The generated candidate with this e-mail: a generated e-mail holds its candidate's id,
   * so the candidate is found without an index of every e-mail; pinned candidates may give
   * e-mails of their own. `kept`: from the kept candidates (not while the relations are drawn).
   */
  emailOwner(email: string, kept: boolean): number | undefined {
    const rel = this.#rel
    const baseOf = kept ? this.candidateBase : (id: number) => this.#makeBase(id)
    const id = Number(/(\d+)@[^@]*$/.exec(email)?.[1] ?? 0)
    const exists = (c: number) => c >= 1 && c <= rel.candidates.count && !rel.candidates.absent.includes(c)
    if (exists(id) && baseOf(id).email === email) return id
    for (const c of rel.candidates.pinned.keys()) if (exists(c) && baseOf(c).email === email) return c
    return undefined
  }

  readonly job = memo(4096, (id: number): StoredJob => {
    this.#at('job', id)
    return this.#maker.job(id, this.#rel.jobs.created[id - 1] as number, this.#rel.jobs.pinned.get(id))
  })

  readonly #vacancy = memo(4096, (id: number): Vacancy => vacancyOf(this.job(id)))

  readonly #jobRef = memo(4096, (id: number): CandidateApplicationEntry['job'] => {
    const { title, reference, location } = this.#vacancy(id)
    return { id, title, reference, location }
  })

  file(kind: FileKind, id: number): StoredFile {
    const files = this.#rel.files[kind]
    const owner = this.candidateBase(files.candidate[id - 1] as number)
    this.#at(kind, id)
    return this.#maker.file(kind, id, owner, files.created[id - 1] as number, files.pinned.get(id))
  }

  readonly #strangerEmail = memo(4096, (index: number) => {
    this.#at('stranger', index)
    return this.#maker.unknownEmail()
  })

  marketing(id: number): MarketingRecord {
    const m = this.#rel.marketing
    const owner = m.candidate[id - 1] as number
    const pinned = m.pinned.get(id)
    const known = owner ? this.candidateBase(owner).email : (pinned?.email ?? (pinned ? undefined : this.#strangerEmail(m.stranger[id - 1] as number)))
    this.#at('marketing', id)
    const ip = pinned?.ip_address ?? this.#maker.ip()
    const email = known ?? this.#maker.unknownEmail()
    return {
      candidate: { email, id: owner, ip_address: ip },
      action: m.action[id - 1] === ACTION.revoked ? REVOKED : this.#approval,
      created_at: formatTimestamp(m.created[id - 1] as number),
    }
  }

  application(id: number): Application {
    const a = this.#rel.applications
    const candidate = a.candidateOf(id)
    const { created_at: _pinnedTime, ...pinned } = a.seeds.get(id) ?? {}
    // a guest (candidate 0) is a person of the application's own, made from a seed of its own
    if (candidate === 0) this.#at('guest', id)
    const owner = candidate === 0 ? this.#maker.guest(id, pinned.applicant) : this.candidateBase(candidate)
    const post = this.#vacancy(a.jobOf(id))
    const created = a.at(id - 1)
    this.#at('application', id)
    return this.#maker.application(id, created, this.#rel.nowMs, owner, post, pinned, a.lateMs(id) ?? created)
  }

  timesheet(id: number): Timesheet {
    const f = this.file('timesheet', id)
    return timesheetEntry(f, this.candidateBase(f.candidate_id), this.#links)
  }

  /**
   * How a generated candidate lists each child, by relation: the table's entry of the child
   * made on demand; an application's from the arrays alone (its job and time), rather than
   * by making the whole application for every entry.
   */
  readonly #listed: { [R in ListedRelation]: (child: number) => EntryOf<R> } = {
    applicant: (app) => ({
      job: this.#jobRef(this.#rel.applications.jobOf(app)),
      href: this.#links.application(app),
      application_date: formatTimestamp(this.#rel.applications.at(app - 1)),
    }),
    timesheet: (t) => RELATIONS.timesheet.mirror.entry(this.timesheet(t)),
    resume: (f) => RELATIONS.resume.mirror.entry(this.file('resume', f), this.#links),
    document: (f) => RELATIONS.document.mirror.entry(this.file('document', f), this.#links),
    consent: (m) => RELATIONS.consent.mirror.entry(this.marketing(m)),
  }

  #list<R extends ListedRelation>(name: R, owner: number): Array<EntryOf<R>> {
    const rel = this.#rel
    // a candidate's applications are found backwards from the draw (application-draw.ts), the other children in index lists
    const children = name === 'applicant' ? newestIds(rel.applications.ofCandidate(owner), rel.applications) : newestIds(idsOf(rel.byOwner[name as BulkRelation], owner), childTimes(rel, name as BulkRelation))
    return children.map(this.#listed[name])
  }

  candidate(id: number): Candidate {
    const consent = this.#list('consent', id)
    return {
      ...this.candidateBase(id),
      timesheets: this.#list('timesheet', id),
      resumes: this.#list('resume', id),
      documents: this.#list('document', id),
      applications: this.#list('applicant', id),
      consent,
      ...RELATIONS.consent.mirror.derived(consent),
    }
  }
}

/** Adds a kind's records to a metric by the month they were made: a binary search per month when in time order. */
function countByMonth(
  metrics: Pick<Metrics, 'add'>,
  label: MetricLabel,
  created: Times,
  count: number,
  absent: readonly number[],
  keep?: (i: number) => boolean,
  known?: { monotone: true },
) {
  const monotone = absent.length === 0 && (known?.monotone ?? increasing(created, count))
  if (!monotone) {
    const skip = new Set(absent)
    for (let i = 0; i < count; i++) if (!skip.has(i + 1) && (keep?.(i) ?? true)) metrics.add(label, monthKey(created.at(i) as number))
    return
  }
  let from = 0
  while (from < count) {
    const month = monthKey(created.at(from) as number)
    const next = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)
    let lo = from
    let hi = count
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((created.at(mid) as number) < next) lo = mid + 1
      else hi = mid
    }
    let n = lo - from
    if (keep) for (let i = from; i < lo; i++) if (!keep(i)) n -= 1
    if (n > 0) metrics.add(label, month, n)
    from = lo
  }
}

/**
 * The applications by the month they were made, without drawing them: the drawn ones'
 * times never decrease (a binary search per month), then each pinned one in its month
 * instead of the drawn one under it.
 */
function countApplications(metrics: Metrics, applications: DrawnApplications): void {
  const months = new Map<string, number>()
  const tally = (month: string, n: number) => months.set(month, (months.get(month) ?? 0) + n)
  countByMonth({ add: (_label, month, n = 1) => tally(month, n) }, COUNTED_METRICS.applications, { at: (i) => applications.drawnAt(i) }, applications.drawn, [], undefined, { monotone: true })
  for (const [id, pinned] of applications.pinned) {
    if (id <= applications.drawn) tally(monthKey(applications.drawnAt(id - 1)), -1)
    tally(monthKey(pinned.ms), 1)
  }
  for (const [month, n] of months) if (n > 0) metrics.add(COUNTED_METRICS.applications, month, n)
}

/** Months of history of the metrics the store does not count, unless the scenario says otherwise. */
const GENERATED_METRICS: Partial<Record<MetricLabel, { months: number; perCandidate: number }>> = {
  'Job searches': { months: 24, perCandidate: 4 },
  'Client enquiries': { months: 18, perCandidate: 0.1 },
  'Job submissions': { months: 12, perCandidate: 0.08 },
  'Candidate interest': { months: 9, perCandidate: 0.6 },
}

function countMetrics(scenario: LoadedScenario, rel: Relations): Metrics {
  const metrics = new Metrics()
  const pinned = pinnedMetrics(scenario)
  const { jobs, candidates, applications, files, marketing } = rel
  // the API lists no job: a recorded board's jobs are those applications show, so its Jobs created are pinned
  if (!pinned.has(COUNTED_METRICS.jobs)) countByMonth(metrics, COUNTED_METRICS.jobs, jobs.created, jobs.count, jobs.absent)
  countByMonth(metrics, COUNTED_METRICS.candidates, candidates.created, candidates.count, candidates.absent)
  countApplications(metrics, applications)
  countByMonth(metrics, COUNTED_METRICS.timesheets, files.timesheet.created, files.timesheet.count, files.timesheet.absent)
  countByMonth(metrics, COUNTED_METRICS.optIns, marketing.created, marketing.count, [], (i) => marketing.action[i] === ACTION.approved)
  countByMonth(metrics, COUNTED_METRICS.optOuts, marketing.created, marketing.count, [], (i) => marketing.action[i] === ACTION.revoked)
  const prng = new Prng(hash32(scenario.seed, 'metrics'))
  const nowMonth = monthKey(rel.nowMs)
  const present = candidates.count - candidates.absent.length
  const perMonth = present / Math.max(1, scenario.historyMonths)
  for (const [label, { months, perCandidate }] of Object.entries(GENERATED_METRICS) as Array<[MetricLabel, { months: number; perCandidate: number }]>) {
    // drawn all the same, so a pinned label leaves the others' values as they were
    const pin = pinned.get(label)
    const span = scenario.metricMonths[label] ?? Math.min(months, scenario.historyMonths)
    const mean = perMonth * perCandidate * 10
    for (let i = 0; i < span; i++) {
      const month = shiftMonth(nowMonth, -i)
      const drawn = mean === 0 ? 0 : prng.int(Math.floor(mean * 0.5), Math.ceil(mean * 1.5))
      if (pin) continue
      metrics.add(label, month, drawn)
      metrics.startAt(label, month)
    }
  }
  for (const [label, months] of pinned) {
    for (const [month, n] of Object.entries(months)) {
      metrics.add(label, month, n)
      metrics.startAt(label, month)
    }
  }
  for (const [label, span] of Object.entries(scenario.metricMonths)) {
    if (span !== undefined) metrics.startAt(label as MetricLabel, shiftMonth(nowMonth, -(span - 1)))
  }
  return metrics
}

/**
 * The scenario's metric values (metricValues: a recording's metrics/list), each label's
 * in place of what the board would count or generate for it; never for a label counted
 * from the records the lists show (those records are what to pin), nor one the board
 * does not list.
 */
function pinnedMetrics(scenario: LoadedScenario): Map<MetricLabel, Record<string, number>> {
  const pinned = new Map<MetricLabel, Record<string, number>>()
  for (const [label, months] of Object.entries(scenario.metricValues ?? {})) {
    const field = `metricValues.${label}`
    if ((LISTED_METRICS as readonly string[]).includes(label)) {
      throw new ScenarioError(`Scenario "${scenario.name}": ${label} is counted from the records the lists show: pin the records, not its values.`, field)
    }
    if (!Metrics.knows(label)) throw new ScenarioError(`Scenario "${scenario.name}": ${JSON.stringify(label)} is not a metric the board lists.`, field)
    pinned.set(label, months)
  }
  return pinned
}

export { FILE_KINDS }
