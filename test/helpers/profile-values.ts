// A value other than the fake's default for every profile point, for tests on both
// sides of the profile (the fake honours it; the contract kit records it). The table is
// keyed by point: a point added to schemas/profile.ts without an entry here fails
// `nonDefaultValue` and the test that walks every point.
import { NOT_HONOURED, PROFILE_KIND, PROFILE_POINTS, profilePointValues, type ProfilePointName } from '../../schemas/profile.js'
import type { ProfileFile } from '../../src/core/types.js'

/** Extra fields of every kind a profile may give, one of each JSON type between them. */
export const EXTRA_FIELDS = {
  candidate: { crm_id: { type: 'string', example: 'CR-20931' }, score: { type: 'number', example: 12.5 }, vip: { type: 'boolean', example: true } },
  application: { source: { type: 'string', example: 'Indeed' }, rank: { type: 'integer', example: 42 } },
  timesheet: { approved_by: { type: 'null', example: null }, tags: { type: 'array', example: ['night', 'x1'] } },
  marketing: { channel: { type: 'object', example: { name: 'web', id: 7 } } },
} as const

export const NON_DEFAULT_VALUES: { readonly [K in ProfilePointName]: unknown } = {
  lastPageNextPage: 'null',
  outOfRangePage: 'not-found',
  pageCandidates: false,
  sinceField: 'created_at',
  rateLimitCounts: 'success',
  unknownJobFields: 'ignore',
  errorHttpStatus: 'ok',
  preconditionHttpStatus: 200,
  timesheetContentType: 'application/vnd.timesheet-octet-stream',
  resumeContentType: 'application/pdf',
  documentContentType: 'application/msword',
  notFoundBody: 'text',
  malformedSince: 'ignore',
  rateLimitBody: 'empty',
  authStatus: 403,
  authChallenge: false,
  authBody: 'text',
  monthNames: 'short',
  jobFieldsShape: 'top-level',
  listOrder: 'oldest-first',
  closeExpireIdField: 'job_id',
  extraFields: EXTRA_FIELDS,
  guestApplicants: 0.5,
  marketingApprovalAction: 'Granted',
  extraMetricLabels: ['Video interviews', 'Referrals'],
  pageSize: 7,
  rateLimitWindow: 60,
  envelopeKeys: { list: ['per_page'], error: ['code'] },
  burstLimit: { retryAfter: 1, concurrency: 1, spacingSeconds: 1 },
  openJobValues: { 'job/add closing_date form': 'accepted', 'job/add keywords form': 'refused' },
}

/** The non-default value of a point; throws for a point the table lacks. */
export function nonDefaultValue(point: string): unknown {
  if (!Object.hasOwn(NON_DEFAULT_VALUES, point)) throw new Error(`test/helpers/profile-values.ts has no non-default value for the profile point ${point}`)
  return structuredClone(NON_DEFAULT_VALUES[point as ProfilePointName])
}

/** The fake's default of a point. */
export const defaultValue = (point: ProfilePointName): unknown => structuredClone(profilePointValues[point].default)

/** A non-default value for every point the fake honours, as options (createMockServer, buildApp). */
export function nonDefaultOptions(): Partial<Record<ProfilePointName, unknown>> {
  return Object.fromEntries(PROFILE_POINTS.filter((point) => !Object.hasOwn(NOT_HONOURED, point)).map((point) => [point, nonDefaultValue(point)]))
}

/** A profile holding a non-default value for every point, seen directly. */
export function nonDefaultProfile(origin = 'https://staging.example.com'): ProfileFile {
  const points = Object.fromEntries(PROFILE_POINTS.map((point) => [point, { value: nonDefaultValue(point), seen: 'directly' }]))
  return { kind: PROFILE_KIND, version: 1, deployment: { origin }, points } as ProfileFile
}
