// File downloads: the raw bytes with Content-Type, Content-Length, Content-Disposition
// (attachment, original name) and Content-Transfer-Encoding: binary; every href a
// record lists resolves, and its size is the listed filesize.
import t from 'tap'
import { allPages, board, call } from '../../helpers/board.js'

const path = (href: string) => new URL(href).pathname

t.test('every candidate file href downloads with its listed filesize and name', async (t) => {
  const app = await board(t)
  const candidates = (await allPages(app, '/api/v1/candidates/list')).flatMap((p) => p.body.data) as Array<Record<string, Array<{ href: string; filename: string; filesize: string }>>>
  let files = 0
  for (const candidate of candidates) {
    for (const kind of ['timesheets', 'resumes', 'documents'] as const) {
      for (const file of candidate[kind] ?? []) {
        files += 1
        t.match(path(file.href), new RegExp(`^/api/v1/candidates/${kind.slice(0, -1)}/\\d+$`), `${file.href} is a ${kind.slice(0, -1)} download`)
        const answer = await app.inject({ url: path(file.href), headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
        t.equal(answer.statusCode, 200)
        t.equal(answer.headers['content-length'], file.filesize, `${file.filename}: Content-Length is the filesize`)
        t.equal(answer.rawPayload.length, Number(file.filesize), `${file.filename}: that many bytes arrive`)
        t.equal(answer.headers['content-disposition'], `attachment; filename="${file.filename}"`)
        t.equal(answer.headers['content-transfer-encoding'], 'binary')
        t.equal(answer.headers['content-type'], kind === 'timesheets' ? 'application/x-timesheet-octet-stream' : 'application/octet-stream')
      }
    }
  }
  t.ok(files > 50, `checked ${files} files`)
})

t.test('files are a few KB to a few hundred KB, named .pdf, .docx or .xlsx', async (t) => {
  const app = await board(t)
  const entries = (await allPages(app, '/api/v1/timesheets/list')).flatMap((p) => p.body.data) as Array<{ attachment: { filename: string; filesize: number } }>
  for (const { attachment } of entries) {
    t.match(attachment.filename, /\.(pdf|docx|xlsx)$/)
    t.ok(attachment.filesize >= 2_000 && attachment.filesize <= 500_000, `${attachment.filesize} bytes`)
  }
})

t.test('both timesheet paths serve the same bytes, with the timesheet type', async (t) => {
  const app = await board(t)
  const entry = (await call(app, '/api/v1/timesheets/list')).body.data[0]
  const listed = await call(app, path(entry.attachment.href))
  const other = await call(app, `/api/v1/candidates/timesheets/download/${entry.id}`)
  t.match(path(entry.attachment.href), /^\/api\/v1\/candidates\/timesheet\/\d+$/, 'the list points at /candidates/timesheet/{id}')
  t.equal(listed.status, 200)
  t.equal(other.status, 200)
  t.same(listed.raw.rawPayload, other.raw.rawPayload)
  t.equal(Number(listed.headers['content-length']), entry.attachment.filesize)
  t.equal(other.headers['content-type'], 'application/x-timesheet-octet-stream')
  t.equal(other.headers['content-disposition'], `attachment; filename="${entry.attachment.filename}"`)
})

t.test('application attachments download as octet-stream under their filename', async (t) => {
  const app = await board(t)
  for (const application of (await call(app, '/api/v1/applications/list')).body.data.slice(0, 5)) {
    const answer = await call(app, path(application.applicant.attachment.href))
    t.equal(answer.status, 200)
    t.equal(answer.headers['content-type'], 'application/octet-stream')
    t.equal(answer.headers['content-disposition'], `attachment; filename="${application.applicant.attachment.filename}"`)
    t.equal(Number(answer.headers['content-length']), answer.raw.rawPayload.length)
    t.equal(answer.headers['content-transfer-encoding'], 'binary')
    const head = answer.raw.rawPayload.subarray(0, 4).toString('latin1')
    t.equal(head, application.applicant.attachment.filename.endsWith('.pdf') ? '%PDF' : 'PK\u0003\u0004', 'starts like the file type it names')
  }
})

t.test('the same file gives the same bytes every time, and on another instance', async (t) => {
  const one = await board(t)
  const two = await board(t)
  const first = await call(one, '/api/v1/candidates/resume/1')
  t.same(first.raw.rawPayload, (await call(one, '/api/v1/candidates/resume/1')).raw.rawPayload)
  t.same(first.raw.rawPayload, (await call(two, '/api/v1/candidates/resume/1')).raw.rawPayload)
  t.notSame(first.raw.rawPayload, (await call(one, '/api/v1/candidates/resume/2')).raw.rawPayload)
})

t.test('names a file whose name is not plain ASCII in filename*', async (t) => {
  const app = await board(t, { scenarioData: { name: 'accents', counts: { jobs: 1, candidates: 1, applications: 0, timesheets: 0, documents: 0, marketing: 0, resumes: 0 }, records: { candidates: [{ id: 1, resumes: [{ filename: 'Zoë "Quote" CV.pdf', filesize: 3000 }] }] } } })
  const answer = await call(app, '/api/v1/candidates/resume/1')
  t.equal(answer.headers['content-disposition'], `attachment; filename="Zo_ _Quote_ CV.pdf"; filename*=UTF-8''${encodeURIComponent('Zoë "Quote" CV.pdf')}`)
  t.equal(answer.headers['content-length'], '3000')
})

t.test('follows the timesheet content type knob', async (t) => {
  const app = await board(t, { timesheetContentType: 'application/vnd.timesheet+octet-stream' })
  t.equal((await call(app, '/api/v1/candidates/timesheets/download/1')).headers['content-type'], 'application/vnd.timesheet+octet-stream')
})
