// The deployment profile on the kit's side (docs/profile.md): every profile point's
// recorder (RECORDERS, keyed by the schema's points: a point added to schemas/profile.ts
// without a recorder does not compile), read from the answers the run already got
// (point-evidence.ts), once per run (readProfile). A point the kit cannot see without
// requests the rate-limit plan does not allow is listed in NOT_OBSERVABLE, the one place
// that says so, with why. `--write-profile` merges the readings into a file
// (profile-merge.ts); `--profile` holds the deployment to a file (groups/profile-checks.ts);
// the proxy reads the points one answer shows (one-answer-readings.ts).
import { PROFILE_POINTS, type ProfilePointName } from '../../schemas/profile.js'
import { burstLimit, downloadType, envelopeKeys, errorHttpStatus, jobFieldsShape, malformedSince, notFoundBody, preconditionHttpStatus, rateLimitBody, rateLimitWindow, refusal } from './answer-recorders.js'
import { closeExpireIdField, extraFields, extraMetricLabels, guestApplicants, marketingApprovalAction, monthNames, openJobValues } from './content-recorders.js'
import type { RunContext } from './context.js'
import { lastPageNextPage, listOrder, outOfRangePage, pageCandidates, pageSize, sinceField } from './paging-recorders.js'
import { bodyType, directly, Evidence, notSeen, type Reading, type Readings } from './point-evidence.js'

/**
 * The points the kit does not see from outside without requests its rate-limit plan does
 * not make, and why. They are recorded `not-seen` with this reason, and the table test
 * (test/profile/kit-records-points.test.ts) accepts exactly these.
 */
export const NOT_OBSERVABLE: Readonly<Partial<Record<ProfilePointName, string>>> = {
  // telling 'all' from 'success' means repeating a refused request within its window: a 429 the plan never risks
  rateLimitCounts: 'seeing which answers use up a window needs a refused request made twice within it, which the kit never asks',
  // job/add is one full request whatever its body: an add with an unknown field would take another write check's window
  unknownJobFields: 'seeing it needs a job/add with a field the spec does not list, a full request the write checks need for themselves',
}

/** Every point's recorder: the schema's points, each read from the answers in hand. */
export const RECORDERS: { readonly [P in ProfilePointName]: (e: Evidence) => Reading } = {
  lastPageNextPage,
  outOfRangePage,
  pageCandidates,
  sinceField,
  rateLimitCounts: () => notSeen(NOT_OBSERVABLE.rateLimitCounts as string),
  unknownJobFields: () => notSeen(NOT_OBSERVABLE.unknownJobFields as string),
  errorHttpStatus,
  preconditionHttpStatus,
  timesheetContentType: downloadType(/^\/candidates\/(timesheet|timesheets\/download)\/[0-9]+$/, 'timesheet'),
  resumeContentType: downloadType(/^\/candidates\/resume\/[0-9]+$/, 'resume'),
  documentContentType: downloadType(/^\/candidates\/document\/[0-9]+$/, 'document'),
  notFoundBody,
  malformedSince,
  rateLimitBody,
  authStatus: refusal((got) => directly(got, got.answer.status)),
  authChallenge: refusal((got) => directly(got, got.answer.headers['www-authenticate'] !== undefined)),
  authBody: refusal((got) => directly(got, bodyType(got.answer))),
  monthNames,
  jobFieldsShape,
  listOrder,
  closeExpireIdField,
  extraFields,
  guestApplicants,
  marketingApprovalAction,
  extraMetricLabels,
  pageSize,
  rateLimitWindow,
  envelopeKeys,
  burstLimit,
  openJobValues,
}

const cache = new WeakMap<RunContext, Readings>()

/** Every point as this run saw it (read once, after the groups ran). */
export function readProfile(ctx: RunContext): Readings {
  let readings = cache.get(ctx)
  if (!readings) {
    const evidence = new Evidence(ctx, ctx.client.seen)
    readings = Object.fromEntries(PROFILE_POINTS.map((point) => [point, RECORDERS[point](evidence)])) as Readings
    cache.set(ctx, readings)
  }
  return readings
}
