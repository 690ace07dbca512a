// Referential integrity of a generated board, seen through the API: every link
// resolves and every copy of a fact agrees with its source.
import t from 'tap'
import { MARKETING_ACTIONS, sectorDisciplinesOf, JOB_INDUSTRIES } from '../../../schemas/values.js'
import { availabilityParts } from '../../../src/core/time.js'
import type { Application, Candidate, MarketingRecord, Timesheet } from '../../../src/core/types.js'
import { allPages, board } from '../../helpers/board.js'

const path = (href: string) => new URL(href).pathname
const all = async <T>(app: Parameters<typeof allPages>[0], list: string) => (await allPages<T>(app, `/api/v1/${list}`)).flatMap((p) => p.body.data)

for (const scenario of ['default', 'edge-cases']) {
  t.test(`the ${scenario} board holds together`, async (t) => {
    const app = await board(t, { scenario })
    const candidates = await all<Candidate>(app, 'candidates/list')
    const applications = await all<Application>(app, 'applications/list')
    const timesheets = await all<Timesheet>(app, 'timesheets/list')
    const marketing = await all<MarketingRecord>(app, 'marketing/list')
    const byId = new Map(candidates.map((c) => [c.id, c]))
    const byEmail = new Map(candidates.map((c) => [c.email, c]))
    const applicationById = new Map(applications.map((a) => [a.id, a]))
    const jobs = app.board.store.jobs

    t.test("a candidate's applications are real applications by that candidate", async (t) => {
      let entries = 0
      for (const candidate of candidates) {
        for (const entry of candidate.applications) {
          entries += 1
          const application = applicationById.get(Number(path(entry.href).split('/').pop()))
          t.ok(application, `${entry.href} resolves`)
          if (!application) continue
          t.equal(application.applicant.email, candidate.email, 'applied as that candidate')
          t.equal(entry.application_date, application.created_at)
          t.same(entry.job, { id: application.vacancy.id, title: application.vacancy.title, reference: application.vacancy.reference, location: application.vacancy.location })
        }
      }
      // a guest (no candidate account, behaviour.guestApplicants) is listed on none
      const guests = applications.filter((a) => !byEmail.has(a.applicant.email))
      t.ok(guests.length > 0, `the board holds guests' applications (${guests.length})`)
      t.equal(entries, applications.length - guests.length, "every application but the guests' is listed on exactly one candidate")
    })

    t.test("an application's vacancy is a real job and its href is its detail", async (t) => {
      for (const application of applications) {
        t.ok(jobs.has(application.vacancy.id), `job ${application.vacancy.id} exists`)
        t.equal(path(application.href), `/api/v1/applications/details/${application.id}`)
        t.equal(path(application.applicant.attachment.href), `/api/v1/applications/attachment/${application.id}`)
        t.ok(application.updated_at >= application.created_at, 'updated no earlier than made')
      }
    })

    t.test('timesheet entries link to real candidates that list them', async (t) => {
      for (const entry of timesheets) {
        const candidate = byId.get(entry.candidate.id)
        t.ok(candidate, `candidate ${entry.candidate.id} exists`)
        if (!candidate) continue
        t.equal(entry.candidate.email, candidate.email)
        t.equal(entry.candidate.name, candidate.name)
        t.equal(path(entry.candidate.href), `/api/v1/candidates/details/${candidate.id}`)
        t.equal(path(entry.attachment.href), `/api/v1/candidates/timesheet/${entry.id}`)
        const listed = candidate.timesheets.find((f: { href: string }) => f.href === entry.attachment.href)
        t.ok(listed, 'the candidate lists the timesheet')
        if (!listed) continue
        t.equal(listed.filesize, String(entry.attachment.filesize), 'with the same size')
        t.equal(listed.filename, entry.attachment.filename, 'and name')
      }
      const listedOnCandidates = candidates.reduce((n, c) => n + c.timesheets.length, 0)
      t.equal(listedOnCandidates, timesheets.length, 'and no candidate lists a timesheet the list lacks')
    })

    t.test('marketing records reference candidates by e-mail, id 0 when there is no account', async (t) => {
      t.ok(marketing.some((m) => m.candidate.id === 0), 'some e-mails have no account')
      t.ok(marketing.some((m) => m.action === 'Revoked'), 'some consents are revoked')
      for (const record of marketing) {
        t.ok((MARKETING_ACTIONS as readonly string[]).includes(record.action), record.action)
        if (record.candidate.id === 0) t.notOk(byEmail.has(record.candidate.email), `${record.candidate.email} has no account`)
        else t.equal(byId.get(record.candidate.id)?.email, record.candidate.email, `candidate ${record.candidate.id} has that e-mail`)
      }
    })

    t.test("a candidate's consent mirrors its marketing records and decides marketing_opted_in", async (t) => {
      for (const candidate of candidates) {
        const own = marketing.filter((m) => m.candidate.id === candidate.id)
        t.same(
          candidate.consent.map((c: { value: string; date: string; ip_address: string }) => [c.value, c.date, c.ip_address]),
          own.map((m) => [m.action, m.created_at, m.candidate.ip_address]),
          `candidate ${candidate.id}'s consent is its marketing records, newest first`,
        )
        t.equal(candidate.marketing_opted_in, candidate.consent[0]?.value === 'Approved' ? 1 : 0, `candidate ${candidate.id} opted in as the latest consent says`)
      }
    })

    t.test('a candidate is dated by its latest change and its availability parts agree', async (t) => {
      const sectorDisciplines = new Set(sectorDisciplinesOf(JOB_INDUSTRIES))
      for (const candidate of candidates) {
        const times = [candidate.timesheets, candidate.resumes, candidate.documents].flat().map((f: { created_at: string }) => f.created_at)
        times.push(...candidate.applications.map((a: { application_date: string }) => a.application_date), ...candidate.consent.map((c: { date: string }) => c.date))
        for (const time of times) t.ok(candidate.updated_at >= time, `candidate ${candidate.id} updated after ${time}`)
        t.ok(candidate.updated_at >= candidate.created_at)
        t.match(candidate, availabilityParts(candidate.available_from), `candidate ${candidate.id}'s availability parts`)
        for (const item of candidate.sector_disciplines) t.ok(sectorDisciplines.has(item), `${item} is a sector or <Sector>::<Discipline>`)
      }
    })
  })
}
