// Wrong on purpose (rule no-unchanged-resend): its job leaves out job_title, and a job
// refused with 412 stays queued and is posted again, as it was, in the next round. It
// reads a refusal as the correct client reads any answer, by the `status` in its body too,
// so a deployment that refuses with HTTP 200 and `status` 412 in the body (docs/proxy.md,
// style b) is refused here as well: its one fault is the resend.
import { type ApiRecord, SyncClient, sampleJob } from '../sync-client.js'

export class ResendClient extends SyncClient {
  override jobToPost(): ApiRecord {
    const { job_title: _left, ...job } = sampleJob('REF-2')
    return job
  }

  protected override async postJobs(): Promise<void> {
    const url = '/api/v1/job/add'
    const job = this.state.jobs[0]
    if (job === undefined || this.state.fields === undefined || !this.mayAsk(url)) return
    const answer = await this.json('POST', url, this.withCurrentValues(job)).catch(() => undefined)
    // posted only when both the HTTP status and the body's say 200
    if (answer?.httpStatus === 200 && (answer.status === undefined || answer.status === 200)) this.state.jobs.shift()
  }
}
