// The large scenario's full state (about 1.1 GiB: 100,000 candidates, 1,000,000
// applications) is more than PUT /__mock/state takes at any limit, or one string in V8
// holds: GET refuses it up front, from an estimate, before minutes of gathering and
// gigabytes of memory, pointing at the compact form, which round-trips (see
// large-compact-state.test.ts); a PUT that says such a length is refused before a byte is
// sent. Over real sockets. Runs in CI (`npm run test:slow`), not in `npm test`.
import t from 'tap'
import { listening, parseAnswer, rawRequest } from '../helpers/socket.js'

const MiB = 1_048_576

t.test("the large board's full state is refused by GET up front, pointing at the compact form", async (t) => {
  const source = await listening(t, { scenario: 'large' })
  const started = performance.now()
  const answer = parseAnswer(await rawRequest(source.port, 'GET /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 60_000))
  t.equal(answer.status, 409, 'refused as a call that does not fit the board')
  const { status, message } = JSON.parse(answer.body) as { status: number; message: string }
  t.equal(status, 409)
  const estimate = Number(/about ([0-9.]+) MiB/.exec(message)?.[1])
  t.ok(estimate > 500, `the message gives the estimate, over the largest limit: ${estimate} MiB`)
  t.match(message, 'more than PUT /__mock/state takes back at any limit (500 MiB)')
  t.match(message, 'GET /__mock/state?form=compact')
  t.comment(`answered in ${Math.round(performance.now() - started)} ms`)

  const compact = parseAnswer(await rawRequest(source.port, 'GET /__mock/state?form=compact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 60_000))
  t.equal(compact.status, 200, 'the compact form of the same board is answered')
})

t.test('a full state of the default board is still exported whole', async (t) => {
  const source = await listening(t, { scenario: 'default' })
  const answer = parseAnswer(await rawRequest(source.port, 'GET /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 60_000))
  t.equal(answer.status, 200)
})

t.test('a PUT whose Content-Length is over every limit is refused before a byte is sent', async (t) => {
  const widest = await listening(t, { scenario: 'empty', stateBodyLimit: 500 * MiB })
  const length = 1_184_704_822
  const answer = parseAnswer(await rawRequest(widest.port, `PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`))
  t.equal(answer.status, 413, 'with its length: refused at the largest limit')
  const message = JSON.parse(answer.body).message as string
  t.match(message, `is ${length} bytes, more than any state body limit takes`)
  t.match(message, 'GET /__mock/state?form=compact')
  t.notMatch(message, '--state-body-limit')
})
