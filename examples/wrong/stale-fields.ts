// Wrong on purpose (rule current-job-fields): job/fields is read once and kept for ever,
// so a job posted later uses a value the board has since retired.
import { SyncClient } from '../sync-client.js'

export class StaleFieldsClient extends SyncClient {
  #rounds = 0

  protected override async readFields(): Promise<void> {
    if (this.state.fields === undefined) await super.readFields()
  }

  /** It posts its job a round after it read the values: by then one may be retired. */
  protected override async postJobs(): Promise<void> {
    this.#rounds += 1
    if (this.#rounds >= 3) await super.postJobs()
  }
}
