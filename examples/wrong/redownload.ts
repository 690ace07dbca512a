// Wrong on purpose (rule download-once): it downloads every attachment again each round,
// although a file under an id never changes.
import { SyncClient } from '../sync-client.js'

export class RedownloadClient extends SyncClient {
  protected override wanted(): string[] {
    const out: string[] = []
    for (const application of this.state.copy.applications.values()) {
      const href = application.applicant?.attachment?.href
      if (typeof href === 'string') out.push(href)
    }
    return out
  }
}
