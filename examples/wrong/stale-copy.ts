// Wrong on purpose (rule copy-in-step): a record it already holds is never replaced, so
// a candidate updated on the board stays as it was first read.
import { type ApiRecord, keyOf, type ListName, SyncClient } from '../sync-client.js'

export class StaleCopyClient extends SyncClient {
  protected override merge(list: ListName, records: ApiRecord[]): void {
    const copy = this.state.copy[list]
    for (const record of records) if (!copy.has(keyOf(list, record))) copy.set(keyOf(list, record), record)
  }
}
