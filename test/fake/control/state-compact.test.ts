// The compact saved board (GET /__mock/state?form=compact): it holds only what differs
// from the board the scenario and seed generate, and restoring it gives the same board,
// answer for answer and byte for byte.
import t from 'tap'
import type { CompactBoardState } from '../../../src/core/types.js'
import { createMockServer } from '../../../src/fake/server.js'
import { board, call } from '../../helpers/board.js'
import { boardUrls, differences, putState, restoredFrom, savedText, writeMix } from '../../helpers/state.js'
import { EXTRA_FIELDS } from '../../helpers/profile-values.js'

const boards: Array<[string, Parameters<typeof board>[1], boolean]> = [
  ['the default board', {}, false],
  ['the edge-cases board', { scenario: 'edge-cases' }, false],
  ['a board after adds of every kind, job writes and a clock move', {}, true],
]

for (const [name, options, writes] of boards) {
  t.test(`${name} restored from its compact state answers as the original`, async (t) => {
    const original = await board(t, options)
    if (writes) await writeMix(original)
    const compact = await savedText(original, 'compact')
    const full = await savedText(original)
    const restored = await restoredFrom(t, compact, options)
    const urls = await boardUrls(original)
    t.ok(urls.length > 40, `a broad set of URLs (${urls.length})`)
    t.same(await differences(original, restored, urls), [], 'every answer is byte-identical')
    t.equal(await savedText(restored), full, 'the full state is byte-identical')
    t.equal(await savedText(restored, 'compact'), compact, 'and so is the compact one')
    t.ok(compact.length * 5 < full.length, `the compact state (${compact.length} characters) is under a fifth of the full one (${full.length})`)
    const other = await board(t, writes ? options : { ...options, seed: 777 })
    t.not((await differences(original, other, urls)).length, 0, 'while another board answers differently')
  })
}

t.test('the compact state names what it holds: the written records, the deleted generated jobs, the counters', async (t) => {
  const app = await board(t)
  const untouched = JSON.parse(await savedText(app, 'compact')) as CompactBoardState
  t.equal(untouched.form, 'compact')
  t.same(untouched.store.written, { jobs: [], candidates: [], applications: [], timesheets: [], files: [], marketing: [] }, 'a board nobody wrote to holds no record')
  t.same(untouched.store.deleted, { jobs: [] })
  await writeMix(app)
  const state = JSON.parse(await savedText(app, 'compact')) as CompactBoardState
  t.equal(state.store.generated, true)
  t.same(state.store.deleted.jobs, [1], 'the generated job deleted; the added one deleted is only in deletedJobs')
  t.equal(state.store.deletedJobs.length, 2)
  t.ok(state.store.written.candidates.some((c) => c.name === 'Grace Hopper'), 'the added candidate is there')
  t.ok(state.store.written.applications.some((a) => a.attachment_filesize === 4321), 'with its hidden link and attachment size')
  t.equal(state.store.written.marketing.length, 2, 'marketing records keep the ids the board has them by')
  t.equal(state.store.adds, 6)
})

t.test('a board restored from a full state saves compact as every record, not generated, and round-trips', async (t) => {
  const original = await board(t)
  await writeMix(original)
  const full = await savedText(original)
  const fromFull = await restoredFrom(t, full)
  const compact = await savedText(fromFull, 'compact')
  const state = JSON.parse(compact) as CompactBoardState
  t.equal(state.store.generated, false, 'nothing lies under it')
  t.equal(state.store.written.candidates.length, (await call(original, '/api/v1/candidates/list')).body.total, 'every candidate is written')
  const again = await restoredFrom(t, compact)
  t.equal(await savedText(again), full, 'its compact state restores the same full state')
  t.same(await differences(original, again, await boardUrls(original)), [], 'and the same answers')
})

t.test('in process, exportState and exportJson give the compact form as the control API does', async (t) => {
  const app = await board(t)
  await writeMix(app)
  const text = await savedText(app, 'compact')
  t.equal(JSON.stringify(app.controller.exportState({ form: 'compact' })), text)
  t.equal([...app.controller.exportJson({ form: 'compact' })].join(''), text)
  t.equal([...app.controller.exportJson()].join(''), JSON.stringify(app.controller.exportState()), 'the full form is JSON.stringify of exportState, as before')
  const fresh = await board(t, { seed: 5 })
  fresh.controller.importState(app.controller.exportState({ form: 'compact' }))
  t.equal(await savedText(fresh), await savedText(app), 'importState takes the compact form')
})

t.test('GET /__mock/state refuses a form it does not know', async (t) => {
  const app = await board(t)
  const answer = await app.inject({ url: '/__mock/state?form=tiny' })
  t.ok(answer.statusCode >= 400 && answer.statusCode < 500)
  t.match(answer.json(), { status: answer.statusCode, message: /form/ })
  t.equal((await putState(app, await savedText(app))).status, 200, 'the full form still restores')
})

t.test('a compact saved board keeps extra record fields, and refuses a written one of the wrong type', async (t) => {
  const start = async (seed: number) => {
    const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, seed, extraFields: structuredClone(EXTRA_FIELDS) as never })
    t.teardown(() => server.close())
    return server
  }
  const [one, two] = [await start(1), await start(2)]
  const added = one.store.addCandidate() as Record<string, unknown>
  one.store.addMarketing()
  const state = one.exportState({ form: 'compact' })
  two.importState(state)
  t.equal((two.store.candidate(added.id as number) as Record<string, unknown>).crm_id, added.crm_id, 'a written record keeps its value')
  t.same(two.exportState(), one.exportState(), 'and the whole board is the same')
  const broken = structuredClone(state)
  ;(broken.store.written.candidates[0] as Record<string, unknown>).crm_id = 12
  t.throws(() => two.importState(broken), /store\.written\.candidates\[0\]\.crm_id.*must be a string/)
})
