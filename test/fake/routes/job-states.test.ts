// Job states and transitions: what close, expire, repost and delete do from each
// state, the public page in each state, and 404 for jobs that are gone.
import t from 'tap'
import { board, call } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

type App = Parameters<typeof call>[0]
const op = (app: App, operation: string, body: object) => call(app, { method: 'POST', url: `/api/v1/job/${operation}`, payload: body })
const page = async (app: App, id: number) => {
  const answer = await app.inject(`/jobs/${id}`)
  return { status: answer.statusCode, html: answer.body }
}
async function addJob(app: App, overrides: object = {}): Promise<number> {
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), ...overrides } })
  if (answer.status !== 200) throw new Error(answer.body.message)
  return answer.body.id
}

t.test('a published job has a page, an unpublished one does not', async (t) => {
  const app = await board(t)
  const live = await addJob(app)
  const hidden = await addJob(app, { published: 0 })
  const shown = await page(app, live)
  t.equal(shown.status, 200)
  t.match(shown.html, /<h1>Small Animal Vet Surgeon<\/h1>/)
  t.match(shown.html, /Accepting applications/)
  t.equal((await page(app, hidden)).status, 404)
})

t.test('close answers 200, then the page answers 404', async (t) => {
  const app = await board(t)
  const id = await addJob(app)
  const answer = await op(app, 'close', { id })
  t.same(answer.body, { status: 200, message: `Job ${id} has been closed (unpublished).` })
  t.equal((await page(app, id)).status, 404)
  t.equal((await op(app, 'close', { id })).status, 200, 'closing twice is harmless')
})

t.test('expire keeps the page but says applications are closed', async (t) => {
  const app = await board(t)
  const id = await addJob(app)
  t.same((await op(app, 'expire', { id })).body, { status: 200, message: `Job ${id} has been expired.` })
  const shown = await page(app, id)
  t.equal(shown.status, 200)
  t.match(shown.html, /Applications for this job are closed/)
  t.equal((await op(app, 'expire', { id })).status, 200, 'expiring twice is harmless')
})

t.test('expiring a closed job leaves it closed', async (t) => {
  const app = await board(t)
  const id = await addJob(app)
  await op(app, 'close', { id })
  t.equal((await op(app, 'expire', { id })).status, 200)
  t.equal((await page(app, id)).status, 404)
})

t.test('repost makes a closed or expired job live again, one month on', async (t) => {
  const app = await board(t)
  for (const first of ['close', 'expire']) {
    const id = await addJob(app)
    await op(app, first, { id })
    const answer = await op(app, 'repost', { id })
    t.equal(answer.status, 200, `repost after ${first}`)
    t.match(answer.body.message, new RegExp(`Job ${id} has been reposted; it closes on 2026-12-22 09:30`))
    t.equal((await page(app, id)).status, 200, `the page is back after ${first} and repost`)
    t.match(app.board.store.jobs.get(id), { state: 'published', published: 1, closing_date: '2026-12-22 09:30', expiry_date: '2026-12-22 09:30' })
  }
})

t.test('repost takes closing_date when given', async (t) => {
  const app = await board(t)
  const id = await addJob(app)
  t.equal((await op(app, 'repost', { id, closing_date: '2027-01-15 12:00' })).status, 200)
  t.match(app.board.store.jobs.get(id), { closing_date: '2027-01-15 12:00' })
  const bad = await op(app, 'repost', { id, closing_date: '15/01/2027' })
  t.equal(bad.status, 412)
  t.match(bad.body.message, /closing_date/)
})

t.test('delete removes the job for good: every operation then answers 404', async (t) => {
  const app = await board(t)
  const id = await addJob(app)
  t.same((await op(app, 'delete', { id })).body, { status: 200, message: `Job ${id} has been deleted.` })
  t.equal((await page(app, id)).status, 404)
  for (const operation of ['close', 'expire', 'repost', 'delete']) {
    const answer = await op(app, operation, { id })
    t.equal(answer.status, 404, `${operation} after delete`)
    t.same(answer.body, { status: 404, message: `Job ${id} has been deleted.` })
  }
  t.equal(await addJob(app), id + 1, 'a deleted id is never reused')
})

t.test('operations on an id never made answer 404, on a bad body 412', async (t) => {
  const app = await board(t)
  for (const operation of ['close', 'expire', 'repost', 'delete']) {
    t.same((await op(app, operation, { id: 987654 })).body, { status: 404, message: 'Job 987654 was not found.' }, operation)
    for (const body of [{}, { id: '3' }, { id: 0 }, { id: 3, extra: true }]) {
      const answer = await op(app, operation, body)
      t.equal(answer.status, 412, `${operation} ${JSON.stringify(body)}`)
      t.match(answer.body.message, /id|extra/)
    }
  }
})

t.test('dates passing expire and close jobs by the clock', async (t) => {
  const app = await board(t)
  const expiring = await addJob(app, { expiry_date: '2026-11-23 09:30', close_automatically: 0, closing_date: '2026-11-22 12:00' })
  const closing = await addJob(app, { close_automatically: 1, closing_date: '2026-11-22 12:00', expiry_date: '2027-01-01 00:00' })
  t.equal((await page(app, expiring)).status, 200)
  t.equal((await page(app, closing)).status, 200)
  app.board.clock.advance(3 * 3600)
  t.equal((await page(app, closing)).status, 404, 'closed automatically at its closing date')
  t.equal((await page(app, expiring)).status, 200, 'a job that does not close automatically stays up')
  app.board.clock.advance(86_400)
  t.match((await page(app, expiring)).html, /Applications for this job are closed/, 'expired at its expiry date')
})

t.test('a new job counts in Jobs created for its month', async (t) => {
  const app = await board(t)
  const count = async () =>
    (await call(app, '/api/v1/metrics/list')).body.metrics.find((m: { label: string }) => m.label === 'Jobs created').aggregations[0].total
  const before = await count()
  await addJob(app)
  t.equal(await count(), before + 1)
  await op(app, 'delete', { id: app.board.store.jobs.lastId })
  t.equal(await count(), before + 1, 'deleting does not undo the count')
})

t.test('no sequence of operations breaks the store', async (t) => {
  const app = await board(t)
  const ids = [await addJob(app), await addJob(app, { published: 0 }), await addJob(app)]
  const operations = ['close', 'expire', 'repost', 'delete', 'repost', 'close', 'expire', 'delete']
  for (const operation of operations) {
    for (const id of ids) {
      const answer = await op(app, operation, { id })
      t.ok([200, 404].includes(answer.status), `${operation} ${id}: ${answer.status}`)
    }
  }
  for (const id of ids) t.notOk(app.board.store.jobs.has(id), `job ${id} ended deleted`)
  t.equal((await call(app, '/api/v1/applications/list')).status, 200, 'the board still answers')
})

t.test('a new job can be the vacancy of applications added later', async (t) => {
  const app = await board(t)
  const id = await addJob(app, { job_title: 'Equine Vet', job_location: 'Newmarket', job_reference: 'EQ-1', salary_precise: '52000', salary_unit: 'Per year' })
  const added = await app.inject({ method: 'POST', url: '/__mock/applications', payload: { job_id: id } })
  t.equal(added.statusCode, 201)
  const application = (await call(app, `/api/v1/applications/list?vacancy=${id}`)).body.data[0]
  t.same(application.vacancy, { id, title: 'Equine Vet', location: 'Newmarket', salary: '£52,000 per year', reference: 'EQ-1' })
  await op(app, 'delete', { id })
  const refused = await app.inject({ method: 'POST', url: '/__mock/applications', payload: { job_id: id } })
  t.equal(refused.statusCode, 409, 'a deleted job takes no more applications')
  t.match(refused.json().message, /does not exist any more/)
})
