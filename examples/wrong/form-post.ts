// Wrong on purpose (rule post-json): the job is posted as an HTML form would post it.
import { SyncClient } from '../sync-client.js'

export class FormPostClient extends SyncClient {
  protected override encode(body: unknown, init: RequestInit): string {
    init.headers = { ...(init.headers as Record<string, string>), 'content-type': 'application/x-www-form-urlencoded' }
    return new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)])).toString()
  }
}
