// Whatever a client sends, the fake answers with a JSON 4xx naming the problem (or a
// 2xx), never a 5xx, and the board is unchanged by what it refused.
import fc from 'fast-check'
import t from 'tap'
import { board, call } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

const text = fc.oneof(fc.string(), fc.constantFrom('', ' ', '0', '-1', '1e3', '0x1f', '2026-02-30 10:00', '%', '%zz', '../', "'", '"', '\u0000'))

t.test('no query string makes a list answer 5xx', async (t) => {
  const app = await board(t)
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('candidates', 'applications', 'timesheets', 'marketing'), text, text, text, async (list, since, page, vacancy) => {
      const query = new URLSearchParams({ since, page, vacancy }).toString()
      const answer = await call(app, `/api/v1/${list}/list?${query}`)
      t.ok([200, 404, 412].includes(answer.status), `${list} ?${query} → ${answer.status}`)
      t.type(answer.body.status, 'number', 'a JSON body with status')
      if (answer.status === 412) t.match(answer.body.message, /query parameter (since|page|vacancy)/)
    }),
    { numRuns: 150, seed: 20261122 },
  )
})

t.test('no path id makes a detail or download answer 5xx', async (t) => {
  const app = await board(t)
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('candidates/details', 'applications/details', 'candidates/resume', 'candidates/timesheet', 'applications/attachment', 'candidates/timesheets/download'),
      text,
      async (endpoint, id) => {
        const answer = await app.inject({ url: `/api/v1/${endpoint}/${encodeURIComponent(id)}`, headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
        t.ok(answer.statusCode < 500, `${endpoint}/${JSON.stringify(id)} → ${answer.statusCode}`)
        if (answer.statusCode >= 400) t.equal(answer.json().status, answer.statusCode)
      },
    ),
    { numRuns: 150, seed: 7 },
  )
})

t.test('no job/add body makes the fake answer 5xx or store a broken job', async (t) => {
  const app = await board(t)
  const before = app.board.store.jobs.size
  let accepted = 0
  const field = fc.constantFrom(...Object.keys(jobInputSample()))
  const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 1 }))
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(field, value), { maxLength: 4 }), fc.array(field, { maxLength: 3 }), async (changes, removals) => {
      const body: Record<string, unknown> = jobInputSample()
      for (const [key, v] of changes) body[key] = v
      for (const key of removals) delete body[key]
      const answer = await call(app, { method: 'POST', url: '/api/v1/job/add', payload: body })
      t.ok([200, 412].includes(answer.status), `→ ${answer.status}: ${answer.body.message ?? ''}`)
      if (answer.status === 200) accepted += 1
    }),
    { numRuns: 200, seed: 11 },
  )
  t.equal(app.board.store.jobs.size, before + accepted, 'exactly the accepted jobs were added')
  const list = await call(app, '/api/v1/applications/list')
  t.equal(list.status, 200, 'the board still answers')
})

t.test('ignores a content-type header on GET, body or not', async (t) => {
  const app = await board(t)
  for (const [type, payload] of [['application/json', undefined], ['application/json', '{not json'], ['text/csv', 'a,b'], ['application/xml', '<x/>']] as const) {
    const answer = await call(app, { url: '/api/v1/metrics/list', headers: { 'content-type': type }, ...(payload ? { payload } : {}) })
    t.equal(answer.status, 200, `${type} ${payload ?? '(no body)'}`)
  }
})
