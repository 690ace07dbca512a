// The edge cases the spec names appear in the edge-cases scenario.
import t from 'tap'
import type { Application, Candidate, MarketingRecord } from '../../../src/core/types.js'
import { allPages, board } from '../../helpers/board.js'

t.test('the edge-cases board shows every edge case the spec names', async (t) => {
  const app = await board(t, { scenario: 'edge-cases' })
  const list = async <T>(name: string) => (await allPages<T>(app, `/api/v1/${name}`)).flatMap((p) => p.body.data)
  const candidates = await list<Candidate>('candidates/list')
  const marketing = await list<MarketingRecord>('marketing/list')
  const applications = await list<Application>('applications/list')

  const pinned = candidates.find((c) => c.id === 1)
  t.match(pinned, { address: '', city: '', county: '', postcode: '', latitude: '', longitude: '', resumes: [], documents: [] }, 'the pinned candidate 1')
  t.ok(candidates.some((c) => c.address === ''), 'an empty address')
  t.ok(candidates.some((c) => c.latitude === '' && c.longitude === ''), 'empty coordinates')
  t.ok(candidates.some((c) => c.latitude !== ''), 'and some with coordinates')
  t.ok(candidates.some((c) => c.consent.some((e: { value: string }) => e.value === 'Revoked')), 'a Revoked consent')
  t.ok(marketing.some((m) => m.action === 'Revoked'), 'a Revoked marketing action')
  t.ok(marketing.some((m) => m.candidate.id === 0 && m.candidate.email === 'no.account@example.org'), 'the pinned e-mail with no account, id 0')
  t.ok(candidates.some((c) => c.timesheets.length + c.resumes.length + c.documents.length === 0), 'a candidate with no files')
  t.ok(candidates.some((c) => c.applications.length === 0), 'a candidate with no applications')
  t.ok(candidates.some((c) => c.sector_disciplines.some((s: string) => !s.includes('::'))), 'a sector alone in sector_disciplines')
  t.ok(candidates.some((c) => c.sector_disciplines.some((s: string) => s.includes('::'))), 'a <Sector>::<Discipline>')
  t.ok(pinned?.sector_disciplines.includes('Veterinary Admin / Other::Veterinary Receptionist'), 'a sector holding " / "')
  const job = app.board.store.jobs.get(1)
  t.match(job, { sector: 'Veterinary Admin / Other', sub_sector: 'Veterinary Receptionist', job_location: 'Harrogate' }, 'the pinned job is split and placed')
  t.ok(applications.length >= 10)
})
