// A correct sync client of the Recruitment Job Board Data API, in plain TypeScript
// with fetch and nothing else: what the fake's verdict (docs/verdict.md) passes on every
// rule. Each call of round() does one pass: read job/fields when due, walk each list
// from where it stands (resuming a walk a 429 or an outage cut short), download the
// attachments it has not got, and post the jobs queued. A caller runs rounds on a
// schedule (every 15 minutes in production; test/examples/ advances the fake's virtual
// clock between them). The wrong clients in examples/wrong/ each override one step.

export type ListName = 'candidates' | 'applications' | 'timesheets' | 'marketing'
export const LISTS: readonly ListName[] = ['candidates', 'applications', 'timesheets', 'marketing']

// biome-ignore lint/suspicious/noExplicitAny: records are kept as the API answers them
export type ApiRecord = Record<string, any>

export interface SyncOptions {
  /** The API's origin, e.g. http://127.0.0.1:4010 */
  baseUrl: string
  user: string
  password: string
  /** The client's clock in epoch ms (Date.now in production; the fake's clock in a test). */
  now?: () => number
  /** fetch, or a wrapper of it. */
  fetch?: typeof fetch
  /** Seconds each full URL may be asked once in (the spec's 15 minutes). */
  windowSeconds?: number
  /** Files downloaded per round at most, so one round stays short. */
  downloadsPerRound?: number
  /** Milliseconds one request may take before the client gives up on it and tries again next round. */
  timeoutMs?: number
}

/** What a client holds between rounds: its copy of each list and where each walk stands. */
export interface SyncState {
  copy: Record<ListName, Map<string | number, ApiRecord>>
  /** The since of the next walk of each list (YYYY-MM-DD HH:MM), once one walk completed. */
  since: Partial<Record<ListName, string>>
  /** The page a walk was cut short at, to resume from; and the since of that walk. */
  resume: Partial<Record<ListName, { url: string; nextSince: string | undefined }>>
  /** When each full URL was last asked (client clock), and when a 429 allows it again. */
  asked: Map<string, number>
  notBefore: Map<string, number>
  /** Attachments got, by href. */
  files: Set<string>
  /** The constrained values job/fields gave last, and when. */
  fields: Record<string, string[]> | undefined
  fieldsAt: number | undefined
  /** Jobs waiting to be posted (a job refused with 412 is dropped, never resent as it was). */
  jobs: ApiRecord[]
}

export const newState = (): SyncState => ({
  copy: { candidates: new Map(), applications: new Map(), timesheets: new Map(), marketing: new Map() },
  since: {},
  resume: {},
  asked: new Map(),
  notBefore: new Map(),
  files: new Set(),
  fields: undefined,
  fieldsAt: undefined,
  jobs: [],
})

/** An answer the client could not use: a 429 (with when to retry) or any other failure. */
export class Deferred extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${url} answered ${status}`)
  }
}

const pad = (n: number) => String(n).padStart(2, '0')
/** `YYYY-MM-DD HH:MM` of an epoch, in UTC (the board's times are UTC). */
export const minuteOf = (ms: number): string => {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
}

/** Marketing records have no id: one is known by its time, action and e-mail. */
export const keyOf = (list: ListName, record: ApiRecord): string | number =>
  list === 'marketing' ? `${record.created_at} ${record.action} ${record.candidate?.email}` : (record.id as number)

/** The time `since` compares for a record: updated_at where it has one. */
const changedAt = (record: ApiRecord): string => record.updated_at ?? record.created_at

export class SyncClient {
  readonly state: SyncState
  protected readonly options: Required<Omit<SyncOptions, 'now' | 'fetch'>> & Pick<SyncOptions, 'now' | 'fetch'>

  constructor(options: SyncOptions, state: SyncState = newState()) {
    this.options = { windowSeconds: 900, downloadsPerRound: 20, timeoutMs: 30_000, ...options }
    this.state = state
  }

  protected now(): number {
    return (this.options.now ?? Date.now)()
  }

  protected headers(): Record<string, string> {
    return { authorization: `Basic ${Buffer.from(`${this.options.user}:${this.options.password}`).toString('base64')}` }
  }

  /** The path and query of a URL the API gave (its links carry the API's origin). */
  protected relative(url: string): string {
    const parsed = new URL(url, this.options.baseUrl)
    return `${parsed.pathname}${parsed.search}`
  }

  /** Whether a full URL may be asked now: not inside its window, not before a Retry-after. */
  protected mayAsk(url: string): boolean {
    const now = this.now()
    const asked = this.state.asked.get(url)
    if (asked !== undefined && now - asked < this.options.windowSeconds * 1000) return false
    return now >= (this.state.notBefore.get(url) ?? 0)
  }

  /** One request; a 429 or another failure throws Deferred, with Retry-after noted. */
  protected async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Response> {
    this.state.asked.set(url, this.now())
    // a board that holds a request must not hold the whole sync: give up, resume next round
    const init: RequestInit = { method, headers: this.headers(), signal: AbortSignal.timeout(this.options.timeoutMs) }
    if (body !== undefined) init.body = this.encode(body, init)
    let answer: Response
    try {
      answer = await (this.options.fetch ?? fetch)(`${this.options.baseUrl}${url}`, init)
    } catch {
      throw new Deferred(url, 0)
    }
    if (answer.status === 429) {
      const seconds = Number(answer.headers.get('retry-after') ?? this.options.windowSeconds)
      this.state.notBefore.set(url, this.now() + seconds * 1000)
      await answer.body?.cancel()
      throw new Deferred(url, 429, seconds)
    }
    return answer
  }

  /** A POST body: JSON, said so in Content-Type. */
  protected encode(body: unknown, init: RequestInit): string {
    init.headers = { ...(init.headers as Record<string, string>), 'content-type': 'application/json' }
    return JSON.stringify(body)
  }

  protected async json(method: 'GET' | 'POST', url: string, body?: unknown): Promise<ApiRecord> {
    const answer = await this.request(method, url, body)
    const parsed = (await answer.json().catch(() => undefined)) as ApiRecord | undefined
    if (parsed === undefined || (answer.status >= 500 && answer.status <= 599)) throw new Deferred(url, answer.status)
    return { ...parsed, httpStatus: answer.status }
  }

  /** One pass: fields, lists, files, jobs. Anything deferred waits for a later round. */
  async round(): Promise<void> {
    await this.readFields()
    for (const list of LISTS) await this.syncList(list)
    await this.downloads()
    await this.postJobs()
  }

  /** job/fields once per window: the constrained values change over time. */
  protected async readFields(): Promise<void> {
    const url = '/api/v1/job/fields'
    if (!this.mayAsk(url)) return
    try {
      const answer = await this.json('GET', url)
      if (answer.status !== 200) return
      this.state.fields = answer.data ?? answer
      this.state.fieldsAt = this.now()
    } catch (error) {
      if (!(error instanceof Deferred)) throw error
    }
  }

  /** The URL a new walk of a list starts at. */
  protected firstPage(list: ListName): string {
    const since = this.state.since[list]
    return `/api/v1/${list}/list${since === undefined ? '' : `?since=${since.replace(' ', '+')}`}`
  }

  /**
   * The since of the walk after this one: the newest change on its first page, which the
   * board served when the walk began, to the minute (the board's own time, so no clock
   * skew between client and board can open a gap). Later pages may hold records changed
   * while the walk went on (a walk resumed after a 429 or an outage is read across
   * windows); taking their times would skip what landed on the first page in between.
   */
  protected nextSince(list: ListName, firstPage: ApiRecord[]): string | undefined {
    let newest: string | undefined
    for (const record of firstPage) if (newest === undefined || changedAt(record) > newest) newest = changedAt(record)
    return newest === undefined ? this.state.since[list] : newest.slice(0, 16)
  }

  /** Keeps a page's records: a record replaces the one held when it is as new or newer. */
  protected merge(list: ListName, records: ApiRecord[]): void {
    const copy = this.state.copy[list]
    for (const record of records) {
      const key = keyOf(list, record)
      const held = copy.get(key)
      if (held === undefined || changedAt(record) >= changedAt(held)) copy.set(key, record)
    }
  }

  /** Walks a list from its first page (or the page it was cut short at) to the page without next_page. */
  protected async syncList(list: ListName): Promise<void> {
    const resumed = this.state.resume[list]
    let url: string | undefined = resumed?.url ?? this.firstPage(list)
    let nextSince = resumed?.nextSince
    while (url !== undefined) {
      if (!this.mayAsk(url)) {
        this.state.resume[list] = { url, nextSince }
        return
      }
      let page: ApiRecord
      try {
        page = await this.json('GET', url)
      } catch (error) {
        if (!(error instanceof Deferred)) throw error
        this.state.resume[list] = { url, nextSince }
        return
      }
      if (page.status !== 200) {
        this.state.resume[list] = { url, nextSince }
        return
      }
      const records = (page.data ?? []) as ApiRecord[]
      // the first page, read when the walk began (or resumed there, if that is where it was cut)
      if (url === this.firstPage(list)) nextSince = this.nextSince(list, records)
      this.merge(list, records)
      url = this.nextPage(page)
    }
    delete this.state.resume[list]
    if (nextSince !== undefined) this.state.since[list] = nextSince
  }

  protected nextPage(page: ApiRecord): string | undefined {
    return typeof page.next_page === 'string' && page.next_page !== '' ? this.relative(page.next_page) : undefined
  }

  /** The attachment links of the applications held that have not been got. */
  protected wanted(): string[] {
    const out: string[] = []
    for (const application of this.state.copy.applications.values()) {
      const href = application.applicant?.attachment?.href
      if (typeof href === 'string' && !this.state.files.has(href)) out.push(href)
    }
    return out
  }

  protected async downloads(): Promise<void> {
    let left = this.options.downloadsPerRound
    for (const href of this.wanted()) {
      if (left-- <= 0) return
      const url = this.relative(href)
      if (!this.mayAsk(url)) continue
      try {
        const answer = await this.request('GET', url)
        await answer.arrayBuffer()
        if (answer.status === 200) this.state.files.add(href)
      } catch (error) {
        if (!(error instanceof Deferred)) throw error
      }
    }
  }

  /** A job takes the first value job/fields lists for each constrained field it leaves out. */
  protected withCurrentValues(job: ApiRecord): ApiRecord {
    const fields = this.state.fields ?? {}
    const pick = (list: string, field: string) =>
      job[field] !== undefined && (fields[list] ?? []).includes(job[field]) ? job[field] : (fields[list] ?? [])[0]
    return {
      ...job,
      job_industry: pick('job_industry', 'job_industry'),
      job_type: pick('job_type', 'job_type'),
      contract_type: pick('contract_type', 'contract_type'),
      salary_unit: pick('salary_unit', 'salary_unit'),
      salary_currency: pick('salary_currencies', 'salary_currency'),
      job_telecommute: pick('job_telecommute', 'job_telecommute'),
    }
  }

  /** The first queued job, once job/fields has been read: posted once per window; a refusal drops it. */
  protected async postJobs(): Promise<void> {
    const url = '/api/v1/job/add'
    const job = this.state.jobs[0]
    if (job === undefined || this.state.fields === undefined || !this.mayAsk(url)) return
    try {
      const answer = await this.json('POST', url, this.withCurrentValues(job))
      // posted; or refused for what it is (412, 415, ...), and sending it again as it is would be refused again
      const refused = answer.httpStatus >= 400 && ![401, 403, 408].includes(answer.httpStatus)
      if (answer.httpStatus === 200 || refused) this.state.jobs.shift()
    } catch (error) {
      if (!(error instanceof Deferred)) throw error
    }
  }

  /** The job this client would post: one built from its own data, constrained fields from job/fields. */
  jobToPost(): ApiRecord {
    return sampleJob('REF-1')
  }

  /** The copy as POST /__mock/verdict/copy takes it. */
  copy(): Record<ListName, ApiRecord[]> {
    return Object.fromEntries(LISTS.map((list) => [list, [...this.state.copy[list].values()]])) as Record<ListName, ApiRecord[]>
  }
}

/** A job as job/add takes it, its constrained fields left to job/fields. */
export const sampleJob = (reference: string): ApiRecord => ({
  published: 1,
  featured: 0,
  job_title: 'Small Animal Vet',
  job_reference: reference,
  job_location: 'London',
  job_latitude: 51.5072,
  job_longitude: -0.1276,
  job_description: 'A small animal practice in north London.',
  contact_name: 'Alex Morgan',
  contact_email: 'alex.morgan@example.com',
  salary_visible: '£45,000 a year',
  salary_precise: '45000',
  require_cv: 1,
})
