// One answer held to the contract kit's rules, on its own: what a run's checks hold each
// answer to, for a tool that sees answers one at a time and asks for none (the proxy,
// src/proxy/). The same pieces as the run's, not copies: the bytes' rules (wire.ts), the
// schemas with the constrained values job/fields last gave bound in (validate.ts), the
// paging links (groups/lists-checks.ts's linkProblems) and the download headers' grammars; each
// problem is named by the check of the run that fails for it, so it carries that check's
// citation of the spec (rules.ts, citationOf). A problem whose check no sentence of the
// spec backs is an observation, as are the choices the spec leaves open and fields the
// schemas do not know (drift): never a violation.
import { API_PREFIX } from '../../schemas/common.js'
import { applicationDetail, candidateDetail, jobAddAnswer, messageAnswer, metricsAnswer } from '../../schemas/index.js'
import { FIELD_VALUES } from '../../schemas/values.js'
import { findFieldLists, valuesFrom } from './field-lists.js'
import { isTimesheetType } from './groups/resources-checks.js'
import { linkProblems, repeatedRecords } from './groups/lists-checks.js'
import { WIRE_CHECKS, WIRE_ENDPOINT } from './groups/wire-checks.js'
import { LISTS, type ListDef } from './lists.js'
import { int, isRec, recs, succeeded, type Rec } from './records.js'
import { orderedCitation } from './citations.js'
import { type Citation, citationOf } from './rules.js'
import { AnswerValidator } from './validate.js'
import { contentLengthProblem, essenceOf, isDownloadPath, lenientJson, parseDisposition, type WireAnswer, wireProblems } from './wire.js'

/** An answer as it came from the deployment, with the request it answers. */
export interface SeenAnswer extends WireAnswer {
  readonly method: string
  /** The request's path and query as sent (no origin). */
  readonly url: string
  /** Whether the whole body is in `bytes` (else its start): when not, only the headers, the length and whether it starts as JSON are checked. */
  readonly complete: boolean
  /** Bytes of the body that came, held or not. */
  readonly received: number
  /** Whose request it was (the Basic user name): a walk of a list is one client's. */
  readonly client?: string
  /** The body as lenientJson reads it, when the caller has read it already (one parse, not two). */
  readonly json?: unknown
}

/** A problem of one answer: the check of the run that fails for it, what is wrong, and what the check rests on. */
export interface AnswerProblem {
  readonly check: string
  readonly message: string
  readonly citation: Citation
}

/** What the spec leaves open, as seen in one answer. */
export interface AnswerObservation {
  readonly topic: string
  readonly endpoint: string
  readonly summary: string
}

export interface AnswerJudgement {
  /** Problems whose check rests on the spec's words (or an RFC section): violations. */
  readonly violations: AnswerProblem[]
  readonly observations: AnswerObservation[]
}

/**
 * The headers the checks read (wire.ts's rules, a download's headers): an answer's
 * judgement alone (judgeAlone) follows from its method, URL, status, these headers and
 * its bytes, under one binding of the constrained values, so a caller may keep it by them.
 */
export const CHECKED_HEADERS = ['content-type', 'content-length', 'content-encoding', 'retry-after', 'content-disposition', 'content-transfer-encoding'] as const

/** The detail endpoints and the schema and check each is held to. */
const DETAILS: ReadonlyArray<{ pattern: RegExp; endpoint: string; schema: object; check: string }> = [
  { pattern: /^\/candidates\/details\/[^/]+$/, endpoint: 'candidates/details/{id}', schema: candidateDetail, check: 'the detail of a listed candidate fits the schema' },
  { pattern: /^\/applications\/details\/[^/]+$/, endpoint: 'applications/details/{id}', schema: applicationDetail, check: 'the detail of a listed application fits the schema' },
]

const JOB_OPERATION = /^\/job\/(delete|close|expire|repost)$/

/** First pages remembered, one per client, list and filter, to hold the second page against (past it the oldest tenth goes). */
const MAX_WALKS = 10_000

/** The endpoint a download path is grouped under (`candidates/resume/{id}`) and the Content-Type the spec names for it. */
function downloadOf(path: string): { endpoint: string; type: 'application/octet-stream' | 'octet-stream' | 'observed' } {
  const endpoint = `${path.slice(1).replace(/\/[^/]+$/, '')}/{id}`
  if (endpoint === 'applications/attachment/{id}') return { endpoint, type: 'application/octet-stream' }
  if (endpoint.includes('timesheet')) return { endpoint, type: 'octet-stream' }
  return { endpoint, type: 'observed' }
}

/** The page of a list's request and the filters that make its walk. */
function walkOf(url: string): { page: string; since: string | null; vacancy: string | null } {
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '')
  return { page: query.get('page') ?? '1', since: query.get('since'), vacancy: query.get('vacancy') }
}

/**
 * Holds each answer to the rules one answer can be held to. One per deployment: it keeps
 * the constrained values of the last job/fields answer seen, which the schemas bind.
 */
export class AnswerChecks {
  /** The deployment's {base_url}: its origin, and the path the API lives under. */
  readonly #base: string
  readonly #root: string
  readonly #origin: string
  #validator = new AnswerValidator(FIELD_VALUES)
  /** The values the validator binds, as JSON (undefined: the spec's), and how many times they changed. */
  #bound: string | undefined
  #binding = 0
  /** Each check's citation, found once: citationOf matches the check against every pattern of the catalogue (a proxy asks it per answer). */
  readonly #citations = new Map<string, Citation>()
  /** The first page of each walk under way: its total and records, by client, list and filters. */
  readonly #firstPages = new Map<string, { total: number | undefined; data: Rec[]; named: boolean }>()

  constructor(baseUrl: string) {
    this.#base = baseUrl.replace(/\/+$/, '')
    const url = new URL(this.#base)
    this.#origin = url.origin
    this.#root = `${url.pathname.replace(/\/+$/, '')}${API_PREFIX}`
    this.#client.origin = url.origin
  }

  /** What linkProblems reads of the kit's client: the origin, the URL of an API path, and its path (read once per list). */
  readonly #client = {
    origin: '',
    api: (path: string) => `${this.#base}${API_PREFIX}${path}`,
    apiPathname: (path: string) => {
      let found = this.#apiPathnames.get(path)
      if (found === undefined) {
        found = new URL(this.#client.api(path)).pathname
        // the lists' paths: a closed set
        this.#apiPathnames.set(path, found)
      }
      return found
    },
  }
  readonly #apiPathnames = new Map<string, string>()

  /** The path of a request under the API root (`/candidates/list`), or undefined outside it. */
  apiPath(url: string): string | undefined {
    const path = url.split('?', 1)[0] as string
    return path === this.#root || path.startsWith(`${this.#root}/`) ? path.slice(this.#root.length) : undefined
  }

  /** Changes whenever a job/fields answer binds other constrained values: what judgeAlone's answers depend on beside the answer. */
  get binding(): number {
    return this.#binding
  }

  /** Every rule one answer is held to: judgeAcross's, then judgeAlone's. */
  judge(answer: SeenAnswer): AnswerJudgement {
    const across = this.judgeAcross(answer)
    const alone = this.judgeAlone(answer)
    return across.violations.length + across.observations.length === 0 ? alone : { violations: [...alone.violations, ...across.violations], observations: [...alone.observations, ...across.observations] }
  }

  /**
   * The rules that read answers before this one, and what later answers are held to: a
   * walk's second page against its first; job/fields' values, bound into the schemas.
   * Every answer goes through it, judged alone afresh or not.
   */
  judgeAcross(answer: SeenAnswer): AnswerJudgement {
    const problems: Array<{ check: string; message: string }> = []
    const path = this.apiPath(answer.url)
    if (path === undefined || !succeeded(answer) || !answer.complete || isDownloadPath(path)) return { violations: [], observations: [] }
    const list = LISTS.find((l) => l.path === path)
    if (list === undefined && path !== '/job/fields') return { violations: [], observations: [] }
    const body = 'json' in answer ? answer.json : lenientJson(answer.bytes)
    if (list !== undefined) {
      const { page, since, vacancy } = walkOf(answer.url)
      if (vacancy === null) this.#acrossPages(answer, list, body, page, since, problems)
    } else {
      const found = findFieldLists(body)
      if (found) {
        const values = valuesFrom(found)
        const bound = JSON.stringify(values)
        if (bound !== this.#bound) {
          this.#bound = bound
          this.#binding += 1
          this.#validator = new AnswerValidator(values)
        }
      }
    }
    return this.#cited(problems, [])
  }

  /**
   * The rules of one answer alone: the same method, URL, status, CHECKED_HEADERS and
   * bytes under the same binding are judged the same (no state is read or changed but
   * the binding), so a caller that sees the same answer again may keep what it said.
   */
  judgeAlone(answer: SeenAnswer): AnswerJudgement {
    const problems: Array<{ check: string; message: string }> = []
    const observations: AnswerObservation[] = []
    const path = this.apiPath(answer.url)
    const download = path !== undefined && isDownloadPath(path)
    // a body not held whole is held to what its headers and its length say, not to what it holds
    const read: WireAnswer = answer.complete ? answer : { ...answer, truncated: answer.truncated ?? 'not held whole' }
    const wire = wireProblems(read, path).filter((p) => answer.complete || p.rule !== 'content-length')
    if (!answer.complete) {
      const length = contentLengthProblem({ headers: answer.headers, truncated: answer.truncated, bytes: { length: answer.received } })
      if (length !== undefined) wire.push({ rule: 'content-length', message: length })
    }
    for (const problem of wire) {
      // a download's Content-Length is its endpoint's own check, as in a run (groups/wire-checks.ts)
      if (problem.rule === 'content-length' && download && succeeded(answer)) continue
      const named = WIRE_CHECKS.find((c) => c.rule === problem.rule)
      if (named) problems.push({ check: `${WIRE_ENDPOINT}: ${named.name}`, message: problem.message })
    }
    if (path !== undefined && succeeded(answer)) {
      if (download) this.#download(answer, path, problems, observations)
      else if (answer.complete) this.#json(answer, path, problems, observations)
    }
    return this.#cited(problems, observations)
  }

  /** Problems named by their checks, with each check's citation: a check no sentence of the spec backs is an observation. */
  #cited(problems: Array<{ check: string; message: string }>, observations: AnswerObservation[]): AnswerJudgement {
    const violations: AnswerProblem[] = []
    for (const problem of problems) {
      let citation = this.#citations.get(problem.check)
      if (citation === undefined) {
        citation = citationOf(problem.check)
        // the checks are a closed set of names: the map holds at most one entry per check
        this.#citations.set(problem.check, citation)
      }
      // the words the problem contradicts first (citations.ts), the rest of the check's after them
      if (citation.kind === 'spec') violations.push({ ...problem, citation: orderedCitation(problem.check, citation, [problem.message]) })
      else observations.push({ topic: 'unbacked', endpoint: problem.check.split(':', 1)[0] as string, summary: `${problem.check}: ${problem.message}` })
    }
    return { violations, observations }
  }

  #fits(schema: object, body: unknown, check: string, endpoint: string, what: string, problems: Array<{ check: string; message: string }>, observations: AnswerObservation[]): void {
    const verdict = this.#validator.check(schema, body)
    for (const failure of verdict.failures) problems.push({ check, message: `${what}: ${failure}` })
    if (verdict.drift.length > 0) observations.push({ topic: 'drift', endpoint, summary: `fields the schemas do not know: ${verdict.drift.map((d) => d.field).join(', ')}` })
    for (const choice of verdict.choices) observations.push({ topic: choice.topic, endpoint, summary: choice.summary })
  }

  #json(answer: SeenAnswer, path: string, problems: Array<{ check: string; message: string }>, observations: AnswerObservation[]): void {
    const body = 'json' in answer ? answer.json : lenientJson(answer.bytes)
    const list = LISTS.find((l) => l.path === path)
    const detail = DETAILS.find((d) => d.pattern.test(path))
    if (list) this.#page(answer, list, body, problems, observations)
    else if (detail) this.#fits(detail.schema, body, `${detail.endpoint}: ${detail.check}`, detail.endpoint, 'the answer', problems, observations)
    else if (path === '/metrics/list') this.#fits(metricsAnswer, body, 'metrics/list: the answer fits the metrics schema', 'metrics/list', 'the answer', problems, observations)
    else if (path === '/job/fields') {
      const status = isRec(body) ? body.status : undefined
      // its values bind the later answers' schemas: judgeAcross
      if (status !== 200) problems.push({ check: 'job/fields: answers 200 with a JSON body whose status is 200', message: `the body's status is ${JSON.stringify(status) ?? 'absent'}, not 200` })
    }
    // a write answered HTTP success (2xx) whose body says it failed (`status` 412) is the deployment's way of refusing: not a success to hold to the success schema
    else if (answer.method === 'POST' && isRec(body) && body.status === 200) this.#write(path, body, problems, observations)
  }

  #write(path: string, body: unknown, problems: Array<{ check: string; message: string }>, observations: AnswerObservation[]): void {
    if (path === '/job/add') this.#fits(jobAddAnswer, body, 'job/add: a valid job answers 200 with the public page URL and the new id', 'job/add', 'the answer', problems, observations)
    const operation = JOB_OPERATION.exec(path)?.[1]
    if (operation) this.#fits(messageAnswer, body, `job/${operation}: the ${operation} answers status 200 with a message`, `job/${operation}`, 'the answer', problems, observations)
  }

  #page(answer: SeenAnswer, list: ListDef, body: unknown, problems: Array<{ check: string; message: string }>, observations: AnswerObservation[]): void {
    const { page, since, vacancy } = walkOf(answer.url)
    const first = page === '1' && since === null && vacancy === null
    const check = first ? `${list.endpoint}: the first page fits the ${list.noun} list schema` : `${list.endpoint}: every other answer of the list fetched fits the schema too`
    this.#fits(list.schema, body, check, list.endpoint, first ? 'the first page' : `the answer of ${answer.url}`, problems, observations)
    if (!isRec(body) || typeof body.next_page !== 'string' || body.next_page === '' || !/^[0-9]+$/.test(page)) return
    const carries: Record<string, string> = {}
    if (since !== null) carries.since = since
    if (vacancy !== null) carries.vacancy = vacancy
    const linkCheck =
      vacancy !== null
        ? 'applications/list: next_page of the vacancy answer carries vacancy and page'
        : since !== null
          ? `${list.endpoint}: next_page of the answer with since carries since and page`
          : `${list.endpoint}: next_page of the first page is an absolute URL on the same origin carrying page`
    for (const message of linkProblems(body.next_page, this.#client, { path: list.path, page: Number(page) + 1, carries }, 'next_page')) problems.push({ check: linkCheck, message })
  }

  /**
   * The second page of a walk against its first, as a run holds them (groups/lists-checks.ts),
   * on a board that changes while it is read: total may only grow (by arrivals), and the
   * second page may repeat at most as many of the first page's records as total grew by
   * (arrivals at the top push the first page's last ones on). What cannot be told is
   * left unsaid.
   */
  #acrossPages(answer: SeenAnswer, list: ListDef, body: unknown, page: string, since: string | null, problems: Array<{ check: string; message: string }>): void {
    if (!isRec(body) || !Array.isArray(body.data)) return
    const key = `${answer.client ?? ''}\n${list.path}\n${since ?? ''}`
    if (page === '1') {
      this.#firstPages.delete(key)
      this.#firstPages.set(key, { total: int(body.total), data: recs(body.data), named: typeof body.next_page === 'string' && body.next_page !== '' })
      if (this.#firstPages.size > MAX_WALKS) for (const old of [...this.#firstPages.keys()].slice(0, MAX_WALKS / 10)) this.#firstPages.delete(old)
      return
    }
    const first = page === '2' ? this.#firstPages.get(key) : undefined
    if (first === undefined) return
    this.#firstPages.delete(key)
    const total = int(body.total)
    if (first.total === undefined || total === undefined) return
    const growth = Math.max(0, total - first.total)
    if (total < first.total) {
      problems.push({ check: `${list.endpoint}: total is the same on the first and the second page, but for records that arrived during the run`, message: `total is ${first.total} on the first page and ${total} on the second` })
    }
    const second = recs(body.data)
    const repeated = repeatedRecords(list, first.data, second)
    if (second.length === 0 && first.named) problems.push({ check: `${list.endpoint}: the second page's records are not the first page's, but for those pushed on by arrivals`, message: 'the second page is empty though the first named it' })
    else if (repeated.length > growth) {
      problems.push({
        check: `${list.endpoint}: the second page's records are not the first page's, but for those pushed on by arrivals`,
        message: `the second page repeats ${repeated.length} records of the first: ${repeated.slice(0, 5).join(', ')}${growth > 0 ? `, though total grew by only ${growth}` : ''}`,
      })
    }
  }

  /** A download's headers, as a run's download checks hold them (groups/resources-checks.ts), but those needing the list's entry (filename, filesize). */
  #download(answer: SeenAnswer, path: string, problems: Array<{ check: string; message: string }>, observations: AnswerObservation[]): void {
    const { endpoint, type } = downloadOf(path)
    const given = answer.headers['content-type']
    const essence = essenceOf(given)
    observations.push({ topic: 'download', endpoint, summary: `Content-Type: ${given ?? '(none)'}` })
    if (type === 'application/octet-stream' && essence !== type) problems.push({ check: `${endpoint}: the listed link answers 200 with Content-Type ${type}`, message: `Content-Type is ${given ?? 'missing'}, expected ${type}` })
    if (type === 'octet-stream' && !isTimesheetType(essence)) {
      problems.push({ check: `${endpoint}: the listed link answers 200 with an octet-stream Content-Type`, message: `Content-Type is ${given ?? 'missing'}, expected a timesheet-specific octet-stream type` })
    }
    const lengthCheck = `${endpoint}: Content-Length equals the bytes received`
    if (answer.headers['content-length'] === undefined) problems.push({ check: lengthCheck, message: 'Content-Length is missing' })
    else {
      const problem = contentLengthProblem({ headers: answer.headers, truncated: answer.truncated, bytes: { length: answer.received } })
      if (problem !== undefined) problems.push({ check: lengthCheck, message: problem })
    }
    const disposition = answer.headers['content-disposition']
    const dispositionCheck = `${endpoint}: Content-Disposition is attachment with the listed filename`
    if (disposition === undefined) problems.push({ check: dispositionCheck, message: 'there is no Content-Disposition' })
    else {
      const { type: kind, filename, problems: grammar } = parseDisposition(disposition)
      for (const p of grammar) problems.push({ check: dispositionCheck, message: `Content-Disposition ${JSON.stringify(disposition)} is not as RFC 6266 §4 writes it: ${p}` })
      if (kind !== 'attachment') problems.push({ check: dispositionCheck, message: `it is ${JSON.stringify(disposition)}, not attachment` })
      else if (filename === undefined || filename === '') problems.push({ check: dispositionCheck, message: `it names no filename (${JSON.stringify(disposition)})` })
    }
    const encoding = answer.headers['content-transfer-encoding']
    if (encoding?.trim().toLowerCase() !== 'binary') {
      problems.push({ check: `${endpoint}: Content-Transfer-Encoding is binary`, message: `Content-Transfer-Encoding is ${encoding === undefined ? 'missing' : JSON.stringify(encoding)}` })
    }
  }
}
