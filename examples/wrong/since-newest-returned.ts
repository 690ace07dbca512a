// Wrong on purpose (rule since-no-gap): the next since is the newest updated_at (or
// created_at) its walk returned. Right for a walk made within one window; but a walk
// cut short by a 429 or an outage resumes later, and its later pages return changes made
// after it began, while its first page, read before them, is not read again: whatever
// landed there in between is older than that since and is never read.
import { type ApiRecord, type ListName, SyncClient } from '../sync-client.js'

export class SinceNewestReturnedClient extends SyncClient {
  /** The newest change each list's walk under way has returned, across the rounds it spans. */
  readonly #newest = new Map<ListName, string>()

  protected override merge(list: ListName, records: ApiRecord[]): void {
    super.merge(list, records)
    for (const record of records) {
      const changed: string = record.updated_at ?? record.created_at
      if (changed > (this.#newest.get(list) ?? '')) this.#newest.set(list, changed)
    }
  }

  protected override async syncList(list: ListName): Promise<void> {
    await super.syncList(list)
    const newest = this.#newest.get(list)
    // the walk is complete when nothing is left to resume
    if (this.state.resume[list] !== undefined || newest === undefined) return
    this.state.since[list] = newest.slice(0, 16)
    this.#newest.delete(list)
  }
}
