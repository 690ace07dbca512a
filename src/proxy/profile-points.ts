// --profile FILE: a deployment profile's points held against the answers that pass, each
// point one answer shows by itself (docs/profile.md). Which points those are, and how each
// is read, is the contract kit's catalogue of recorders (src/contract/point-recorders.ts RECORDERS,
// through readOneAnswer): every recorder runs over the answer as if it were a run's only
// answer, and a point it shows directly (a page size, what a last page's next_page holds,
// the status line of a 412 or a 404, a download's type, an error body, an auth refusal,
// month names, job/fields' shape, list order, extra fields and keys, the approval word,
// metric labels) is compared with the profile's value as the kit compares it (sameValue).
// Where the spec is silent the profile pins the deployment's own earlier choice: a change
// is a violation of the profile, never of the spec, and says so.
import type { ProfilePointName } from '../../schemas/profile.js'
import type { Answer } from '../contract/request-outcomes.js'
import type { Credentials } from '../contract/request-credentials.js'
import { readOneAnswer } from '../contract/one-answer-readings.js'
import { show } from '../contract/profile-merge.js'
import { PROFILE } from '../contract/rules.js'
import { type LoadedProfile, sameFieldType, sameValue, structure } from '../profile/deployment-profile.js'

/** A point an answer does not keep: the check (`profile: pageSize is as the profile records it`) and what differs. */
export interface PointProblem {
  readonly point: ProfilePointName
  readonly check: string
  readonly message: string
}

/** The answer as far as the points read it. */
export interface PointAnswer {
  readonly method: string
  /** The URL the upstream was asked (its base, the API's path and the query). */
  readonly url: string
  readonly status: number
  /** The answer's headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /** Its body as far as it was read, and parsed (undefined: no JSON). */
  readonly bytes: Buffer
  readonly body: unknown
  readonly truncated?: string | undefined
  /** Whether the request carried credentials: an answer 401 or 403 to one without is an auth refusal. */
  readonly credentials: boolean
  readonly at: number
}

const named = (point: ProfilePointName) => PROFILE.replace('*', point)

/**
 * extraFields of one answer: the kinds it shows (a list's records), each compared by the
 * names and types of its fields, types as the kit compares them (sameFieldType: a type the
 * answer shows only as null is no change, nor is a whole number for a number); a kind the
 * answer does not show is no change either.
 */
function sameExtraFields(recorded: unknown, now: unknown): boolean {
  const [before, after] = [structure(recorded), structure(now)]
  return Object.entries(after).every(([kind, fields]) => {
    const held = before[kind] ?? {}
    const names = new Set([...Object.keys(held), ...Object.keys(fields)])
    return [...names].every((name) => held[name] !== undefined && fields[name] !== undefined && sameFieldType(held[name], fields[name]))
  })
}

/** The points of a profile one answer shows; an empty list when it pins none of them. */
export function profilePoints(profile: LoadedProfile, apiBase: string): (answer: PointAnswer) => PointProblem[] {
  const recorded = Object.entries(profile.points as Readonly<Record<string, { value?: unknown; request?: string } | undefined>>).flatMap(([point, entry]) =>
    entry?.value === undefined ? [] : [[point as ProfilePointName, entry] as const],
  )
  return (passed) => {
    if (recorded.length === 0) return []
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(passed.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
    const answer: Answer = {
      kind: 'answer',
      method: passed.method,
      url: passed.url,
      status: passed.status,
      headers,
      bytes: passed.bytes,
      truncated: passed.truncated,
      json: passed.body,
      wire: [],
      text: '',
      shown: '',
    }
    // a 401 or 403 is a refusal of the credentials (or their absence): the auth group's answers
    const credentials: Credentials = passed.status === 401 || passed.status === 403 ? (passed.credentials ? 'wrong' : 'none') : 'given'
    const shown = readOneAnswer(answer, { apiBase, credentials, at: passed.at })
    const problems: PointProblem[] = []
    for (const [point, entry] of recorded) {
      const now = shown[point]
      if (now === undefined) continue
      const kept = now.value === undefined ? false : point === 'extraFields' ? sameExtraFields(entry.value, now.value) : sameValue(point, entry.value, now.value)
      if (kept) continue
      const from = entry.request === undefined ? '' : ` (${entry.request})`
      const answered = now.value === undefined ? (now.other as string) : show(point, now.value)
      problems.push({ point, check: named(point), message: `this answer shows ${answered}${now.note ? ` (${now.note})` : ''}; the profile records ${show(point, entry.value)}${from}` })
    }
    return problems
  }
}
