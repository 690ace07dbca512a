// The second server (test/helpers/other-board.ts) does what its header says: the tests
// of the tools that read it are only worth what it is. Each subtest asks it over HTTP.
import { readdirSync, readFileSync } from 'node:fs'
import t, { type Test } from 'tap'
import { type OtherBoardOptions, startOtherBoard } from './other-board.js'

const USER = 'staging-sync'
const PASSWORD = 'pa:ss/word'
const auth = (user = USER, password = PASSWORD) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` })

async function serve(t: Test, options: Partial<OtherBoardOptions> = {}) {
  const board = await startOtherBoard({ username: USER, password: PASSWORD, rateLimitWindow: 0, ...options })
  t.teardown(() => board.close())
  const get = async (path: string, headers: Record<string, string> = auth()) => {
    const response = await fetch(path.startsWith('http') ? path : `${board.url}/api/v1${path}`, { headers })
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined }
  }
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${board.url}/api/v1${path}`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as { status: number; message: string; id: number } }
  }
  return { board, get, post }
}

/** Every record of a list, walked by next_page. */
async function walk(get: (path: string) => Promise<{ body: { data: unknown[]; total: number; next_page?: unknown } }>, path: string) {
  const records: unknown[] = []
  let next: unknown = path
  const totals: number[] = []
  while (typeof next === 'string') {
    const { body } = await get(next)
    records.push(...body.data)
    totals.push(body.total)
    next = body.next_page
  }
  return { records, totals }
}

t.test('it answers only the given credentials, with a 401 JSON body and a challenge', async (t) => {
  const { get } = await serve(t, { username: 'u', password: 'p' })
  t.equal((await get('/metrics/list', auth('u', 'p'))).status, 200)
  for (const headers of [{}, auth('u', 'q'), auth('v', 'p'), auth('u', 'pp')]) {
    const answer = await get('/metrics/list', headers)
    t.equal(answer.status, 401)
    t.equal(answer.body?.status, 401)
    t.match(answer.headers.get('www-authenticate'), /^Basic realm=/)
  }
})

t.test('every list walks to its true total, with the page size of the style', async (t) => {
  for (const [style, size] of [['a', 7], ['b', 9]] as const) {
    const { board, get } = await serve(t, { style })
    const counts = board.counts()
    for (const [path, total] of [['/candidates/list', counts.candidates], ['/applications/list', counts.applications], ['/timesheets/list', counts.timesheets], ['/marketing/list', counts.marketing]] as const) {
      const { records, totals } = await walk(get, path)
      t.equal(records.length, total, `style ${style}: ${path} walks to ${total} records`)
      t.ok(totals.every((n) => n === total), `style ${style}: ${path} says total ${total} on every page`)
      if (total > size) t.equal((await get(path)).body.data.length, size, `style ${style}: a full page of ${path} holds ${size}`)
    }
  }
})

t.test('a list may have a page size of its own', async (t) => {
  const { board, get } = await serve(t, { style: 'b', pageSizes: { applications: 12 } })
  t.equal((await get('/applications/list')).body.data.length, 12)
  t.equal((await get('/candidates/list')).body.data.length, 9)
  t.equal((await walk(get, '/applications/list')).records.length, board.counts().applications)
})

t.test('style a prints JSON as PHP does, links page first with %20, and leaves next_page out at the end', async (t) => {
  const { get } = await serve(t, { style: 'a', basePath: '/staging' })
  const first = await get('/applications/list?since=2026-01-01+00:00')
  t.match(first.text, /"href":"http:\\\/\\\/127\.0\.0\.1:\d+\\\/staging\\\/api\\\/v1\\\/applications/, 'slashes are escaped')
  t.match((await get('/candidates/list')).text, /\\u00[0-9a-f]{2}/, 'what is not ASCII is escaped')
  t.match(first.body.next_page, /\/staging\/api\/v1\/applications\/list\?page=2&since=2026-01-01%2000:00$/)
  t.same(Object.keys(first.body), ['data', 'total', 'status', 'next_page'])
  let next: string = first.body.next_page
  let last = first.body
  while (typeof next === 'string') {
    last = (await get(next)).body
    next = last.next_page
  }
  t.notOk('next_page' in last, 'the last page has no next_page')
  const past = await get('/applications/list?page=99')
  t.same([past.status, past.body.data], [200, []], 'a page past the last is empty')
  const bad = await get('/candidates/list?since=yesterday')
  t.same([bad.status, bad.body.status], [412, 412])
  t.match(bad.body.message, /since/)
})

t.test('style b links vacancy, since with + and page, gives false at the end, and 404 past it', async (t) => {
  const { get } = await serve(t, { style: 'b' })
  const jobs = (await get('/applications/list')).body.data.map((x: { vacancy: { id: number } }) => x.vacancy.id)
  const first = await get('/timesheets/list?since=2026-01-01+00:00')
  t.match(first.body.next_page, /\/api\/v1\/timesheets\/list\?since=2026-01-01\+00%3A00&page=2$/)
  t.equal(first.body.prev_page, false)
  t.match((await get(first.body.next_page)).body.prev_page, /\/api\/v1\/timesheets\/list\?since=2026-01-01\+00%3A00$/, 'page 1 is the list without page')
  t.same(Object.keys(first.body), ['status', 'total', 'next_page', 'prev_page', 'data'])
  const vacancy = await get(`/applications/list?vacancy=${jobs[0]}`)
  t.ok(vacancy.body.data.every((x: { vacancy: { id: number } }) => x.vacancy.id === jobs[0]))
  t.equal((await get('/marketing/list')).body.total, 0, 'the account holds no marketing record')
  t.equal((await get('/marketing/list')).body.next_page, false)
  t.equal((await get('/candidates/list?page=99')).status, 404)
  t.equal((await get('/candidates/list?since=yesterday')).body.total, (await get('/candidates/list')).body.total, 'a malformed since is ignored')
})

t.test('some applicants are guests, who match no candidate', async (t) => {
  for (const style of ['a', 'b'] as const) {
    const { board, get } = await serve(t, { style })
    const candidates = new Set(((await walk(get, '/candidates/list')).records as Array<{ email: string }>).map((c) => c.email))
    const applications = (await walk(get, '/applications/list')).records as Array<{ applicant: { email: string } }>
    const guests = applications.filter((x) => !candidates.has(x.applicant.email))
    t.ok(guests.length > 0, `style ${style}: ${guests.length} guest applications`)
    t.equal(guests.length, board.counts().guestApplications)
  }
})

t.test('style a has candidates whose sector_disciplines name a sector their sectors leave out', async (t) => {
  const { get } = await serve(t, { style: 'a' })
  const candidates = (await walk(get, '/candidates/list')).records as Array<{ sectors: string[]; sector_disciplines: string[] }>
  t.ok(candidates.some((c) => c.sector_disciplines.some((s) => !c.sectors.includes(s.split('::')[0] as string))))
})

t.test('downloads carry the headers the spec names, and Content-Disposition per RFC 6266', async (t) => {
  const { get } = await serve(t, { style: 'a' })
  const candidates = (await walk(get, '/candidates/list')).records as Array<{ resumes: Array<{ href: string; filename: string; filesize: string }> }>
  const resumes = candidates.flatMap((c) => c.resumes)
  const foreign = resumes.find((r) => /[^\x20-\x7e]/.test(r.filename))
  t.ok(foreign, 'a file name that is not ASCII')
  const file = await fetch((foreign as { href: string }).href, { headers: auth() })
  const bytes = Buffer.from(await file.arrayBuffer())
  t.equal(bytes.length, Number(foreign?.filesize))
  t.equal(file.headers.get('content-length'), foreign?.filesize)
  t.equal(file.headers.get('content-transfer-encoding'), 'binary')
  const disposition = file.headers.get('content-disposition') ?? ''
  t.match(disposition, /^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/)
  t.equal(decodeURIComponent(disposition.split("UTF-8''")[1] as string), foreign?.filename)
})

t.test('the rate limit answers 429 with Retry-after within the window, per full request', async (t) => {
  let now = 0
  const { get } = await serve(t, { rateLimitWindow: 900, elapsed: () => now })
  t.equal((await get('/metrics/list')).status, 200)
  now += 100_000
  const again = await get('/metrics/list')
  t.equal(again.status, 429)
  t.equal(again.headers.get('retry-after'), '800')
  t.equal((await get('/metrics/list?x=1')).status, 200, 'another query is another full request')
  now += 800_000
  t.equal((await get('/metrics/list')).status, 200, 'the window has closed')
})

t.test('the job lifecycle: add, public page, close, expire, repost, delete; 412 naming the field', async (t) => {
  const job = {
    published: 1, featured: 0, job_title: 'Night Vet', job_reference: 'R-1', job_industry: 'Veterinary Surgeon/Night Vet Surgeon', job_telecommute: 'no',
    job_location: 'London', job_type: 'Night time', contract_type: 'Locum', job_description: 'Nights.', contact_name: 'A', contact_email: 'a@b.example',
    salary_visible: '£40/h', salary_precise: '40', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 1,
  }
  for (const style of ['a', 'b'] as const) {
    const { post, get, board } = await serve(t, { style })
    const bad = await post('/job/add', { ...job, salary_unit: 'Per fortnight' })
    t.same([bad.status, bad.body.status], [style === 'a' ? 412 : 200, 412], `style ${style}: 412 in the body`)
    t.match(bad.body.message, style === 'a' ? /salary_unit/ : /salary unit/)
    const added = await post('/job/add', job)
    t.equal(added.body.status, 200)
    const page = /https?:\/\/\S+/.exec(added.body.message)?.[0] as string
    t.equal((await get(page, {})).status, 200, `style ${style}: the public page answers`)
    t.match((await post('/job/close', { id: added.body.id })).body.message, /closed \(unpublished\)/)
    t.equal((await get(page, {})).status, 404, `style ${style}: 404 once closed`)
    t.match((await post('/job/expire', { id: added.body.id })).body.message, /expired/)
    t.match((await post('/job/repost', { id: added.body.id, closing_date: '2027-01-01 09:00' })).body.message, /reposted/)
    t.equal((await get(page, {})).status, 200, 'reposted, published again')
    const before = board.counts().jobs
    t.match((await post('/job/delete', { id: added.body.id })).body.message, /deleted/)
    t.equal(board.counts().jobs, before - 1)
    t.equal((await get(page, {})).status, 404)
    t.equal((await post('/job/close', { id: added.body.id })).body.status, 404, 'a deleted job is gone')
    const hidden = await post('/job/add', { ...job, published: 0 })
    t.equal((await get(/https?:\/\/\S+/.exec(hidden.body.message)?.[0] as string, {})).status, 404, 'a job added unpublished has no public page')
  }
})

t.test('a live board gains a record, with a higher id and a newer time, before every N-th request', async (t) => {
  const { board, get } = await serve(t, { style: 'a', live: 2 })
  const before = board.counts()
  const first = (await get('/candidates/list')).body.data[0]
  await get('/metrics/list')
  const after = board.counts()
  t.equal(after.candidates, before.candidates + 1, 'a candidate arrived before the second request')
  const newest = (await get('/candidates/list?page=1')).body.data[0]
  t.ok(newest.id > first.id && newest.created_at > first.created_at, `${newest.id} ${newest.created_at} after ${first.id} ${first.created_at}`)
})

t.test('the same options make the same board', async (t) => {
  const one = await serve(t, { style: 'b' })
  const two = await serve(t, { style: 'b' })
  const text = async (s: typeof one) => (await s.get('/applications/list?page=2')).text.replace(/127\.0\.0\.1:\d+/g, 'host')
  t.equal(await text(one), await text(two))
})

t.test('it is written from the spec alone: no file of it imports from src/ or schemas/', async (t) => {
  const dir = new URL('./other-board/', import.meta.url)
  const files = ['../other-board.ts', ...readdirSync(dir).filter((name) => name.endsWith('.ts'))]
  for (const name of files) {
    const text = readFileSync(new URL(name, dir), 'utf8')
    const imports = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1] as string)
    t.same(imports.filter((path) => !path.startsWith('node:') && !/^\.\.?\/(?:other-board\/)?[a-z-]+\.js$/.test(path)), [], `${name} imports only node: and its own files`)
  }
})

t.test("style b downloads a timesheet's file by its own id, and the record by the record's id, the same bytes", async (t) => {
  const { get } = await serve(t, { style: 'b' })
  const entry = (await get('/timesheets/list')).body.data[0] as { id: number; attachment: { href: string; filesize: number } }
  const fileId = Number(/\/candidates\/timesheet\/(\d+)$/.exec(entry.attachment.href)?.[1])
  t.not(fileId, entry.id, `the file's id ${fileId} is not the record's ${entry.id}`)
  const [byFile, byRecord] = [await get(entry.attachment.href), await get(`/candidates/timesheets/download/${entry.id}`)]
  t.same([byFile.status, byRecord.status], [200, 200])
  t.equal(byFile.text.length > 0 && byFile.text === byRecord.text, true, 'both paths give the same file')
  t.equal((await get(`/candidates/timesheet/${entry.id}`)).status, 404, "the record's id is no file id")
})
