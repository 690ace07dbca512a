// Wrong on purpose (rule download-listed-ids): it walks attachment ids past the newest one
// it knows until one fails, guessing that ids are consecutive, instead of waiting for a
// list to give them.
import { Deferred, SyncClient } from '../sync-client.js'

export class GuessIdsClient extends SyncClient {
  protected override async downloads(): Promise<void> {
    await super.downloads()
    const ids = [...this.state.copy.applications.keys()] as number[]
    for (let id = Math.max(0, ...ids) + 1; ; id++) {
      const url = `/api/v1/applications/attachment/${id}`
      if (!this.mayAsk(url)) return
      const answer = await this.request('GET', url).catch((error: unknown) => {
        if (error instanceof Deferred) return undefined
        throw error
      })
      await answer?.arrayBuffer()
      if (answer?.status !== 200) return
    }
  }
}
