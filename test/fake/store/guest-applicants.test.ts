// Applications by guests: applicants with no candidate account (the spec's Application
// carries its applicant's name, e-mail and telephone itself). A generated board holds a
// share of them (behaviour.guestApplicants), a scenario declares them with `applicant`,
// the control API and an activity add them; each is listed, detailed, downloaded and
// counted like any other application, under no candidate, and a saved board keeps them.
import type { FastifyInstance } from 'fastify'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { ScenarioFile } from '../../../src/core/types.js'
import { buildApp } from '../../../src/fake/app.js'
import { createMockServer } from '../../../src/fake/server.js'
import { allPages, board, call, checked, type Json } from '../../helpers/board.js'
import { control, differences, putState, restoredFrom, savedText } from '../../helpers/state.js'

const pathOf = (href: string) => new URL(href).pathname

/** A scenario file written for one test: a fake takes a scenario by name or path. */
function scenarioFile(t: Test, scenario: ScenarioFile): string {
  const path = join(t.testdir(), `${scenario.name}.json`)
  writeFileSync(path, JSON.stringify(scenario))
  return path
}

/** Every application and every candidate of a board, over the API. */
async function everything(app: FastifyInstance): Promise<{ applications: Json[]; candidates: Json[] }> {
  const applications = (await allPages(app, '/api/v1/applications/list')).flatMap((page) => page.body.data)
  const candidates = (await allPages(app, '/api/v1/candidates/list')).flatMap((page) => page.body.data)
  return { applications, candidates }
}

/** The applications no candidate lists among its applications: the guests'. */
function guestsOf({ applications, candidates }: { applications: Json[]; candidates: Json[] }): Json[] {
  const listed = new Set(candidates.flatMap((c) => c.applications.map((entry: Json) => pathOf(entry.href))))
  return applications.filter((a) => !listed.has(pathOf(a.href)))
}

const applicationsMetric = async (app: FastifyInstance) =>
  (await call(app, '/api/v1/metrics/list')).body.metrics.find((m: Json) => m.label === 'Applications').total as number

t.test('a generated board holds the share of guest applications its behaviour asks for, each a whole application under no candidate', async (t) => {
  const app = await board(t, { guestApplicants: 0.25 })
  const all = await everything(app)
  const guests = guestsOf(all)
  const emails = new Set(all.candidates.flatMap((c) => [c.email, c.signup_email]))
  t.ok(Math.abs(guests.length - all.applications.length * 0.25) <= 1, `${guests.length} of ${all.applications.length} applications are guests'`)
  t.ok(guests.every((a) => !emails.has(a.applicant.email)), "no guest has a candidate's e-mail")
  for (const key of ['name', 'email', 'telephone', 'cover_letter']) t.ok(guests.every((a) => typeof a.applicant[key] === 'string' && a.applicant[key] !== ''), `every guest has a ${key}`)
  // any run of applications holds its share of guests, give or take one
  const firstPage = (await call(app, '/api/v1/applications/list')).body.data as Json[]
  const onFirst = guestsOf({ applications: firstPage, candidates: all.candidates }).length
  t.ok(Math.abs(onFirst - firstPage.length * 0.25) <= 1, `the first page holds ${onFirst} of ${firstPage.length}`)
  t.equal(await applicationsMetric(app), all.applications.length, 'the Applications metric counts guests with the rest')

  const guest = guests[0] as Json
  const detail = await call(app, pathOf(guest.href))
  t.equal(detail.status, 200)
  const { href: _href, ...listed } = guest
  t.same(detail.body.data[0], listed, 'the detail is the listed application')
  const byVacancy = (await allPages(app, `/api/v1/applications/list?vacancy=${guest.vacancy.id}`)).flatMap((page) => page.body.data)
  t.ok(byVacancy.some((a: Json) => a.id === guest.id), 'the vacancy filter finds it')

  const download = await call(app, pathOf(guest.applicant.attachment.href))
  t.equal(download.status, 200, 'its attachment downloads')
  t.equal(download.headers['content-type'], 'application/octet-stream')
  t.equal(Number(download.headers['content-length']), download.raw.rawPayload.length)
  t.match(download.headers['content-disposition'], `attachment; filename="${guest.applicant.attachment.filename}"`)
  t.equal(download.headers['content-transfer-encoding'], 'binary')
})

t.test('a board with no guest share gives every application a candidate', async (t) => {
  const app = await board(t, { guestApplicants: 0 })
  t.same(guestsOf(await everything(app)), [])
})

t.test('with every applicant a guest a board needs no candidate', async (t) => {
  const app = await board(t, { scenario: scenarioFile(t, { name: 'guests-only', counts: { candidates: 0, applications: 30 }, behaviour: { guestApplicants: 1 } } as ScenarioFile) })
  const all = await everything(app)
  t.equal(all.candidates.length, 0)
  t.equal(all.applications.length, 30)
  t.equal(await applicationsMetric(app), 30)
})

const withGuest: ScenarioFile = {
  name: 'declared-guest',
  behaviour: { guestApplicants: 0 },
  records: {
    applications: [
      { id: 500, job_id: 3, applicant: { name: 'Grace Hopper', email: 'grace@example.org', telephone: '01632 960001' }, cover_letter: 'I never registered.', attachment_filename: 'grace.pdf', attachment_filesize: 2048 },
      { applicant: {} },
    ],
  },
} as ScenarioFile

t.test('a scenario declares guest applications with applicant; they are served as any application, under no candidate', async (t) => {
  const app = await board(t, { scenario: scenarioFile(t, withGuest) })
  const all = await everything(app)
  t.same(guestsOf(all).map((a) => a.id).sort(), [500, 501], 'the two declared applications, and only they, are guests')
  const detail = (await call(app, '/api/v1/applications/details/500')).body.data[0]
  t.match(detail.applicant, { name: 'Grace Hopper', email: 'grace@example.org', telephone: '01632 960001', cover_letter: 'I never registered.', attachment: { filename: 'grace.pdf' } })
  t.equal(detail.vacancy.id, 3)
  const made = (await call(app, '/api/v1/applications/details/501')).body.data[0]
  t.ok(made.applicant.name && made.applicant.email && made.applicant.telephone, 'a guest given as {} is made up whole')
  const download = await call(app, '/api/v1/applications/attachment/500')
  t.equal(download.status, 200)
  t.equal(download.raw.rawPayload.length, 2048, 'at the size declared')
  t.equal(await applicationsMetric(app), all.applications.length)
})

t.test('a scenario application naming both a candidate and a guest, or a missing candidate, is refused naming the application and the field', async (t) => {
  const refused = async (application: object, field: string, message: RegExp) => {
    const scenario = { name: 'bad', records: { applications: [{ job_id: 1 }, application] } } as ScenarioFile
    await t.rejects(buildApp({ clock: 'virtual', scenario: scenarioFile(t, scenario), ...checked(t) }), { name: 'ScenarioError', field, message }, field)
  }
  await refused({ id: 900, candidate_id: 2, applicant: { name: 'Both Ways' } }, 'records.applications[1].applicant', /application 900 names both candidate 2 and a guest applicant/)
  await refused({ id: 901, candidate_id: 99_999 }, 'records.applications[1].candidate_id', /application 901 names candidate 99999, which does not exist/)
  await refused({ id: 902, candidate_id: 99_999, applicant: {} }, 'records.applications[1].applicant', /application 902 names both/)
})

t.test('the control API adds a guest application, listed under no candidate; naming a candidate too is 412 naming applicant', async (t) => {
  const app = await board(t)
  const before = await everything(app)
  const added = await control(app, '/__mock/applications', { job_id: 2, applicant: { name: 'Ada Guest', email: 'ada@example.org' } })
  t.equal(added.statusCode, 201)
  const id = added.json().id as number
  const after = await everything(app)
  t.ok(guestsOf(after).some((a) => a.id === id && a.applicant.name === 'Ada Guest'), 'the new application is a guest’s')
  t.same(
    after.candidates.map((c) => [c.id, c.updated_at, c.applications.length]),
    before.candidates.map((c) => [c.id, c.updated_at, c.applications.length]),
    'no candidate changed',
  )
  t.equal(await applicationsMetric(app), before.applications.length + 1)
  const both = await control(app, '/__mock/applications', { candidate_id: 1, applicant: {} })
  t.equal(both.statusCode, 412)
  t.match(both.json().message, /applicant/)
  t.equal((await everything(app)).applications.length, after.applications.length, 'the refused add changed nothing')
})

t.test('an activity adds guest applications, one at a time and in a burst', async (t) => {
  const server = await createMockServer({
    clock: 'virtual',
    now: '2026-03-02 08:00:00',
    rateLimitWindow: 0,
    guestApplicants: 0,
    activityData: {
      name: 'walk-ins',
      events: [
        { at: '+01:00', event: 'new-application', record: { applicant: { name: 'Walk In' } } },
        { at: '+02:00', event: 'burst', count: 3, record: { applicant: {} } },
      ],
    },
  })
  t.teardown(() => server.close())
  const before = server.store.applications().total
  server.clock.advance(3 * 3600)
  const page = server.store.applications()
  t.equal(page.total, before + 4)
  const added = page.items.slice(0, 4)
  t.ok(added.some((a) => a.applicant.name === 'Walk In'), 'the named guest applied')
  const candidates = []
  for (let page = 1; ; page++) {
    const items = server.store.candidates({ page }).items
    if (items.length === 0) break
    candidates.push(...items)
  }
  const listed = new Set(candidates.flatMap((c) => c.applications.map((e) => pathOf(e.href))))
  t.ok(added.every((a) => !listed.has(pathOf(a.href))), 'no candidate lists them')
})

t.test('a board with guests saves and restores whole: GET /__mock/state then PUT gives the same board', async (t) => {
  for (const form of ['full', 'compact'] as const) {
    const app = await board(t, { scenario: scenarioFile(t, withGuest), guestApplicants: 0.2 })
    await control(app, '/__mock/applications', { applicant: { name: 'Late Guest' } })
    const text = await savedText(app, form)
    const saved = JSON.parse(text)
    const applications = form === 'full' ? saved.store.applications : saved.store.written.applications
    t.ok(applications.some((a: Json) => a.candidate_id === 0), `the ${form} state gives a guest's application candidate_id 0`)
    const restored = await restoredFrom(t, text)
    const pages = async (list: string) => (await allPages(app, `/api/v1/${list}/list`)).map((_, i) => `/api/v1/${list}/list?page=${i + 1}`)
    const urls = [
      '/api/v1/metrics/list',
      '/api/v1/applications/details/500',
      '/api/v1/applications/attachment/500',
      '/api/v1/applications/details/502',
      ...(await pages('applications')),
      ...(await pages('candidates')),
    ]
    t.same(await differences(app, restored, urls), [], `the ${form} state restores the same board`)
    t.equal(await savedText(restored, form), text, `and saves back the same ${form} state`)
  }
})

t.test('a restored board whose candidate lists a guest application is refused', async (t) => {
  const app = await board(t, { scenario: scenarioFile(t, withGuest) })
  const saved = JSON.parse(await savedText(app))
  const candidate = saved.store.candidates[0]
  candidate.applications.unshift({ job: { id: 3, title: 't', reference: 'r', location: 'l' }, href: saved.store.applications.find((a: Json) => a.record.id === 500).record.href, application_date: '2026-01-01 00:00:00' })
  const answer = await putState(await board(t), JSON.stringify(saved))
  t.equal(answer.status, 412)
  t.match(answer.body.message, /applications\/details\/500, which is not one of their applications/)
})

t.test("the copy oracle holds a client's copy of applications to the guests' too: a copy that drops them is named missing exactly them", async (t) => {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0, ...checked(t) })
  t.teardown(() => server.close())
  const all = await everything(server.app)
  const guests = new Set(guestsOf(all).map((a) => a.id as number))
  t.ok(guests.size > 0, 'the default board holds guests')
  const judge = async (applications: Json[]) =>
    (await server.inject({ method: 'POST', url: '/__mock/verdict/copy', payload: { applications: applications.map((a) => ({ id: a.id, updated_at: a.updated_at })) } })).json()
  const whole = await judge(all.applications)
  t.equal(whole.outcome, 'pass', 'a copy of every application is in step')
  // a client that keeps only the applications it can tie to a candidate loses the guests'
  const tied = await judge(all.applications.filter((a) => !guests.has(a.id)))
  t.equal(tied.outcome, 'fail')
  t.same([...tied.lists.applications.missing].sort((a: number, b: number) => a - b), [...guests].sort((a, b) => a - b))
})
