// close() (and so SIGTERM in `serve`) lets requests in flight finish, releases the
// requests delay faults hold, answers new ones 503 `{status, message}`, and closes what
// is still open after shutdownTimeout.
import t from 'tap'
import { connect, type Socket } from 'node:net'
import { Agent } from 'undici'
import { AUTH } from '../../helpers/board.js'
import { listening } from '../../helpers/socket.js'

t.test('close() releases a request held by a delay fault, which then answers 200', async (t) => {
  const { app, port } = await listening(t)
  app.controller.addFault({ path: '/api/v1/metrics/list', delayMs: 600_000 })
  const held = fetch(`http://127.0.0.1:${port}/api/v1/metrics/list`, { headers: { ...AUTH, connection: 'close' } })
  // held once it has taken the fault (used up by one request), not after a guessed time: a
  // busy machine may not have accepted the connection yet
  for (let tries = 0; tries < 1000 && app.board.faults.list().length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 10))
  t.same(app.board.faults.list(), [], 'the request took the delay fault')
  await app.close()
  const answer = await held
  t.equal(answer.status, 200, 'the request in flight finished')
  t.equal(((await answer.json()) as { status: number }).status, 200)
})

t.test('a request arriving on an open connection while the fake closes answers 503 {status, message}', async (t) => {
  const { app, port } = await listening(t)
  // 10 MiB: more than the socket buffers hold, so the answer is still in flight
  const resume = app.board.store.addCandidate({ resumes: [{ filename: 'big.pdf', filesize: 10_485_760 }] }).resumes[0]
  const id = Number(resume?.href.split('/').pop())
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.setEncoding('latin1')
  let received = ''
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  // a download the client is slow to read keeps its connection busy when close() starts
  socket.pause()
  socket.write(`GET /api/v1/candidates/resume/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  await new Promise((resolve) => setTimeout(resolve, 100))
  const closing = app.close()
  socket.resume()
  const size = Number(resume?.filesize)
  while (received.indexOf('\r\n\r\n') < 0 || received.length < received.indexOf('\r\n\r\n') + 4 + size) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  t.match(received, /^HTTP\/1.1 200/, 'the download in flight finished')
  const first = received.indexOf('\r\n\r\n') + 4 + size
  socket.write(`GET /api/v1/metrics/list HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
  await ended
  const late = received.slice(first)
  t.match(late, /^HTTP\/1.1 503/, 'the next request on that connection gets 503')
  t.match(late, /connection: close/i)
  t.same(JSON.parse(late.slice(late.indexOf('\r\n\r\n') + 4)), { status: 503, message: 'The fake is shutting down: it takes no new request.' })
  await closing
})

t.test('a connection still open after shutdownTimeout is closed, and close() resolves', async (t) => {
  const { app, port } = await listening(t, { shutdownTimeout: 300, requestTimeout: 0 })
  const socket = connect(port, '127.0.0.1')
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  socket.on('error', () => {})
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  // a body that never completes keeps the request in flight
  socket.write('POST /__mock/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{')
  await new Promise((resolve) => setTimeout(resolve, 100))
  await app.close()
  await closed
  t.ok(socket.destroyed, 'the connection was closed')
})

t.test('close() closes idle keep-alive connections at once, even after a client gave up on a held request', { timeout: 10_000 }, async (t) => {
  // with no shutdownTimeout only the fake itself closes an idle connection: Node's own
  // closeIdleConnections took one for busy once a client had hung up on a held request,
  // and close() waited for the client to hang up too (fetch's pool: 4 s; for ever here)
  const { app, port } = await listening(t, { shutdownTimeout: 0 })
  const url = `http://127.0.0.1:${port}`
  const client = new Agent({ keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 })
  t.teardown(() => client.destroy())
  const sockets: Socket[] = []
  app.server.on('connection', (socket: Socket) => sockets.push(socket))
  const ask = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, { ...init, dispatcher: client } as RequestInit)
  const fault = await ask('/__mock/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: '/api/v1/metrics/list', delayMs: 600_000 }) })
  t.equal(fault.status, 201)
  await fault.arrayBuffer()
  await ask('/api/v1/metrics/list', { headers: AUTH, signal: AbortSignal.timeout(200) }).catch(() => undefined)
  const answer = await ask('/api/v1/candidates/list', { headers: AUTH })
  t.equal(answer.status, 200)
  await answer.arrayBuffer()
  t.ok(sockets.some((socket) => !socket.destroyed), 'a keep-alive connection is open')
  await app.close()
  t.ok(sockets.every((socket) => socket.destroyed), 'close() closed every connection itself')
})
