// A body that trickles in forever does not hold a socket open: requestTimeout answers
// 408 `{status, message}` and closes the connection. A delay fault outlives the
// connection's silence timeout.
import t from 'tap'
import { connect } from 'node:net'
import { AUTH } from '../../helpers/board.js'
import { listening, parseAnswer } from '../../helpers/socket.js'

/** Opens a POST whose body arrives a byte at a time and never completes; resolves with what came back once the server closes it. */
function trickle(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const drip = setInterval(() => socket.write('x'), 100)
    // a hang guard, not a timing assertion: the test fails on what arrives, not on when
    const guard = setTimeout(() => socket.destroy(), 20_000)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(drip)
      clearTimeout(guard)
      resolve(received)
    })
    socket.write(`POST /__mock/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"seconds":`)
  })
}

t.test('20 sockets trickling a body each get 408 {status, message} and are closed', async (t) => {
  const { port } = await listening(t, { requestTimeout: 1000 })
  const answers = await Promise.all(Array.from({ length: 20 }, () => trickle(port)))
  for (const raw of answers) {
    const answer = parseAnswer(raw)
    t.equal(answer.status, 408)
    t.same(JSON.parse(answer.body), { status: 408, message: 'The request did not arrive in time (requestTimeout).' })
  }
})

t.test('the timeouts have defaults and can be set', async (t) => {
  const { app } = await listening(t)
  t.equal(app.server.requestTimeout, 30_000, 'requestTimeout 30 s')
  t.equal(app.server.timeout, 60_000, 'connectionTimeout 60 s')
  const { app: other } = await listening(t, { requestTimeout: 5000, connectionTimeout: 9000 })
  t.equal(other.server.requestTimeout, 5000)
  t.equal(other.server.timeout, 9000)
})

t.test('a delay fault longer than connectionTimeout still answers', async (t) => {
  const { app, port } = await listening(t, { connectionTimeout: 500 })
  app.controller.addFault({ path: '/api/v1/metrics/list', delayMs: 1500 })
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/metrics/list`, { headers: AUTH })
  t.equal(answer.status, 200)
  t.equal(((await answer.json()) as { status: number }).status, 200)
})
