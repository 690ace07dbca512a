// Wrong on purpose (rule since-no-gap): the next since is the time its sync finished, so
// whatever changed while it walked falls between two walks and is never read.
import { type ApiRecord, type ListName, minuteOf, SyncClient } from '../sync-client.js'

export class SinceGapClient extends SyncClient {
  protected override nextSince(_list: ListName, _firstPage: ApiRecord[]): string | undefined {
    return undefined
  }

  override async round(): Promise<void> {
    await super.round()
    for (const list of ['candidates', 'applications', 'timesheets', 'marketing'] as const) this.state.since[list] = minuteOf(this.now())
  }
}
