// Wrong on purpose (rule retry-after): after a 429 it retries after a fixed short pause
// instead of the Retry-after the answer gave.
import { Deferred, SyncClient } from '../sync-client.js'

export class RetryEarlyClient extends SyncClient {
  protected override async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Response> {
    try {
      return await super.request(method, url, body)
    } catch (error) {
      if (!(error instanceof Deferred) || error.status !== 429) throw error
      await new Promise((resolve) => setTimeout(resolve, 10))
      return super.request(method, url, body)
    }
  }
}
