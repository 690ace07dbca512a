// `jobboard-kit record`: walks a deployment's lists within its rate limit (each full
// request once, through the contract kit's client, pacing and ledger), replaces every
// personal value (src/record/anonymise.ts) and writes a scenario the fake loads with
// `serve --scenario FILE.json`: the records pinned with their ids, counts, constrained
// values, metric months and the deployment's choices (its profile, written beside it,
// and the scenario's behaviour). A run cut short (refused credentials, a 5xx storm, an
// endless next_page chain, a rate-limit window beyond --max-wait, a signal) still writes
// a loadable scenario, marked incomplete, holding what it needs to go on: the next run
// with the same --out (and --ledger) continues where this one stopped.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { behaviourProperties } from '../../schemas/behaviour.js'
import { LISTED_METRICS } from '../../schemas/scenario.js'
import { FIELD_NAMES, MARKETING_ACTIONS, METRIC_LABELS, MONTH_NAMES, MONTH_SHORT_NAMES } from '../../schemas/values.js'

const REVOKED = MARKETING_ACTIONS[1]
import { PACKAGE_VERSION } from '../core/paths.js'
import { hash32 } from '../core/random.js'
import { formatTimestamp, parseTime } from '../core/time.js'
import type { ApplicationSeed, CandidateSeed, GuestSeed, JobSeed, MarketingSeed, Scenario, ScenarioFile, TimesheetSeed } from '../core/types.js'
import type { KitClock } from '../contract/clock.js'
import { RunContext } from '../contract/context.js'
import { findFieldLists } from '../contract/groups/fields.js'
import { Client, redactorOf, type Outcome } from '../contract/http.js'
import { redacting, type Redactor } from '../contract/redact.js'
import { Ledger } from '../contract/ledger.js'
import { APPLICATIONS, CANDIDATES, type ListDef, MARKETING, TIMESHEETS } from '../contract/lists.js'
import { mergeProfile, readProfile } from '../contract/profile.js'
import { int, isRec, notAPage, pageOf, rec, recs, str, type Rec } from '../contract/records.js'
import { loadProfile, type LoadedProfile } from '../profile/profile.js'
import { boardLists, boundScenarioSchema, parseScenario, SCENARIO_POLICY, ScenarioError, scenarioListsSchema, sharedSchemas } from '../fake/scenario.js'
import { compileSchema, fieldOf } from '../core/validation.js'
import { Anonymiser, replacementKey } from './anonymise.js'
import { clientSettings, type RecordSettings } from './settings.js'

export type ListName = 'candidates' | 'applications' | 'timesheets' | 'marketing'
const LIST_DEFS: Record<ListName, ListDef> = { candidates: CANDIDATES, applications: APPLICATIONS, timesheets: TIMESHEETS, marketing: MARKETING }
const LIST_NAMES = Object.keys(LIST_DEFS) as ListName[]
type DownloadKind = 'timesheet' | 'resume' | 'document' | 'attachment'
const DOWNLOADS: readonly DownloadKind[] = ['timesheet', 'resume', 'document', 'attachment']

interface ListProgress {
  /** The page to fetch next; null once the list is read (or its sample taken). */
  next: string | null
  pages: number
  records: number
  total?: number
  pageSize?: number
}

/** Everything a recording has gathered, personal values already replaced: what a later run goes on from. */
export interface Progress {
  lists: Record<ListName, ListProgress>
  fields?: Record<string, string[]>
  fieldsDone: boolean
  metricMonths?: Record<string, number>
  /** The values of the metrics the fake does not count from listed records, by label and month (`YYYY-MM`). */
  metricValues?: Record<string, Record<string, number>>
  metricsDone: boolean
  /** One download of each kind is made, for its Content-Type; its bytes are never kept. */
  downloads: Partial<Record<DownloadKind, string | null>>
  jobs: Record<string, JobSeed>
  candidates: CandidateSeed[]
  /** Application id → candidate id, from the candidates' application entries. */
  owners: Record<string, number>
  /** Application id → the applicant's e-mail as replaced: finds its candidate when no entry names it. */
  applicantEmails: Record<string, string>
  /** Application id → its applicant as replaced: kept as a guest applicant when no listed candidate is theirs. */
  applicants?: Record<string, GuestSeed>
  /** Records read that the scenario cannot hold, with why: never dropped without a word. */
  lost?: LostRecord[]
  applications: ApplicationSeed[]
  timesheets: TimesheetSeed[]
  marketing: MarketingSeed[]
  oldest?: string
}

/** A record the recording read and could not carry over. */
export interface LostRecord {
  kind: ListName
  /** Its id, or its place in the list when it has none. */
  id: string
  why: string
}

/** The kinds of record a recording reads, each as `seen → written`. */
export type Carried = Record<ListName, { seen: number; written: number }>

const emptyProgress = (): Progress => ({
  lists: Object.fromEntries(LIST_NAMES.map((name) => [name, { next: null, pages: 0, records: 0 }])) as unknown as Record<ListName, ListProgress>,
  fieldsDone: false,
  metricsDone: false,
  downloads: {},
  jobs: {},
  candidates: [],
  owners: {},
  applicantEmails: {},
  applicants: {},
  lost: [],
  applications: [],
  timesheets: [],
  marketing: [],
})

export interface RecordIo {
  /** Progress lines and the reason a run stopped. */
  stderr: { write(text: string): unknown }
  signal?: AbortSignal
  clock: KitClock
}

export type StopKind = 'auth' | 'incomplete' | 'interrupted'

export interface RecordResult {
  /** 0 complete, 1 records read that the scenario cannot hold (unless --allow-loss), 2 refused credentials or interrupted, 3 incomplete. */
  exitCode: 0 | 1 | 2 | 3
  complete: boolean
  reason?: string
  scenarioPath: string
  profilePath: string
  /** Requests sent in this run (retries counted), and records it recorded. */
  requests: number
  records: number
  /** Values that did not fit the scenario format and were left to the generator, as field paths. */
  dropped: string[]
  counts: Record<string, number>
  /** Per kind, the records read and the records the scenario holds of them. */
  carried: Carried
  /** The records read that the scenario cannot hold, and why. */
  lost: LostRecord[]
  /** Jobs recorded as the applications and the candidates' entries show them (the API cannot list jobs). */
  jobs: number
  /** Applications kept with an applicant of their own, no listed candidate being theirs. */
  guests: number
}

class Stop extends Error {
  readonly kind: StopKind
  constructor(kind: StopKind, message: string) {
    super(message)
    this.kind = kind
  }
}

/** The profile's path beside the scenario: `board.json` → `board.profile.json`. */
export const profilePathOf = (out: string) => out.replace(/\.json$/i, '.profile.json')

const idOfHref = (href: unknown): number | undefined => {
  const match = typeof href === 'string' ? /\/([0-9]+)\/?(?:\?.*)?$/.exec(href) : null
  return match ? Number(match[1]) : undefined
}

const isTimestamp = (value: unknown): value is string => typeof value === 'string' && /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/.test(value)

/** A previous incomplete recording of the same deployment in --out, if there is one. */
function priorProgress(out: string, origin: string): Progress | undefined {
  if (!existsSync(out)) return undefined
  try {
    const recording = rec(rec(JSON.parse(readFileSync(out, 'utf8'))).recording)
    if (recording.complete !== false || recording.origin !== origin || !isRec(recording.progress)) return undefined
    const progress = recording.progress as unknown as Progress
    return isRec(progress.lists) && Array.isArray(progress.candidates) ? progress : undefined
  } catch {
    return undefined
  }
}

/** A file the recording could not write (a full disk, a folder it may not write in). */
export class WriteError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WriteError'
  }
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, text)
    renameSync(temporary, path)
  } catch (error) {
    throw new WriteError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

export class Recorder {
  readonly #settings: RecordSettings
  readonly #io: RecordIo
  /** Hides the credentials in what the recording writes (its files and lines); never in what it reads. */
  readonly #redact: Redactor
  readonly #client: Client
  readonly #ledger: Ledger
  readonly #contract: ReturnType<typeof clientSettings>
  readonly #anon: Anonymiser
  readonly #origin: string
  readonly #progress: Progress
  readonly resumed: boolean
  readonly #visited = new Set<string>()
  #recordedNow = 0
  #lastSave: number
  /** How long the last save on the way took (ms). */
  #saveCost = 0

  constructor(settings: RecordSettings, io: RecordIo) {
    this.#settings = settings
    const contract = clientSettings(settings)
    this.#redact = redactorOf(contract)
    this.#io = { ...io, stderr: redacting(io.stderr, this.#redact) }
    this.#ledger = settings.ledger ? Ledger.load(settings.ledger) : Ledger.none()
    this.#client = new Client({ settings: contract, clock: io.clock, ledger: this.#ledger, signal: io.signal ?? new AbortController().signal })
    this.#contract = contract
    this.#origin = new URL(settings.baseUrl).origin
    this.#anon = new Anonymiser(replacementKey(settings.baseUrl, settings.username, settings.password))
    const prior = priorProgress(settings.out, this.#origin)
    this.resumed = prior !== undefined
    this.#progress = prior ?? emptyProgress()
    this.#lastSave = io.clock.now()
  }

  #say(line: string): void {
    this.#io.stderr.write(`jobboard-kit record: ${line}\n`)
  }

  /** Walks what is left to walk, then writes the scenario and its profile, whatever stopped the walk. */
  async run(): Promise<RecordResult> {
    if (this.resumed) this.#say(`going on with the incomplete recording in ${this.#settings.out}`)
    let stop: Stop | undefined
    try {
      await this.#walk()
    } catch (error) {
      if (!(error instanceof Stop)) {
        // a bug still leaves what was read, then says itself
        this.#save(false, `stopped by an unexpected error: ${(error as Error).message}`)
        throw error
      }
      stop = error
    }
    const complete = stop === undefined
    const { dropped, counts, carried, lost, jobs, guests } = this.#save(complete, stop?.message)
    this.#ledger.save(this.#io.clock.now())
    const requests = this.#client.log.reduce((n, r) => n + r.attempts, 0)
    // a record read and not written is a loss, said out loud: exit 1 unless --allow-loss asked for the partial scenario
    if (lost.length > 0) this.#say(`${this.#settings.allowLoss ? 'warning: ' : ''}${describeLoss(lost)}`)
    const lossExit = lost.length > 0 && !this.#settings.allowLoss
    return {
      exitCode: stop !== undefined && stop.kind !== 'incomplete' ? 2 : lossExit ? 1 : stop === undefined ? 0 : 3,
      complete,
      ...(stop ? { reason: stop.message } : {}),
      scenarioPath: this.#settings.out,
      profilePath: profilePathOf(this.#settings.out),
      requests,
      records: this.#recordedNow,
      dropped,
      counts,
      carried,
      lost,
      jobs,
      guests,
    }
  }

  async #walk(): Promise<void> {
    const p = this.#progress
    if (!p.fieldsDone) {
      const answer = await this.#optional('/job/fields', 'job/fields')
      const found = answer ? findFieldLists(answer.json) : undefined
      if (found) {
        const fields: Record<string, string[]> = {}
        for (const name of FIELD_NAMES) {
          const list = found.lists[name]
          if (Array.isArray(list) && list.length > 0 && list.every((v) => typeof v === 'string' && v !== '')) fields[name] = [...new Set(list as string[])]
        }
        p.fields = fields
      }
      p.fieldsDone = true
    }
    if (!p.metricsDone) {
      const answer = await this.#optional('/metrics/list', 'metrics/list')
      const months: Record<string, number> = {}
      const values: Record<string, Record<string, number>> = {}
      for (const metric of recs(rec(answer?.json).metrics)) {
        const label = str(metric.label)
        const n = Array.isArray(metric.aggregations) ? metric.aggregations.length : 0
        if (!label || !(METRIC_LABELS as readonly string[]).includes(label) || n < 1) continue
        months[label] = Math.min(120, n)
        // a metric the fake counts from the listed records follows from them; the others' values are kept as they are
        if ((LISTED_METRICS as readonly string[]).includes(label)) continue
        const read = monthValues(metric.aggregations)
        if (read) values[label] = read
        else this.#say(`metrics/list: ${label}'s months do not read as a year, a month and a total each: its values are generated`)
      }
      p.metricMonths = months
      p.metricValues = values
      p.metricsDone = true
    }
    // candidates first: their application entries link applications to them
    for (const name of LIST_NAMES) await this.#walkList(name)
    for (const kind of DOWNLOADS) {
      const href = p.downloads[kind]
      if (typeof href !== 'string') continue
      // the bytes are dropped at once: only the answer's headers tell the profile anything
      try {
        await this.#get(href, `a ${kind} download`, true)
      } catch (error) {
        // a download only shows a Content-Type: one that fails leaves that point unseen, not the recording short
        if (!(error instanceof Stop) || error.kind !== 'incomplete') throw error
        this.#say(`${error.message}; its Content-Type stays unrecorded`)
      }
      p.downloads[kind] = null
    }
  }

  /** A GET's answer, or a Stop saying why there is none. */
  async #get(url: string, what: string, download = false): Promise<{ status: number; json: unknown; headers: Readonly<Record<string, string>> } | undefined> {
    if (!this.#client.sameOrigin(url)) throw new Stop('incomplete', `${what} leads to ${new URL(url).origin}, off the base URL: not followed (credentials go to the base URL only)`)
    const outcome: Outcome = await this.#client.get(url)
    if (outcome.kind === 'unavailable') {
      if (outcome.cause === 'aborted') throw new Stop('interrupted', `interrupted while reading ${what}`)
      const later = outcome.cause === 'rate-limited' || outcome.cause === 'ledger'
      // the client quotes the start of a 5xx body: it may hold anything, so the scenario and the message keep the status only
      const reason = outcome.reason.replace(/^(answered HTTP [0-9]+(?: \([^)]*\))?): [\s\S]*?((?: \(asked twice\))?)$/, '$1$2')
      throw new Stop(
        'incomplete',
        `${what} (${url}) ${reason}${later ? '; run again later with the same --out and --ledger to go on' : outcome.cause === 'service' ? ': the deployment is failing, stopped' : ''}`,
      )
    }
    if (outcome.status === 401 || outcome.status === 403) {
      throw new Stop('auth', `the deployment refused the credentials (HTTP ${outcome.status} on ${what}): check --username and --password (or JOBBOARD_USERNAME and JOBBOARD_PASSWORD)`)
    }
    if (download) return outcome
    if (outcome.status !== 200) throw new Stop('incomplete', `${what} (${url}) answered HTTP ${outcome.status}`)
    return outcome
  }

  /** job/fields or metrics/list: a deployment without it (a 4xx) is recorded without what it gives. */
  async #optional(path: string, what: string): Promise<{ json: unknown } | undefined> {
    const answer = await this.#get(this.#client.api(path), what, true)
    if (answer?.status === 200) return answer
    this.#say(`${what} answered HTTP ${answer?.status}: recorded without it`)
    return undefined
  }

  async #walkList(name: ListName): Promise<void> {
    const def = LIST_DEFS[name]
    const list = this.#progress.lists[name]
    const sample = this.#settings.sample
    if (list.pages === 0 && list.next === null) list.next = this.#client.api(def.path)
    while (list.next !== null) {
      const url = list.next
      if (this.#visited.has(url)) throw new Stop('incomplete', `${def.endpoint}: next_page leads back to a page already read (page ${list.pages + 1}); stopped`)
      const bound = list.total !== undefined && list.pageSize ? Math.ceil(list.total / list.pageSize) + 1 : undefined
      if (list.pages >= this.#settings.maxPages || (bound !== undefined && list.pages >= bound)) {
        throw new Stop('incomplete', `${def.endpoint}: next_page goes on past ${list.pages} pages, more than its total of ${list.total ?? '?'} needs; stopped (an endless next_page chain)`)
      }
      this.#visited.add(url)
      const answer = await this.#get(url, `${def.endpoint} page ${list.pages + 1}`)
      const page = answer ? pageOf(answer as Parameters<typeof pageOf>[0]) : undefined
      if (!page) throw new Stop('incomplete', `${def.endpoint} page ${list.pages + 1} ${notAPage(answer as Parameters<typeof pageOf>[0])}`)
      list.pages++
      if (typeof page.total === 'number' && Number.isInteger(page.total) && page.total >= 0) list.total = page.total
      if (list.pages === 1 && page.data.length > 0) list.pageSize = page.data.length
      const room = sample === undefined ? page.data.length : Math.max(0, sample - list.records)
      const taken = page.data.slice(0, room)
      for (const record of taken) this.#take(name, record)
      list.records += taken.length
      this.#recordedNow += taken.length
      const more = typeof page.nextPage === 'string' && page.nextPage !== ''
      if (more && page.data.length === 0) throw new Stop('incomplete', `${def.endpoint}: page ${list.pages} is empty yet has a next_page; stopped (an endless next_page chain)`)
      const wanted = more && (sample === undefined || list.records < sample)
      // URL.canParse, not URL.parse: Node 20.12 has only the first
      const next = !wanted ? null : URL.canParse(page.nextPage as string, url) ? new URL(page.nextPage as string, url).href : undefined
      if (next === undefined) throw new Stop('incomplete', `${def.endpoint}: page ${list.pages}'s next_page is not a URL; stopped`)
      list.next = next
      const of = list.total !== undefined ? ` of ${list.total}` : ''
      const pages = list.total !== undefined && list.pageSize ? ` of ${Math.max(1, Math.ceil(list.total / list.pageSize))}` : ''
      this.#say(`${def.endpoint} page ${list.pages}${pages}: ${list.records}${of} ${def.noun}s recorded`)
      this.#saveNowAndThen()
    }
  }

  /**
   * Saves the partial scenario every few seconds, so a killed run leaves something
   * recent; at most a tenth of the time goes to it (a large board takes a while to write).
   */
  #saveNowAndThen(): void {
    const now = this.#io.clock.now()
    if (now - this.#lastSave < Math.max(5000, 10 * this.#saveCost)) return
    this.#save(false, 'the run was still going when this was written')
    this.#ledger.save(now)
    this.#lastSave = this.#io.clock.now()
    this.#saveCost = this.#lastSave - now
  }

  /** A record read that the scenario cannot hold: counted, named and said, never dropped without a word. */
  #lose(kind: ListName, id: unknown, why: string): void {
    this.#progress.lost ??= []
    this.#progress.lost.push({ kind, id: typeof id === 'number' || typeof id === 'string' ? String(id) : JSON.stringify(id) ?? 'none', why })
  }

  #older(at: unknown): void {
    if (isTimestamp(at) && (this.#progress.oldest === undefined || at < this.#progress.oldest)) this.#progress.oldest = at
  }

  #take(name: ListName, record: Rec): void {
    if (name === 'candidates') this.#candidate(record)
    else if (name === 'applications') this.#application(record)
    else if (name === 'timesheets') this.#timesheet(record)
    else this.#marketing(record)
  }

  #job(job: Rec, salary?: unknown): void {
    const id = int(job.id)
    if (id === undefined || id < 1) return
    const seed: Record<string, unknown> = { ...this.#progress.jobs[id], id }
    if (typeof job.title === 'string' && job.title !== '') seed.job_title = job.title
    if (typeof job.reference === 'string' && job.reference !== '') seed.job_reference = job.reference
    if (typeof job.location === 'string' && job.location !== '') seed.job_location = job.location
    Object.assign(seed, this.#salary(salary))
    this.#progress.jobs[id] = seed as JobSeed
  }

  /** `£45,000 per year` read back into salary_precise and salary_unit, when it reads. */
  #salary(text: unknown): Partial<JobSeed> {
    if (typeof text !== 'string') return {}
    const units = this.#progress.fields?.salary_unit ?? ['Per hour', 'Per year', 'Per week', 'Per month']
    const unit = units.find((u) => text.toLowerCase().endsWith(u.toLowerCase()))
    const amount = /([0-9][0-9,]*(\.[0-9]+)?)/.exec(text)?.[1]?.replace(/,/g, '')
    return unit && amount ? ({ salary_unit: unit, salary_precise: amount } as Partial<JobSeed>) : {}
  }

  #download(kind: DownloadKind, href: unknown): void {
    // only a plain download link (a path ending in an id) is kept: one that carried more, a file name say, is not asked
    if (typeof href !== 'string' || this.#progress.downloads[kind] !== undefined || !this.#client.sameOrigin(href)) return
    const url = new URL(href)
    if (url.search === '' && url.hash === '' && /\/[0-9]+$/.test(url.pathname)) this.#progress.downloads[kind] = href
  }

  #files(entries: unknown, kind: 'resume' | 'document' | 'timesheet'): Array<{ filename?: string; filesize?: number }> {
    return recs(entries).map((file) => {
      this.#download(kind, file.href)
      const size = typeof file.filesize === 'string' && /^[0-9]+$/.test(file.filesize) ? Number(file.filesize) : int(file.filesize)
      return {
        ...(typeof file.filename === 'string' && file.filename !== '' ? { filename: this.#anon.replace('filename', file.filename) } : {}),
        ...(size !== undefined ? { filesize: size } : {}),
      }
    })
  }

  #candidate(c: Rec): void {
    const a = this.#anon
    const id = int(c.id)
    if (id === undefined || id < 1) {
      this.#lose('candidates', c.id, 'its id is not an integer of 1 or more')
      return
    }
    const seed: Record<string, unknown> = {}
    const replaced: Record<string, Parameters<Anonymiser['replace']>[0]> = {
      identifier: 'identifier',
      email: 'email',
      signup_email: 'email',
      name: 'name',
      telephone: 'telephone',
      address: 'address',
      city: 'city',
      county: 'county',
      postcode: 'postcode',
      latitude: 'latitude',
      longitude: 'longitude',
      current_employer: 'text',
      cover_letter: 'text',
      overview: 'text',
    }
    // kept as they are: value sets (seeking, sectors...), dates, flags, the country and the skill lists
    const kept = [
      'last_login', 'created_at', 'updated_at', 'marketing_opted_in', 'hot', 'featured', 'job_title', 'current_salary', 'preferred_salary', 'seeking',
      'notice_period', 'work_eligible', 'preferred_job_titles', 'sectors', 'disciplines', 'employment_types', 'contract_types', 'expertise', 'locations',
      'sector_disciplines', 'available_from', 'available_from_year', 'available_from_day', 'available_from_month', 'available_from_hr', 'experience',
      'specialisms', 'qualifications', 'skills', 'country',
    ]
    seed.id = id
    for (const [field, kind] of Object.entries(replaced)) if (typeof c[field] === 'string') seed[field] = a.replace(kind, c[field] as string)
    for (const field of kept) if (c[field] !== undefined && c[field] !== null) seed[field] = structuredClone(c[field])
    seed.resumes = this.#files(c.resumes, 'resume')
    seed.documents = this.#files(c.documents, 'document')
    for (const file of recs(c.timesheets)) this.#download('timesheet', file.href)
    for (const entry of recs(c.applications)) {
      const application = idOfHref(entry.href)
      if (application !== undefined) this.#progress.owners[application] = id
      this.#job(rec(entry.job))
    }
    this.#older(c.created_at)
    this.#progress.candidates.push(seed as CandidateSeed)
  }

  #application(r: Rec): void {
    const id = int(r.id)
    if (id === undefined || id < 1) {
      this.#lose('applications', r.id, 'its id is not an integer of 1 or more')
      return
    }
    const applicant = rec(r.applicant)
    const attachment = rec(applicant.attachment)
    const vacancy = rec(r.vacancy)
    this.#job(vacancy, vacancy.salary)
    this.#download('attachment', attachment.href)
    const seed: Record<string, unknown> = { id }
    const job = int(vacancy.id)
    if (job !== undefined && job >= 1) seed.job_id = job
    if (isTimestamp(r.created_at)) seed.created_at = r.created_at
    // a client's since may read updated_at: kept when it is later (the fake's is never earlier than created_at)
    if (isTimestamp(r.updated_at) && (seed.created_at === undefined || r.updated_at > (seed.created_at as string))) seed.updated_at = r.updated_at
    if (typeof applicant.cover_letter === 'string') seed.cover_letter = this.#anon.replace('text', applicant.cover_letter)
    if (typeof attachment.filename === 'string' && attachment.filename !== '') seed.attachment_filename = this.#anon.replace('filename', attachment.filename)
    if (typeof applicant.email === 'string') this.#progress.applicantEmails[id] = this.#anon.replace('email', applicant.email)
    // the applicant as a guest, should no listed candidate be theirs: replaced as a candidate's values are
    const guest: Record<string, string> = {}
    if (typeof applicant.name === 'string' && applicant.name !== '') guest.name = this.#anon.replace('name', applicant.name)
    if (typeof applicant.email === 'string' && applicant.email !== '') guest.email = this.#anon.replace('email', applicant.email)
    if (typeof applicant.telephone === 'string') guest.telephone = this.#anon.replace('telephone', applicant.telephone)
    this.#progress.applicants ??= {}
    this.#progress.applicants[id] = guest as GuestSeed
    this.#older(r.created_at)
    this.#progress.applications.push(seed as ApplicationSeed)
  }

  #timesheet(r: Rec): void {
    const id = int(r.id)
    const owner = int(rec(r.candidate).id)
    if (id === undefined || id < 1 || owner === undefined || owner < 1) {
      const why = id === undefined || id < 1 ? 'its id is not an integer of 1 or more' : `its candidate id is ${JSON.stringify(rec(r.candidate).id) ?? 'absent'}: a timesheet of the fake belongs to a candidate`
      this.#lose('timesheets', r.id, why)
      return
    }
    const attachment = rec(r.attachment)
    this.#download('timesheet', attachment.href)
    const [file] = this.#files([{ filename: attachment.filename, filesize: attachment.filesize }], 'timesheet')
    const seed: Record<string, unknown> = { id, candidate_id: owner, ...file }
    if (isTimestamp(r.created_at)) seed.created_at = r.created_at
    this.#older(r.created_at)
    this.#progress.timesheets.push(seed as TimesheetSeed)
  }

  #marketing(r: Rec): void {
    const candidate = rec(r.candidate)
    const seed: Record<string, unknown> = {}
    const owner = int(candidate.id)
    if (owner !== undefined && owner >= 0) seed.candidate_id = owner
    if (typeof candidate.email === 'string') seed.email = this.#anon.replace('email', candidate.email)
    if (typeof candidate.ip_address === 'string') seed.ip_address = this.#anon.replace('ip', candidate.ip_address)
    // the word as it came: the scenario is built with the board's approval word (a profile point) once every record is read
    if (typeof r.action === 'string') seed.action = r.action
    if (isTimestamp(r.created_at)) seed.created_at = r.created_at
    this.#older(r.created_at)
    this.#progress.marketing.push(seed as MarketingSeed)
  }

  /** The scenario of what is gathered so far, and its profile beside it; both written through a temporary file. */
  #save(complete: boolean, reason: string | undefined): { dropped: string[]; counts: Record<string, number>; carried: Carried; lost: LostRecord[]; jobs: number; guests: number } {
    const now = this.#io.clock.now()
    // a context of its own each time: the profile reader keeps its readings by context, and more answers have come since
    const readings = readProfile(new RunContext(this.#contract, this.#client, this.#io.clock, this.#ledger))
    let prior: LoadedProfile | undefined
    const profilePath = profilePathOf(this.#settings.out)
    try {
      prior = existsSync(profilePath) ? loadProfile(profilePath) : undefined
    } catch {
      prior = undefined
    }
    const { profile } = mergeProfile(prior, readings, { origin: this.#origin, recordedAt: now, kitVersion: PACKAGE_VERSION })
    const points = profile.points as Record<string, { value?: unknown } | undefined>
    const { built, lost } = this.#scenario(complete, reason, now, points)
    const dropped = fitted(built)
    const records = built.records as Record<ListName, Array<{ id?: number; applicant?: unknown }>> & { jobs: unknown[] }
    // a whole record the format refused goes as a loss, with the place it had
    for (const field of dropped) {
      const whole = /^records\.(candidates|applications|timesheets|marketing)\[([0-9]+)\]$/.exec(field)
      if (whole) lost.push({ kind: whole[1] as ListName, id: `#${whole[2]}`, why: 'it does not fit the scenario format' })
    }
    const carried = Object.fromEntries(LIST_NAMES.map((name) => [name, { seen: this.#progress.lists[name].records, written: records[name].length }])) as Carried
    writeAtomically(this.#settings.out, `${JSON.stringify(this.#redact.deep(built), null, 2)}\n`)
    writeAtomically(profilePath, `${JSON.stringify(this.#redact.deep(profile), null, 2)}\n`)
    const guests = records.applications.filter((a) => a.applicant !== undefined).length
    return { dropped, counts: { ...(built.counts as Record<string, number>) }, carried, lost, jobs: records.jobs.length, guests }
  }

  #scenario(complete: boolean, reason: string | undefined, now: number, points: Record<string, { value?: unknown } | undefined>): { built: ScenarioFile; lost: LostRecord[] } {
    const p = this.#progress
    const total = (name: ListName) => p.lists[name].total ?? p.lists[name].records
    // what a list's total holds beyond the records read is generated: a sample, or a run cut short, keeps the board's size
    const generated = (name: ListName, recorded: number) => Math.max(0, total(name) - recorded)
    const candidates = p.candidates
    const genCandidates = generated('candidates', candidates.length)
    const offsetOf = (ids: number[], gen: number) => (ids.some((id) => id <= gen) ? gen : 0)
    const candidateShift = offsetOf(candidates.map((c) => c.id as number), genCandidates)
    const pinnedCandidates = new Set(candidates.map((c) => c.id as number))
    const byEmail = new Map(candidates.map((c) => [c.email, c.id as number]))
    const generatedOwner = (key: number) => (genCandidates > 0 ? 1 + (hash32('owner', key) % genCandidates) : undefined)
    const ownerOf = (id: number | undefined, key: number): number | undefined =>
      id !== undefined && pinnedCandidates.has(id) ? id + candidateShift : generatedOwner(key)

    let genApplications = generated('applications', p.applications.length)
    if (genApplications > 0 && genCandidates === 0) genApplications = 0
    const applicationShift = offsetOf(p.applications.map((a) => a.id as number), genApplications)
    const lost: LostRecord[] = [...(p.lost ?? [])]
    const value = (point: string) => points[point]?.value
    const applications = p.applications.flatMap((a): ApplicationSeed[] => {
      const id = a.id as number
      if (a.job_id === undefined) {
        lost.push({ kind: 'applications', id: String(id), why: 'its vacancy has no id: an application of the fake is for a job' })
        return []
      }
      const owner = ownerOf(p.owners[id] ?? byEmail.get(p.applicantEmails[id]), id)
      // no listed candidate is theirs, and every candidate was listed: an applicant of their own (a guest)
      if (owner === undefined) return [{ ...a, id: id + applicationShift, applicant: p.applicants?.[id] ?? {} }]
      return [{ ...a, id: id + applicationShift, candidate_id: owner }]
    })
    const genTimesheets = genCandidates + candidates.length > 0 ? generated('timesheets', p.timesheets.length) : 0
    const timesheetShift = offsetOf(p.timesheets.map((t) => t.id as number), genTimesheets)
    const timesheets = p.timesheets.flatMap((t) => {
      const owner = ownerOf(t.candidate_id, t.id as number)
      if (owner === undefined) lost.push({ kind: 'timesheets', id: String(t.id), why: `its candidate ${String(t.candidate_id)} is not among the candidates listed` })
      return owner === undefined ? [] : [{ ...t, id: (t.id as number) + timesheetShift, candidate_id: owner }]
    })
    // a seed says Approved for an approval; the board shows the deployment's own word for it (behaviour.marketingApprovalAction)
    const approval = value('marketingApprovalAction') ?? MARKETING_ACTIONS[0]
    const marketing = p.marketing.flatMap((m, index): MarketingSeed[] => {
      const owner = m.candidate_id !== undefined && pinnedCandidates.has(m.candidate_id) ? m.candidate_id + candidateShift : 0
      const word = m.action as string | undefined
      const action = word === REVOKED ? REVOKED : word === approval ? MARKETING_ACTIONS[0] : undefined
      if (action === undefined) {
        const why = word === undefined ? 'it has no action' : `its action ${JSON.stringify(word)} is neither Revoked nor the word the board approves with (${JSON.stringify(approval)}): a board of the fake has one`
        lost.push({ kind: 'marketing', id: `#${index + 1}`, why })
        return []
      }
      return [{ ...m, candidate_id: owner, action }]
    })
    const jobs = Object.values(p.jobs)
    const perCandidate = (kind: 'resumes' | 'documents') => {
      const recorded = candidates.reduce((n, c) => n + (c[kind]?.length ?? 0), 0)
      return candidates.length > 0 ? Math.round((recorded / candidates.length) * genCandidates) : 0
    }
    const counts = {
      // the highest job id seen is the least the board holds: generated jobs fill the ids below it that nobody applied to
      jobs: genApplications > 0 ? Math.max(1, ...jobs.map((j) => j.id as number)) : 0,
      candidates: genCandidates,
      applications: genApplications,
      timesheets: genTimesheets,
      resumes: perCandidate('resumes'),
      documents: perCandidate('documents'),
      marketing: generated('marketing', p.marketing.length),
    }
    const behaviour = Object.fromEntries(Object.keys(behaviourProperties).flatMap((point) => (value(point) === undefined ? [] : [[point, value(point)]])))
    const pageSize = value('pageSize') ?? LIST_NAMES.map((n) => p.lists[n]).find((l) => l.next !== null || (l.total ?? 0) > l.records)?.pageSize
    const nowText = formatTimestamp(now)
    const months = p.oldest ? Math.ceil((now - parseTime(p.oldest)) / (30.44 * 86_400_000)) + 1 : 24
    const name = basename(this.#settings.out).replace(/\.json$/i, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'recorded'
    const recording: Record<string, unknown> = { origin: this.#origin, recorded_at: nowText, complete }
    if (reason !== undefined) recording.reason = reason
    if (this.#settings.sample !== undefined) recording.sample = this.#settings.sample
    if (!complete) recording.progress = p
    const shift = (c: CandidateSeed) => ({ ...c, id: (c.id as number) + candidateShift })
    const built = {
      name: /^[a-z0-9]/.test(name) ? name : `recorded-${name}`,
      description: `Recorded from ${this.#origin} on ${nowText}${complete ? '' : ' (incomplete)'}${this.#settings.sample !== undefined ? `, a sample of ${this.#settings.sample} records a list` : ''}; personal values replaced.`,
      seed: hash32('record', this.#origin),
      now: nowText,
      historyMonths: Math.min(120, Math.max(1, months)),
      counts,
      ...(typeof pageSize === 'number' ? { pageSize } : {}),
      ...(typeof value('rateLimitWindow') === 'number' ? { rateLimitWindow: value('rateLimitWindow') as number } : {}),
      ...(p.fields && Object.keys(p.fields).length > 0 ? { fieldValues: p.fields } : {}),
      ...(p.metricMonths && Object.keys(p.metricMonths).length > 0 ? { metricMonths: p.metricMonths } : {}),
      ...(p.metricValues && Object.keys(p.metricValues).length > 0 ? { metricValues: p.metricValues } : {}),
      records: { jobs, candidates: candidates.map(shift), applications, timesheets, marketing },
      behaviour,
      recording,
    } as ScenarioFile
    return { built, lost }
  }
}

/**
 * A metric's aggregations as month (`YYYY-MM`) → total, the month given by its name (long
 * or short, any case) or number; undefined when one does not read so.
 */
function monthValues(aggregations: unknown): Record<string, number> | undefined {
  const values: Record<string, number> = {}
  for (const row of Array.isArray(aggregations) ? aggregations : []) {
    const a = rec(row)
    const year = typeof a.year === 'number' ? a.year : typeof a.year === 'string' && /^[0-9]{4}$/.test(a.year) ? Number(a.year) : undefined
    const named = typeof a.month === 'string' ? a.month.trim().toLowerCase() : undefined
    const month =
      typeof a.month === 'number' ? a.month
      : named === undefined ? undefined
      : /^[0-9]{1,2}$/.test(named) ? Number(named)
      : 1 + Math.max(MONTH_NAMES.findIndex((m) => m.toLowerCase() === named), MONTH_SHORT_NAMES.findIndex((m) => m.toLowerCase() === named))
    const total = int(a.total)
    if (year === undefined || !Number.isInteger(year) || year < 1000 || year > 9999 || month === undefined || !Number.isInteger(month) || month < 1 || month > 12 || total === undefined || total < 0) return undefined
    const key = `${year}-${String(month).padStart(2, '0')}`
    values[key] = (values[key] ?? 0) + total
  }
  return Object.keys(values).length > 0 ? values : undefined
}

/** The records a recording could not carry over, by kind, with their ids and why: one line. */
export function describeLoss(lost: readonly LostRecord[]): string {
  const kinds = [...new Set(lost.map((l) => l.kind))]
  const parts = kinds.map((kind) => {
    const of = lost.filter((l) => l.kind === kind)
    const whys = [...new Set(of.map((l) => l.why))]
    const ids = of.slice(0, 10).map((l) => l.id).join(', ')
    return `${of.length} ${kind} (${ids}${of.length > 10 ? `, and ${of.length - 10} more` : ''}): ${whys.join('; ')}`
  })
  return `records read and not written: ${parts.join('; ')} (--allow-loss keeps the scenario without them and exits 0)`
}

/**
 * Takes out of a built scenario, in place, every value the scenario format refuses (a
 * deployment may write a date or a list value the fake's schemas do not take), so the
 * file loads; the generator makes those values instead. All of a pass's errors go at
 * once (the validator reports every one), so a value wrong in every record costs a pass,
 * not a pass per record. Answers the fields taken out.
 */
function fitted(scenario: ScenarioFile): string[] {
  const dropped: string[] = []
  for (let pass = 0; pass < 20; pass++) {
    const copy = structuredClone(scenario)
    const lists = sharedSchemas().get('lists', () => compileSchema(SCENARIO_POLICY, scenarioListsSchema))
    const bound = lists(copy) ? boardLists(copy as Scenario) : undefined
    const validate = bound ? sharedSchemas().get(JSON.stringify(bound), () => compileSchema(SCENARIO_POLICY, boundScenarioSchema(bound))) : lists
    if (validate(copy)) {
      // the fake's own check, as serve runs it: what passes here loads
      parseScenario(scenario, 'the recorded scenario', { compiled: sharedSchemas() })
      return dropped
    }
    // deepest first, so removing an array item does not move the others' paths
    const fields = [...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'if').map(fieldOf))].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    const removed = fields.filter((field) => remove(scenario, field))
    if (removed.length === 0) throw new ScenarioError(`the recorded scenario does not fit the scenario format at ${fields[0] ?? 'its top level'}`, fields[0] ?? '')
    dropped.push(...removed)
  }
  throw new Error('the recorded scenario still does not fit after 20 passes')
}

/** Deletes the value at a path such as `records.candidates[3].email`; false when there is none to delete. */
function remove(root: unknown, path: string): boolean {
  const steps = path.match(/[^.[\]]+/g) ?? []
  if (steps.length === 0) return false
  let node: unknown = root
  for (const step of steps.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false
    node = (node as Record<string, unknown>)[step]
  }
  const last = steps[steps.length - 1] as string
  if (node === null || typeof node !== 'object' || !(last in node)) return false
  if (Array.isArray(node)) node.splice(Number(last), 1)
  else delete (node as Record<string, unknown>)[last]
  return true
}

export async function record(settings: RecordSettings, io: RecordIo): Promise<RecordResult> {
  return new Recorder(settings, io).run()
}
