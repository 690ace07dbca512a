// Wrong on purpose (rule credentials): downloads go out without the Basic credentials,
// as a client does that hands file links to a plain HTTP downloader.
import { SyncClient } from '../sync-client.js'

export class NoCredentialsClient extends SyncClient {
  protected override async downloads(): Promise<void> {
    for (const href of this.wanted().slice(0, 3)) {
      const answer = await (this.options.fetch ?? fetch)(`${this.options.baseUrl}${this.relative(href)}`)
      await answer.arrayBuffer()
    }
  }
}
