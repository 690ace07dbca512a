// Whatever a test hands the in-process helpers, the fake refuses it with one error
// class naming the field (BoardInputError), and a refused input changes nothing.
import t, { type Test } from 'tap'
import { BoardInputError, createMockServer, type MockServer } from '../../../src/index.js'
import { jobInputSample } from '../../fixtures/samples.js'

async function fake(t: Test): Promise<MockServer> {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => server.close())
  return server
}

/** Runs `act`, expects a BoardInputError naming `field`, and the saved board byte-identical after it. */
async function refuses(t: Test, server: MockServer, field: string, act: () => unknown, status = 412): Promise<void> {
  const before = JSON.stringify(server.exportState())
  let thrown: unknown
  try {
    act()
  } catch (error) {
    thrown = error
  }
  t.type(thrown, BoardInputError, 'a BoardInputError is thrown')
  const error = thrown as BoardInputError
  t.equal(error.field, field, `it names ${field}`)
  t.match(error.reason, /\S/, 'it says why')
  t.equal(error.status, status, `it stands for ${status} over HTTP`)
  t.equal(JSON.stringify(server.exportState()), before, 'the saved board is byte-identical')
  const answer = await server.inject({ url: '/api/v1/candidates/list', headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` } })
  t.equal(answer.statusCode, 200, 'the board still answers')
}

t.test('addCandidate refuses a name that is not text, naming name', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'name', () => server.store.addCandidate({ name: 123 } as never))
})

t.test('addCandidate refuses an id that is not an integer, naming id (not a 500)', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'id', () => server.store.addCandidate({ id: 'abc' } as never))
})

t.test('addCandidate refuses a 250 MB resume, naming its filesize', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'resumes[0].filesize', () => server.store.addCandidate({ resumes: [{ filename: 'cv.pdf', filesize: 250_000_000 }] }))
})

t.test('addCandidate refuses a created_at before 1970, naming created_at', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'created_at', () => server.store.addCandidate({ created_at: '0050-01-01 00:00:00' }))
})

t.test('addApplication refuses an attachment_filesize that is not an integer, and the board still exports and imports', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'attachment_filesize', () => server.store.addApplication({ attachment_filesize: 'x' } as never))
  const state = server.exportState({ credentials: true })
  server.importState(state)
  t.equal(JSON.stringify(server.exportState({ credentials: true })), JSON.stringify(state), 'export → import → export is stable')
})

t.test('addApplication naming a candidate that does not exist is a 409 BoardInputError naming candidate_id, and uses up no add', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'candidate_id', () => server.store.addApplication({ candidate_id: 99_999 }), 409)
})

t.test('addTimesheet and addMarketing refuse fields of the wrong type', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'filesize', () => server.store.addTimesheet({ filesize: -1 }))
  await refuses(t, server, 'action', () => server.store.addMarketing({ action: 'Maybe' } as never))
})

t.test('addJob refuses an unlisted salary_unit, naming salary_unit', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'salary_unit', () => server.store.addJob({ ...jobInputSample(), salary_unit: 'Per decade' } as never))
})

t.test('faults.add refuses status 999, naming status, and arms nothing', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'status', () => server.faults.add({ path: '/api/v1/candidates/list', status: 999 }))
  t.same(server.faults.list(), [], 'no fault is armed')
})

t.test('faults.add refuses a body that refers to itself, naming body', async (t) => {
  const server = await fake(t)
  const body: Record<string, unknown> = {}
  body.self = body
  await refuses(t, server, 'body', () => server.faults.add({ path: '/x', status: 503, body }))
  t.same(server.faults.list(), [], 'no fault is armed')
})

t.test('clock.advance(NaN) is refused and the clock keeps its time', async (t) => {
  const server = await fake(t)
  const now = server.clock.now()
  await refuses(t, server, 'seconds', () => server.clock.advance(Number.NaN))
  await refuses(t, server, 'seconds', () => server.clock.advance(Number.POSITIVE_INFINITY))
  t.equal(server.clock.now(), now)
})

t.test("clock.set('garbage') is refused and writes still answer 200", async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'now', () => server.clock.set('garbage'))
  t.match(server.clock.now(), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
})

t.test('clock.set to year 0050 is refused rather than read as 1950', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'now', () => server.clock.set('0050-06-01 00:00:00'))
})

t.test('clock.advance past year 9999 is refused', async (t) => {
  const server = await fake(t)
  server.clock.set('9999-12-31 00:00:00')
  await refuses(t, server, 'seconds', () => server.clock.advance(2 * 86_400))
  t.equal(server.clock.now(), '9999-12-31 00:00:00')
})

t.test('reset refuses a seed that is not an integer, naming seed', async (t) => {
  const server = await fake(t)
  await refuses(t, server, 'seed', () => server.reset({ seed: 1.5 }))
})

t.test('importState refuses a state whose file is 250 MB, naming the field', async (t) => {
  const server = await fake(t)
  const state = server.exportState({ credentials: true })
  ;(state.store.files[0] as { filesize: number }).filesize = 250_000_000
  await refuses(t, server, 'store.files[0].filesize', () => server.importState(state))
})

t.test('BoardInputError is exported from the package entry with field and reason', async (t) => {
  const error = new BoardInputError('salary_unit', 'The salary unit is invalid.')
  t.equal(error.name, 'BoardInputError')
  t.equal(error.message, 'The salary unit is invalid.')
  t.equal(error.status, 412)
})
