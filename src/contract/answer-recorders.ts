// The recorders of the profile's points on how a deployment answers (docs/profile.md):
// its errors (the HTTP status of a 404 and a 412 body, the body of an unknown id, a 429 and
// an auth refusal, a malformed since refused or ignored), the downloads' content types,
// job/fields' shape, the top-level keys beyond the spec's, and its limits (the window, a
// burst limiter). Each reads the answers a run already got (point-evidence.ts); the table
// is point-recorders.ts.
import { behaviourProperties, ENVELOPE_KEYS, type EnvelopeKind } from '../../schemas/behaviour.js'
import { profilePointValues } from '../../schemas/profile.js'
import { findFieldLists } from './field-lists.js'
import { SHORT_RETRY_AFTER_SECONDS } from './request-outcomes.js'
import { MALFORMED_SINCE } from './filter-requests.js'
import { ID_PATHS, UNKNOWN_ID } from './spare-requests.js'
import { bodyType, directly, essence, type Evidence, type Got, isBurst, meant, notSeen, type Reading, requestOf, seenOther } from './point-evidence.js'
import { isRec, pageOf, rec, succeeded } from './records.js'

/** A download's Content-Type, from the answers of its paths (the unknown id's aside). */
export const downloadType = (pattern: RegExp, what: string) => (e: Evidence): Reading => {
  const got = e.on(pattern, (g) => succeeded(g.answer) && !g.path.endsWith(`/${UNKNOWN_ID}`))[0]
  const type = got ? essence(got.answer) : undefined
  if (!got) return notSeen(`no ${what} was downloaded`, e.missed(pattern))
  if (type === undefined || !/^[a-z]+\/[a-z0-9.+-]+$/.test(type)) return notSeen(`the ${what} came with Content-Type ${JSON.stringify(got.answer.headers['content-type'])}`)
  return directly(got, type)
}

/** A JSON error whose body says 404, with the HTTP status it came with (a 412's is preconditionHttpStatus). */
export function errorHttpStatus(e: Evidence): Reading {
  const got = e.all().find((g) => isRec(g.answer.json) && meant(g.answer) === 404)
  if (!got) return notSeen('no answer was a 404 JSON error')
  if (got.answer.status === 404) return directly(got, 'mirror')
  if (got.answer.status === 200) return directly(got, 'ok')
  return seenOther(`HTTP ${got.answer.status}`, `a JSON error saying 404 came with HTTP ${got.answer.status}`)
}

/** The HTTP status line of every JSON error whose body says 412 (a malformed since, the invalid add): one status, or mixed. */
export function preconditionHttpStatus(e: Evidence): Reading {
  const found = e.all().filter((g) => isRec(g.answer.json) && meant(g.answer) === 412)
  const [first] = found
  if (!first) return notSeen('no answer was a JSON error saying 412 (a malformed since refused, or --writes for the invalid add)')
  const statuses = [...new Set(found.map((g) => g.answer.status))]
  if (statuses.length > 1) return seenOther('mixed', `JSON errors saying 412 came with HTTP ${statuses.join(' and ')}`)
  if (!(behaviourProperties.preconditionHttpStatus.enum as readonly number[]).includes(first.answer.status)) {
    return seenOther(`HTTP ${first.answer.status}`, `a JSON error saying 412 came with HTTP ${first.answer.status}`)
  }
  return directly(first, first.answer.status)
}

const unknownIds = (e: Evidence) => {
  const id = e.ctx.unknownId ?? String(UNKNOWN_ID)
  const paths = Object.values(ID_PATHS).flat().map((path) => `${path}/${id}`)
  // in the plan's order, not the order the answers came in: the same run records the same request
  return e.on(new RegExp(`/${id}$`), (g) => paths.includes(g.path)).sort((a, b) => paths.indexOf(a.path) - paths.indexOf(b.path))
}

export function notFoundBody(e: Evidence): Reading {
  const got = unknownIds(e)[0]
  if (!got) return notSeen('no unknown id was asked', e.missed(new RegExp(`/${UNKNOWN_ID}$`)))
  if (got.answer.status !== 404 && meant(got.answer) !== 404 && got.answer.json !== undefined) return notSeen(`an unknown id answered HTTP ${got.answer.status} ${JSON.stringify(got.answer.json).slice(0, 80)}`)
  return directly(got, bodyType(got.answer), `HTTP ${got.answer.status} ${essence(got.answer) ?? 'without a content type'}`)
}

export function malformedSince(e: Evidence): Reading {
  const sent = e.ctx.malformedSince ?? MALFORMED_SINCE
  const got = e.on(/\/list$/, (g) => g.query.get('since') === sent)[0]
  if (!got) return notSeen('no malformed since was sent', e.missed(/\/list$/))
  if (pageOf(got.answer)) return directly(got, 'ignore')
  if (meant(got.answer) === 412) return directly(got, 'refuse')
  return seenOther(`HTTP ${got.answer.status}`, `a malformed since answered HTTP ${got.answer.status}`)
}

export function rateLimitBody(e: Evidence): Reading {
  const got = e.all().find((g) => g.answer.status === 429)
  return got ? directly(got, bodyType(got.answer)) : notSeen('no request answered 429 (the rate-limit group asks for one: --only with rate-limit)')
}

/** The auth group's refusals (a request without credentials, one with wrong ones). */
export const refusal = (read: (got: Got) => Reading) => (e: Evidence): Reading => {
  const got = e.refusals().find((g) => g.answer.status === 401 || g.answer.status === 403)
  if (got) return read(got)
  return notSeen(e.ctx.settings.groups.includes('auth') ? 'no request was refused with 401 or 403' : 'the auth group did not run', e.missed(/^\/marketing\/list$/))
}

export function jobFieldsShape(e: Evidence): Reading {
  const got = e.on('/job/fields')[0]
  if (!got) return notSeen('job/fields was not answered', e.missed('/job/fields'))
  const found = succeeded(got.answer) ? findFieldLists(got.answer.json) : undefined
  if (found?.path === 'data') return directly(got, 'data')
  if (found?.path === '(top level)') return directly(got, 'top-level')
  return found ? seenOther(found.path, `the lists are at ${found.path}`) : seenOther('not understood', "job/fields' shape is not understood")
}

/** The window, from the Retry-after of a 429 (at its longest), or 0 when full requests made twice were all answered. */
export function rateLimitWindow(e: Evidence): Reading {
  // a short Retry-after to a request made once is a burst limiter's (burstLimit), not the window's
  const limited = e.all().filter((g) => g.answer.status === 429 && /^[0-9]+$/.test(g.answer.headers['retry-after']?.trim() ?? '') && (!isBurst(g.answer) || e.repeated(g)))
  const longest = limited.sort((a, b) => Number(b.answer.headers['retry-after']) - Number(a.answer.headers['retry-after']))[0]
  if (longest) {
    const seconds = Number(longest.answer.headers['retry-after']?.trim())
    // a Retry-after is the window less the seconds since it opened, to the second either way: opened by the run's
    // first answer to that request, or (refused at its first ask) by an earlier run, when it may be any longer window
    const opened = e.all().find((g) => g.answer.status !== 429 && g.at <= longest.at && requestOf(g) === requestOf(longest))
    const max = opened ? seconds + Math.ceil((longest.at - opened.at) / 1000) + 1 : profilePointValues.rateLimitWindow.maximum
    const note = opened ? 'the longest Retry-after of a 429: the window, when the request was repeated at once' : 'the longest Retry-after of a 429 to a request refused at its first ask: the window an earlier run opened, or a longer one'
    return { ...directly(longest, seconds, note), seen: 'inferred', range: { min: seconds, max } }
  }
  const counts = new Map<string, number>()
  for (const got of e.all()) counts.set(requestOf(got), (counts.get(requestOf(got)) ?? 0) + 1)
  const repeated = [...counts].filter(([, n]) => n > 1).map(([request]) => request)
  const again = e.all().find((g) => repeated.includes(requestOf(g)))
  if (again && repeated.length > 0) return { ...directly(again, 0, `${repeated.length} full requests were made twice and none answered 429`), seen: 'inferred' }
  return notSeen('no request answered 429 and none was made twice (the rate-limit group makes one twice)')
}

/**
 * A burst limiter: the kit met 429s with a short Retry-after to requests it made once and
 * slowed down for them (the client's pace); false when the run met none. Whether a run
 * trips a limiter depends on its timing, so only its presence is compared (sameValue).
 */
export function burstLimit(e: Evidence): Reading {
  const pace = e.ctx.client.pace
  const limited = e.all().filter((g) => g.answer.status === 429 && isBurst(g.answer) && !e.repeated(g))
  if (pace) {
    const value = { retryAfter: Math.min(SHORT_RETRY_AFTER_SECONDS, Math.round(pace.spacingMs / 1000)), concurrency: pace.concurrency, spacingSeconds: pace.spacingMs / 1000 }
    const note = `429s with Retry-after ${value.retryAfter} s: the kit went down to ${pace.concurrency} request${pace.concurrency === 1 ? '' : 's'} at a time, ${value.spacingSeconds} s apart`
    const [first] = limited
    return first ? { ...directly(first, value, note), seen: 'inferred' } : { value, seen: 'inferred', note }
  }
  const asked = e.all().length
  if (asked === 0) return notSeen('no request was answered')
  return { value: false, seen: 'inferred', note: `none of the ${asked} requests answered was met by a 429 with a short Retry-after` }
}

/** The kind of envelope an answer is, by its path and what its body says; undefined for others (job/fields, downloads). */
function envelopeKind(got: Got): EnvelopeKind | undefined {
  if (!isRec(got.answer.json) || got.answer.status === 429) return undefined
  const said = meant(got.answer)
  if (said >= 400) return 'error'
  if (said !== 200) return undefined
  if (/^\/(candidates|applications|timesheets|marketing)\/list$/.test(got.path)) return 'list'
  if (/^\/(candidates|applications)\/details\/[^/]+$/.test(got.path)) return 'details'
  if (got.path === '/job/add') return 'jobAdd'
  if (/^\/job\/(close|expire|repost|delete)$/.test(got.path)) return 'jobOperation'
  if (got.path === '/metrics/list') return 'metrics'
  return undefined
}

const KEY = /^(?!(__proto__|constructor|prototype)$)[A-Za-z_][A-Za-z0-9_.-]{0,63}$/

/**
 * The top-level keys each kind of answer carried beyond those the spec names for it
 * (ENVELOPE_KEYS), over every answer of that kind the run got: a kind the run got no
 * answer of is left out (and not compared).
 */
export function envelopeKeys(e: Evidence): Reading {
  const value: Partial<Record<EnvelopeKind, string[]>> = {}
  let first: Got | undefined
  for (const got of e.all()) {
    const kind = envelopeKind(got)
    if (kind === undefined) continue
    first ??= got
    const known: readonly string[] = ENVELOPE_KEYS[kind]
    const keys = new Set(value[kind] ?? [])
    for (const key of Object.keys(rec(got.answer.json))) if (!known.includes(key)) keys.add(key)
    value[kind] = [...keys].sort()
  }
  if (!first) return notSeen('no answer was a JSON envelope', e.missed(/\/list$/))
  // in the schema's order of kinds, whatever order the answers came in
  const ordered = Object.fromEntries((Object.keys(ENVELOPE_KEYS) as EnvelopeKind[]).flatMap((kind) => (value[kind] ? [[kind, value[kind]]] : [])))
  const odd = Object.entries(value).flatMap(([kind, keys]) => (keys.length > 32 || keys.some((k) => !KEY.test(k)) ? [kind] : []))
  if (odd.length > 0) return seenOther(`keys a profile cannot hold on ${odd.join(', ')}`, `the ${odd.join(', ')} answers carry keys a profile cannot hold: ${odd.flatMap((kind) => value[kind as EnvelopeKind] ?? []).slice(0, 5).map((k) => JSON.stringify(k)).join(', ')}`)
  return directly(first, ordered, Object.entries(value).map(([kind, keys]) => `${kind}: ${keys.length === 0 ? 'the spec\'s keys' : keys.join(', ')}`).join('; '))
}
