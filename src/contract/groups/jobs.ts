// The jobs group (--writes only): job/add of a valid job, of an invalid salary_unit and
// of a job missing a required field; close (and the public page's 404 after it),
// expire, repost and delete of the job made; and each operation refused once the job is
// deleted. job/add is one full request whatever its body, so each request past the
// first carries a marked query string (?contract=...) to be a full request of its own.
// Every job the run makes is recorded the moment its id is known; cleanup() deletes
// what is left, also after a failure or an interrupt.
import type { Minimal } from '@tapjs/core'
import { JOB_REQUIRED, jobAddAnswer, jobInput, messageAnswer } from '../../../schemas/index.js'
import { formatMinute, formatTimestamp } from '../../time.js'
import type { JobInput } from '../../types.js'
import { check, endpoint, need, Skip, where, type Asserter } from '../checks.js'
import type { CreatedJob, RunContext } from '../context.js'
import type { Answer } from '../http.js'
import { MARK } from '../plan.js'
import { int, rec, str } from '../records.js'
import { AnswerValidator } from '../validate.js'

const OPERATIONS = ['close', 'expire', 'repost', 'delete'] as const
type Operation = (typeof OPERATIONS)[number]
const DOING: Record<Operation, string> = {
  close: 'closing the job',
  expire: 'expiring the job',
  repost: 'reposting the job with a closing_date',
  delete: 'deleting the job',
}

const DAY_MS = 86_400_000

/** The required field the missing-field add leaves out (the type says it is one job/add requires). */
const MISSING = 'job_title' satisfies (typeof JOB_REQUIRED)[number]

/** The value job/fields lists that suits a test job, or the list's first. */
const choose = (list: readonly string[], liked: string) => (list.includes(liked) ? liked : (list[0] as string))

/** A job that fits job/add's rules with the board's current values, clearly a test job. */
export function contractJob(ctx: RunContext, reference: string): JobInput {
  const values = ctx.values
  return {
    published: 1,
    featured: 0,
    job_title: 'Contract check (jobboard-kit): please ignore',
    job_reference: reference,
    job_industry: values.job_industry[0] as JobInput['job_industry'],
    job_telecommute: choose(values.job_telecommute, 'no') as JobInput['job_telecommute'],
    job_location: 'Leeds (contract check)',
    job_latitude: 53.8008,
    job_longitude: -1.5491,
    job_type: choose(values.job_type, 'Full time') as JobInput['job_type'],
    contract_type: choose(values.contract_type, 'Permanent') as JobInput['contract_type'],
    job_description: 'Made by the jobboard-kit contract check, which deletes it before its run ends.',
    contact_name: 'jobboard-kit contract check',
    contact_email: 'contract-check@example.com',
    salary_visible: '40,000 per year',
    salary_precise: '40000',
    salary_unit: choose(values.salary_unit, 'Per year') as JobInput['salary_unit'],
    salary_currency: values.salary_currencies[0] as JobInput['salary_currency'],
    require_cv: 0,
  }
}

/** The body's status and the HTTP status of a refusal the spec calls 412: the body says 412; HTTP says 412 or 200. */
function answered412(a: Asserter, answer: Answer): void {
  const status = rec(answer.json).status
  a.ok(status === 412, 'the body says status 412', `the body says status ${JSON.stringify(status) ?? '(none)'}, not 412`)
  a.ok(answer.status === 412 || answer.status === 200, `HTTP ${answer.status}`, `answered HTTP ${answer.status}, not 412`)
}

/** Refused: a 4xx, in the HTTP status or in the body's. */
function refused(answer: Answer): boolean {
  const status = int(rec(answer.json).status)
  return (answer.status >= 400 && answer.status < 500) || (answer.status === 200 && status !== undefined && status >= 400 && status < 500)
}

export function jobsGroup(root: Minimal, ctx: RunContext): void {
  const { client } = ctx
  const state: { job: CreatedJob | undefined; page: string | undefined } = { job: undefined, page: undefined }
  const stamp = formatTimestamp(ctx.clock.now()).replace(/[^0-9]/g, '')
  const reference = `CONTRACT-${stamp}`
  const theJob = () => {
    if (!state.job) throw new Skip('no job was made (see job/add)')
    return state.job
  }
  /** Notes a job made by a request meant to fail, so that cleanup deletes it too. */
  const keep = (answer: Answer, body: { job_reference: string }) => {
    const id = int(rec(answer.json).id)
    if (id !== undefined && answer.status < 300) ctx.created(id, body.job_reference, `POST ${where(answer.url)}`)
  }
  const operation = (op: Operation, id: number, query: Record<string, string> = {}) =>
    client.post(client.api(`/job/${op}`, query), op === 'repost' ? { id, closing_date: formatMinute(ctx.clock.now() + 60 * DAY_MS) } : { id })

  endpoint(root, 'job/add', (t) => {
    check(t, 'a valid job answers 200 with the public page URL and the new id', async (a) => {
      const body = contractJob(ctx, reference)
      const own = new AnswerValidator(ctx.values).check(jobInput, body)
      if (own.failures.length > 0) throw new Skip(`the kit cannot make a valid job from job/fields' values: ${own.failures.join(' ')}`)
      const answer = need(await client.post(client.api('/job/add'), body))
      const id = int(rec(answer.json).id)
      if (id !== undefined && answer.status < 300) state.job = ctx.created(id, reference, `POST ${where(answer.url)}`)
      if (!a.ok(answer.status === 200, 'answers HTTP 200', `answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
      ctx.fits(a, jobAddAnswer, answer, 'job/add', 'the answer')
      const message = str(rec(answer.json).message)
      const page = message !== undefined && /^https?:\/\/\S+$/.test(message) ? message : undefined
      a.ok(page !== undefined, `the message is the public page URL ${String(message)}`, `the message ${JSON.stringify(message)} is not a URL`)
      state.page = page
      if (page !== undefined) {
        const shown = await client.page(page)
        const status = shown.kind === 'answer' ? `HTTP ${shown.status}` : shown.reason
        ctx.observations.add({ topic: 'jobs', endpoint: 'job/add', summary: `the public page of the new published job answers ${status}` })
      }
    })
    check(t, 'an invalid salary_unit answers 412 with a message naming salary_unit', async (a) => {
      const body = { ...contractJob(ctx, `${reference}-I`), salary_unit: 'Per fortnight (contract check)' }
      if (ctx.values.salary_unit.includes(body.salary_unit)) throw new Skip('job/fields lists the invalid value the kit uses')
      const answer = need(await client.post(client.api('/job/add', { [MARK]: 'invalid-salary-unit' }), body))
      keep(answer, body)
      answered412(a, answer)
      const message = str(rec(answer.json).message)
      a.ok(message !== undefined && /salary[ _]?unit/i.test(message), `the message names it: ${String(message)}`, `the message ${JSON.stringify(message)} does not name salary_unit`)
      ctx.observations.add({ topic: 'error-body', endpoint: 'job/add', summary: `an invalid field answers HTTP ${answer.status}: ${JSON.stringify(answer.json)}` })
    })
    check(t, 'a job without a required field answers 412', async (a) => {
      const { [MISSING]: _missing, ...body } = contractJob(ctx, `${reference}-M`)
      const answer = need(await client.post(client.api('/job/add', { [MARK]: 'missing-field' }), body))
      keep(answer, body)
      answered412(a, answer)
      const message = str(rec(answer.json).message)
      ctx.observations.add({ topic: 'jobs', endpoint: 'job/add', summary: `a missing ${MISSING} is ${message !== undefined && new RegExp(MISSING.replace('_', '[ _]?'), 'i').test(message) ? '' : 'not '}named in the message` })
    })
  })

  for (const op of OPERATIONS) {
    endpoint(root, `job/${op}`, (t) => {
      check(t, `${DOING[op]} answers status 200 with a message`, async (a) => {
        const job = theJob()
        const answer = need(await operation(op, job.id))
        if (op === 'delete' && answer.status === 200 && rec(answer.json).status === 200) job.deletedBy = `POST ${where(answer.url)}`
        if (!a.ok(answer.status === 200, 'answers HTTP 200', `answered HTTP ${answer.status}: ${JSON.stringify(answer.json)}`)) return
        ctx.fits(a, messageAnswer, answer, `job/${op}`, 'the answer')
      })
      if (op === 'close') {
        check(t, 'the public page answers 404 after close', async (a) => {
          theJob()
          if (state.page === undefined) throw new Skip('job/add gave no public page URL')
          const shown = need(await client.page(state.page))
          a.ok(shown.status === 404, `${state.page} answers 404`, `${state.page} answered HTTP ${shown.status}, not 404`)
        })
      }
      if (op === 'delete') {
        for (const after of OPERATIONS) {
          check(t, `${after} of the deleted job is refused`, async (a) => {
            const job = theJob()
            if (job.deletedBy === undefined) throw new Skip('the job was not deleted (see the check before)')
            const answer = need(await operation(after, job.id, { [MARK]: 'after-delete' }))
            a.ok(refused(answer), `refused with HTTP ${answer.status}: ${JSON.stringify(answer.json)}`, `answered HTTP ${answer.status} ${JSON.stringify(answer.json)}: not refused`)
          })
        }
      }
    })
  }
}

/** Deletes every job the run made and has not deleted, each by its own full request. */
export async function cleanup(ctx: RunContext): Promise<void> {
  for (const job of ctx.jobs.filter((j) => j.deletedBy === undefined)) {
    const url = ctx.client.api('/job/delete', { [MARK]: `cleanup-${job.id}` })
    const outcome = await ctx.client.post(url, { id: job.id }, { detached: true })
    if (outcome.kind === 'answer' && outcome.status === 200 && rec(outcome.json).status === 200) job.deletedBy = `POST ${where(url)}`
    else job.cleanupError = outcome.kind === 'answer' ? `answered HTTP ${outcome.status}: ${JSON.stringify(outcome.json)}` : outcome.reason
  }
}
