// Boards at the ends of the clock's range (1970-01-01, 9999-12-31 23:59:59): writes of
// every kind are made, a candidate's availability, a repost's and a generated job's dates
// stop at the clock's end instead of a year-10000 date, and every file downloads (a zip
// dates it within 1980-2099). Found by hostile-compact-state.property.test.ts: after
// "clock.now = 9999-12-31 23:59:59" POST /__mock/candidates and job/repost answered 500;
// after "scenario.now and clock.now = 9999-12-31 23:59:59" (or 1970-01-01 00:00:00) the
// board's docx and xlsx downloads answered 500 and its full state did not restore.
import t from 'tap'
import { allPages, board, call } from '../../helpers/board.js'
import { boardUrls, control, putState, savedText } from '../../helpers/state.js'
import { jobInputSample } from '../../fixtures/samples.js'

for (const scenario of ['default', 'edge-cases']) {
  t.test(`on the ${scenario} board, adds of every kind at 9999-12-31 23:59:59 succeed`, async (t) => {
    const app = await board(t, { scenario })
    t.equal((await control(app, '/__mock/clock/set', { now: '9999-12-31 23:59:59' })).statusCode, 200)
    // several candidates: each draws its own availability
    for (let i = 0; i < 6; i++) {
      const answer = await control(app, '/__mock/candidates', { resumes: [{}], documents: [{}] })
      t.equal(answer.statusCode, 201, answer.body.slice(0, 200))
      const made = answer.json().data
      t.ok(made.available_from <= '9999-12-31', `available from ${made.available_from}`)
    }
    for (const [url, body] of [['/__mock/applications', {}], ['/__mock/timesheets', {}], ['/__mock/marketing', {}], ['/__mock/jobs', jobInputSample()]] as const) {
      const answer = await control(app, url, body)
      t.ok(answer.statusCode < 300, `${url}: ${answer.statusCode} ${answer.body.slice(0, 200)}`)
    }
    t.ok((await savedText(app, 'compact')).length > 0, 'the board still saves')
  })
}

t.test('a job reposted at 9999-12-31 23:59:59 closes and expires at 9999-12-31 23:59', async (t) => {
  const app = await board(t)
  await control(app, '/__mock/clock/set', { now: '9999-12-31 23:59:59' })
  const answer = await call(app, { method: 'POST', url: '/api/v1/job/repost', payload: { id: 4 } })
  t.equal(answer.status, 200, answer.body.message)
  t.match(answer.body.message, /closes on 9999-12-31 23:59 and expires on 9999-12-31 23:59/)
  const saved = JSON.parse(await savedText(app)).store.jobs.find((j: { id: number }) => j.id === 4)
  t.equal(saved.closing_date, '9999-12-31 23:59')
  t.equal(saved.expiry_date, '9999-12-31 23:59')
})

for (const [scenario, now] of [['default', '9999-12-31 23:59:59'], ['edge-cases', '9999-12-31 23:59:59'], ['default', '1970-01-01 00:00:00']]) {
  t.test(`the ${scenario} board generated with its scenario's now at ${now} answers every download and restores from its full state`, async (t) => {
    const app = await board(t, { scenario })
    const state = JSON.parse(await savedText(app, 'compact'))
    state.scenario.now = now
    state.clock.now = now
    t.equal((await putState(app, JSON.stringify(state))).status, 200)
    const files = (await allPages(app, '/api/v1/candidates/list')).flatMap((page) =>
      page.body.data.flatMap((c: { resumes: Array<{ href: string }>; documents: Array<{ href: string }>; timesheets: Array<{ href: string }> }) => [...c.resumes, ...c.documents, ...c.timesheets]),
    )
    t.ok(files.length > 10, `files to download (${files.length})`)
    const broken = []
    for (const url of [...files.map((f) => new URL(f.href).pathname), ...(await boardUrls(app))]) {
      const answer = await call(app, url)
      if (answer.status >= 500) broken.push(`${url} → ${answer.status}`)
    }
    t.same(broken, [], 'no answer is a 5xx')
    const full = await savedText(app)
    const fresh = await board(t, { scenario, seed: 777 })
    const restored = await putState(fresh, full)
    t.equal(restored.status, 200, `the full state restores: ${restored.body.message ?? ''}`)
    t.equal(await savedText(fresh), full)
  })
}
