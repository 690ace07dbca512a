// interceptBoard: a client using node:http, fetch or axios gets from the intercepted
// base URL exactly what it gets from the fake over a socket: status, headers, binary
// downloads, concurrent requests, and the faults.
import axios from 'axios'
import http from 'node:http'
import https from 'node:https'
import t, { type Test } from 'tap'
import { interceptBoard } from '../../src/fake/nock.js'
import { createMockServer, type MockServer } from '../../src/fake/server.js'
import { checked } from '../helpers/board.js'

const AUTH = `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`
const BOARD = 'https://board.example.com'
const URLS = [
  '/api/v1/applications/list?page=2',
  '/api/v1/candidates/details/3',
  '/api/v1/metrics/list',
  '/api/v1/candidates/resume/2',
  '/api/v1/applications/attachment/9',
  '/api/v1/candidates/details/9999',
]

interface Seen {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** node:http(s).get, collecting status, the headers that matter and the bytes. */
function viaHttp(url: string): Promise<Seen> {
  const client = url.startsWith('https:') ? https : http
  return new Promise((resolve, reject) => {
    client
      .get(url, { headers: { authorization: AUTH } }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (c: Buffer) => chunks.push(c))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: pick(response.headers as Record<string, string>), body: Buffer.concat(chunks) }))
        response.on('error', reject)
      })
      .on('error', reject)
  })
}

async function viaFetch(url: string): Promise<Seen> {
  const response = await fetch(url, { headers: { authorization: AUTH } })
  return { status: response.status, headers: pick(Object.fromEntries(response.headers)), body: Buffer.from(await response.arrayBuffer()) }
}

const pick = (headers: Record<string, string>) =>
  Object.fromEntries(
    ['content-type', 'content-length', 'content-disposition', 'content-transfer-encoding', 'retry-after', 'www-authenticate'].flatMap((h) =>
      headers[h] === undefined ? [] : [[h, headers[h]]],
    ),
  )

/** Bodies differ only in the origin of their links. */
const onOrigin = (body: Buffer, from: string, to: string) => Buffer.from(body.toString('latin1').replaceAll(from, to), 'latin1')

async function fake(t: Test): Promise<MockServer> {
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, ...checked(t) })
  t.teardown(() => mock.close())
  return mock
}

t.test('node:http and fetch get over nock what they get over a socket', async (t) => {
  const socketSide = await fake(t)
  const url = await socketSide.listen(0)
  const nocked = await fake(t)
  const interception = interceptBoard(BOARD, nocked)
  t.teardown(() => interception.stop())
  for (const path of URLS) {
    const overSocket = await viaFetch(`${url}${path}`)
    for (const [client, get] of [['node:http', viaHttp], ['fetch', viaFetch]] as const) {
      const overNock = await get(`${BOARD}${path}`)
      t.equal(overNock.status, overSocket.status, `${client} ${path}: status`)
      const { 'content-length': nockLength, ...nockHeaders } = overNock.headers
      const { 'content-length': _, ...socketHeaders } = overSocket.headers
      t.same(nockHeaders, socketHeaders, `${client} ${path}: headers`)
      t.equal(Number(nockLength), overNock.body.length, `${client} ${path}: Content-Length is the bytes received`)
      t.ok(onOrigin(overNock.body, BOARD, url).equals(overSocket.body), `${client} ${path}: body, byte for byte but for the origin of links`)
    }
  }
  t.ok(interception.requests().length >= URLS.length * 2, 'the handle lists the requests')
  t.match(interception.requests()[0], { method: 'GET', url: URLS[0], status: 200 })
})

t.test('links in answers point at the intercepted base URL, so following them stays in the fake', async (t) => {
  const mock = await fake(t)
  const interception = interceptBoard(BOARD, mock)
  t.teardown(() => interception.stop())
  const list = (await (await fetch(`${BOARD}/api/v1/applications/list`, { headers: { authorization: AUTH } })).json()) as { next_page: string; data: Array<{ href: string }> }
  t.equal(list.next_page, `${BOARD}/api/v1/applications/list?page=2`)
  const next = await fetch(list.next_page, { headers: { authorization: AUTH } })
  t.equal(next.status, 200)
  t.equal((await fetch(list.data[0]?.href as string, { headers: { authorization: AUTH } })).status, 200)
})

t.test('axios posts a job and reads the answers like any client', async (t) => {
  const mock = await fake(t)
  const interception = interceptBoard(BOARD, mock)
  t.teardown(() => interception.stop())
  const client = axios.create({ baseURL: `${BOARD}/api/v1`, headers: { authorization: AUTH }, validateStatus: () => true })
  const fields = await client.get('/job/fields')
  t.equal(fields.status, 200)
  t.ok(fields.data.data.salary_unit.includes('Per year'))
  const refused = await client.post('/job/add', { job_title: 'Vet' })
  t.equal(refused.status, 412)
  t.match(refused.data.message, /missing/)
  const download = await client.get('/candidates/resume/1', { responseType: 'arraybuffer' })
  t.equal(download.status, 200)
  t.equal(Buffer.from(download.data).length, Number(download.headers['content-length']))
})

t.test('answers concurrent requests each with its own answer', async (t) => {
  const mock = await fake(t)
  const interception = interceptBoard(BOARD, mock)
  t.teardown(() => interception.stop())
  const ids = Array.from({ length: 20 }, (_, i) => i + 1)
  const answers = await Promise.all(ids.map((id) => viaFetch(`${BOARD}/api/v1/candidates/details/${id}`)))
  for (const [i, answer] of answers.entries()) t.equal(JSON.parse(answer.body.toString()).data[0].id, ids[i])
})

t.test('turns a dropped connection into a network error and a cut body into a short one', async (t) => {
  const mock = await fake(t)
  const interception = interceptBoard(BOARD, mock)
  t.teardown(() => interception.stop())
  mock.faults.add({ path: '/api/v1/metrics/list', drop: true, times: 2 })
  await t.rejects(viaFetch(`${BOARD}/api/v1/metrics/list`), 'fetch rejects')
  await t.rejects(viaHttp(`${BOARD}/api/v1/metrics/list`), { code: 'ECONNRESET' }, 'node:http errors')
  t.same(interception.requests().map((r) => r.status), [0, 0], 'the handle lists the drops with status 0')
  mock.faults.add({ path: '/api/v1/candidates/resume/1', truncate: true, times: 2 })
  // nock 14 cannot cut a fetch body mid-way, so it ends short; nock 15 fails it mid-body, as a socket would
  const cut = await viaFetch(`${BOARD}/api/v1/candidates/resume/1`).catch((error: Error) => error)
  t.ok(cut instanceof Error || cut.body.length < Number(cut.headers['content-length']), 'fetch gets fewer bytes than Content-Length, or fails mid-body')
  await t.rejects(viaHttp(`${BOARD}/api/v1/candidates/resume/1`), /aborted/, 'node:http sees the response aborted')
})

t.test('stops intercepting when told to', async (t) => {
  const mock = await fake(t)
  const interception = interceptBoard('http://stop.example.com', mock)
  t.equal((await viaFetch('http://stop.example.com/api/v1/metrics/list')).status, 200)
  interception.stop()
  const after = await viaFetch('http://stop.example.com/api/v1/metrics/list').catch((error: Error) => error)
  t.equal(interception.requests().length, 1, 'the fake answers no more')
  // nock 14 fails the request; nock 15 answers 501 for a request that matches nothing
  t.ok(after instanceof Error || after.status === 501, 'the host is no longer answered')
})

t.test('passes request bodies as sent: pretty JSON is accepted, broken JSON refused with 400', async (t) => {
  const mock = await fake(t)
  const interception = interceptBoard(BOARD, mock)
  t.teardown(() => interception.stop())
  const post = (body: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = https.request(`${BOARD}/api/v1/job/close`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
        let text = ''
        response.on('data', (c: Buffer) => (text += c))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
      })
      request.on('error', reject)
      request.end(body)
    })
  const pretty = await post(JSON.stringify({ id: 1 }, null, 2))
  t.equal(pretty.status, 200, 'pretty-printed JSON')
  const broken = await post('{"id": 1,')
  t.equal(broken.status, 400, 'broken JSON gets the 400 a socket would give')
  t.match(JSON.parse(broken.body), { status: 400, message: /not valid JSON/ })
  const viaFetchPost = await fetch(`${BOARD}/api/v1/job/expire`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: '{"id":2}' })
  t.equal(viaFetchPost.status, 200, 'and fetch posts arrive too')
})
