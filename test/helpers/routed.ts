// Counts the requests a fake handed to its routes (src/fake/app.ts, ROUTED_CHANNEL): what
// its fast path did not answer. The tests of the fast path show by it which path answered.
import type { FastifyInstance } from 'fastify'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { IncomingMessage } from 'node:http'
import type { Test } from 'tap'
import { ROUTED_CHANNEL } from '../../src/fake/app.js'

/** How many requests whose URL starts with `prefix` the fake `app` has handed to its routes so far (counted until the test ends). */
export function routedCount(t: Test, app: FastifyInstance, prefix: string): () => number {
  let seen = 0
  const count = (message: unknown) => {
    const { app: from, request } = message as { app: FastifyInstance; request: IncomingMessage }
    if (from === app && request.url?.startsWith(prefix)) seen += 1
  }
  subscribe(ROUTED_CHANNEL, count)
  t.teardown(() => unsubscribe(ROUTED_CHANNEL, count))
  return () => seen
}
