// The fake as an object a test holds: createMockServer builds the app and answers the
// in-process API (clock, store, faults, journal, state), the same operations the
// /__mock control API offers. It listens only when asked; the CLI's `serve` is a thin
// shell over it.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isIP } from 'node:net'
import { servedFirstAnswer } from './first-answer.js'
import { buildApp, type BuildOptions } from './app.js'
import type { Board, ResetOptions } from './board/board.js'
import type { ClockControl, Controller, ExportOptions, JobFieldsView, SavedBoard } from './control-api.js'
import type { ActivityStatus } from './activity/play.js'
import type { ArmedFault } from './board/armed-faults.js'
import { logMode, prettyRequestLog } from './http/log.js'
import { resolveOptions, type ResolvedOptions } from './options.js'
import { applyProfile, loadProfile, type ProfileOverride } from '../profile/deployment-profile.js'
import type { ListQuery, Page } from './store/store.js'
import type { DetailedVerdict } from '../watch/verdict/verdict-types.js'
import type {
  Application,
  ApplicationSeed,
  BoardState,
  CompactBoardState,
  Candidate,
  CandidateSeed,
  CopyAnswer,
  CopyBody,
  FaultInput,
  JobFieldsChange,
  JobInput,
  JournalEntry,
  MarketingRecord,
  MarketingSeed,
  Metric,
  StoredJob,
  Timesheet,
  TimesheetSeed,
} from '../core/types.js'

export class ServerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServerError'
  }
}

/** Whether binding to this host keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1'
  return false
}

/** Typed reads of the board and the same add helpers as the control API. Records are copies. */
export interface MockStore {
  candidate(id: number): Candidate | undefined
  application(id: number): Application | undefined
  timesheet(id: number): Timesheet | undefined
  job(id: number): StoredJob | undefined
  candidates(query?: ListQuery): Page<Candidate>
  applications(query?: ListQuery & { vacancy?: number }): Page<Application>
  timesheets(query?: ListQuery): Page<Timesheet>
  marketing(query?: ListQuery): Page<MarketingRecord>
  metrics(): Metric[]
  addCandidate(seed?: CandidateSeed): Candidate
  addApplication(seed?: ApplicationSeed): Application
  addTimesheet(seed?: TimesheetSeed): Timesheet
  addMarketing(seed?: MarketingSeed): MarketingRecord
  /** A job as job/add makes it, without the rate limit. */
  addJob(input: JobInput): StoredJob
}

/** What a test does to one account's board: the same as the server offers for its first account. */
export interface MockAccount {
  /** The account's name: its API user name. */
  readonly name: string
  /** The board behind the account: scenario, store, clock, rate-limit windows (built on first use). */
  readonly board: Board
  readonly clock: ClockControl
  readonly store: MockStore
  readonly faults: { add(fault: FaultInput): ArmedFault; list(): ArmedFault[]; clear(): void }
  readonly journal: { list(path?: string): JournalEntry[]; clear(): void }
  readonly rateLimits: { list(): ReturnType<Controller['rateLimits']>; clear(): void }
  /**
   * The verdict on the client's requests since the journal was last emptied (all API
   * users, or one): the rules of src/watch/verdict/client-rules.ts, and the requests its findings name.
   */
  verdict(options?: { user?: string }): DetailedVerdict
  /** The copy-in-step oracle: the client's copy of lists, judged; it joins the verdict as copy-in-step. */
  verdictCopy(copy: CopyBody, options?: { user?: string }): CopyAnswer
  /** The activity playing (option activity): what it has played, what is left, and its failures; undefined when none. */
  readonly activity: { status(): ActivityStatus | undefined }
  /** The constrained values: read them, or retire and add some (journal, windows and records kept). */
  readonly jobFields: { get(): JobFieldsView; change(change: JobFieldsChange): JobFieldsView }
  /** A fresh board: store, clock, rate-limit windows, journal and faults. */
  reset(options?: ResetOptions): void
  /** The board as a saved state; credentials left out unless `{credentials: true}`. */
  exportState(options: ExportOptions & { form: 'compact' }): CompactBoardState
  exportState(options?: ExportOptions & { form?: 'full' }): BoardState
  /** `{form: 'compact'}`: only what differs from the board the scenario and seed generate. */
  exportState(options?: ExportOptions): SavedBoard
  /** Replaces the board; a state saved without credentials keeps the board's. Throws BoardInputError when invalid. */
  importState(state: SavedBoard): void
}

export interface MockServer extends MockAccount {
  readonly app: FastifyInstance
  readonly options: ResolvedOptions
  /** http://HOST:PORT once listening. */
  readonly url: string
  /** Listens on the port given (default: the options'; 0 picks a free one) and answers the URL. */
  listen(port?: number): Promise<string>
  /** A request in-process, without a socket. */
  inject(request: InjectOptions | string): Promise<LightMyRequestResponse>
  close(): Promise<void>
  /** The options given beside a profile that replaced its points (serve prints them). */
  readonly profileOverrides: readonly ProfileOverride[]
  /** The names of the accounts served, in the order declared (`['default']` when none were). */
  accounts(): string[]
  /** One account's controls (its board is built if it was not); a name the fake does not serve throws a 404 BoardError naming it. */
  account(name: string): MockAccount
}

/** Where the pretty request log writes (stdout by default), and whether in colour (as useColour decides by default). */
export interface LogOutput {
  write?: (line: string) => void
  colour?: boolean
}

export async function createMockServer(input: BuildOptions = {}, logOutput: LogOutput = {}): Promise<MockServer> {
  const { scenarioData, activityData, checkResponses, responseValidators, profile, accounts, fastPath, ...rest } = input
  const profiled = profile === undefined ? { options: rest, overrides: [] } : applyProfile(rest, loadProfile(profile))
  const options = resolveOptions(profiled.options)
  const requestLog = logMode(options) === 'pretty' ? await prettyRequestLog({ prefer: options.prefer, ...logOutput }) : undefined
  const app = await buildApp({
    ...options,
    ...(scenarioData ? { scenarioData } : {}),
    ...(activityData ? { activityData } : {}),
    ...(checkResponses ? { checkResponses, responseValidators } : {}),
    ...(requestLog ? { requestLog } : {}),
    ...(accounts ? { accounts } : {}),
    ...(fastPath === undefined ? {} : { fastPath }),
  } as BuildOptions)
  let url: string | undefined

  /** The controls of one account: its controller, and reads of its board. */
  const controls = (name: string, control: Controller, boardOf: () => Board): MockAccount => {
    /** A copy of a record, its links on the address the server listens on (as the API would answer). */
    const copy = <T>(record: T): T => {
      const board = boardOf()
      const base = board.store.links.base
      const json = JSON.stringify(record)
      if (json === undefined) return record
      const target = board.scenario.publicBaseUrl ?? url
      return JSON.parse(target === undefined || target === base ? json : json.replaceAll(`"${base}/`, `"${target}/`)) as T
    }
    const store = () => boardOf().store
    const page = <T>(p: Page<T>): Page<T> => ({ ...p, items: p.items.map(copy) })
    return {
      name,
      get board() {
        return boardOf()
      },
      clock: control.clock,
      store: {
        candidate: (id) => copy(store().candidates.get(id)),
        application: (id) => copy(store().applications.get(id)),
        timesheet: (id) => copy(store().timesheets.get(id)),
        job: (id) => copy(store().jobs.get(id)),
        candidates: (query = {}) => page(store().candidateList(query)),
        applications: (query = {}) => page(store().applicationList(query)),
        timesheets: (query = {}) => page(store().timesheetList(query)),
        marketing: (query = {}) => page(store().marketingList(query)),
        // a copy: the store keeps one answer per revision and month for every caller
        metrics: () => structuredClone(store().metricsAnswer()),
        addCandidate: (seed) => copy(control.addCandidate(seed)),
        addApplication: (seed) => copy(control.addApplication(seed)),
        addTimesheet: (seed) => copy(control.addTimesheet(seed)),
        addMarketing: (seed) => copy(control.addMarketing(seed)),
        addJob: (input) => copy(control.addJob(input)),
      },
      faults: { add: (fault) => control.addFault(fault), list: () => control.faults(), clear: () => control.clearFaults() },
      journal: { list: (path) => control.requests(path), clear: () => control.clearRequests() },
      rateLimits: { list: () => control.rateLimits(), clear: () => control.clearRateLimits() },
      verdict: (verdictOptions) => control.verdict(verdictOptions),
      verdictCopy: (copy, verdictOptions) => control.judgeCopy(copy, verdictOptions),
      activity: { status: () => control.activity() },
      jobFields: { get: () => control.jobFields(), change: (change) => control.changeJobFields(change) },
      reset: (resetOptions) => {
        control.reset(resetOptions)
      },
      exportState: ((exportOptions?: ExportOptions) => control.exportState(exportOptions)) as MockAccount['exportState'],
      importState: (state) => control.importState(state),
    }
  }
  const first = app.accounts.first
  // each account's controls are made once, when first asked for
  const made = new Map<string, MockAccount>()
  const account = (name: string): MockAccount => {
    let found = made.get(name)
    if (found === undefined) {
      const served = app.accounts.require(name)
      found = controls(name, served.controller, () => served.board)
      made.set(name, found)
    }
    return found
  }
  const firstControls = controls(first.name, first.controller, () => app.board)
  made.set(first.name, firstControls)
  // whether an answer was injected yet: the first tells the code cache (src/fake/first-answer.ts)
  let injected = false

  return {
    ...firstControls,
    app,
    options,
    get board() {
      return app.board
    },
    accounts: () => app.accounts.list().map((served) => served.name),
    account,
    get url() {
      if (url === undefined) throw new ServerError('The mock server is not listening: call listen() first.')
      return url
    },
    async listen(port = options.port) {
      if (options.control && !isLoopback(options.host) && options.controlToken === undefined) {
        throw new ServerError(
          `Refusing to listen on ${options.host} with the control API open: give a control token (--control-token), or --control off.`,
        )
      }
      // the first answer out, the code cache of the built package is written (src/fake/first-answer.ts)
      app.server.once('request', (_request: IncomingMessage, response: ServerResponse) => response.once('finish', servedFirstAnswer))
      await app.listen({ port, host: options.host })
      const address = app.server.address()
      if (address === null || typeof address === 'string') throw new ServerError('The server has no TCP address.')
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      url = `http://${host}:${address.port}`
      return url
    },
    inject: async (request) => {
      const answer = await app.inject(request as InjectOptions)
      if (!injected) {
        injected = true
        servedFirstAnswer()
      }
      // inject's stand-in socket lets go of each answer's bytes on a later turn of the event
      // loop (setImmediate): a loop of injects that never waits on anything else held every
      // answer until it ended (66 KiB a candidates page). One turn here lets them go.
      await new Promise((resolve) => setImmediate(resolve))
      return answer
    },
    close: () => app.close(),
    profileOverrides: profiled.overrides,
  }
}
