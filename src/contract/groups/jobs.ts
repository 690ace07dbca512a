// The jobs group (--writes only): job/add of a valid job, of an invalid salary_unit and
// of a job missing a required field; close (and the public page's 404 after it),
// expire, repost and delete of the job made; and each operation refused once a job is
// deleted. The kit sends no query parameter the spec does not define, and job/add is one
// full request whatever its body: so the write checks take turns (TURNS). A run makes
// the turns whose full requests are all free (not made in this run, outside the ledger's
// window), the ones made longest ago first, and records in the ledger which it made;
// the rest are "not due this run". Every job the run makes is recorded the moment its
// id is known; cleanup() deletes what is left when the delete window allows, else the
// job is written to the ledger as pending and deletePending() deletes it first next run.
import type { Minimal } from '@tapjs/core'
import { type JOB_REQUIRED, jobAddAnswer, jobInput, messageAnswer } from '../../../schemas/index.js'
import { formatMinute, formatTimestamp } from '../../core/time.js'
import type { JobInput } from '../../core/types.js'
import { check, endpoint, need, Skip, where, type Asserter, type Got } from '../checks.js'
import { excerpt } from '../http.js'
import type { CreatedJob, RunContext } from '../context.js'
import type { Answer } from '../http.js'
import type { PendingJob } from '../ledger.js'
import { int, rec, str } from '../records.js'
import { AnswerValidator } from '../validate.js'
import { UNKNOWN_ID } from '../spare-requests.js'
import { refusedAnswer } from './auth.js'
import { FIELD_FORMS, formCellId, formLedgerName } from '../matrix.js'
import { caseTurn, FREE_TEXT, namesField, REQUEST_CASES, type RequestCase } from '../cases.js'

const OPERATIONS = ['close', 'expire', 'repost', 'delete'] as const
type Operation = (typeof OPERATIONS)[number]
const DOING: Record<Operation, string> = {
  close: 'closing the job',
  expire: 'expiring the job',
  repost: 'reposting the job with a closing_date',
  delete: 'deleting the job',
}

/**
 * What the spec says each operation's success message says ("text saying the job has been
 * deleted", "closed (unpublished)", "expired", "reposted"), as the word it must hold in any
 * wording: a message that says another operation's word instead is that operation's.
 */
const SAYS: Record<Operation, { words: string; word: RegExp }> = {
  close: { words: 'closed (unpublished)', word: /\b(clos(ed|ing)?|unpublish(ed)?)\b/i },
  expire: { words: 'expired', word: /\bexpir(ed|es|y)?\b/i },
  repost: { words: 'reposted', word: /\bre-?post(ed)?\b/i },
  delete: { words: 'deleted', word: /\b(delet(ed|ion)?|removed)\b/i },
}

const DAY_MS = 86_400_000

type FormField = (typeof FIELD_FORMS)[number]['field']
const FORM_FIELDS = [...new Set(FIELD_FORMS.map((f) => f.field))]
/** Where job/fields' values of each constrained field are (salary_currency's list is salary_currencies). */
const VALUES_OF = { job_industry: 'job_industry', job_type: 'job_type', contract_type: 'contract_type', salary_unit: 'salary_unit', salary_currency: 'salary_currencies', job_telecommute: 'job_telecommute' } as const satisfies Record<FormField, string>

/** The required field the missing-field add leaves out (the type says it is one job/add requires). */
const MISSING = 'job_title' satisfies (typeof JOB_REQUIRED)[number]

/** The value job/fields lists that suits a test job, or the list's first. */
const choose = (list: readonly string[], liked: string) => (list.includes(liked) ? liked : (list[0] as string))

/** The request matrix's forms of a constrained field that job/fields still offers. */
const formsOffered = (field: FormField, list: readonly string[]) => FIELD_FORMS.filter((f) => f.field === field && list.includes(f.value))

/**
 * A job that fits job/add's rules with the board's current values, clearly a test job.
 * `rotate`: the constrained values are taken in turn by the day of the run, so that
 * nightly runs try every form job/fields offers (a sector alone and `<Sector>/<Sub_sector>`,
 * every unit and type) within the one valid add a night allows. A number `n` instead: the
 * n-th form of each field (cycling), so that adds 0, 1, … try every form of every field in
 * as many adds as the field with the most forms has (a run with no window to spend).
 */
export function contractJob(ctx: RunContext, reference: string, rotate: boolean | number = false): JobInput {
  const values = ctx.values
  const night = Math.floor(ctx.clock.now() / DAY_MS)
  const tried = ctx.ledger.writesOf(ctx.deployment)
  const pick = (list: readonly string[], liked: string, salt: number, field: FormField) => {
    if (rotate === false || list.length === 0) return choose(list, liked)
    const forms = formsOffered(field, list)
    if (typeof rotate === 'number') return forms.length === 0 ? choose(list, liked) : (forms[rotate % forms.length] as (typeof forms)[number]).value
    // the one tried longest ago (or never) first
    if (forms.length === 0) return list[(night + salt) % list.length] as string
    const when = (f: (typeof forms)[number]) => tried[formLedgerName(formCellId(f))] ?? -Infinity
    const oldest = Math.min(...forms.map(when))
    const due = forms.filter((f) => when(f) === oldest)
    return (due[(night + salt) % due.length] as (typeof forms)[number]).value
  }
  return {
    published: 1,
    featured: 0,
    job_title: 'Contract check (jobboard-kit): please ignore',
    job_reference: reference,
    job_industry: pick(values.job_industry, values.job_industry[0] as string, 0, 'job_industry') as JobInput['job_industry'],
    job_telecommute: pick(values.job_telecommute, 'no', 1, 'job_telecommute') as JobInput['job_telecommute'],
    job_location: 'Leeds (contract check)',
    job_latitude: 53.8008,
    job_longitude: -1.5491,
    job_type: pick(values.job_type, 'Full time', 2, 'job_type') as JobInput['job_type'],
    contract_type: pick(values.contract_type, 'Permanent', 3, 'contract_type') as JobInput['contract_type'],
    job_description: 'Made by the jobboard-kit contract check, which deletes it before its run ends.',
    contact_name: 'jobboard-kit contract check',
    contact_email: 'contract-check@example.com',
    salary_visible: '40,000 per year',
    salary_precise: '40000',
    salary_unit: pick(values.salary_unit, 'Per year', 4, 'salary_unit') as JobInput['salary_unit'],
    salary_currency: pick(values.salary_currencies, values.salary_currencies[0] as string, 5, 'salary_currency') as JobInput['salary_currency'],
    require_cv: 0,
  }
}

/** The body's status and the HTTP status of a refusal the spec calls 412: the body says 412; HTTP says 412 or 200. */
function answered412(a: Asserter, answer: Answer): void {
  const status = rec(answer.json).status
  a.ok(status === 412, 'the body says status 412', `the body says status ${JSON.stringify(status) ?? '(none)'}, not 412`)
  // the spec says what the body holds, not the status line that carries it (412, 200, 400, 422: a profile point, preconditionHttpStatus)
  a.ok(answer.status === 200 || (answer.status >= 400 && answer.status < 500), `HTTP ${answer.status}`, `answered HTTP ${answer.status}, neither 200 nor a 4xx`)
}

const ID_FIELDS = ['id', 'job_id'] as const
type IdField = (typeof ID_FIELDS)[number]

/** The field a refusal of close or expire asks for instead of the one sent: a 412 (or 400) whose message names it. */
export function otherIdField(answer: Answer, sent: IdField): IdField | undefined {
  const body = rec(answer.json)
  const status = int(body.status) ?? answer.status
  if (status !== 412 && status !== 400) return undefined
  const message = str(body.message) ?? answer.bytes.toString('utf8')
  if (sent === 'id') return /\bjob_id\b/.test(message) ? 'job_id' : undefined
  // "The field id is missing", "id is required": the message asks for id itself, not only for job_id's absence
  return /\bfield id\b|\bid is (missing|required)\b/i.test(message) ? 'id' : undefined
}

/**
 * Refused: a 4xx, in the HTTP status or in the body's; or an HTTP 200 that is not the
 * spec's success (a JSON body with status 200), such as a text message under a
 * deployment that sends errors with HTTP 200 (the profile's errorHttpStatus, notFoundBody).
 */
function refused(answer: Answer): boolean {
  const status = int(rec(answer.json).status)
  return (answer.status >= 400 && answer.status < 500) || (answer.status === 200 && status !== 200)
}

/** A write turn: a check (or a few) that needs the full requests (POST paths) it names, made when they are free. */
export interface Turn {
  readonly name: string
  readonly needs: readonly string[]
  readonly what: string
}

/**
 * The full requests a request case needs: its own POST; the delete of the job an add the
 * spec allows makes; for a repost of a live job, the add that makes it and its delete. A
 * forbidden add needs no delete: when it is wrongly accepted the run fails anyway, and
 * cleanup deletes the job when the delete is free, else leaves it pending.
 */
function needsOf(c: RequestCase): readonly string[] {
  // a case the spec's words leave open may be accepted: its job is deleted in the run
  if (c.operation === 'add') return c.allowed || c.open !== undefined ? ['add', 'delete'] : ['add']
  if (c.operation === 'repost') return c.needsJob ? ['add', 'repost', 'delete'] : ['repost']
  return [c.operation]
}

/** The write checks that take turns across runs, each with the full requests (POST paths) it needs; then one turn per request case. */
export const TURNS: readonly Turn[] = [
  { name: 'lifecycle', needs: ['add', 'close', 'expire', 'repost', 'delete'], what: 'a valid add, then close, expire, repost and delete of that job' },
  { name: 'invalid-salary-unit', needs: ['add'], what: 'the add of an invalid salary_unit' },
  { name: 'missing-field', needs: ['add'], what: `the add of a job without ${MISSING}` },
  { name: 'after-delete', needs: ['close', 'expire', 'repost', 'delete'], what: 'close, expire, repost and delete of a deleted job' },
  // the request matrix's job added with published 0 (src/contract/matrix.ts); its job is deleted by cleanup, so it needs the delete too
  { name: 'unpublished', needs: ['add', 'delete'], what: 'the add of a job with published 0, its public page, and its delete' },
  ...REQUEST_CASES.map((c) => ({ name: caseTurn(c), needs: needsOf(c), what: c.shape })),
]
export type TurnName = string

/** The request case a check (`endpoint: name`) is, if it is one. */
const CASE_OF_CHECK = new Map(REQUEST_CASES.map((c) => [`${c.endpoint}: ${c.name}`, c]))

const post = (path: string) => `POST /job/${path}`

/**
 * Which turns this run makes: the ones made longest ago (or never) first, each when its
 * full requests are free and no earlier turn of this run takes them. With
 * --rate-limit-window 0 every turn is made, one after another.
 */
export function planWrites(ctx: RunContext): Map<TurnName, { due: boolean; reason: string | undefined }> {
  const { client, ledger, deployment, settings } = ctx
  const last = ledger.writesOf(deployment)
  const taken = new Map<string, string>()
  if (ledger.pendingOf(deployment).length > 0) taken.set('delete', 'the delete of a job a run before left behind')
  const turns = new Map<TurnName, { due: boolean; reason: string | undefined }>()
  const order = [...TURNS].sort((a, b) => (last[a.name] ?? -Infinity) - (last[b.name] ?? -Infinity))
  for (const turn of order) {
    let reason: string | undefined
    if (settings.rateLimitWindow > 0) {
      const spent = turn.needs.find((path) => taken.has(path))
      const closed = turn.needs.find((path) => !client.free('POST', client.api(`/job/${path}`)))
      if (spent) reason = `${post(spent)} is made in this run by ${taken.get(spent)}`
      else if (closed) reason = `${post(closed)} is spent: made within the last ${settings.rateLimitWindow} s (in this run, or by the ledger)`
      else if (!ledger.kept && turn.name !== 'lifecycle') reason = 'write checks that repeat a full request take turns across runs through --ledger'
    }
    if (turn.name === 'after-delete' && reason === undefined && ledger.deletedOf(deployment) === undefined && !turns.get('lifecycle')?.due) {
      reason = 'no job is known deleted yet (the lifecycle turn deletes one)'
    }
    if (reason === undefined) for (const path of turn.needs) taken.set(path, turn.what)
    turns.set(turn.name, { due: reason === undefined, reason: reason === undefined ? undefined : `not due this run: ${reason}` })
  }
  return turns
}

/**
 * How many runs a full pass of every turn takes, from the ledger as it stands: the planner's
 * own choice (the turns made longest ago first, each when no earlier turn of the run takes a
 * full request it needs) played run after run until every turn has had one. One run with
 * --rate-limit-window 0; none can be said without --ledger (turns cannot rotate).
 */
export function passLength(ctx: Pick<RunContext, 'ledger' | 'deployment' | 'settings'>): number | undefined {
  if (ctx.settings.rateLimitWindow === 0) return 1
  if (!ctx.ledger.kept) return undefined
  const last = ctx.ledger.writesOf(ctx.deployment)
  let left = [...TURNS].sort((a, b) => (last[a.name] ?? -Infinity) - (last[b.name] ?? -Infinity))
  let runs = 0
  while (left.length > 0) {
    runs++
    const taken = new Set<string>()
    left = left.filter((turn) => {
      if (turn.needs.some((path) => taken.has(path))) return true
      for (const path of turn.needs) taken.add(path)
      return false
    })
  }
  return runs
}

/** The write turns after a run: how many, a full pass's length at this window, which were made, which are due, and (with --within N) which no run of the last N made. */
export interface Rotation {
  turns: number
  window: number
  /** Runs a full pass takes at this window, as passLength said before the run; undefined without --ledger. */
  passRuns: number | undefined
  made: string[]
  /** The turns this run did not make, the one made longest ago (or never) first. */
  due: string[]
  within?: number
  /** With --within N: the turns no run of the ledger's last N (this one included) made. */
  stale?: string[]
}

export function rotationOf(ctx: Pick<RunContext, 'ledger' | 'deployment' | 'settings'>, startedAt: number, passRuns: number | undefined): Rotation {
  const last = ctx.ledger.writesOf(ctx.deployment)
  const made = TURNS.filter((turn) => (last[turn.name] ?? -Infinity) >= startedAt).map((turn) => turn.name)
  const due = TURNS.filter((turn) => !made.includes(turn.name))
    .sort((a, b) => (last[a.name] ?? -Infinity) - (last[b.name] ?? -Infinity))
    .map((turn) => turn.name)
  const rotation: Rotation = { turns: TURNS.length, window: ctx.settings.rateLimitWindow, passRuns, made, due }
  const within = ctx.settings.within
  if (within === undefined) return rotation
  const runs = ctx.ledger.runsOf(ctx.deployment)
  // the start of the N-th newest run; with fewer runs kept, the first: a turn no kept run made is stale
  const since = runs[Math.max(0, runs.length - within)] ?? startedAt
  return { ...rotation, within, stale: TURNS.filter((turn) => (last[turn.name] ?? -Infinity) < since).map((turn) => turn.name) }
}

/** The lines the summary gives the rotation of the write turns. */
export function rotationLines(rotation: Rotation): string[] {
  const pass =
    rotation.window === 0
      ? 'with --rate-limit-window 0 one run makes them all'
      : rotation.passRuns === undefined
        ? 'without --ledger they cannot take turns: only the lifecycle is made'
        : `at a window of ${rotation.window} s a full pass takes ${rotation.passRuns} run${rotation.passRuns === 1 ? '' : 's'} (each job/add a full request of its own)`
  const named = (names: readonly string[]) => `${names.slice(0, 5).join('; ')}${names.length > 5 ? `; and ${names.length - 5} more` : ''}`
  return [
    `Write turns: ${rotation.turns} (${REQUEST_CASES.length} of them request cases); this run made ${rotation.made.length}; ${pass}`,
    ...(rotation.due.length > 0 ? [`  due next: ${named(rotation.due)}`] : []),
    ...(rotation.stale !== undefined ? [`  not made in the last ${rotation.within} runs: ${rotation.stale.length === 0 ? 'none' : `${rotation.stale.length}: ${named(rotation.stale)}`}`] : []),
  ]
}

/** The checks of each turn, by endpoint and name: a turn counts as made once one of them is. */
export function turnOf(endpointName: string, checkName: string): TurnName | undefined {
  const requestCase = CASE_OF_CHECK.get(`${endpointName}: ${checkName}`)
  if (requestCase !== undefined) return caseTurn(requestCase)
  if (/^(close|expire|repost|delete) of the deleted job is refused$/.test(checkName)) return 'after-delete'
  if (checkName.startsWith('an invalid salary_unit')) return 'invalid-salary-unit'
  if (checkName.startsWith('a job without a required field')) return 'missing-field'
  if (checkName.startsWith('the public page of a job added with published 0')) return 'unpublished'
  if (checkName.startsWith('a write without credentials')) return undefined
  return endpointName.startsWith('job/') ? 'lifecycle' : undefined
}

export function jobsGroup(root: Minimal, ctx: RunContext): void {
  const { client } = ctx
  const state: { job: CreatedJob | undefined; page: string | undefined } = { job: undefined, page: undefined }
  const stamp = formatTimestamp(ctx.clock.now()).replace(/[^0-9]/g, '')
  const reference = `CONTRACT-${stamp}`
  const due = (turn: TurnName) => {
    const planned = ctx.turns.get(turn)
    if (!planned?.due) throw new Skip(planned?.reason ?? 'not due this run', 'not-due')
  }
  const theJob = () => {
    // planned, and not made: the valid add failed or erred (its own check says which)
    if (!state.job) throw new Skip('no job was made (see job/add)', 'unavailable')
    return state.job
  }
  /** Notes a job made by a request meant to fail, so that cleanup deletes it too. */
  const keep = (answer: Answer, body: { job_reference: string }) => {
    const id = int(rec(answer.json).id)
    if (id !== undefined && answer.status < 300) return ctx.created(id, body.job_reference, `POST ${where(answer.url)}`)
    return undefined
  }
  /**
   * The checks of the request cases of one operation (src/contract/cases.ts): each sends its
   * body, made from the valid base (the kit's valid job; `{id, closing_date}` of a job added
   * for it, or of an id no job has when the id is what the case breaks), and holds the answer
   * to what the spec says of it: success when the spec allows the request, else a 412 whose
   * message names the field. A job an add made, allowed or not, is deleted by cleanup.
   */
  /** A case's request (and, for a repost of a live job, the add before it): made once, shared by its check. */
  const sent = new Map<RequestCase, Promise<{ got: Got; body: Record<string, unknown> } | Skip>>()
  const sendCase = (c: RequestCase): Promise<{ got: Got; body: Record<string, unknown> } | Skip> => {
    const made = sent.get(c)
    if (made !== undefined) return made
    const making = (async () => {
      const now = ctx.clock.now()
      const ref = `${reference}-C${REQUEST_CASES.indexOf(c)}`
      const closing = formatMinute(now + 60 * DAY_MS)
      let base: Record<string, unknown>
      if (c.operation === 'add') base = { ...contractJob(ctx, ref) }
      else if (c.needsJob) {
        const job = contractJob(ctx, ref)
        const added = await client.post(client.api('/job/add'), job)
        const kept = added.kind === 'answer' ? keep(added, job) : undefined
        if (kept === undefined) return new Skip(`the job to ${c.operation} could not be added: ${added.kind === 'answer' ? `HTTP ${added.status} ${excerpt(added)}` : added.reason}`, 'unavailable')
        base = { id: kept.id, closing_date: closing }
      } else base = c.operation === 'repost' ? { id: UNKNOWN_ID, closing_date: closing } : { id: UNKNOWN_ID }
      const body = c.body(base, now)
      const got = await client.post(client.api(`/job/${c.operation}`), body)
      if (c.operation === 'add' && got.kind === 'answer') keep(got, { job_reference: ref })
      return { got, body }
    })()
    sent.set(c, making)
    return making
  }
  /**
   * The checks of the request cases of one operation (src/contract/cases.ts): each sends its
   * body, made from the valid base (the kit's valid job; `{id, closing_date}` of a job added
   * for it, or of an id no job has when the id is what the case breaks), and holds the answer
   * to what the spec says of it: success when the spec allows the request, else a 412 whose
   * message names the field. A job an add made, allowed or not, is deleted by cleanup. The
   * cases due this run are sent at once when the first is checked (several are due only with
   * --rate-limit-window 0), the client's few requests at a time.
   */
  const caseChecks = (t: Minimal, operation: RequestCase['operation']) => {
    const cases = REQUEST_CASES.filter((c) => c.operation === operation)
    for (const c of cases) {
      check(t, c.name, async (a) => {
        due(caseTurn(c))
        for (const other of cases) if (ctx.turns.get(caseTurn(other))?.due) void sendCase(other)
        const outcome = await sendCase(c)
        if (outcome instanceof Skip) throw outcome
        const { got, body } = outcome
        const answer = need(got)
        const what = c.kind === 'missing' || c.kind === 'optional-absent' ? `without ${c.field}` : c.kind === 'free-text' ? `free-text fields ${JSON.stringify(FREE_TEXT)}` : `${c.field} ${JSON.stringify(body[c.field])}`
        const status = rec(answer.json).status
        if (c.allowed) {
          // a success as the spec writes it: the add's public page URL and id, the other operations' message
          if (a.ok(answer.status === 200 && status === 200, `${what}: answered status 200`, `${what}: answered HTTP ${answer.status} ${excerpt(answer)}, not status 200, though the spec allows it`)) {
            ctx.fits(a, c.operation === 'add' ? jobAddAnswer : messageAnswer, answer, c.endpoint, 'the answer')
          }
          return
        }
        if (c.open !== undefined) {
          // the spec's words leave the value open: accepted is the deployment's choice (an observation, the profile point openJobValues)
          const accepted = answer.status === 200 && status === 200
          ctx.openValues.set(c.id, { value: accepted ? 'accepted' : 'refused', request: `POST ${where(answer.url)}`, at: ctx.clock.now() })
          if (accepted) {
            ctx.observations.add({ topic: 'jobs', endpoint: c.endpoint, summary: `${what} is accepted: the spec's words leave it open (${c.open})` })
            a.ok(true, `${what}: accepted, which the spec's words leave open`)
            return
          }
        }
        const accepted = answer.status < 300 && status === 200
        if (!a.ok(status === 412 || answer.status === 412, `${what}: refused with status 412`, `${what}: answered HTTP ${answer.status} ${excerpt(answer)}: ${accepted ? 'accepted, though the spec forbids it' : c.open !== undefined ? 'neither accepted nor refused with status 412' : 'not status 412'}`)) return
        answered412(a, answer)
        const message = str(rec(answer.json).message)
        a.ok(namesField(message, c.field), `the message names ${c.field}: ${String(message)}`, `the message ${JSON.stringify(message)} does not name ${c.field}`)
      })
    }
  }
  /** The field close and expire name the job by: the one an answer showed, else the profile's, else {id} as delete. */
  const idField = (): IdField => ctx.idField?.value ?? (ctx.known.closeExpireIdField === 'job_id' ? 'job_id' : 'id')
  const operation = async (op: Operation, id: number) => {
    const url = client.api(`/job/${op}`)
    if (op !== 'close' && op !== 'expire') return client.post(url, op === 'repost' ? { id, closing_date: formatMinute(ctx.clock.now() + 60 * DAY_MS) } : { id })
    // the spec does not show close's and expire's body: a 412 naming the other field says which the deployment reads
    const field = idField()
    const first = await client.post(url, { [field]: id })
    if (first.kind !== 'answer') return first
    const request = `POST ${new URL(url).pathname}`
    const other = otherIdField(first, field)
    if (other === undefined) {
      if (first.status === 200 && rec(first.json).status === 200) ctx.idField ??= { value: field, request, at: ctx.clock.now() }
      return first
    }
    ctx.idField = { value: other, request, at: ctx.clock.now() }
    if (!client.free('POST', url)) {
      throw new Skip(`job/${op} names the job by ${other}, not ${field} (the profile's closeExpireIdField); asking again with ${other} would repeat ${request} within the window: a run with the profile (--profile or --write-profile FILE) sends ${other}`, 'unavailable')
    }
    return client.post(url, { [other]: id })
  }
  /** The lifecycle's own request of each operation, made once and read by every check of it. */
  const lifecycle = new Map<Operation, ReturnType<typeof operation>>()
  const lifecycleOf = (op: Operation, id: number) => {
    const outcome = lifecycle.get(op) ?? operation(op, id)
    lifecycle.set(op, outcome)
    return outcome
  }
  const deleted = (job: CreatedJob, answer: Answer) => {
    job.deletedBy = `POST ${where(answer.url)}`
    ctx.ledger.setDeleted(ctx.deployment, job.id)
  }

  endpoint(root, 'job/add', (t) => {
    check(t, 'a valid job answers 200 with the public page URL and the new id', async (a) => {
      due('lifecycle')
      const body = contractJob(ctx, reference, true)
      ctx.observations.add({
        topic: 'jobs',
        endpoint: 'job/add',
        summary: `the valid job takes this night's turn of the constrained values: ${(['job_industry', 'job_type', 'contract_type', 'salary_unit', 'salary_currency', 'job_telecommute'] as const).map((f) => `${f} ${JSON.stringify(body[f])}`).join(', ')}`,
      })
      const own = new AnswerValidator(ctx.values).check(jobInput, body)
      if (own.failures.length > 0) throw new Skip(`the kit cannot make a valid job from job/fields' values: ${own.failures.join(' ')}`)
      const answer = need(await client.post(client.api('/job/add'), body))
      // the forms this add tried, for the request matrix and for the next run's turn of forms (the ledger)
      const tried = (job: JobInput) => {
        const forms = FIELD_FORMS.filter((f) => job[f.field] === f.value && !ctx.formsTried.includes(formCellId(f)))
        for (const form of forms) {
          ctx.formsTried.push(formCellId(form))
          ctx.ledger.wrote(ctx.deployment, formLedgerName(formCellId(form)), ctx.clock.now())
        }
        return forms
      }
      tried(body)
      const id = int(rec(answer.json).id)
      if (id !== undefined && answer.status < 300) state.job = ctx.created(id, reference, `POST ${where(answer.url)}`)
      if (ctx.settings.rateLimitWindow === 0) {
        // no window to spend: every form of every constrained field in this run (the rotation of forms is for runs
        // that spend a window on each add), in as many adds as the field with the most forms has; each deleted by cleanup
        const rounds = Math.max(...FORM_FIELDS.map((field) => formsOffered(field, ctx.values[VALUES_OF[field]]).length))
        for (let n = 0; n < rounds; n++) {
          const other = contractJob(ctx, `${reference}-F${n}`, n)
          const forms = tried(other)
          if (forms.length === 0) continue
          const got = need(await client.post(client.api('/job/add'), other))
          keep(got, other)
          const what = forms.map((f) => `${f.field} ${JSON.stringify(f.value)}`).join(', ')
          a.ok(got.status === 200 && rec(got.json).status === 200, `a valid job with ${what} answers status 200`, `a valid job with ${what} answered HTTP ${got.status} ${excerpt(got)}, not status 200, though the spec allows each`)
        }
      }
      if (!a.ok(answer.status === 200, 'answers HTTP 200', `answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
      ctx.fits(a, jobAddAnswer, answer, 'job/add', 'the answer')
      const message = str(rec(answer.json).message)
      // "a message holding the public job page URL": the URL may come with words around it
      const page = message === undefined ? undefined : /https?:\/\/[^\s"'<>]+/.exec(message)?.[0]?.replace(/[.,;:!?)]+$/, '')
      a.ok(page !== undefined, `the message holds the public page URL ${String(page)}`, `the message ${JSON.stringify(message)} holds no URL`)
      state.page = page
      if (page !== undefined && id !== undefined) {
        const named = new RegExp(`(^|[^0-9])${id}([^0-9]|$)`).test(new URL(page).pathname + new URL(page).search)
        ctx.observations.add({ topic: 'jobs', endpoint: 'job/add', summary: `the public page URL ${named ? 'holds' : 'does not hold'} the new id ${id}` })
      }
    })
    check(t, 'the public page of the new published job answers 200', async (a) => {
      due('lifecycle')
      theJob()
      if (state.page === undefined) throw new Skip('job/add gave no public page URL')
      const shown = need(await client.page(state.page))
      a.ok(shown.status === 200, `${state.page} answers 200`, `${state.page} answered HTTP ${shown.status}, not 200, though the job was added with published 1`)
    })
    // "it is published or not according to `published`": a page answering 200 shows an unpublished job
    check(t, 'the public page of a job added with published 0 does not answer 200', async (a) => {
      due('unpublished')
      const body: JobInput = { ...contractJob(ctx, `${reference}-U`), published: 0 }
      const answer = need(await client.post(client.api('/job/add'), body))
      keep(answer, body)
      if (!a.ok(answer.status === 200 && rec(answer.json).status === 200, 'the add of a job with published 0 answers status 200', `the add of a job with published 0 answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
      const message = str(rec(answer.json).message)
      const page = message === undefined ? undefined : /https?:\/\/[^\s"'<>]+/.exec(message)?.[0]?.replace(/[.,;:!?)]+$/, '')
      if (page === undefined) return a.fail(`the message ${JSON.stringify(message)} holds no public page URL to ask`)
      const shown = need(await client.page(page))
      a.ok(shown.status !== 200, `${page} answers HTTP ${shown.status}: the job is not published`, `${page} answered HTTP 200, though the job was added with published 0`)
      ctx.observations.add({ topic: 'jobs', endpoint: 'job/add', summary: `the public page of a job added with published 0 answers HTTP ${shown.status}` })
    })
    check(t, 'an invalid salary_unit answers 412 with a message naming salary_unit', async (a) => {
      due('invalid-salary-unit')
      const body = { ...contractJob(ctx, `${reference}-I`), salary_unit: 'Per fortnight (contract check)' }
      if (ctx.values.salary_unit.includes(body.salary_unit)) throw new Skip('job/fields lists the invalid value the kit uses')
      const answer = need(await client.post(client.api('/job/add'), body))
      keep(answer, body)
      answered412(a, answer)
      const message = str(rec(answer.json).message)
      a.ok(message !== undefined && /salary[ _]?unit/i.test(message), `the message names it: ${String(message)}`, `the message ${JSON.stringify(message)} does not name salary_unit`)
      ctx.observations.add({ topic: 'error-body', endpoint: 'job/add', summary: `an invalid field answers HTTP ${answer.status}: ${JSON.stringify(answer.json)}` })
    })
    check(t, 'a job without a required field answers 412', async (a) => {
      due('missing-field')
      const { [MISSING]: _missing, ...body } = contractJob(ctx, `${reference}-M`)
      const answer = need(await client.post(client.api('/job/add'), body))
      keep(answer, body)
      answered412(a, answer)
      const message = str(rec(answer.json).message)
      ctx.observations.add({ topic: 'jobs', endpoint: 'job/add', summary: `a missing ${MISSING} is ${message !== undefined && new RegExp(MISSING.replace('_', '[ _]?'), 'i').test(message) ? '' : 'not '}named in the message` })
    })
    caseChecks(t, 'add')
  })

  for (const op of OPERATIONS) {
    endpoint(root, `job/${op}`, (t) => {
      check(t, `${DOING[op]} answers status 200 with a message`, async (a) => {
        due('lifecycle')
        const job = theJob()
        const answer = need(await lifecycleOf(op, job.id))
        if (op === 'delete' && answer.status === 200 && rec(answer.json).status === 200) deleted(job, answer)
        if (!a.ok(answer.status === 200, 'answers HTTP 200', `answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
        ctx.fits(a, messageAnswer, answer, `job/${op}`, 'the answer')
      })
      check(t, `the message of ${DOING[op]} says the job has been ${SAYS[op].words}`, async (a) => {
        due('lifecycle')
        const job = theJob()
        const answer = need(await lifecycleOf(op, job.id))
        const message = str(rec(answer.json).message)
        if (answer.status !== 200 || message === undefined) throw new Skip(`job/${op} answered HTTP ${answer.status} without a message (see the check before)`)
        a.ok(SAYS[op].word.test(message), `the message says ${SAYS[op].words}: ${JSON.stringify(message)}`, `the message ${JSON.stringify(message)} does not say the job has been ${SAYS[op].words}`)
      })
      if (op === 'close') {
        check(t, 'the public page answers 404 after close', async (a) => {
          due('lifecycle')
          theJob()
          if (state.page === undefined) throw new Skip('job/add gave no public page URL')
          const shown = need(await client.page(state.page))
          a.ok(shown.status === 404, `${state.page} answers 404`, `${state.page} answered HTTP ${shown.status}, not 404`)
        })
      }
      if (op === 'repost' || op === 'delete') caseChecks(t, op)
      if (op === 'repost') {
        check(t, 'a write without credentials is refused with 401 or 403', async (a) => {
          // an unknown id: whatever the deployment does with it, nothing real moves
          const body = { id: UNKNOWN_ID, closing_date: formatMinute(ctx.clock.now() + 60 * DAY_MS) }
          refusedAnswer(a, ctx, need(await client.post(client.api('/job/repost'), body, { credentials: 'none' })), 'for a write without credentials')
        })
      }
      if (op === 'delete') {
        check(t, 'the public page answers 404 after delete', async (a) => {
          due('lifecycle')
          const job = theJob()
          if (state.page === undefined) throw new Skip('job/add gave no public page URL')
          if (job.deletedBy === undefined) throw new Skip('the job was not deleted (see the delete check)', 'unavailable')
          const shown = need(await client.page(state.page))
          a.ok(shown.status === 404, `${state.page} answers 404`, `${state.page} answered HTTP ${shown.status}, not 404, after the job was deleted`)
        })
        for (const after of OPERATIONS) {
          check(t, `${after} of the deleted job is refused`, async (a) => {
            due('after-delete')
            // this run's job when it deleted one, else the one the ledger knows deleted
            const id = state.job?.deletedBy !== undefined ? state.job.id : ctx.ledger.deletedOf(ctx.deployment)
            if (id === undefined) throw new Skip('no job is known deleted (see the delete check)')
            const answer = need(await operation(after, id))
            a.ok(refused(answer), `refused with HTTP ${answer.status}: ${JSON.stringify(answer.json)}`, `answered HTTP ${answer.status} ${JSON.stringify(answer.json)}: not refused`)
            ctx.observations.add({ topic: 'error-body', endpoint: `job/${after}`, summary: `${after} of a deleted job answers HTTP ${answer.status}: ${JSON.stringify(answer.json) ?? '(not JSON)'}` })
          })
        }
      }
    })
  }
}

/** What a pending job is, for the ledger. */
const pendingOf = (ctx: RunContext, job: { id: number; reference: string }, why: string): PendingJob => ({
  deployment: ctx.deployment,
  id: job.id,
  reference: job.reference,
  since: new Date(ctx.clock.now()).toISOString(),
  why,
})

/** Deletes, first thing, a job an earlier run left behind (one delete per window); 404 means someone already did. */
export async function deletePending(ctx: RunContext): Promise<void> {
  const { client, ledger, deployment } = ctx
  const still: PendingJob[] = []
  const url = client.api('/job/delete')
  for (const job of ledger.pendingOf(deployment)) {
    if (!client.free('POST', url)) {
      still.push(job)
      continue
    }
    const outcome = await client.post(url, { id: job.id }, { detached: true })
    const done = outcome.kind === 'answer' && outcome.status === 200 && rec(outcome.json).status === 200
    const gone = outcome.kind === 'answer' && outcome.status === 404
    if (done) ledger.setDeleted(deployment, job.id)
    if (!done && !gone) still.push(job)
    ctx.observations.add({
      topic: 'jobs',
      endpoint: 'job/delete',
      summary: `job ${job.id} (${job.reference}), left behind by an earlier run, ${done ? 'is deleted now' : gone ? 'is gone already (404)' : `is still not deleted: ${outcome.kind === 'answer' ? `HTTP ${outcome.status}` : outcome.reason}`}`,
    })
  }
  ledger.setPending(deployment, still)
}

/** Deletes every job the run made and has not deleted; one whose delete window is spent goes to the ledger as pending. */
export async function cleanup(ctx: RunContext): Promise<void> {
  const url = ctx.client.api('/job/delete')
  const pending: PendingJob[] = []
  for (const job of ctx.jobs.filter((j) => j.deletedBy === undefined)) {
    if (!ctx.client.free('POST', url)) {
      job.cleanupError = `${post('delete')} was made in this run already (its window is spent): left for the next run, in the ledger as pending`
      pending.push(pendingOf(ctx, job, job.cleanupError))
      continue
    }
    const outcome = await ctx.client.post(url, { id: job.id }, { detached: true })
    if (outcome.kind === 'answer' && outcome.status === 200 && rec(outcome.json).status === 200) {
      job.deletedBy = `POST ${where(url)}`
      ctx.ledger.setDeleted(ctx.deployment, job.id)
    } else {
      job.cleanupError = outcome.kind === 'answer' ? `answered HTTP ${outcome.status}: ${JSON.stringify(outcome.json)}` : outcome.reason
      pending.push(pendingOf(ctx, job, job.cleanupError))
    }
  }
  ctx.ledger.setPending(ctx.deployment, [...ctx.ledger.pendingOf(ctx.deployment), ...pending])
}
