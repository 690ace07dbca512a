// A repeated download sends the bytes made the first time: the same headers and bytes
// as a board that never sent the file, over inject and a socket; a reset or an imported
// state brings the new board's files; the kept files stay within their byte bound, the
// least recently sent going first, a file over the per-entry bound is not kept, and a
// file whose record changed is made anew.
import t from 'tap'
import { createHash } from 'node:crypto'
import { FILES, FileCache } from '../../../src/fake/http/downloads.js'
import type { Download } from '../../../src/fake/store/store.js'
import { AUTH, board, call } from '../../helpers/board.js'
import { listening } from '../../helpers/socket.js'

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const downloadHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(['content-type', 'content-length', 'content-disposition', 'content-transfer-encoding'].map((name) => [name, headers[name]]))

/** Every candidate file path of a board, with the application attachments. */
async function filePaths(app: Awaited<ReturnType<typeof board>>): Promise<string[]> {
  const store = app.board.store
  const paths = [...store.files.resume.values()].map((f) => `/api/v1/candidates/resume/${f.id}`)
  paths.push(...[...store.files.document.values()].map((f) => `/api/v1/candidates/document/${f.id}`))
  paths.push(...[...store.timesheets.values()].slice(0, 10).map((s) => `/api/v1/candidates/timesheet/${s.id}`))
  paths.push(...[...store.applications.values()].slice(0, 10).map((a) => `/api/v1/applications/attachment/${a.id}`))
  return paths
}

t.test('a repeated download answers the same headers and bytes as a board that never sent it', async (t) => {
  const warm = await board(t)
  const cold = await board(t)
  const paths = await filePaths(warm)
  const held = FILES.size
  for (const path of paths) await call(warm, path)
  t.ok(FILES.size > held, 'the first downloads were kept')
  for (const path of paths) {
    const again = await call(warm, path)
    const fresh = await call(cold, path)
    t.equal(again.status, 200)
    t.same(downloadHeaders(again.headers), downloadHeaders(fresh.headers), `${path}: the same headers`)
    t.equal(digest(again.raw.rawPayload), digest(fresh.raw.rawPayload), `${path}: the same bytes`)
  }
})

t.test('over a socket, the second download of a file is the first one byte for byte', async (t) => {
  const { app, port } = await listening(t)
  const id = [...app.board.store.files.resume.values()][0]?.id
  const answers = []
  for (let i = 0; i < 2; i++) {
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/candidates/resume/${id}`, { headers: AUTH })
    answers.push({ length: answer.headers.get('content-length'), bytes: Buffer.from(await answer.arrayBuffer()) })
  }
  t.equal(answers[1]?.length, answers[0]?.length)
  t.equal(answers[1]?.bytes.length, Number(answers[0]?.length), 'Content-Length bytes arrive')
  t.equal(digest(answers[1]?.bytes as Buffer), digest(answers[0]?.bytes as Buffer))
})

t.test('after a reset with another seed a download is the new board\'s file, not the kept one', async (t) => {
  const app = await board(t, { seed: 1 })
  const other = await board(t, { seed: 2 })
  const path = `/api/v1/candidates/resume/${[...app.board.store.files.resume.values()][0]?.id}`
  const before = await call(app, path)
  t.equal((await call(app, { method: 'POST', url: '/__mock/reset', payload: { seed: 2 } })).status, 200)
  const after = await call(app, path)
  const expected = await call(other, path)
  t.not(digest(after.raw.rawPayload), digest(before.raw.rawPayload), 'the file changed with the seed')
  t.equal(digest(after.raw.rawPayload), digest(expected.raw.rawPayload), 'it is the seed-2 board\'s file')
})

t.test('after an imported state changes a file\'s size, the download has the new size', async (t) => {
  const app = await board(t)
  const state = (await call(app, '/__mock/state')).body
  const file = state.store.files[0]
  const path = `/api/v1/candidates/${file.kind}/${file.id}`
  const before = await call(app, path)
  t.equal(before.status, 200)
  file.filesize = Number(before.headers['content-length']) + 1234
  t.equal((await call(app, { method: 'PUT', url: '/__mock/state', payload: state })).status, 200)
  const after = await call(app, path)
  t.equal(after.headers['content-length'], String(file.filesize))
  t.equal(after.raw.rawPayload.length, file.filesize)
})

/** A download of `size` bytes whose pieces are counted when made; its identity names it (and the fill). */
function fakeDownload(name: string, size: number, made: { count: number }, fill = 1): Download {
  return {
    filename: `${name}.bin`,
    size,
    identity: `${name} ${size} ${fill}`,
    chunks: () => {
      made.count += 1
      return [Buffer.alloc(size, fill)]
    },
  }
}

t.test('the kept files stay within their byte bound, the least recently sent going first', async (t) => {
  const cache = new FileCache(1000, 400)
  const made = { a: { count: 0 }, b: { count: 0 }, c: { count: 0 } }
  cache.bytes(fakeDownload('a', 400, made.a))
  cache.bytes(fakeDownload('b', 400, made.b))
  cache.bytes(fakeDownload('a', 400, made.a))
  t.equal(made.a.count, 1, 'a second send of a kept file makes nothing')
  cache.bytes(fakeDownload('c', 400, made.c))
  t.ok(cache.heldBytes <= 1000, `${cache.heldBytes} bytes held`)
  cache.bytes(fakeDownload('a', 400, made.a))
  t.equal(made.a.count, 1, 'the file sent last before the new one stayed')
  cache.bytes(fakeDownload('b', 400, made.b))
  t.equal(made.b.count, 2, 'the least recently sent one went and is made again')
})

t.test('a file over the per-entry bound is not kept whole: the caller streams it', async (t) => {
  const cache = new FileCache(1000, 400)
  const made = { count: 0 }
  t.equal(cache.bytes(fakeDownload('big', 401, made)), undefined)
  t.equal(made.count, 0, 'nothing was made')
  t.equal(cache.size, 0)
})

t.test('a file whose record changed is made anew, and kept beside the one before', async (t) => {
  const cache = new FileCache()
  const made = { count: 0 }
  const first = cache.bytes(fakeDownload('a', 10, made, 1))
  const second = cache.bytes(fakeDownload('a', 10, made, 2))
  t.equal(made.count, 2, 'made again for the new identity')
  t.not(first?.[0], second?.[0])
  t.equal(cache.bytes(fakeDownload('a', 10, made, 1)), first, 'the first is still kept')
  t.equal(made.count, 2)
})

t.test('another fake of the same scenario and seed sends the same file bytes', async (t) => {
  const app = await board(t)
  const path = `/api/v1/candidates/resume/${[...app.board.store.files.resume.values()][0]?.id}`
  const before = await call(app, path)
  const other = await board(t)
  const again = await call(other, path)
  t.equal(again.status, 200)
  t.equal(digest(again.raw.rawPayload), digest(before.raw.rawPayload))
})
