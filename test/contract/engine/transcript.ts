// The deviation engine's transcript (issue 43 item 3): every exchange of a kit run, named
// by what the kit asked so that the same exchange has the same name in every run, and the
// stage a breaking proxy (helpers.ts) reads to record a run, to answer one from the record
// (live where the kit asks what the record does not hold), and to deviate one exchange.
//
// An exchange's name is its method, its path and query as sent, what its Authorization is
// (none, the account's Basic, or another form: a digest of the header, never the header),
// the Content-Type a GET carried, and for a POST its body's role: the job_reference with
// the run's time stamp masked (`CONTRACT-T-C12`: the request case), the ids of jobs the
// run made written as the job's role; then `#n`, its n-th time in the run (a 429 check asks
// a page twice). Its class is the same with ids, page numbers and values left out and the
// status kept: the operators are spread over the exchanges of a class (engine.ts).
import { createHash } from 'node:crypto'
import type { Breakage, Exchange, Reply } from '../helpers.js'
import { AUTHORIZATION } from '../helpers.js'

/** The runs a transcript comes from: read-only, with writes, and the rate-limit group (the deployment's own limiter). */
export type Config = 'read' | 'writes' | 'rate-limit'

/** One exchange of a run, as it came. */
export interface Recorded {
  /** What the kit asked, stable across runs (see above). */
  id: string
  cls: string
  /** What kind of answer it is: the rotation groups of engine.ts. */
  kind: AnswerKind
  method: string
  /** Path and query as sent. */
  url: string
  /** The API path (after /api/v1), or the path of a page outside the API. */
  path: string
  request: Exchange
  reply: Reply
}

export type AnswerKind = 'list' | 'detail' | 'metrics' | 'fields' | 'write' | 'refusal' | 'download' | 'page' | 'limited'

export const API = '/api/v1'

/** The instant every run of the engine starts at, on the kit's clock: job references and since values come out the same. */
export const START = Date.UTC(2026, 10, 22, 9, 30)

/** The Date every answer carries (the proxy would put the machine's own): the start of the kit's clock. */
export const DATE = new Date(START).toUTCString()

const pathOf = (url: string) => url.split('?')[0] as string
const queryOf = (url: string) => new URLSearchParams(url.split('?')[1] ?? '')
export const jsonOf = (reply: Reply): unknown => {
  try {
    return JSON.parse(reply.body.toString('utf8'))
  } catch {
    return undefined
  }
}
export const isJson = (reply: Reply) => /json/i.test(reply.headers['content-type'] ?? '') && jsonOf(reply) !== undefined

/** What an Authorization header is, without the header: none, the account's Basic, or a digest of another. */
function authKind(header: string | string[] | undefined): string {
  if (header === undefined) return 'none'
  const value = String(header)
  if (value === AUTHORIZATION) return 'given'
  return `auth-${createHash('sha256').update(value).digest('hex').slice(0, 8)}`
}

/** Names the exchanges of one run: keeps the ids of the jobs it made and how often each name came. */
export class Keyer {
  readonly #jobs = new Map<number, string>()
  readonly #times = new Map<string, number>()

  /** The exchange's name without its count. */
  base(x: Exchange): string {
    const path = this.#withJobs(pathOf(x.url))
    const query = x.url.includes('?') ? `?${x.url.split('?')[1]}` : ''
    const type = x.method === 'GET' && x.headers['content-type'] !== undefined ? ` [${x.headers['content-type']}]` : ''
    return `${x.method} ${path}${query} (${authKind(x.headers.authorization)})${type}${x.method === 'POST' ? ` ${this.#role(x)}` : ''}`
  }

  /** The exchange's name, counted: call once per request, in the order they come. */
  next(x: Exchange): string {
    const base = this.base(x)
    const n = (this.#times.get(base) ?? 0) + 1
    this.#times.set(base, n)
    return `${base} #${n}`
  }

  /** Learns the id a job/add answer gave, so that later requests name the job by its role. */
  learn(x: Exchange, reply: Reply): void {
    if (x.method !== 'POST' || !pathOf(x.url).endsWith('/job/add')) return
    const id = (jsonOf(reply) as { id?: unknown } | undefined)?.id
    const reference = (bodyOf(x) as { job_reference?: unknown }).job_reference
    if (typeof id === 'number' && typeof reference === 'string') this.#jobs.set(id, `{job ${mask(reference)}}`)
  }

  #withJobs(path: string): string {
    return path.replace(/\/([0-9]+)(?=\/|$)/g, (whole, digits: string) => {
      const job = this.#jobs.get(Number(digits))
      return job === undefined ? whole : `/${job}`
    })
  }

  #role(x: Exchange): string {
    const body = bodyOf(x)
    if (typeof body !== 'object' || body === null) return `body ${x.body.toString('utf8')}`
    const named = Object.fromEntries(
      Object.entries(body).map(([key, value]) => {
        if (key === 'job_reference' && typeof value === 'string') return [key, mask(value)]
        if (typeof value === 'number' && this.#jobs.has(value)) return [key, this.#jobs.get(value)]
        return [key, key === 'job_reference' ? value : value]
      }),
    )
    // a job/add is named by its reference alone (its case); other bodies whole
    return typeof named.job_reference === 'string' ? `job ${named.job_reference}` : `body ${JSON.stringify(named)}`
  }
}

/** Whether `id` asks again what `target` asked, a time the record does not hold (a retry). */
function retryOf(id: string, target: string, known: ReadonlySet<string>): boolean {
  const [base, n] = [id.replace(/ #[0-9]+$/, ''), Number(/#([0-9]+)$/.exec(id)?.[1])]
  return base === target.replace(/ #[0-9]+$/, '') && n > Number(/#([0-9]+)$/.exec(target)?.[1]) && !known.has(id)
}

const mask = (reference: string) => reference.replace(/[0-9]{14}/, 'T')

function bodyOf(x: Exchange): unknown {
  try {
    return JSON.parse(x.body.toString('utf8') || 'null')
  } catch {
    return undefined
  }
}

/** A path outside the API (a public job page), as an exchange's path names it. */
export const PAGE = '(page) '

/** The path of a request under the API (`/candidates/list`), or the path itself, marked, outside it. */
export function apiPath(url: string, basePath = ''): string {
  const path = pathOf(url).slice(basePath.length)
  return path.startsWith(`${API}/`) ? path.slice(API.length) : `${PAGE}${path}`
}

/** What kind of answer an exchange got. */
export function kindOf(path: string, reply: Reply): AnswerKind {
  if (path.startsWith(PAGE)) return 'page'
  if (reply.status === 429) return 'limited'
  if (/^\/(candidates\/(timesheet|resume|document)|candidates\/timesheets\/download|applications\/attachment)\/[0-9]+$/.test(path) && reply.status === 200) return 'download'
  if (/^\/job\/(add|close|expire|repost|delete)$/.test(path)) return 'write'
  if (reply.status >= 400) return 'refusal'
  if (path === '/job/fields') return 'fields'
  if (path === '/metrics/list') return 'metrics'
  if (/\/list$/.test(path)) return 'list'
  return 'detail'
}

/** The class of an exchange: method, path with ids left out, the query's names, credentials, the status. */
export function classOf(x: Exchange, path: string, reply: Reply, keyer: Keyer): string {
  const template = path.startsWith(PAGE) ? '(a public job page)' : path.replace(/\/[0-9]+(?=\/|$)/g, '/{id}')
  const names = [...queryOf(x.url).keys()].sort().join('&')
  const auth = authKind(x.headers.authorization)
  const type = x.method === 'GET' && x.headers['content-type'] !== undefined ? ` [${x.headers['content-type']}]` : ''
  const role = x.method === 'POST' ? ` ${keyer.base(x).includes(' job CONTRACT') ? 'job' : 'body'}` : ''
  return `${x.method} ${template}${names === '' ? '' : `?${names}`} (${auth === 'given' || auth === 'none' ? auth : 'other credentials'})${type}${role} -> ${reply.status}`
}

/** A deviation of one exchange: what to do to its answer (the exchange itself, and its partner's when it has one). */
export interface Deviation {
  id: string
  /** Another exchange the deviation touches too (a record swapped between pages). */
  partner?: string
  change: (reply: Reply, which: 'self' | 'partner') => Reply
  /** What it makes of every other answer of the run: a record's member changed wherever the record is answered. */
  also?: (reply: Reply, path: string) => Reply
}

/**
 * What the breaking proxy does with each exchange: records it (`record`), or answers it
 * from the record (`replay`: what the record does not hold goes to the live deployment
 * unchanged), deviating the exchange `deviation` names when it comes.
 */
export class Stage {
  mode: 'record' | 'replay' | 'live' = 'record'
  keyer = new Keyer()
  recorded: Recorded[] = []
  replies = new Map<string, Reply>()
  deviations: readonly Deviation[] = []
  /** Which named exchanges of this run came, with their request as sent and answer as it came. */
  seen = new Map<string, { request: Exchange; reply: Reply }>()
  /** The base path of the deployment (a staging path), left out of API paths. */
  constructor(readonly basePath = '') {}

  /** A legal variant every request of the run is sent in (requests.ts), and the names of the exchanges it changed. */
  variant: ((x: Exchange) => Exchange | undefined) | undefined
  varied = new Set<string>()

  /** A fresh run: a new keyer, the same record. */
  begin(mode: Stage['mode'], deviations: readonly Deviation[] = [], variant?: (x: Exchange) => Exchange | undefined): void {
    this.mode = mode
    this.keyer = new Keyer()
    this.deviations = deviations
    this.variant = variant
    this.varied = new Set()
    this.seen = new Map()
    if (mode === 'record') this.recorded = []
  }

  /** The names of the exchanges the record holds: a later ask of a deviated exchange the record does not hold is a retry of it. */
  known: ReadonlySet<string> = new Set()

  breakage(): Breakage {
    const ids = new WeakMap<Exchange, string>()
    // every answer is dated the clock's start, not the machine's minute: the kit takes the empty answer's since from it
    const dated = (reply: Reply): Reply => ({ ...reply, headers: { date: DATE, ...reply.headers } })
    const deviate = (id: string, reply: Reply) =>
      this.deviations.reduce((out, d) => {
        // a deployment answers a request the same way when it is asked again (the kit asks a GET again after an outage)
        if (d.id === id || retryOf(id, d.id, this.known)) return d.change(out, 'self')
        if (d.partner === id) return d.change(out, 'partner')
        return d.also ? d.also(out, apiPath(id.split(' ')[1] ?? '', this.basePath)) : out
      }, reply)
    return {
      request: (x) => {
        const id = this.keyer.next(x)
        const varied = this.variant?.(x)
        if (varied !== undefined) this.varied.add(id)
        const changed = varied ?? x
        ids.set(changed, id)
        return changed
      },
      answer: (x) => {
        if (this.mode !== 'replay') return undefined
        const id = ids.get(x) as string
        const reply = this.replies.get(id)
        if (reply === undefined) return undefined
        this.keyer.learn(x, reply)
        const out = deviate(id, { ...reply, headers: { ...reply.headers } })
        this.seen.set(id, { request: x, reply: out })
        return dated(out)
      },
      reply: (x, reply) => {
        const id = ids.get(x) as string
        this.keyer.learn(x, reply)
        if (this.mode === 'record') {
          const path = apiPath(x.url, this.basePath)
          this.recorded.push({ id, cls: classOf(x, path, reply, this.keyer), kind: kindOf(path, reply), method: x.method, url: x.url, path, request: x, reply })
          this.replies.set(id, reply)
          this.known = new Set(this.replies.keys())
        }
        const out = deviate(id, reply)
        this.seen.set(id, { request: x, reply: out })
        return dated(out)
      },
    }
  }
}
