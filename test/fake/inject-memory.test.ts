// server.inject in a loop that waits on nothing else: inject's stand-in socket lets go of
// each answer's bytes only on a later turn of the event loop, so such a loop held every
// answer until it ended (2,000 candidate pages: over 100 MiB). server.inject gives the
// loop that turn; the heap after a collection stays near where it began.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import t from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { AUTH } from '../helpers/board.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

t.test('a loop of 2,000 injects of a 60 KiB page keeps the heap within 40 MiB of where it began', async (t) => {
  const fake = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => fake.close())
  const first = await fake.inject({ url: '/api/v1/candidates/list?page=1', headers: AUTH })
  t.equal(first.statusCode, 200)
  t.ok(first.rawPayload.length > 30_000, `a page is ${first.rawPayload.length} bytes`)
  // the heap only: the answers' bytes outside it are freed on V8's own time, later under load
  const heap = () => {
    gc()
    gc()
    return process.memoryUsage().heapUsed
  }
  const before = heap()
  for (let i = 0; i < 2000; i++) await fake.inject({ url: '/api/v1/candidates/list?page=1', headers: AUTH })
  const grown = heap() - before
  t.ok(grown < 40 * 1048576, `grew ${(grown / 1048576).toFixed(1)} MiB`)
})
