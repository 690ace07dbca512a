// The proxy under load: three hundred clients at once are each answered, the upstream
// receiving exactly their requests; a 100 MiB download streams through without the
// proxy holding it (the process's memory grows by far less than the file).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import t from 'tap'
import { createProxy } from '../../src/proxy/proxy-server.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { tapUpstream } from '../helpers/upstream-tap.js'

// what the process still holds, not the garbage a fast stream leaves for the collector:
// measured after a collection every few MiB (the garbage alone reached 76 MiB on an idle machine)
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

t.test('three hundred concurrent clients are each answered, and the upstream gets exactly their requests', async (t) => {
  const board = await startOtherBoard({ style: 'b', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url)
  t.teardown(() => upstream.close())
  const proxy = createProxy({ to: upstream.url, port: 0 })
  await proxy.listen()
  t.teardown(() => proxy.close())
  const paths = Array.from({ length: 300 }, (_, i) => `/api/v1/applications/list?page=${(i % 7) + 1}&client=${i}`)
  const answers = await Promise.all(paths.map(async (path) => {
    const answer = await fetch(`${proxy.url}${path}`, { headers })
    return { status: answer.status, body: (await answer.json()) as { status: number } }
  }))
  t.ok(answers.every((a) => a.status === 200 && a.body.status === 200), 'every one answered 200')
  t.same(upstream.requests.map((r) => r.line).sort(), paths.map((p) => `GET ${p}`).sort(), 'the upstream got exactly these 300 requests')
  const { total } = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { total: number }
  t.equal(total, 300, 'each journaled')
})

t.test('a 100 MiB download streams through in bounded memory', async (t) => {
  const size = 100 * 1024 * 1024
  const chunk = Buffer.alloc(1024 * 1024, 7)
  const source = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size), 'content-disposition': 'attachment; filename="big.bin"', 'content-transfer-encoding': 'binary' })
    let sent = 0
    const more = () => {
      while (sent < size) {
        sent += chunk.length
        if (!response.write(chunk)) return void response.once('drain', more)
      }
      response.end()
    }
    more()
  })
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => source.close(() => resolve())))
  const proxy = createProxy({ to: `http://127.0.0.1:${(source.address() as AddressInfo).port}`, port: 0 })
  await proxy.listen()
  t.teardown(() => proxy.close())
  gc()
  const before = process.memoryUsage()
  let peak = 0
  let received = 0
  let measured = 0
  const answer = await fetch(`${proxy.url}/api/v1/candidates/resume/1`, { headers })
  const reader = answer.body?.getReader()
  for (;;) {
    const part = await reader?.read()
    if (!part || part.done) break
    received += part.value.length
    if (received - measured < 8 * 1024 * 1024) continue
    measured = received
    gc()
    const now = process.memoryUsage()
    peak = Math.max(peak, now.arrayBuffers + now.heapUsed - before.arrayBuffers - before.heapUsed)
  }
  t.equal(received, size, 'every byte came')
  t.ok(peak < 64 * 1024 * 1024, `the process held at most ${Math.round(peak / 1048576)} MiB more while 100 MiB passed`)
  const { violations } = (await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: object[] }
  t.same(violations, [], 'a faithful download: no violation')
})
