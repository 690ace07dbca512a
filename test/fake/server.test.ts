// createMockServer: everything the control API does, in-process and typed, with or
// without a socket.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import t from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { checked } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'

t.test('answers in-process without a socket', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', ...checked(t) })
  t.teardown(() => mock.close())
  t.throws(() => mock.url, /not listening/)
  const answer = await mock.inject({ url: '/api/v1/metrics/list', headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
  t.equal(answer.statusCode, 200)
})

t.test('moves its clock, adds records and reads them back, typed', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, ...checked(t) })
  t.teardown(() => mock.close())
  const url = await mock.listen(0)
  t.equal(mock.url, url)
  t.equal(mock.clock.now(), '2026-11-22 09:30:00')
  t.equal(mock.clock.advance(90), '2026-11-22 09:31:30')
  t.equal(mock.clock.set('2026-12-01 00:00:00'), '2026-12-01 00:00:00')
  const candidate = mock.store.addCandidate({ name: 'Mary Somerville' })
  t.equal(candidate.created_at, '2026-12-01 00:00:00')
  const application = mock.store.addApplication({ candidate_id: candidate.id })
  t.equal(application.href, `${url}/api/v1/applications/details/${application.id}`, 'links on the address it listens on')
  t.same(mock.store.candidate(candidate.id)?.applications[0]?.href, application.href)
  const page = mock.store.applications({ since: '2026-12-01 00:00' })
  t.same(page.items.map((a) => a.id), [application.id])
  t.equal(mock.store.candidates().total, 49)
  const job = mock.store.addJob({
    published: 1, featured: 0, job_title: 'Locum Vet', job_reference: 'L-1', job_industry: 'Veterinary Surgeon', job_telecommute: 'no',
    job_location: 'York', job_type: 'Full time', contract_type: 'Locum', job_description: 'Cover', contact_name: 'A', contact_email: 'a@example.com',
    salary_visible: '£50/h', salary_precise: '50', salary_unit: 'Per hour', salary_currency: 'GBP', require_cv: 0,
  })
  t.match(mock.store.job(job.id), { state: 'published', job_latitude: 53.96 })
  t.throws(() => mock.store.addJob({ job_title: 'x' } as never), /missing/)
  t.equal(mock.store.metrics().find((m) => m.label === 'Applications')?.aggregations[0]?.total, 1)
  const copy = mock.store.candidate(candidate.id) as { name: string }
  copy.name = 'changed'
  t.equal(mock.store.candidate(candidate.id)?.name, 'Mary Somerville', 'reads are copies: changing one changes nothing')
})

t.test('arms faults, keeps a journal, shows rate-limit windows, resets, saves and restores', async (t) => {
  const mock = await createMockServer({ clock: 'virtual', ...checked(t) })
  t.teardown(() => mock.close())
  const auth = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }
  mock.faults.add({ path: '/api/v1/metrics/list', status: 502 })
  t.equal(mock.faults.list().length, 1)
  t.equal((await mock.inject({ url: '/api/v1/metrics/list', headers: auth })).statusCode, 502)
  t.equal((await mock.inject({ url: '/api/v1/metrics/list', headers: auth })).statusCode, 200)
  t.same(mock.journal.list().map((e) => e.status), [502, 200])
  t.match(mock.rateLimits.list(), [{ user: 'jobboard', method: 'GET', url: '/api/v1/metrics/list', secondsLeft: 900 }])
  mock.rateLimits.clear()
  t.equal((await mock.inject({ url: '/api/v1/metrics/list', headers: auth })).statusCode, 200)
  const saved = mock.exportState()
  mock.store.addCandidate({})
  mock.reset({ scenario: 'empty' })
  t.equal(mock.store.candidates().total, 0)
  t.same(mock.journal.list(), [], 'reset empties the journal')
  mock.importState(saved)
  t.equal(mock.store.candidates().total, 48)
  t.throws(() => mock.importState({ ...saved, version: 2 } as never), /state is invalid/)
})

t.test('a pending delay fault does not keep the process alive once the fake is closed', async (t) => {
  const dir = t.testdir({
    'close.ts': `import { createMockServer } from ${JSON.stringify(new URL('../../src/fake/server.ts', import.meta.url).pathname)}
const mock = await createMockServer({ rateLimitWindow: 0 })
const url = await mock.listen(0)
mock.faults.add({ path: '/api/v1/metrics/list', delayMs: 600000 })
fetch(url + '/api/v1/metrics/list', { headers: { authorization: 'Basic ' + btoa('jobboard:jobboard') } }).catch(() => {})
// the request has reached the fake once its fault is taken
while (mock.faults.list().length > 0) await new Promise((resolve) => setImmediate(resolve))
await mock.close()
console.log('closed')
`,
  })
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'close.ts')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
  t.equal(run.signal, null, 'it ends by itself, long before the 10-minute delay')
  t.equal(run.status, 0, run.stderr)
  t.equal(run.stdout.trim(), 'closed')
})
