// Wrong on purpose (rule walk-to-last-page): it reads the first page of each list and
// stops, as a client does that never looked at next_page.
import { type ApiRecord, SyncClient } from '../sync-client.js'

export class FirstPageOnlyClient extends SyncClient {
  protected override nextPage(_page: ApiRecord): string | undefined {
    return undefined
  }
}
