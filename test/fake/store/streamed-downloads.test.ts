// Downloads are generated piece by piece as the client reads them, never whole in
// memory; file sizes are bounded (10 MiB for an added file, 50 MiB in a saved board).
import t from 'tap'
import { createHash } from 'node:crypto'
import { FILE_CHUNK, fileBytes, fileChunks } from '../../../src/core/random.js'
import { fileContent, filePieces } from '../../../src/fake/store/files.js'
import { MAX_FILE_SIZE } from '../../../schemas/state.js'
import { AUTH, board, call } from '../../helpers/board.js'
import { listening } from '../../helpers/socket.js'

t.test('a download is made in pieces of at most 64 KiB that add up to the file', async (t) => {
  const app = await board(t)
  const id = app.board.store.addCandidate({ resumes: [{ filename: 'cv.pdf', filesize: 1_000_003 }] }).resumes[0]?.href.split('/').pop()
  const download = app.board.store.download('resume', Number(id))
  const pieces = [...download.chunks()]
  t.ok(pieces.every((p) => p.length <= FILE_CHUNK), 'no piece over 64 KiB')
  t.equal(pieces.reduce((n, p) => n + p.length, 0), 1_000_003)
  t.equal(Buffer.concat(pieces).subarray(0, 4).toString('latin1'), '%PDF', 'it starts like a PDF')
})

t.test('a 10 MiB file arrives whole over a socket, with its Content-Length, the same on every download', async (t) => {
  const { app, port } = await listening(t)
  const id = app.board.store.addCandidate({ resumes: [{ filename: 'big.docx', filesize: 10_485_760 }] }).resumes[0]?.href.split('/').pop()
  const digests = []
  for (let i = 0; i < 2; i++) {
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/candidates/resume/${id}`, { headers: AUTH })
    t.equal(answer.headers.get('content-length'), '10485760')
    const bytes = Buffer.from(await answer.arrayBuffer())
    t.equal(bytes.length, 10_485_760)
    digests.push(createHash('sha256').update(bytes).digest('hex'))
  }
  t.equal(digests[0], digests[1], 'the same bytes each time')
})

t.test('a truncate fault cuts a streamed download short over a socket', async (t) => {
  const { app, port } = await listening(t)
  const id = app.board.store.addCandidate({ resumes: [{ filename: 'cv.pdf', filesize: 200_000 }] }).resumes[0]?.href.split('/').pop()
  app.controller.addFault({ path: `/api/v1/candidates/resume/${id}`, truncate: true })
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/candidates/resume/${id}`, { headers: AUTH })
  t.equal(answer.headers.get('content-length'), '200000')
  await t.rejects(answer.arrayBuffer(), 'the body ends short of its length')
})

t.test('a saved board may describe files up to 50 MiB, not over', async (t) => {
  const app = await board(t)
  const state = (await call(app, '/__mock/state')).body
  state.store.files[0].filesize = MAX_FILE_SIZE
  t.equal((await call(app, { method: 'PUT', url: '/__mock/state', payload: state })).status, 200, '50 MiB is accepted')
  state.store.files[0].filesize = MAX_FILE_SIZE + 1
  const refused = await call(app, { method: 'PUT', url: '/__mock/state', payload: state })
  t.equal(refused.status, 412)
  t.match(refused.body.message, /filesize/)
})

t.test('fileBytes is the concatenation of the pieces', async (t) => {
  t.equal(fileBytes(1, 'resume', 7, 200_001, 'pdf').length, 200_001)
  for (const extension of ['pdf', 'docx', 'bin']) {
    for (const size of [0, 3, 19, 65_535, 65_536, 65_537, 131_075, 200_001]) {
      const whole = fileBytes(1, 'resume', 7, size, extension)
      t.ok(whole.equals(Buffer.concat([...fileChunks(1, 'resume', 7, size, extension)])), `${extension}, ${size} bytes: the same bytes whole and in pieces`)
    }
  }
})

t.test('a file of another type is sent in pieces of at most 64 KiB that are its content', async (t) => {
  const spec = { seed: 3, key: 'document', id: 9, filename: 'scan.tiff', size: 300_007, label: 'Document 9: scan.tiff' }
  const pieces = [...filePieces(spec)]
  t.ok(pieces.length > 1 && pieces.every((p) => p.length <= FILE_CHUNK), `${pieces.length} pieces`)
  t.ok(Buffer.concat(pieces).equals(fileContent(spec)), 'together, the file')
})
