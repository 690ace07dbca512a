// `--write-profile FILE` (docs/profile.md): a run's readings merged into the profile file.
// A later run fills what an earlier one could not see; a value that moved is updated and
// reported; what a run did not see keeps the earlier entry. show() writes a point's value
// as messages show it.
import { isDeepStrictEqual } from 'node:util'
import { heldToKind, PROFILE_KIND, PROFILE_POINTS, type ProfilePointName } from '../../schemas/profile.js'
import { keptExtraFields, parseProfile, structure, type LoadedProfile } from '../profile/deployment-profile.js'
import { formatTimestamp } from '../core/time.js'
import type { ProfileFile } from '../core/types.js'
import { agrees, type Reading, type Readings, type SeenHow } from './point-evidence.js'
import { isRec, rec } from './records.js'

/** A value as messages show it: strings bare, extra fields as kind.name type. */
export function show(point: ProfilePointName, value: unknown): string {
  if (point === 'extraFields') {
    const fields = Object.entries(structure(value)).flatMap(([kind, names]) => Object.entries(names).map(([name, type]) => `${kind}.${name} ${String(type)}`))
    return fields.length === 0 ? 'no extra fields' : fields.join(', ')
  }
  if (point === 'envelopeKeys') {
    const kinds = Object.entries(rec(value)).map(([kind, keys]) => `${kind} ${Array.isArray(keys) && keys.length > 0 ? `+${keys.join(' +')}` : "the spec's keys"}`)
    return kinds.length === 0 ? 'no envelope' : kinds.join('; ')
  }
  if (point === 'burstLimit') return value === false ? 'no burst limiter' : `a burst limiter (Retry-after ${String(rec(value).retryAfter)} s; the kit went down to ${String(rec(value).concurrency)} at a time, ${String(rec(value).spacingSeconds)} s apart)`
  if (point === 'extraMetricLabels' && Array.isArray(value)) return value.length === 0 ? 'no label beyond the spec\'s ten' : `labels beyond the spec's ten: ${value.map((l) => JSON.stringify(l)).join(', ')}`
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export type PointEntry = { value?: unknown; seen: SeenHow; request?: string; date?: string; note?: string }

const entryOf = (reading: Reading): PointEntry => ({
  ...(reading.value !== undefined ? { value: reading.value } : {}),
  seen: reading.seen,
  ...(reading.request !== undefined ? { request: reading.request } : {}),
  ...(reading.at !== undefined ? { date: formatTimestamp(reading.at) } : {}),
  ...(reading.note !== undefined ? { note: reading.note } : {}),
})

/**
 * The profile to write: this run's readings over the earlier file's points. A point seen
 * now replaces the earlier entry (a moved value is reported as changed; extra fields of
 * the same names and types keep their earlier examples); a point not seen now keeps the
 * earlier entry. A point read from the records (heldToKind) takes this run's reading, its
 * move reported apart (`moved`): records arrived, the deployment chose nothing new.
 * Validated against schemas/profile.ts before it is returned.
 */
export function mergeProfile(
  prior: LoadedProfile | undefined,
  readings: Readings,
  deployment: { origin: string; recordedAt: number; kitVersion?: string },
): { profile: ProfileFile; changes: string[]; moved: string[]; filled: string[]; notSeen: string[] } {
  const before = (prior?.points ?? {}) as Readonly<Record<string, PointEntry | undefined>>
  const points: Record<string, PointEntry> = {}
  const changes: string[] = []
  const moved: string[] = []
  const filled: string[] = []
  const unseen: string[] = []
  for (const point of PROFILE_POINTS) {
    const reading = readings[point]
    const old = before[point]
    if (reading.value === undefined) {
      if (old) points[point] = structuredClone(old) as PointEntry
      else points[point] = entryOf(reading)
      if (old?.value === undefined) unseen.push(`${point}: ${reading.note ?? 'not seen'}`)
      continue
    }
    const entry = entryOf(reading)
    const shift = `${point} ${show(point, old?.value)} → ${show(point, reading.value)}${reading.request ? ` (${reading.request})` : ''}`
    const same = old?.value !== undefined && agrees(point, old.value, reading)
    if (same && heldToKind(point)) {
      if (!isDeepStrictEqual(old?.value, reading.value)) moved.push(shift)
    } else if (same) entry.value = point === 'extraFields' ? keptExtraFields(old?.value, reading.value) : structuredClone(old?.value)
    else if (old?.value !== undefined) changes.push(shift)
    else if (prior) filled.push(`${point} ${show(point, reading.value)}${reading.request ? ` (${reading.request})` : ''}`)
    // envelope kinds this run got no answer of (job/add without --writes) keep what an earlier run saw
    // the same for request cases this run did not make (openJobValues: the write turns take turns)
    if ((point === 'envelopeKeys' || point === 'openJobValues') && isRec(old?.value)) entry.value = { ...structuredClone(old.value), ...structuredClone(rec(reading.value)) }
    points[point] = entry
  }
  const file = {
    kind: PROFILE_KIND,
    version: 1,
    deployment: {
      origin: deployment.origin,
      recorded_at: formatTimestamp(deployment.recordedAt),
      ...(deployment.kitVersion !== undefined ? { kit_version: deployment.kitVersion } : {}),
    },
    points,
  }
  // a profile the kit writes must be one the fake (and the next run) reads: a bug here stops the write
  return { profile: parseProfile(file, 'the profile written') as ProfileFile, changes, moved, filled, notSeen: unseen }
}
