// The control API takes what a careless or hostile test sends without a 5xx: every
// refusal is a 412 (or 409, 413, 403) `{status, message}`, and nothing refused is armed
// or stored.
import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { board, call } from '../../helpers/board.js'
import { jobInputSample } from '../../fixtures/samples.js'

const post = (url: string, payload: unknown) => ({ method: 'POST' as const, url, payload: payload as object })

t.test('a fault header value holding €, NUL or DEL answers 412 naming the header, and nothing is armed', async (t) => {
  const app = await board(t)
  for (const value of ['5 €', 'a\u0000b', 'a\u007fb', 'a\r\nSet-Cookie: x=1']) {
    const answer = await call(app, post('/__mock/faults', { path: '/api/v1/metrics/list', status: 503, headers: { 'x-trace': value } }))
    t.equal(answer.status, 412, `${JSON.stringify(value)} → 412`)
    t.match(answer.body.message, /headers\.x-trace/)
  }
  t.same((await call(app, '/__mock/faults')).body.data, [], 'no fault is armed')
  t.equal((await call(app, '/api/v1/metrics/list')).status, 200)
})

t.test('a fault header value in Latin-1 is armed and answered as sent', async (t) => {
  const app = await board(t)
  t.equal((await call(app, post('/__mock/faults', { path: '/api/v1/metrics/list', status: 503, headers: { 'x-note': 'caf\u00e9' } }))).status, 201)
  const answer = await app.inject({ url: '/api/v1/metrics/list' })
  t.equal(answer.statusCode, 503)
  t.equal(Buffer.from(String(answer.headers['x-note']), 'latin1').toString('latin1'), 'caf\u00e9')
})

t.test('a fault may not set a header that frames the message (content-length)', async (t) => {
  const app = await board(t)
  const answer = await call(app, post('/__mock/faults', { path: '/x', status: 503, headers: { 'Content-Length': '5' } }))
  t.equal(answer.status, 412)
  t.match(answer.body.message, /Content-Length/)
})

t.test('a fault body nested 20,000 deep answers 412, is not armed, and GET /__mock/faults still answers', async (t) => {
  const app = await board(t)
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`
  const answer = await app.inject({
    method: 'POST',
    url: '/__mock/faults',
    headers: { 'content-type': 'application/json' },
    payload: `{"path":"/api/v1/metrics/list","status":503,"body":${deep}}`,
  })
  t.equal(answer.statusCode, 412)
  t.same(Object.keys(answer.json()).sort(), ['message', 'status'])
  const faults = await call(app, '/__mock/faults')
  t.equal(faults.status, 200)
  t.same(faults.body.data, [])
})

t.test('a clock set to year 0050 answers 412 and does not read 1950', async (t) => {
  const app = await board(t)
  const before = (await call(app, '/__mock/clock')).body.now
  const answer = await call(app, post('/__mock/clock/set', { now: '0050-01-01 00:00:00' }))
  t.equal(answer.status, 412)
  t.match(answer.body.message, /1970/)
  t.equal((await call(app, '/__mock/clock')).body.now, before, 'the clock did not move')
})

t.test('a clock moved past year 9999 answers 412, and job/add still answers 200', async (t) => {
  const app = await board(t)
  t.equal((await call(app, post('/__mock/clock/set', { now: '9999-12-31 23:00:00' }))).status, 200)
  const answer = await call(app, post('/__mock/clock/advance', { seconds: 7200 }))
  t.equal(answer.status, 412)
  const added = await call(app, post('/api/v1/job/add', jobInputSample()))
  t.equal(added.status, 200, 'job/add answers 200 at the last second of 9999')
})

t.test('a file size of 250 MB in a state import answers 412 naming the field, and the board is unchanged', async (t) => {
  const app = await board(t)
  const state = (await call(app, '/__mock/state')).body
  state.store.applications[0].attachment_filesize = 250_000_000
  const before = (await call(app, '/__mock/state')).raw.body
  const answer = await call(app, { method: 'PUT', url: '/__mock/state', payload: state })
  t.equal(answer.status, 412)
  t.match(answer.body.message, /attachment_filesize/)
  t.equal((await call(app, '/__mock/state')).raw.body, before)
})

t.test('PUT /__mock/state over stateBodyLimit answers 413 {status, message}', async (t) => {
  const app = await board(t, { stateBodyLimit: 1_048_576 })
  const answer = await app.inject({
    method: 'PUT',
    url: '/__mock/state',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ pad: 'x'.repeat(1_100_000) }),
  })
  t.equal(answer.statusCode, 413)
  t.equal(answer.json().status, 413)
  t.match(answer.json().message, /over the state body limit of 1048576 bytes .*--state-body-limit/)
})

t.test('GET /__mock/state leaves the credentials out', async (t) => {
  const app = await board(t, { password: 'a-secret-password' })
  const answer = await call(app, '/__mock/state')
  t.equal(answer.status, 200)
  t.notOk('credentials' in answer.body.scenario, 'no credentials in the scenario')
  t.notMatch(answer.raw.body, /a-secret-password/)
})

t.test('asking GET /__mock/state for credentials without a control token set answers 403', async (t) => {
  const app = await board(t, { password: 'a-secret-password' })
  const answer = await call(app, '/__mock/state?credentials=true')
  t.equal(answer.status, 403)
  t.notMatch(answer.raw.body, /a-secret-password/)
})

t.test('with the control token, GET /__mock/state?credentials=true includes them', async (t) => {
  const app = await board(t, { password: 'a-secret-password', controlToken: 'token-12345' })
  const bearer = { authorization: 'Bearer token-12345' }
  const answer = await app.inject({ url: '/__mock/state?credentials=true', headers: bearer })
  t.equal(answer.statusCode, 200)
  t.same(answer.json().scenario.credentials, [{ username: 'jobboard', password: 'a-secret-password' }])
})

t.test('a state saved without credentials restores with the credentials the board has', async (t) => {
  const app = await board(t, { password: 'a-secret-password' })
  const state = (await call(app, '/__mock/state')).body
  t.equal((await call(app, { method: 'PUT', url: '/__mock/state', payload: state })).status, 200)
  const user = { authorization: `Basic ${Buffer.from('jobboard:a-secret-password').toString('base64')}` }
  t.equal((await app.inject({ url: '/api/v1/metrics/list', headers: user })).statusCode, 200, 'the same password still works')
})

t.test('a scenario whose records name a missing candidate answers 412 on reset naming the field, and the board is unchanged', async (t) => {
  const app = await board(t)
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-'))
  const path = join(dir, 'broken.json')
  writeFileSync(path, JSON.stringify({ name: 'broken', records: { applications: [{ candidate_id: 99_999 }] } }))
  const before = (await call(app, '/__mock/state')).raw.body
  const answer = await call(app, post('/__mock/reset', { scenario: path }))
  t.equal(answer.status, 412)
  t.match(answer.body.message, /records\.applications\[0\]\.candidate_id|candidate/)
  t.notMatch(answer.body.message, /\n\s+at /, 'no stack')
  t.equal((await call(app, '/__mock/state')).raw.body, before)
})

t.test("a scenario's fieldValues.job_type ['Weekend'] can pin a job with that value", async (t) => {
  const app = await board(t, {
    scenarioData: { name: 'weekend', fieldValues: { job_type: ['Weekend'] }, records: { jobs: [{ id: 1, job_type: 'Weekend' as never }] } },
  })
  t.equal(app.board.store.jobs.get(1)?.job_type, 'Weekend')
  const fields = await call(app, '/api/v1/job/fields')
  t.same(fields.body.data.job_type, ['Weekend'])
})

t.test("a scenario pinning a job_type outside its own fieldValues is refused, naming the field", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-'))
  const path = join(dir, 'other.json')
  writeFileSync(path, JSON.stringify({ name: 'other', fieldValues: { job_type: ['Weekend'] }, records: { jobs: [{ job_type: 'Full time' }] } }))
  const app = await board(t)
  const answer = await call(app, post('/__mock/reset', { scenario: path }))
  t.equal(answer.status, 412)
  t.match(answer.body.message, /records\.jobs\[0\]\.job_type/)
})

t.test("a reset naming a file that is no scenario does not answer with the file's keys or values", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-'))
  const path = join(dir, 'secrets.json')
  writeFileSync(path, JSON.stringify({ apiKeyOfProduction: 'hunter2', name: 'Not A Slug' }))
  const app = await board(t)
  const answer = await call(app, post('/__mock/reset', { scenario: path }))
  t.equal(answer.status, 412)
  t.notMatch(answer.body.message, /apiKeyOfProduction|hunter2|Not A Slug/)
  const text = join(dir, 'text.json')
  writeFileSync(text, 'root:x:0:0:root')
  const notJson = await call(app, post('/__mock/reset', { scenario: text }))
  t.equal(notJson.status, 412)
  t.notMatch(notJson.body.message, /root:x/)
})

t.test('GET /__mock/requests with a path that is not a path answers 412', async (t) => {
  const app = await board(t)
  t.equal((await call(app, '/__mock/requests?path=nope')).status, 412)
})

t.test('GET /__mock/state streams the same JSON the in-process export gives', async (t) => {
  const app = await board(t)
  app.controller.addFault({ path: '/x', status: 503 })
  app.board.store.addCandidate({ name: 'Ada "Quote" Lovelace' })
  const answer = await app.inject({ url: '/__mock/state' })
  t.equal(answer.statusCode, 200)
  t.match(String(answer.headers['content-type']), /^application\/json/)
  t.equal(answer.body, JSON.stringify(app.controller.exportState()), 'byte for byte')
})
