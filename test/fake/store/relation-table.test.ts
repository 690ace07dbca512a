// The relation table (src/fake/store/relation-table.ts) seen from outside, one relation at a
// time: a saved board that breaks a relation is refused naming it, a relation whose owner
// may go or be none restores, and an add lists its record on its owner. Each map below is
// keyed by the table's names, so a relation added to the table without a case here fails
// the type check.
import t from 'tap'
import type { BoardState } from '../../../src/core/types.js'
import { RELATION_LIST, type RELATIONS, type ListedRelation, type RelationName } from '../../../src/fake/store/relation-table.js'
import { board, call, type Json } from '../../helpers/board.js'

type App = Awaited<ReturnType<typeof board>>
type Checked = Exclude<RelationName, { [R in RelationName]: (typeof RELATIONS)[R] extends { outlived: true } ? R : never }[RelationName]>

const control = async (app: App, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => {
  const answer = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) })
  return { status: answer.statusCode, body: answer.json() as Json }
}
const savedBoard = async (app: App) => (await control(app, 'GET', '/__mock/state')).body as BoardState
const MISSING = 999_999

/** How to give the first child of each checked relation an owner that is not on the board, and what the refusal names. */
const breakOwner: { [R in Checked]: (store: BoardState['store']) => string } = {
  applicant: (store) => {
    const first = store.applications[0] as BoardState['store']['applications'][number]
    first.candidate_id = MISSING
    return `Application ${first.record.id} belongs to candidate ${MISSING}`
  },
  timesheet: (store) => {
    const first = store.timesheets[0] as BoardState['store']['timesheets'][number]
    first.candidate.id = MISSING
    return `Timesheet ${first.id} belongs to candidate ${MISSING}`
  },
  resume: (store) => {
    const first = store.files.find((f) => f.kind === 'resume') as BoardState['store']['files'][number]
    first.candidate_id = MISSING
    return `File resume ${first.id} belongs to candidate ${MISSING}`
  },
  document: (store) => {
    const first = store.files.find((f) => f.kind === 'document') as BoardState['store']['files'][number]
    first.candidate_id = MISSING
    return `File document ${first.id} belongs to candidate ${MISSING}`
  },
  consent: (store) => {
    const first = store.marketing.find((m) => m.candidate.id !== 0) as BoardState['store']['marketing'][number]
    first.candidate.id = MISSING
    return `A marketing record belongs to candidate ${MISSING}`
  },
}

t.test('a saved board whose record has an owner that is not on the board is refused, naming both', async (t) => {
  const app = await board(t)
  for (const [name, relation] of RELATION_LIST) {
    if (relation.outlived) continue
    const state = await savedBoard(app)
    const named = breakOwner[name as Checked](state.store)
    const answer = await control(app, 'PUT', '/__mock/state', state)
    t.equal(answer.status, 412, `${name}: refused`)
    t.match(answer.body.message, `${named}, which is not on the board.`, `${name}: names the record and its owner`)
  }
})

/** What the refusal calls the records of each list that links to them. */
const LINKED_NOUN: Partial<Record<ListedRelation, string>> = { applicant: 'applications', timesheet: 'timesheets', resume: 'files', document: 'files' }

t.test("a saved board whose candidate lists a record that is not theirs is refused, for every list that links", async (t) => {
  const app = await board(t)
  let lists = 0
  for (const [name, relation] of RELATION_LIST) {
    const mirror = relation.mirror
    if (!mirror?.link) continue
    lists += 1
    const state = await savedBoard(app)
    const owner = state.store.candidates.find((c) => c[mirror.list].length > 0)
    if (!owner) throw new Error(`no candidate of the default board lists ${mirror.list}`)
    const entry = owner[mirror.list][0] as { href: string }
    entry.href = entry.href.replace(/\d+$/, String(MISSING))
    const answer = await control(app, 'PUT', '/__mock/state', state)
    t.equal(answer.status, 412, `${name}: refused`)
    t.match(answer.body.message, `Candidate ${owner.id} lists ${entry.href}, which is not one of their ${LINKED_NOUN[name as ListedRelation]}.`, `${name}: names the entry`)
  }
  t.equal(lists, Object.keys(LINKED_NOUN).length, 'applications, timesheets, resumes and documents link to their records')
})

t.test('an application whose job was deleted, and a marketing record with no account, restore', async (t) => {
  const app = await board(t)
  const job = (await savedBoard(app)).store.applications[0]?.record.vacancy.id
  t.equal((await call(app, { method: 'POST', url: '/api/v1/job/delete', payload: { id: job } })).status, 200, `job ${job} deleted`)
  const state = await savedBoard(app)
  t.ok(state.store.applications.some((a) => a.record.vacancy.id === job), 'its applications stay')
  t.ok(state.store.marketing.some((m) => m.candidate.id === 0), 'the board has marketing from e-mails with no account')
  t.equal((await control(app, 'PUT', '/__mock/state', state)).status, 200)
})

/** Adds a child of each listed relation to candidate 3, and gives what the candidate's list should then begin with. */
const addTo: { [R in ListedRelation]: (app: App, owner: number) => Promise<Json> } = {
  applicant: async (app, owner) => {
    const added = (await control(app, 'POST', '/__mock/applications', { candidate_id: owner })).body.data
    return { href: added.href, application_date: added.created_at }
  },
  timesheet: async (app, owner) => {
    const added = (await control(app, 'POST', '/__mock/timesheets', { candidate_id: owner })).body.data
    return { href: added.attachment.href, filename: added.attachment.filename, filesize: String(added.attachment.filesize) }
  },
  resume: async (app) => {
    const added = (await control(app, 'POST', '/__mock/candidates', { resumes: [{ filename: 'First_CV.pdf' }, { filename: 'Second_CV.pdf' }] })).body.data
    return { owner: added.id, filename: 'Second_CV.pdf' }
  },
  document: async (app) => {
    const added = (await control(app, 'POST', '/__mock/candidates', { documents: [{ filename: 'A.pdf' }, { filename: 'B.pdf' }] })).body.data
    return { owner: added.id, filename: 'B.pdf' }
  },
  consent: async (app, owner) => {
    const added = (await control(app, 'POST', '/__mock/marketing', { candidate_id: owner, action: 'Approved' })).body.data
    return { value: 'Approved', date: added.created_at, ip_address: added.candidate.ip_address }
  },
}

t.test("an add lists its record first on its owner's list, for every list", async (t) => {
  const app = await board(t)
  const now = (await control(app, 'POST', '/__mock/clock/advance', { seconds: 3600 })).body.now
  for (const [name, relation] of RELATION_LIST) {
    const mirror = relation.mirror
    if (!mirror) continue
    const { owner = 3, ...expected } = await addTo[name as ListedRelation](app, 3)
    const detail = (await call(app, `/api/v1/candidates/details/${owner}`)).body.data[0]
    t.match(detail[mirror.list][0], expected, `${name}: the newest entry of ${mirror.list} is the new record`)
    if (owner === 3) t.equal(detail.updated_at, now, `${name}: the owner changed now`)
  }
  const detail = (await call(app, '/api/v1/candidates/details/3')).body.data[0]
  t.equal(detail.marketing_opted_in, 1, 'and the latest consent decides the opt-in')
})
