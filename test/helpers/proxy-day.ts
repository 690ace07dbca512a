// An example client's day (examples/) through the proxy in front of the second server
// (test/helpers/other-board/), for the proxy's tests: three rounds 16 minutes apart (or
// `rounds`), records arriving as on examples/day.ts's small day (one while the first
// round walks, two between rounds; the second server's arrivals take each kind in turn: a
// candidate, an application, a timesheet of the newest candidate, ...). Time is the
// test's: the client's clock, the second server's limit windows and the proxy's journal
// all read it, and each request moves it 5 s on.
import type { Test } from 'tap'
import { SyncClient, type SyncOptions } from '../../examples/sync-client.js'
import { createProxy, type RunningProxy } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from './other-board.js'
import { type TapOptions, type UpstreamTap, tapUpstream } from './upstream-tap.js'

export const DAY_START = Date.parse('2026-11-20T12:00:00Z')

export interface ProxiedDay {
  proxy: RunningProxy
  upstream: UpstreamTap
  /** Each request the client made: `METHOD /path?query`. */
  sent: string[]
  /** What the proxy logged (--log pretty) and warned. */
  lines: string[]
  /** The client, after its day (its copy: client.copy()). */
  client: SyncClient
}

export async function proxiedDay(
  /** A tap test, or anything that runs the closers at its end (scripts/screenshots.ts). */
  t: Pick<Test, 'teardown'>,
  options: {
    style: 'a' | 'b'
    username: string
    password: string
    basePath?: string
    Client?: new (options: SyncOptions) => SyncClient
    /** Someone else reads job/fields just before the day (straight at the upstream): the client's first read meets a 429 it did not cause. */
    othersFirst?: boolean
    /** How the upstream misbehaves (test/helpers/upstream-tap.ts). */
    tap?: TapOptions
    /** The proxy's --record file. */
    record?: string
    /** Rounds the client makes (3 by default). A fourth meets a change of a record it holds: the candidate that arrived before the third round gets a timesheet before the fourth (copy-in-step). */
    rounds?: number
  },
): Promise<ProxiedDay> {
  let elapsed = 0
  const { style, username, password, basePath = '', Client = SyncClient } = options
  const board = await startOtherBoard({ style, username, password, basePath, elapsed: () => elapsed })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url, options.tap)
  t.teardown(() => upstream.close())
  const lines: string[] = []
  const proxy = createProxy({ to: upstream.url, port: 0, log: 'pretty', ...(options.record === undefined ? {} : { record: options.record }) }, { now: () => DAY_START + elapsed, write: (line) => void lines.push(line), warn: (line) => void lines.push(line) })
  await proxy.listen()
  t.teardown(() => proxy.close())
  const sent: string[] = []
  const client = new Client({
    baseUrl: proxy.url,
    user: username,
    password,
    now: () => DAY_START + elapsed,
    fetch: async (input, init) => {
      elapsed += 5_000
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`)
      if (sent.length === 5) board.arrive()
      return fetch(input, init)
    },
  })
  if (options.othersFirst) await (await fetch(`${board.url}/api/v1/job/fields`, { headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } })).arrayBuffer()
  client.state.jobs.push(client.jobToPost())
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    if (round > 0) {
      elapsed += 16 * 60 * 1000
      board.arrive()
      board.arrive()
    }
    await client.round()
  }
  return { proxy, upstream, sent, lines, client }
}
