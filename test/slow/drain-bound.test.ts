// The lingering close's byte bound (src/fake/http/drain.ts): a body whose Content-Length is
// beyond what the fake reads and throws away (DRAIN_BYTES, 1 GiB) is answered at once, the
// fake ends its side, reads on up to the bound and then closes. Slow: the client writes more
// than a gibibyte over loopback, so it runs in test:slow.
import t from 'tap'
import { DRAIN_BYTES } from '../../src/fake/http/drain.js'
import { AUTH } from '../helpers/board.js'
import { listening, sendAll } from '../helpers/socket.js'

const MiB = 1_048_576
const JOB_ADD = `POST /api/v1/job/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\n`

t.test('a Content-Length beyond what the fake drains is answered at once, then read up to the bound and closed', async (t) => {
  const { port } = await listening(t)
  // says 100 MiB more than the drain takes; the client stops writing once the fake closes
  const total = DRAIN_BYTES + 100 * MiB
  const piece = Buffer.alloc(MiB, 'x')
  const pieces = Array.from({ length: total / MiB }, () => piece)
  const exchange = await sendAll(port, JOB_ADD, pieces, { want: 1, untilClose: true })
  t.equal(exchange.answers[0]?.status, 413, 'the 413 was read')
  t.match(JSON.parse(exchange.answers[0]?.body ?? '{}').message, `The body is too large: ${total} bytes, over the limit of 1048576 bytes (1 MiB)`)
  t.ok(exchange.closed, 'the fake closed the connection')
  t.ok(exchange.written >= DRAIN_BYTES, `the client wrote ${Math.round(exchange.written / MiB)} MiB before the close: the fake read on`)
  t.ok(exchange.written < total, 'and closed before the whole body')
})
