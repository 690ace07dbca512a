// The jobs the write checks made, deleted (--writes): every job the run makes is recorded
// the moment its id is known; cleanup() deletes what is left when the delete window
// allows, else the job is written to the ledger as pending and deletePending() deletes it
// first next run.
import { where } from './checks.js'
import type { RunContext } from './context.js'
import type { PendingJob } from './ledger.js'
import { saysSuccess } from './records.js'
import { post } from './write-turns.js'

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
    const done = outcome.kind === 'answer' && saysSuccess(outcome)
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
    if (outcome.kind === 'answer' && saysSuccess(outcome)) {
      job.deletedBy = `POST ${where(url)}`
      ctx.ledger.setDeleted(ctx.deployment, job.id)
    } else {
      job.cleanupError = outcome.kind === 'answer' ? `answered HTTP ${outcome.status}: ${JSON.stringify(outcome.json)}` : outcome.reason
      pending.push(pendingOf(ctx, job, job.cleanupError))
    }
  }
  ctx.ledger.setPending(ctx.deployment, [...ctx.ledger.pendingOf(ctx.deployment), ...pending])
}
