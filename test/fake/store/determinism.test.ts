// The same scenario and seed give byte-identical answers; another seed another board.
import t from 'tap'
import { board, call } from '../../helpers/board.js'

const URLS = [
  '/api/v1/candidates/list',
  '/api/v1/candidates/list?page=2',
  '/api/v1/applications/list?page=3',
  '/api/v1/timesheets/list',
  '/api/v1/marketing/list',
  '/api/v1/metrics/list',
  '/api/v1/candidates/details/7',
  '/api/v1/candidates/resume/2',
  '/api/v1/applications/attachment/11',
]

t.test('two boards with the same seed answer byte for byte alike', async (t) => {
  const one = await board(t, { seed: 42 })
  const two = await board(t, { seed: 42 })
  for (const url of URLS) {
    const [a, b] = [await call(one, url), await call(two, url)]
    t.equal(a.status, 200, url)
    t.ok(a.raw.rawPayload.equals(b.raw.rawPayload), `${url} is identical`)
  }
})

t.test('another seed gives another board', async (t) => {
  const one = await board(t, { seed: 42 })
  const two = await board(t, { seed: 43 })
  for (const url of URLS.slice(0, 5)) {
    t.notOk((await call(one, url)).raw.rawPayload.equals((await call(two, url)).raw.rawPayload), `${url} differs`)
  }
})

t.test('the scenario seed is the default, and options override it', async (t) => {
  const byScenario = await board(t)
  const byOption = await board(t, { seed: 20261122 })
  t.ok((await call(byScenario, URLS[0] as string)).raw.rawPayload.equals((await call(byOption, URLS[0] as string)).raw.rawPayload))
})
