// Every point of the profile schema, one by one: a fake started with the point's
// non-default value (test/helpers/profile-values.ts) answers differently from a default
// fake, as the point says. The probe table is keyed by point, so a point added to
// schemas/profile.ts without a probe (or without a value) fails here.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { candidate } from '../../schemas/candidate.js'
import { NOT_HONOURED, PROFILE_POINTS, type ProfilePointName } from '../../schemas/profile.js'
import type { BuildOptions } from '../../src/fake/app.js'
import { allPages, AUTH, board, call } from '../helpers/board.js'
import { EXTRA_FIELDS, nonDefaultProfile, nonDefaultValue } from '../helpers/profile-values.js'
import { applyProfile, parseProfile } from '../../src/profile/deployment-profile.js'
import { createMockServer } from '../../src/fake/server.js'
import { jobInputSample } from '../fixtures/samples.js'

interface Probe {
  /** Options both fakes get (e.g. the rate limit on). */
  setup?: BuildOptions
  /** What a client sees, from the outside. */
  look(app: FastifyInstance): Promise<unknown>
  /** What it sees on the fake with the non-default value (the default fake must see something else). */
  expected: unknown
}

const noAuth = (app: FastifyInstance, url = '/api/v1/metrics/list') => app.inject({ url, headers: { authorization: 'Basic bm9ib2R5Om5vcGU=' } })
const limited: BuildOptions = { rateLimitWindow: 900 }
const twice = async (app: FastifyInstance, url: string) => {
  await call(app, url)
  return call(app, url)
}
const hrefOf = async (app: FastifyInstance, list: 'resumes' | 'documents') => {
  const { body } = await call(app, '/api/v1/candidates/list?page=1')
  const withFile = body.data.find((c: { resumes: unknown[]; documents: unknown[] }) => c[list].length > 0)
  return new URL(withFile[list][0].href).pathname
}
const SINCE = '2026-10-01 00:00'

/** A probe per point the fake honours (the others are listed in NOT_HONOURED). */
const PROBES: Partial<Record<ProfilePointName, Probe>> = {
  lastPageNextPage: { look: async (app) => (await call(app, '/api/v1/timesheets/list?page=3')).body.next_page, expected: null },
  outOfRangePage: { look: async (app) => (await call(app, '/api/v1/timesheets/list?page=99')).status, expected: 404 },
  pageCandidates: { look: async (app) => (await call(app, '/api/v1/candidates/list')).body.data.length, expected: 48 },
  sinceField: {
    // the candidates listed since SINCE: those created since then, not those updated since
    look: async (app) => {
      const { body } = await call(app, `/api/v1/candidates/list?since=${encodeURIComponent(SINCE)}&page=1`)
      return body.data.every((c: { created_at: string }) => c.created_at >= `${SINCE}:00`)
    },
    expected: true,
  },
  rateLimitCounts: { setup: limited, look: async (app) => (await twice(app, '/api/v1/candidates/details/99999')).status, expected: 404 },
  unknownJobFields: {
    look: async (app) => (await call(app, { method: 'POST', url: '/api/v1/job/add', payload: { ...jobInputSample(), colour: 'blue' } })).status,
    expected: 200,
  },
  errorHttpStatus: { look: async (app) => (await call(app, '/api/v1/candidates/details/99999')).status, expected: 200 },
  preconditionHttpStatus: { look: async (app) => (await call(app, '/api/v1/candidates/list?since=yesterday')).status, expected: 200 },
  timesheetContentType: { look: async (app) => (await call(app, '/api/v1/candidates/timesheet/1')).headers['content-type'], expected: 'application/vnd.timesheet-octet-stream' },
  resumeContentType: { look: async (app) => (await call(app, await hrefOf(app, 'resumes'))).headers['content-type'], expected: 'application/pdf' },
  documentContentType: { look: async (app) => (await call(app, await hrefOf(app, 'documents'))).headers['content-type'], expected: 'application/msword' },
  notFoundBody: {
    look: async (app) => {
      const answer = await call(app, '/api/v1/candidates/details/99999')
      return [answer.status, answer.headers['content-type'], answer.raw.body]
    },
    expected: [404, 'text/plain; charset=utf-8', 'Candidate 99999 was not found.'],
  },
  malformedSince: { look: async (app) => (await call(app, '/api/v1/candidates/list?since=yesterday')).status, expected: 200 },
  rateLimitBody: {
    setup: limited,
    look: async (app) => {
      const answer = await twice(app, '/api/v1/metrics/list')
      return [answer.status, answer.raw.body, answer.headers['retry-after'] !== undefined]
    },
    expected: [429, '', true],
  },
  authStatus: { look: async (app) => (await noAuth(app)).statusCode, expected: 403 },
  // a 401 always carries its challenge (RFC 9110 §11.6.1): the point is a 403's
  authChallenge: { setup: { authStatus: 403 }, look: async (app) => (await noAuth(app)).headers['www-authenticate'] !== undefined, expected: false },
  authBody: { look: async (app) => (await noAuth(app)).headers['content-type'], expected: 'text/plain; charset=utf-8' },
  monthNames: {
    look: async (app) => {
      const metrics = (await call(app, '/api/v1/metrics/list')).body.metrics
      const candidates = (await call(app, '/api/v1/candidates/list')).body.data
      return [metrics[0].aggregations[0].month, candidates.every((c: { available_from_month: string }) => c.available_from_month.length === 3)]
    },
    expected: ['Nov', true],
  },
  jobFieldsShape: {
    look: async (app) => {
      const { body } = await call(app, '/api/v1/job/fields')
      return [Object.hasOwn(body, 'data'), Array.isArray(body.job_type)]
    },
    expected: [false, true],
  },
  listOrder: {
    look: async (app) =>
      Promise.all(['candidates', 'timesheets', 'marketing'].map(async (list) => {
        const data = (await call(app, `/api/v1/${list}/list`)).body.data
        const key = (r: { id?: number; created_at: string }) => (list === 'marketing' ? r.created_at : (r.id as number))
        return key(data[0]) < key(data[1]) ? 'oldest-first' : 'newest-first'
      })),
    expected: ['oldest-first', 'oldest-first', 'oldest-first'],
  },
  closeExpireIdField: {
    look: async (app) =>
      Promise.all(['close', 'expire'].map(async (op) => (await call(app, { method: 'POST', url: `/api/v1/job/${op}`, payload: { job_id: 2 } })).status)),
    expected: [200, 200],
  },
  extraFields: {
    look: async (app) => {
      const extra = (record: object, known: object) => Object.keys(record).filter((k) => !Object.hasOwn(known, k)).sort()
      const c = (await call(app, '/api/v1/candidates/details/1')).body.data[0]
      const a = (await call(app, '/api/v1/applications/list')).body.data[0]
      const ts = (await call(app, '/api/v1/timesheets/list')).body.data[0]
      const m = (await call(app, '/api/v1/marketing/list')).body.data[0]
      return {
        candidate: extra(c, candidate.properties),
        application: extra(a, { id: 1, href: 1, created_at: 1, updated_at: 1, applicant: 1, vacancy: 1 }),
        timesheet: extra(ts, { id: 1, attachment: 1, created_at: 1, candidate: 1 }),
        marketing: extra(m, { candidate: 1, action: 1, created_at: 1 }),
        types: [typeof c.crm_id, typeof c.score, typeof c.vip, Number.isInteger(a.rank), ts.approved_by, Array.isArray(ts.tags), typeof m.channel],
      }
    },
    expected: {
      candidate: Object.keys(EXTRA_FIELDS.candidate).sort(),
      application: Object.keys(EXTRA_FIELDS.application).sort(),
      timesheet: Object.keys(EXTRA_FIELDS.timesheet).sort(),
      marketing: Object.keys(EXTRA_FIELDS.marketing).sort(),
      types: ['string', 'number', 'boolean', true, null, true, 'object'],
    },
  },
  guestApplicants: {
    // the share of the first page's applications that no candidate lists, to a tenth
    look: async (app) => {
      const listed = new Set<string>()
      for (const page of await allPages(app, '/api/v1/candidates/list')) {
        for (const c of page.body.data as Array<{ applications: Array<{ href: string }> }>) for (const entry of c.applications) listed.add(new URL(entry.href).pathname)
      }
      const { body } = await call(app, '/api/v1/applications/list')
      const guests = body.data.filter((a: { href: string }) => !listed.has(new URL(a.href).pathname)).length
      return Math.round((guests / body.data.length) * 10) / 10
    },
    expected: 0.5,
  },
  marketingApprovalAction: {
    // the one word, other than Revoked, the first page's marketing records act with
    look: async (app) => [...new Set((await call(app, '/api/v1/marketing/list')).body.data.map((m: { action: string }) => m.action).filter((a: string) => a !== 'Revoked'))].join(),
    expected: 'Granted',
  },
  extraMetricLabels: {
    // the labels after the spec's ten, each with months newest first that add up to its total
    look: async (app) =>
      (await call(app, '/api/v1/metrics/list')).body.metrics
        .slice(10)
        .map((m: { label: string; total: number; aggregations: Array<{ total: number }> }) => [m.label, m.aggregations.reduce((sum, a) => sum + a.total, 0) === m.total]),
    expected: [['Video interviews', true], ['Referrals', true]],
  },
  envelopeKeys: {
    // the added keys, as null, on a list's answer (a cached one too) and an error's; none on a details answer
    look: async (app) => {
      const list = (await call(app, '/api/v1/candidates/list')).body
      const again = (await call(app, '/api/v1/candidates/list')).body
      const error = (await call(app, '/api/v1/candidates/details/99999')).body
      const details = (await call(app, '/api/v1/candidates/details/1')).body
      const isNull = (body: object, key: string) => Object.hasOwn(body, key) && (body as Record<string, unknown>)[key] === null
      return [isNull(list, 'per_page'), isNull(again, 'per_page'), isNull(error, 'code'), Object.hasOwn(list, 'code'), Object.hasOwn(details, 'per_page')]
    },
    expected: [true, true, true, false, false],
  },
  pageSize: { look: async (app) => (await call(app, '/api/v1/candidates/list')).body.data.length, expected: 7 },
  rateLimitWindow: {
    setup: { rateLimitWindow: undefined },
    look: async (app) => (await twice(app, '/api/v1/metrics/list')).headers['retry-after'],
    expected: '60',
  },
}

t.test('every profile point has a non-default value, and a probe unless the fake does not honour it', async (t) => {
  for (const point of PROFILE_POINTS) {
    t.doesNotThrow(() => nonDefaultValue(point), `${point} has a non-default value`)
    t.ok(Object.hasOwn(PROBES, point) !== Object.hasOwn(NOT_HONOURED, point), `${point} has a probe, or is listed as not honoured (not both)`)
  }
  t.same(Object.keys(PROBES).sort(), PROFILE_POINTS.filter((point) => !Object.hasOwn(NOT_HONOURED, point)).sort(), 'no probe for a point that is not in the schema')
})

for (const point of PROFILE_POINTS.filter((p) => Object.hasOwn(NOT_HONOURED, p))) {
  t.test(`a profile holding ${point}, which the fake does not honour, starts a fake that answers as one without it`, async (t) => {
    const profile = parseProfile({ ...nonDefaultProfile(), points: { [point]: { value: nonDefaultValue(point), seen: 'inferred' } } })
    const { options, overrides } = applyProfile({}, profile)
    t.same(options, {}, 'no option of the fake comes of it')
    t.same(overrides, [])
    const server = await createMockServer({ profile, clock: 'virtual' })
    t.teardown(() => server.close())
    t.equal((await server.app.inject({ url: '/api/v1/metrics/list', headers: AUTH })).statusCode, 200, 'the fake starts and answers')
  })
}

for (const point of PROFILE_POINTS.filter((p) => !Object.hasOwn(NOT_HONOURED, p))) {
  t.test(`a fake with a non-default ${point} answers as the point says`, async (t) => {
    const probe = PROBES[point]
    if (!probe) return t.fail(`no probe for ${point}`)
    const value = nonDefaultValue(point)
    const plain = await probe.look(await board(t, { ...probe.setup }))
    const changed = await probe.look(await board(t, { ...probe.setup, [point]: value } as BuildOptions))
    t.same(changed, probe.expected, `with ${point} ${JSON.stringify(value)}`)
    t.notSame(plain, changed, 'the default fake answers otherwise')
  })
}
