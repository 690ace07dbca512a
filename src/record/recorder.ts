// `jobboard-kit record`: walks a deployment's lists within its rate limit (each full
// request once, through the contract kit's client, pacing and ledger), replaces every
// personal value (src/record/anonymise.ts) and writes a scenario the fake loads with
// `serve --scenario FILE.json`: the records pinned with their ids, counts, constrained
// values, metric months and the deployment's choices (its profile, written beside it,
// and the scenario's behaviour). A run cut short (refused credentials, a 5xx storm, an
// endless next_page chain, a rate-limit window beyond --max-wait, a signal) still writes
// a loadable scenario, marked incomplete, holding what it needs to go on: the next run
// with the same --out (and --ledger) continues where this one stopped.
import { existsSync, readFileSync } from 'node:fs'
import { PACKAGE_VERSION } from '../core/paths.js'
import { prototypeKeyPath } from '../core/prototype-keys.js'
import type { KitClock } from '../contract/kit-clock.js'
import { RunContext } from '../contract/context.js'
import { Client, redactorOf } from '../contract/http.js'
import type { Outcome } from '../contract/request-outcomes.js'
import { redacting, type Redactor } from '../contract/redact.js'
import { Ledger } from '../contract/ledger.js'
import { readProfile } from '../contract/point-recorders.js'
import { mergeProfile } from '../contract/profile-merge.js'
import { isRec, notAPage, pageOf, rec, succeeded } from '../contract/records.js'
import { loadProfile, type LoadedProfile } from '../profile/deployment-profile.js'
import { replacementKey } from './anonymise.js'
import { WriteError, writeAtomically } from './atomic-write.js'
import { Gatherer } from './gather.js'
import { type Carried, DOWNLOADS, describeLoss, LIST_DEFS, LIST_NAMES, type ListName, type LostRecord, type Progress } from './recording-progress.js'
import { clientSettings, type RecordSettings } from './record-settings.js'

export { describeLoss, type Carried, type ListName, type LostRecord, type Progress, WriteError }

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

/** A previous incomplete recording of the same deployment in --out, if there is one. */
function priorProgress(out: string, origin: string): Progress | undefined {
  if (!existsSync(out)) return undefined
  try {
    const saved = JSON.parse(readFileSync(out, 'utf8')) as unknown
    // a file holding a prototype key is no recording to resume (serve refuses it as a scenario, naming where)
    if (prototypeKeyPath(saved) !== undefined) return undefined
    const recording = rec(rec(saved).recording)
    if (recording.complete !== false || recording.origin !== origin || !isRec(recording.progress)) return undefined
    const progress = recording.progress as unknown as Progress
    return isRec(progress.lists) && Array.isArray(progress.candidates) ? progress : undefined
  } catch {
    return undefined
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
  readonly #gather: Gatherer
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
    const prior = priorProgress(settings.out, this.#origin)
    this.resumed = prior !== undefined
    this.#gather = new Gatherer({
      key: replacementKey(settings.baseUrl, settings.username, settings.password),
      sameOrigin: (href) => this.#client.sameOrigin(href),
      ...(prior === undefined ? {} : { progress: prior }),
      say: (line) => this.#say(line),
    })
    this.#progress = this.#gather.progress
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
      if (answer) this.#gather.fields(answer.json)
      p.fieldsDone = true
    }
    if (!p.metricsDone) {
      const answer = await this.#optional('/metrics/list', 'metrics/list')
      this.#gather.metrics(answer?.json)
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
    if (!succeeded(outcome)) throw new Stop('incomplete', `${what} (${url}) answered HTTP ${outcome.status}`)
    return outcome
  }

  /** job/fields or metrics/list: a deployment without it (a 4xx) is recorded without what it gives. */
  async #optional(path: string, what: string): Promise<{ json: unknown } | undefined> {
    const answer = await this.#get(this.#client.api(path), what, true)
    if (answer !== undefined && succeeded(answer)) return answer
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
      for (const record of taken) this.#gather.take(name, record)
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
    const { built, dropped, counts, carried, lost, jobs, guests } = this.#gather.build({ complete, reason, now, points, origin: this.#origin, out: this.#settings.out, sample: this.#settings.sample })
    writeAtomically(this.#settings.out, `${JSON.stringify(this.#redact.deep(built), null, 2)}\n`)
    // the profile's keys are the schema's names (a point's `date`), which a short password of the same word must not rewrite
    writeAtomically(profilePath, `${JSON.stringify(this.#redact.values(profile), null, 2)}\n`)
    return { dropped, counts, carried, lost, jobs, guests }
  }
}

export async function record(settings: RecordSettings, io: RecordIo): Promise<RecordResult> {
  return new Recorder(settings, io).run()
}
