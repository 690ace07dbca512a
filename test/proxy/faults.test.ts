// The upstream failing, and clients that misbehave: the client gets a 502 or 504 JSON
// {status, message} naming the cause (never a hang), journaled as the proxy's answer; a
// body cut short is cut short for the client too; a client that leaves ends the upstream
// request; a malformed request goes on as sent and is noted; an answer past the bound
// streams through and is checked by what could be read.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { createProxy, type RunningProxy } from '../../src/proxy/proxy-server.js'

const auth = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

async function upstream(t: Test, handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

async function proxyTo(t: Test, to: string, options: { upstreamTimeout?: number; checkBytes?: number } = {}): Promise<RunningProxy> {
  const proxy = createProxy({ to, port: 0, ...options })
  await proxy.listen()
  t.teardown(() => proxy.close())
  return proxy
}

/** The journal's entries as GET /__mock/requests lists them. */
async function journal(proxy: RunningProxy): Promise<Array<{ url: string; status: number; fault?: string }>> {
  return ((await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { data: Array<{ url: string; status: number; fault?: string }> }).data
}

/** Until `check` holds (the journal records an answer once its connection is done), at most two seconds. */
async function until(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return false
}

t.test('an unreachable upstream: 502 naming it, journaled as the proxy\'s answer', async (t) => {
  const closed = await upstream(t, () => {})
  const to = closed.url
  await new Promise<void>((resolve) => closed.server.close(() => resolve()))
  const proxy = await proxyTo(t, to)
  const answer = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: auth, signal: AbortSignal.timeout(10_000) })
  t.equal(answer.status, 502)
  const body = (await answer.json()) as { status: number; message: string }
  t.equal(body.status, 502)
  t.match(body.message, /unreachable \(ECONNREFUSED\)/)
  t.match(body.message, to.replace('http://', ''), 'it names the upstream')
  const [entry] = await journal(proxy)
  t.equal(entry?.status, 502, 'the journal holds the proxy\'s 502')
  t.match(entry?.fault, /proxy answered 502: The upstream .* is unreachable/)
})

t.test('an upstream that refuses TLS (an https URL on a plain HTTP server): 502 naming TLS', async (t) => {
  const plain = await upstream(t, (_request, response) => response.end('plain'))
  const proxy = await proxyTo(t, plain.url.replace('http://', 'https://'))
  const answer = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: auth, signal: AbortSignal.timeout(10_000) })
  t.equal(answer.status, 502)
  t.match(((await answer.json()) as { message: string }).message, /refused TLS/)
})

t.test('an upstream that never answers: 504 after --upstream-timeout, not a hang', async (t) => {
  const silent = await upstream(t, () => {})
  const proxy = await proxyTo(t, silent.url, { upstreamTimeout: 300 })
  const answer = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: auth, signal: AbortSignal.timeout(10_000) })
  t.equal(answer.status, 504)
  const body = (await answer.json()) as { status: number; message: string }
  t.same([body.status, /did not answer within 300 ms/.test(body.message)], [504, true], body.message)
  t.match((await journal(proxy))[0]?.fault, /proxy answered 504/)
})

t.test('an upstream that drops the connection before answering: 502 saying so', async (t) => {
  const dropping = await upstream(t, (request) => request.socket.destroy())
  const proxy = await proxyTo(t, dropping.url)
  const answer = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: auth, signal: AbortSignal.timeout(10_000) })
  t.equal(answer.status, 502)
  t.match(((await answer.json()) as { message: string }).message, /dropped the connection before answering/)
})

t.test('an upstream that drops the connection mid-body: the client\'s answer is cut short too, and the journal says why', async (t) => {
  const cutting = await upstream(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
    response.write('{"status":200,"data":[')
    setTimeout(() => response.socket?.destroy(), 50)
  })
  const proxy = await proxyTo(t, cutting.url)
  const answer = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: auth, signal: AbortSignal.timeout(10_000) })
  t.equal(answer.status, 200, 'the head came as it was')
  await t.rejects(answer.arrayBuffer(), 'the body does not end as if it were whole')
  t.ok(await until(async () => (await journal(proxy)).length === 1), 'journaled')
  t.match((await journal(proxy))[0]?.fault, /the upstream closed the connection before the body ended/)
})

t.test('a client that leaves mid-download ends the upstream request', async (t) => {
  let upstreamClosed = false
  const slow = await upstream(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(64 * 1024 * 1024) })
    const chunk = Buffer.alloc(64 * 1024)
    const timer = setInterval(() => response.write(chunk), 5)
    response.on('close', () => {
      clearInterval(timer)
      upstreamClosed = !response.writableFinished
    })
  })
  const proxy = await proxyTo(t, slow.url)
  const controller = new AbortController()
  const answer = await fetch(`${proxy.url}/api/v1/candidates/resume/1`, { headers: auth, signal: controller.signal })
  const reader = answer.body?.getReader()
  await reader?.read()
  controller.abort()
  t.ok(await until(async () => upstreamClosed), 'the upstream saw its request end before its answer was sent')
  t.ok(await until(async () => (await journal(proxy)).length === 1), 'journaled')
  t.match((await journal(proxy))[0]?.fault, /client closed the connection/)
})

t.test('a malformed request is forwarded as sent and noted', async (t) => {
  const seen: Buffer[] = []
  const echo = await upstream(t, (request, response) => {
    request.on('data', (chunk: Buffer) => seen.push(chunk))
    request.on('end', () => response.writeHead(400, { 'content-type': 'application/json' }).end('{"status":400,"message":"Bad JSON"}'))
  })
  const proxy = await proxyTo(t, echo.url)
  const answer = await fetch(`${proxy.url}/api/v1/job/add`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"job_title": "unfinished' })
  t.equal(answer.status, 400, 'the upstream decided')
  t.equal(Buffer.concat(seen).toString(), '{"job_title": "unfinished', 'the body went on as sent')
  t.ok(await until(async () => (await journal(proxy)).length === 1))
  t.match((await journal(proxy))[0]?.fault, /malformed request: its body is not JSON/)
})

t.test('an answer past --check-bytes streams through whole, links as they came, checked by its headers and length', async (t) => {
  let base = ''
  const records = Array.from({ length: 200 }, (_, i) => ({ id: i, href: `${base}/api/v1/applications/details/${i}` }))
  const big = await upstream(t, (_request, response) => {
    const body = JSON.stringify({ status: 200, total: records.length, data: records.map((r) => ({ ...r, href: `${base}${r.href}` })) })
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(body)) })
    response.end(body)
  })
  base = big.url
  const proxy = await proxyTo(t, big.url, { checkBytes: 1024 })
  const answer = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers: auth })
  const text = await answer.text()
  t.equal(JSON.parse(text).data.length, 200, 'the whole body came')
  t.match(text, big.url, 'its links were left as they came')
  t.ok(await until(async () => (await journal(proxy)).length === 1))
  t.match((await journal(proxy))[0]?.fault, /longer than 1024 bytes .* streamed through as it came, links not rewritten, checked by its headers and length/)
  const { violations } = (await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: Array<{ rule: string }> }
  t.same(violations.map((v) => v.rule), ['every answer: each JSON answer says Content-Type application/json'], 'its headers are still checked')
})
