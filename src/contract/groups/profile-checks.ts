// `--profile FILE` (docs/profile.md): one check per point the profile records, which
// fails when the deployment now answers otherwise, naming both; a point read from the
// records is held to its kind, a burst limiter met or not is an observation.
import { isDeepStrictEqual } from 'node:util'
import type { Minimal } from '@tapjs/core'
import { heldToKind, PROFILE_POINTS } from '../../../schemas/profile.js'
import { sameValue, type LoadedProfile } from '../../profile/deployment-profile.js'
import { check, endpoint, Skip } from '../checks.js'
import type { RunContext } from '../context.js'
import { agrees } from '../point-evidence.js'
import { readProfile } from '../point-recorders.js'
import { type PointEntry, show } from '../profile-merge.js'

/** `--profile`: one check per point the profile records; a value that moved fails, naming both. */
export function profileGroup(root: Minimal, ctx: RunContext, profile: LoadedProfile): void {
  const points = profile.points as Readonly<Record<string, PointEntry | undefined>>
  endpoint(root, 'profile', (t) => {
    for (const point of PROFILE_POINTS) {
      const recorded = points[point]
      if (recorded?.value === undefined) continue
      check(t, `${point} is as the profile records it`, async (a) => {
        const now = readProfile(ctx)[point]
        const from = recorded.request !== undefined ? ` (${recorded.request}${recorded.date ? ` on ${recorded.date}` : ''})` : ''
        // whatever was seen is compared: a value none of the point's ("mixed") contradicts the pinned one
        if (now.value === undefined && now.other !== undefined) {
          return a.fail(`profile: ${point} ${show(point, recorded.value)}${from}; deployment now answers ${now.other}${now.note ? ` (${now.note})` : ''}`)
        }
        // the deployment's own limiter hid a pinned point: it fails; the ledger's windows or an outage leave it unmade
        if (now.value === undefined && now.missed === 'limited') {
          return a.fail(`profile: ${point} ${show(point, recorded.value)}${from} could not be seen: the deployment answered 429 to the request that shows it (${now.note ?? 'not seen'})`)
        }
        if (now.value === undefined) throw new Skip(`${point} could not be seen this run: ${now.note ?? 'not seen'}`, now.missed === 'limited' ? 'unavailable' : (now.missed ?? 'not-applicable'))
        // a limiter met or not is the run's timing as much as the deployment's: a change is reported, never failed (docs/profile.md)
        if (point === 'burstLimit' && !sameValue(point, recorded.value, now.value)) {
          const summary = `profile: ${point} ${show(point, recorded.value)}${from}; this run met ${show(point, now.value)}`
          ctx.observations.add({ topic: 'rate-limit', endpoint: 'profile', summary })
          return a.ok(true, `${summary}: a change reported as an observation, not a failure`, summary)
        }
        // a point read from the records is held to its kind: arrivals move its value, the deployment chose nothing
        const kindOnly = heldToKind(point) && !isDeepStrictEqual(recorded.value, now.value)
        // a reading through time (a window through a Retry-after) says the same as any value it cannot tell apart
        const within = now.range && !isDeepStrictEqual(recorded.value, now.value) ? ` (the profile records ${show(point, recorded.value)}, among the values this reading cannot tell apart: ${now.range.min} to ${now.range.max})` : ''
        a.ok(
          agrees(point, recorded.value, now),
          kindOnly
            ? `${point}: ${show(point, now.value)} (the profile records ${show(point, recorded.value)}): read from the records, which arrivals move, so held to its kind`
            : `${point}: ${show(point, now.value)}${within || ', as the profile records'}`,
          `profile: ${point} ${show(point, recorded.value)}${from}; deployment now answers ${show(point, now.value)}${now.request ? ` (${now.request})` : ''}`,
        )
      })
    }
  })
}
