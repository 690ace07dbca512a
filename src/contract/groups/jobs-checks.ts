// The jobs group (--writes only): job/add of a valid job, of an invalid salary_unit and
// of a job missing a required field; close (and the public page's 404 after it),
// expire, repost and delete of the job made; and each operation refused once a job is
// deleted; and the request cases of each operation (src/contract/cases.ts). The write
// checks take turns across runs (src/contract/write-turns.ts); the job they add is
// src/contract/contract-job.ts's, and the jobs left are deleted by job-cleanup.ts.
import type { Minimal } from '@tapjs/core'
import { jobAddAnswer, jobInput, messageAnswer } from '../../../schemas/index.js'
import { formatMinute, formatTimestamp } from '../../core/time.js'
import type { JobInput } from '../../core/types.js'
import { check, endpoint, need, Skip, where, type Asserter, type Got } from '../checks.js'
import { excerpt } from '../request-outcomes.js'
import type { CreatedJob, RunContext } from '../context.js'
import type { Answer } from '../request-outcomes.js'
import { int, rec, saysSuccess, str, succeeded } from '../records.js'
import { AnswerValidator } from '../validate.js'
import { UNKNOWN_ID } from '../spare-requests.js'
import { refusedAnswer } from './auth-checks.js'
import { FIELD_FORMS, formCellId, formLedgerName } from '../matrix.js'
import { caseTurn, FREE_TEXT, namesField, REQUEST_CASES, type RequestCase } from '../cases.js'
import { contractJob, DAY_MS, FORM_FIELDS, formsOffered, VALUES_OF } from '../contract-job.js'
import { MISSING, type TurnName } from '../write-turns.js'

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

/** The body's status and the HTTP status of a refusal the spec calls 412: the body says 412; HTTP says a 4xx or a success (2xx). */
function answered412(a: Asserter, answer: Answer): void {
  const status = rec(answer.json).status
  a.ok(status === 412, 'the body says status 412', `the body says status ${JSON.stringify(status) ?? '(none)'}, not 412`)
  // the spec says what the body holds, not the status line that carries it (412, 200, 400, 422: a profile point, preconditionHttpStatus)
  a.ok(succeeded(answer) || (answer.status >= 400 && answer.status < 500), `HTTP ${answer.status}`, `answered HTTP ${answer.status}, neither a success (2xx) nor a 4xx`)
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
 * Refused: a 4xx, in the HTTP status or in the body's; or an HTTP success (2xx) that is not the
 * spec's success (a JSON body with status 200), such as a text message under a
 * deployment that sends errors with HTTP 200 (the profile's errorHttpStatus, notFoundBody).
 */
function refused(answer: Answer): boolean {
  const status = int(rec(answer.json).status)
  return (answer.status >= 400 && answer.status < 500) || (succeeded(answer) && status !== 200)
}

/** A request case's request as sent: its answer, its body, and the add of the job it needed first, if it did; or that add, when it said success with no id to send the case for. */
type Sent = { got: Got; body: Record<string, unknown>; added: Answer | undefined } | { unmade: Answer }

/** The public page URL an add's message holds ("`message` string holding the public job page URL"): a full URL, words around it or not. */
function pageUrlOf(answer: Answer): string | undefined {
  const message = str(rec(answer.json).message)
  return message === undefined ? undefined : /https?:\/\/[^\s"'<>]+/.exec(message)?.[0]?.replace(/[.,;:!?)]+$/, '')
}

/** The jobs group's checks, by endpoint: job/add, then each operation on the job it made. */
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
    if (id !== undefined && succeeded(answer)) return ctx.created(id, body.job_reference, `POST ${where(answer.url)}`)
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
  const sent = new Map<RequestCase, Promise<Sent | Skip>>()
  const sendCase = (c: RequestCase): Promise<Sent | Skip> => {
    const made = sent.get(c)
    if (made !== undefined) return made
    const making = (async () => {
      const now = ctx.clock.now()
      const ref = `${reference}-C${REQUEST_CASES.indexOf(c)}`
      const closing = formatMinute(now + 60 * DAY_MS)
      let base: Record<string, unknown>
      let first: Answer | undefined
      if (c.operation === 'add') base = { ...contractJob(ctx, ref) }
      else if (c.needsJob) {
        const job = contractJob(ctx, ref)
        const added = await client.post(client.api('/job/add'), job)
        const kept = added.kind === 'answer' ? keep(added, job) : undefined
        // an add that says success with no integer id breaks the add's row: the case's check fails it, not left unmade
        if (kept === undefined && added.kind === 'answer' && saysSuccess(added)) return { unmade: added }
        if (kept === undefined) return new Skip(`the job to ${c.operation} could not be added: ${added.kind === 'answer' ? `HTTP ${added.status} ${excerpt(added)}` : added.reason}`, 'unavailable')
        base = { id: kept.id, closing_date: closing }
        first = added.kind === 'answer' ? added : undefined
      } else base = c.operation === 'repost' ? { id: UNKNOWN_ID, closing_date: closing } : { id: UNKNOWN_ID }
      const body = c.body(base, now)
      const got = await client.post(client.api(`/job/${c.operation}`), body)
      if (c.operation === 'add' && got.kind === 'answer') keep(got, { job_reference: ref })
      return { got, body, added: first }
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
        const madeFirst = `the add of the job to ${c.operation}`
        // its id is no integer: the add's row says the failures, and there is no job to send the case for
        if ('unmade' in outcome) return void ctx.fits(a, jobAddAnswer, outcome.unmade, 'job/add', madeFirst)
        if (outcome.added !== undefined) await heldToAdd(a, outcome.added, madeFirst)
        const { got, body } = outcome
        const answer = need(got)
        const what = c.kind === 'missing' || c.kind === 'optional-absent' ? `without ${c.field}` : c.kind === 'free-text' ? `free-text fields ${JSON.stringify(FREE_TEXT)}` : `${c.field} ${JSON.stringify(body[c.field])}`
        const status = rec(answer.json).status
        if (c.allowed) {
          // a success as the spec writes it: the add's public page URL and id, the other operations' message
          if (a.ok(saysSuccess(answer), `${what}: answered status 200`, `${what}: answered HTTP ${answer.status} ${excerpt(answer)}, not status 200, though the spec allows it`)) {
            if (c.operation === 'add') await heldToAdd(a, answer, 'the answer')
            else ctx.fits(a, messageAnswer, answer, c.endpoint, 'the answer')
          }
          return
        }
        if (c.open !== undefined) {
          // the spec's words leave the value open: accepted is the deployment's choice (an observation, the profile point openJobValues)
          const accepted = saysSuccess(answer)
          ctx.openValues.set(c.id, { value: accepted ? 'accepted' : 'refused', request: `POST ${where(answer.url)}`, at: ctx.clock.now() })
          if (accepted) {
            ctx.observations.add({ topic: 'jobs', endpoint: c.endpoint, summary: `${what} is accepted: the spec's words leave it open (${c.open})` })
            a.ok(true, `${what}: accepted, which the spec's words leave open`)
            return
          }
        }
        const accepted = saysSuccess(answer)
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
      if (saysSuccess(first)) ctx.idField ??= { value: field, request, at: ctx.clock.now() }
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
  /**
   * An add of a published job answered success, held to the add's row ("On success `status` 200, `message` string
   * holding the public job page URL, `id` integer."): its id, the full URL of its page in its message, and that page
   * shown, as the job was added with published 1 (rule of the lifecycle's add, for every add): a message naming no
   * page, or the page of a job that is not there, fails.
   */
  const heldToAdd = async (a: Asserter, answer: Answer, what: string): Promise<void> => {
    ctx.fits(a, jobAddAnswer, answer, 'job/add', what)
    const page = pageUrlOf(answer)
    if (!a.ok(page !== undefined, `${what}: the message holds the public page URL ${String(page)}`, `${what}: the message ${JSON.stringify(rec(answer.json).message)} holds no public page URL`)) return
    const shown = need(await client.page(page as string))
    a.ok(succeeded(shown), `${what}: its page ${page} answers HTTP ${shown.status}, a success`, `${what}: its page ${page} answered HTTP ${shown.status}, not a success (2xx), though the job was added with published 1`)
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
      if (id !== undefined && succeeded(answer)) state.job = ctx.created(id, reference, `POST ${where(answer.url)}`)
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
          // each add's answer is held to the add's row, its id and page URL too, not the first add's alone
          if (a.ok(saysSuccess(got), `a valid job with ${what} answers status 200`, `a valid job with ${what} answered HTTP ${got.status} ${excerpt(got)}, not status 200, though the spec allows each`)) {
            await heldToAdd(a, got, `the answer to a valid job with ${what}`)
          }
        }
      }
      if (!a.ok(succeeded(answer), `answers HTTP ${answer.status}, a success`, `answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
      ctx.fits(a, jobAddAnswer, answer, 'job/add', 'the answer')
      const message = str(rec(answer.json).message)
      // "a message holding the public job page URL": the URL may come with words around it
      const page = pageUrlOf(answer)
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
      a.ok(succeeded(shown), `${state.page} answers HTTP ${shown.status}, a success`, `${state.page} answered HTTP ${shown.status}, not a success (2xx), though the job was added with published 1`)
    })
    // "it is published or not according to `published`": a page answering a success (2xx) shows an unpublished job
    check(t, 'the public page of a job added with published 0 does not answer 200', async (a) => {
      due('unpublished')
      const body: JobInput = { ...contractJob(ctx, `${reference}-U`), published: 0 }
      const answer = need(await client.post(client.api('/job/add'), body))
      keep(answer, body)
      if (!a.ok(saysSuccess(answer), 'the add of a job with published 0 answers status 200', `the add of a job with published 0 answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
      // its answer is an add's: the id and the page URL (the deviation engine found one without an id passing)
      ctx.fits(a, jobAddAnswer, answer, 'job/add', 'the answer to the add of a job with published 0')
      const page = pageUrlOf(answer)
      if (page === undefined) return a.fail(`the message ${JSON.stringify(rec(answer.json).message)} holds no public page URL to ask`)
      const shown = need(await client.page(page))
      a.ok(!succeeded(shown), `${page} answers HTTP ${shown.status}: the job is not published`, `${page} answered HTTP ${shown.status}, a success, though the job was added with published 0`)
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
        if (op === 'delete' && saysSuccess(answer)) deleted(job, answer)
        if (!a.ok(succeeded(answer), `answers HTTP ${answer.status}, a success`, `answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
        ctx.fits(a, messageAnswer, answer, `job/${op}`, 'the answer')
      })
      check(t, `the message of ${DOING[op]} says the job has been ${SAYS[op].words}`, async (a) => {
        due('lifecycle')
        const job = theJob()
        const answer = need(await lifecycleOf(op, job.id))
        const message = str(rec(answer.json).message)
        if (!succeeded(answer) || message === undefined) throw new Skip(`job/${op} answered HTTP ${answer.status} without a message (see the check before)`)
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
