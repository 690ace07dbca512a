// Deployment profiles on the fake's side: reading and validating a profile file, turning
// its points into the fake's options (flags given beside it win, and are reported), when
// two values of a point say the same (sameValue, the kit's comparison too), and the
// differences between two profiles (`jobboard-kit profile diff`).
import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { heldToKind, NOT_HONOURED, PROFILE_POINTS, profileFile, type ProfilePointName } from '../../schemas/profile.js'
import { deepFreeze, type DeepReadonly } from '../core/freeze.js'
import { prototypeKeyPath, prototypeKeyRefusal } from '../core/prototype-keys.js'
import type { ProfileFile, ServerOptionsInput } from '../core/types.js'
import { compileSchema, explain } from '../core/validation.js'
import type { ValidateFunction } from 'ajv'

export type LoadedProfile = DeepReadonly<ProfileFile>

export class ProfileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProfileError'
  }
}

/** Validates profile data (naming the field at fault) and freezes it. */
let profileValidator: ValidateFunction<ProfileFile> | undefined

export function parseProfile(data: unknown, source = 'profile'): LoadedProfile {
  // compiled once per process, when a profile is first read
  profileValidator ??= compileSchema<ProfileFile>({ ownSchemas: true, fewCalls: true }, profileFile)
  const validate = profileValidator
  const keyPath = prototypeKeyPath(data)
  if (keyPath !== undefined) throw new ProfileError(prototypeKeyRefusal(source, keyPath, 'no field of a deployment profile has that name'))
  if (!validate(data)) throw new ProfileError(`${source} is not a valid deployment profile: ${explain(validate.errors ?? [], 'record', data)}`)
  return deepFreeze(structuredClone(data))
}

/** A profile from a JSON file, or given as an object. */
export function loadProfile(ref: string | ProfileFile | LoadedProfile): LoadedProfile {
  if (typeof ref !== 'string') return parseProfile(ref)
  let text: string
  try {
    text = readFileSync(ref, 'utf8')
  } catch (error) {
    throw new ProfileError(`Cannot read profile ${ref}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ProfileError(`Profile ${ref} is not valid JSON: ${(error as Error).message}`)
  }
  return parseProfile(data, `Profile ${ref}`)
}

/** The value each recorded point holds (points not seen hold none). */
export function profileValues(profile: LoadedProfile): Partial<Record<ProfilePointName, unknown>> {
  const points = profile.points as Readonly<Record<string, { value?: unknown } | undefined>>
  const out: Partial<Record<ProfilePointName, unknown>> = {}
  for (const name of PROFILE_POINTS) {
    const value = points[name]?.value
    if (value !== undefined) out[name] = value
  }
  return out
}

/** A plain object, or an empty one: for reading values whose shape is not known. */
const rec = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

/** Extra fields compared by name and type: the examples are made up each time. */
export const structure = (value: unknown) =>
  Object.fromEntries(
    Object.entries(rec(value))
      .filter(([, fields]) => Object.keys(rec(fields)).length > 0)
      .map(([kind, fields]) => [kind, Object.fromEntries(Object.entries(rec(fields)).map(([name, field]) => [name, rec(field).type]))]),
  )

/** The JSON kind of a value: JSON has one number type, so a share of 0 and one of 0.25 are both numbers. */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

const NUMBER_TYPES: ReadonlySet<unknown> = new Set(['integer', 'number'])

/**
 * Whether two types of one extra field say the same. A run reads the type from the values
 * it met, which are records: a field met only as null shows no type (so null says the
 * same as any), and a number field whose values happened to be whole reads `integer`
 * (JSON has one number type). Records that arrive move both readings; a name or another
 * kind of value (a string that is now a number) is the deployment's change.
 */
export const sameFieldType = (a: unknown, b: unknown): boolean => a === b || a === 'null' || b === 'null' || (NUMBER_TYPES.has(a) && NUMBER_TYPES.has(b))

/** Extra fields of the same record kinds and names, each of a type that says the same (sameFieldType). */
function sameExtraFields(a: unknown, b: unknown): boolean {
  const [x, y] = [structure(a), structure(b)]
  const names = (fields: Record<string, unknown> | undefined) => Object.keys(fields ?? {}).sort()
  return (
    isDeepStrictEqual(names(x), names(y)) &&
    Object.entries(x).every(([kind, fields]) => isDeepStrictEqual(names(fields), names(y[kind])) && Object.entries(fields).every(([name, type]) => sameFieldType(type, y[kind]?.[name])))
  )
}

/**
 * The extra fields to keep when two readings say the same (sameExtraFields): the earlier
 * entries (their examples stay), but where a later run read a type the earlier could not
 * (it met only null, or only whole numbers), the later entry.
 */
export function keptExtraFields(earlier: unknown, later: unknown): unknown {
  const [before, now] = [rec(earlier), rec(later)]
  const told = (was: unknown, is: unknown) => (was === 'null' && is !== 'null') || (was === 'integer' && is === 'number')
  return Object.fromEntries(
    Object.entries(before).map(([kind, fields]) => [
      kind,
      Object.fromEntries(Object.entries(rec(fields)).map(([name, entry]) => {
        const newer = rec(now[kind])[name]
        return [name, told(rec(entry).type, rec(newer).type) ? newer : entry]
      })),
    ]),
  )
}

/**
 * Whether two values of a point say the same: what `contract --profile` and `profile diff`
 * compare. A point read from the records (heldToKind) is held to its kind: any value of the
 * same JSON kind says the same, since records arriving move it while the deployment
 * chooses nothing new.
 */
export function sameValue(point: ProfilePointName, a: unknown, b: unknown): boolean {
  if (heldToKind(point)) return kindOf(a) === kindOf(b)
  // each request case both readings saw: a run makes the cases of its turn only (the write turns take turns across runs)
  if (point === 'openJobValues') {
    const [x, y] = [rec(a), rec(b)]
    return Object.keys(x).every((id) => !Object.hasOwn(y, id) || x[id] === y[id])
  }
  // each kind both readings saw, its keys as a set: a kind one run got no answer of (no --writes) says nothing
  if (point === 'envelopeKeys') {
    const [x, y] = [rec(a), rec(b)]
    return Object.keys(x).every((kind) => !Object.hasOwn(y, kind) || isDeepStrictEqual([...(x[kind] as string[])].sort(), [...(y[kind] as string[])].sort()))
  }
  // a limiter's Retry-after and the kit's pace depend on the run's timing: whether there is one is what is pinned
  if (point === 'burstLimit') return (a === false) === (b === false)
  // a set of labels: the order they come in is no choice the profile pins
  if (point === 'extraMetricLabels' && Array.isArray(a) && Array.isArray(b)) return isDeepStrictEqual([...a].sort(), [...b].sort())
  return point === 'extraFields' ? sameExtraFields(a, b) : isDeepStrictEqual(a, b)
}

/** A flag or option given beside a profile that replaced one of its points. */
export interface ProfileOverride {
  point: ProfilePointName
  profile: unknown
  given: unknown
}

/**
 * The fake's options with a profile's values under the options given: a point becomes
 * the knob (or setting) of the same name unless the caller gave that option too; the
 * points the fake does not honour (NOT_HONOURED) are left aside.
 */
export function applyProfile(
  options: Omit<ServerOptionsInput, 'profile'>,
  profile: LoadedProfile,
): { options: Omit<ServerOptionsInput, 'profile'>; overrides: ProfileOverride[] } {
  // a point the fake cannot answer by (a burst limiter) is no option of the fake's
  const values = Object.fromEntries(Object.entries(profileValues(profile)).filter(([point]) => !Object.hasOwn(NOT_HONOURED, point)))
  const overrides: ProfileOverride[] = []
  const given = options as Record<string, unknown>
  for (const [point, value] of Object.entries(values) as Array<[ProfilePointName, unknown]>) {
    if (given[point] !== undefined && !isDeepStrictEqual(given[point], value)) overrides.push({ point, profile: value, given: given[point] })
  }
  return { options: { ...(structuredClone(values) as object), ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) }, overrides }
}

/** What a profile says of one point: its value, and how it was seen (both absent: not in the profile). */
export interface PointState {
  value?: unknown
  seen?: string
}

/** One point whose value differs between two profiles. How it was seen alone is no difference. */
export interface ProfileDifference {
  point: ProfilePointName
  a: PointState
  b: PointState
}

const stateOf = (profile: LoadedProfile, point: ProfilePointName): PointState =>
  ((profile.points as Readonly<Record<string, PointState | undefined>>)[point] ?? {}) as PointState

export function diffProfiles(a: LoadedProfile, b: LoadedProfile): ProfileDifference[] {
  // two values that say the same (a point read from the records, labels in another order) are no difference
  return PROFILE_POINTS.map((point) => ({ point, a: stateOf(a, point), b: stateOf(b, point) })).filter((row) =>
    row.a.value !== undefined && row.b.value !== undefined ? !sameValue(row.point, row.a.value, row.b.value) : !isDeepStrictEqual(row.a.value, row.b.value),
  )
}

/** A value as a table cell: JSON, "(not seen)" or "(not in profile)". */
export const cell = (value: unknown, seen?: string): string =>
  value !== undefined ? JSON.stringify(value) : seen === 'not-seen' ? '(not seen)' : seen === undefined ? '(not in profile)' : '(no value)'

/** The differences as a plain-text table with a header row: point, A, B. */
export function formatDifferences(rows: readonly ProfileDifference[], names: { a: string; b: string }): string {
  const table = [['point', names.a, names.b], ...rows.map((row) => [row.point, cell(row.a.value, row.a.seen), cell(row.b.value, row.b.seen)])]
  const widths = [0, 1, 2].map((i) => Math.max(...table.map((r) => (r[i] as string).length)))
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd()
  return [line(table[0] as string[]), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(line)].join('\n')
}

/** `--page-size (25) replaces the profile's pageSize (100)`: what serve prints at start-up. */
export const overrideLine = (o: ProfileOverride, flag: string) =>
  `${flag} ${JSON.stringify(o.given)} overrides the profile's ${o.point} ${JSON.stringify(o.profile)}`
