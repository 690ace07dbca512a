// The state body limit of PUT /__mock/state: sized to the shipped scenarios' saved
// boards, raised by --state-body-limit, and enforced before the body is read (from
// Content-Length) or while it is read (chunked), so that an oversized body costs no more
// memory than the limit. The refusal is 413 {status, message} saying the limit, the flag
// and the compact form.
import { connect } from 'node:net'
import { Readable } from 'node:stream'
import t from 'tap'
import { board } from '../../helpers/board.js'
import { listening, parseAnswer, rawRequest } from '../../helpers/socket.js'
import { savedText } from '../../helpers/state.js'

const MiB = 1_048_576
const DEFAULT_LIMIT = 16 * MiB

t.test('the default limit takes every shipped small scenario\'s full state many times over', async (t) => {
  for (const scenario of ['default', 'edge-cases', 'empty']) {
    const app = await board(t, { scenario })
    const bytes = Buffer.byteLength(await savedText(app, 'full'))
    t.ok(bytes * 40 < DEFAULT_LIMIT, `${scenario}: ${bytes} bytes, under a fortieth of the default limit`)
  }
})

t.test('a body over the limit answers 413 saying the limit, the flag and the compact form', async (t) => {
  const app = await board(t, { stateBodyLimit: MiB })
  const payload = JSON.stringify({ pad: 'x'.repeat(MiB + 100) })
  const answer = await app.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json' }, payload })
  t.equal(answer.statusCode, 413)
  const body = answer.json()
  t.same(Object.keys(body).sort(), ['message', 'status'])
  t.equal(body.status, 413)
  t.match(body.message, `is ${Buffer.byteLength(payload)} bytes, over the state body limit of 1048576 bytes (1 MiB)`)
  t.match(body.message, '--state-body-limit')
  t.match(body.message, 'GET /__mock/state?form=compact')
})

t.test('a body sent without a Content-Length is refused at the limit with the same 413, claiming no length', async (t) => {
  const app = await board(t, { stateBodyLimit: MiB })
  const payload = Readable.from([Buffer.from('{"pad":"'), Buffer.alloc(2 * MiB, 'x'), Buffer.from('"}')])
  const answer = await app.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, payload })
  t.equal(answer.statusCode, 413)
  t.match(answer.json().message, 'The saved board is over the state body limit of 1048576 bytes (1 MiB): start the fake with --state-body-limit')
  t.match(answer.json().message, 'GET /__mock/state?form=compact')
})

t.test('without a stateBodyLimit the limit is 16 MiB', async (t) => {
  const { port } = await listening(t)
  // the headers alone: the answer comes at once, while the fake waits a while for the body it drains (src/fake/http/drain.ts)
  const over = parseAnswer(
    await rawRequest(port, `PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${DEFAULT_LIMIT + 1}\r\n\r\n`, 1000),
  )
  t.equal(over.status, 413)
  t.match(JSON.parse(over.body).message, 'over the state body limit of 16777216 bytes (16 MiB)')
})

t.test('--state-body-limit raises the limit: a body over the default is read', async (t) => {
  const app = await board(t, { stateBodyLimit: 2 * DEFAULT_LIMIT })
  const payload = JSON.stringify({ pad: 'x'.repeat(DEFAULT_LIMIT + 100) })
  const answer = await app.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json' }, payload })
  t.equal(answer.statusCode, 412, 'read and found not to be a state')
  t.match(answer.json().message, /The state is invalid/)
})

t.test('a Content-Length over the limit is answered 413 over a socket before any of the body is sent', async (t) => {
  const { port } = await listening(t, { stateBodyLimit: MiB })
  // the headers alone: an answer proves the fake did not wait for the 300 MiB
  const raw = await rawRequest(port, `PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${300 * MiB}\r\n\r\n`)
  const answer = parseAnswer(raw)
  t.equal(answer.status, 413)
  // more than the fake drains: it ends its side after the answer (a FIN, not a Connection header: that would reset at once)
  t.notOk(/keep-alive/i.test(answer.headers.connection ?? ''), 'the answer does not offer to keep the connection')
  t.match(JSON.parse(answer.body).message, `is ${300 * MiB} bytes, over the state body limit of 1048576 bytes`)
})

t.test('a Content-Length no limit reaches is answered 413 pointing at the compact form alone', async (t) => {
  const { port } = await listening(t, { stateBodyLimit: 500 * MiB })
  const raw = await rawRequest(port, `PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1200 * MiB}\r\n\r\n`)
  const answer = parseAnswer(raw)
  t.equal(answer.status, 413)
  const message = JSON.parse(answer.body).message
  t.match(message, `is ${1200 * MiB} bytes, more than any state body limit takes (at most 524288000 bytes, 500 MiB)`)
  t.match(message, 'GET /__mock/state?form=compact')
  t.notMatch(message, '--state-body-limit', 'no flag is offered that cannot help')
})

/**
 * Sends a chunked PUT /__mock/state of up to `total` bytes, one reused 64 KiB chunk at a
 * time with the socket's backpressure, and stops writing once an answer arrives.
 */
function chunkedPut(port: number, total: number): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunk = Buffer.alloc(65_536, 'x')
    const frame = Buffer.from(`${chunk.length.toString(16)}\r\n`)
    let sent = 0
    let answer = ''
    let answered = false
    socket.setEncoding('latin1')
    socket.on('data', (text: string) => {
      answer += text
      answered = true
    })
    socket.on('error', () => undefined)
    socket.on('close', () => resolve({ answer, sent }))
    // one chunk per turn of the event loop, so that an answer is read before more is sent
    const pump = (): void => {
      // answered: the client hangs up, as one that reads while it sends does
      if (answered) {
        socket.end()
        return
      }
      if (sent >= total) {
        socket.end('0\r\n\r\n')
        return
      }
      sent += chunk.length
      socket.write(frame)
      socket.write(chunk)
      if (socket.write('\r\n')) setImmediate(pump)
      else socket.once('drain', () => setImmediate(pump))
    }
    socket.once('connect', () => {
      socket.write('PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{"pad":"\r\n')
      pump()
    })
    socket.setTimeout(30_000, () => {
      socket.destroy()
      reject(new Error(`no answer after ${sent} bytes`))
    })
  })
}

t.test('a chunked body past the limit is answered 413 over a socket, and memory does not grow by the body', async (t) => {
  const answered: number[] = []
  const { port } = await listening(t, { stateBodyLimit: MiB, requestLog: (_request, _reply, status) => answered.push(status) })
  global.gc?.()
  const before = process.memoryUsage().rss
  const { answer, sent } = await chunkedPut(port, 128 * MiB)
  const grown = process.memoryUsage().rss - before
  t.same(answered, [413], `the fake answered 413 after ${sent} bytes were sent`)
  // the fake reads on past the refusal (src/fake/http/drain.ts): the bytes in flight reset nothing, and the answer arrives
  const parsed = parseAnswer(answer)
  t.equal(parsed.status, 413)
  t.match(JSON.parse(parsed.body).message, 'over the state body limit of 1048576 bytes (1 MiB)')
  t.notMatch(JSON.parse(parsed.body).message, /is [0-9]+ bytes/, 'no length is claimed for a chunked body')
  t.ok(grown < 32 * MiB, `RSS grew by ${Math.round(grown / MiB)} MiB, far less than the 128 MiB offered`)
})
