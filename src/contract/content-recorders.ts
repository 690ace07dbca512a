// The recorders of the profile's points on what the records and writes hold
// (docs/profile.md): how months are written, the fields beyond the spec's, the share of
// guest applicants, a marketing approval's word, the metric labels beyond the ten, the
// id field a close or expire takes and what the cases the spec's words leave open were
// answered. Each reads the answers a run already got (point-evidence.ts); the table is
// point-recorders.ts.
import { behaviourProperties, EXTRA_FIELD_RECORDS } from '../../schemas/behaviour.js'
import { METRIC_LABELS, MONTH_NAMES, MONTH_SHORT_NAMES } from '../../schemas/values.js'
import { createFaker, hash32 } from '../core/random.js'
import { drawFrom, sameShape } from '../core/shape.js'
import { APPLICATIONS, CANDIDATES, MARKETING } from './lists.js'
import { directly, type Evidence, type Got, notSeen, type Reading, seenOther, where } from './point-evidence.js'
import { int, isRec, pageOf, rec, recs, str } from './records.js'

export function monthNames(e: Evidence): Reading {
  const months: Array<{ got: Got; month: string }> = []
  for (const got of e.on('/metrics/list')) for (const m of recs(rec(got.answer.json).metrics)) for (const agg of recs(m.aggregations)) if (typeof agg.month === 'string') months.push({ got, month: agg.month })
  for (const got of e.on(/^\/candidates\/(list|details\/[0-9]+)$/)) for (const c of recs(rec(got.answer.json).data)) if (typeof c.available_from_month === 'string') months.push({ got, month: c.available_from_month })
  // May is both
  const styled = months.filter((m) => m.month !== 'May')
  const long = styled.filter((m) => (MONTH_NAMES as readonly string[]).includes(m.month))
  const short = styled.filter((m) => (MONTH_SHORT_NAMES as readonly string[]).includes(m.month))
  if (styled.length === 0) return notSeen('no month name other than May was fetched', e.missed('/metrics/list'))
  if (long.length === styled.length) return directly((long[0] as { got: Got }).got, 'long')
  if (short.length === styled.length) return directly((short[0] as { got: Got }).got, 'short')
  const odd = styled.find((m) => !long.includes(m) && !short.includes(m))
  if (odd) return seenOther(JSON.stringify(odd.month), `a month is written ${JSON.stringify(odd.month)}`)
  const places = [...new Set([long[0], short[0]].map((m) => where((m as { got: Got }).got)))]
  return seenOther('mixed', `months are written both long and short (${places.join(', ')})`)
}

export function closeExpireIdField(e: Evidence): Reading {
  const known = e.ctx.idField
  if (known) return { value: known.value, seen: 'directly', request: known.request, at: known.at }
  return notSeen(e.ctx.settings.writes ? 'no close or expire was answered (see the jobs group)' : 'the run made no writes (--writes)')
}

/** What the write turns' request cases whose value the spec's words leave open were answered: accepted or refused, by case. */
export function openJobValues(e: Evidence): Reading {
  const answered = [...(e.ctx.openValues ?? new Map()).entries()].sort(([a], [b]) => a.localeCompare(b))
  const [first] = answered
  if (first === undefined) return notSeen(e.ctx.settings.writes ? "no request case whose value the spec's words leave open was made this run (the write turns take turns)" : 'the run made no writes (--writes)')
  const value = Object.fromEntries(answered.map(([id, { value: said }]) => [id, said]))
  return { value, seen: 'directly', request: first[1].request, at: first[1].at, note: answered.map(([id, { value: said }]) => `${id}: ${said}`).join('; ') }
}

/** JSON type names as a profile gives them. */
const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value === 'number' ? 'number' : (typeof value as 'string' | 'boolean' | 'object')

/** An example no longer than the profile schema allows, in the value's shape (never the value itself). */
function exampleOf(value: unknown, seed: number): unknown {
  const bounded =
    typeof value === 'string' ? value.slice(0, 1000) : Array.isArray(value) ? value.slice(0, 20) : isRec(value) ? Object.fromEntries(Object.entries(value).slice(0, 20)) : value
  return sameShape(bounded, drawFrom(createFaker(seed)))
}

const EXTRA_SOURCES: Record<keyof typeof EXTRA_FIELD_RECORDS, RegExp> = {
  candidate: /^\/candidates\/(list|details\/[0-9]+)$/,
  application: /^\/applications\/(list|details\/[0-9]+)$/,
  timesheet: /^\/timesheets\/list$/,
  marketing: /^\/marketing\/list$/,
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

/** Top-level fields of records beyond the spec's, per kind, with their type and an example of the same shape. */
export function extraFields(e: Evidence): Reading {
  const value: Record<string, Record<string, { type: string; example: unknown }>> = {}
  const seenKinds: string[] = []
  const skipped: string[] = []
  let first: Got | undefined
  for (const [kind, source] of Object.entries(EXTRA_SOURCES) as Array<[keyof typeof EXTRA_FIELD_RECORDS, RegExp]>) {
    const known = EXTRA_FIELD_RECORDS[kind].properties as object
    const answers = e.on(source, (g) => recs(rec(g.answer.json).data).length > 0)
    if (answers.length === 0) continue
    seenKinds.push(kind)
    const values = new Map<string, { got: Got; values: unknown[] }>()
    for (const got of answers) {
      for (const record of recs(rec(got.answer.json).data)) {
        for (const [name, v] of Object.entries(record)) {
          if (Object.hasOwn(known, name)) continue
          const entry = values.get(name) ?? { got, values: [] }
          entry.values.push(v)
          values.set(name, entry)
        }
      }
    }
    const fields: Record<string, { type: string; example: unknown }> = {}
    for (const [name, entry] of values) {
      if (!NAME.test(name) || Object.keys(fields).length >= 32) {
        skipped.push(`${kind}.${name}`)
        continue
      }
      const types = new Set(entry.values.filter((v) => v !== null).map(jsonType))
      const type = types.size === 0 ? 'null' : types.has('number') && types.has('integer') && types.size === 2 ? 'number' : [...types][0] as string
      const sample = entry.values.find((v) => jsonType(v) === type || (type === 'number' && typeof v === 'number')) ?? null
      fields[name] = { type, example: exampleOf(sample, hash32('profile', kind, name)) }
      first ??= entry.got
    }
    if (Object.keys(fields).length > 0) value[kind] = fields
  }
  if (seenKinds.length === 0) return notSeen('no record was fetched', e.missed(/\/list$/))
  const left = Object.keys(EXTRA_SOURCES).filter((k) => !seenKinds.includes(k))
  const note = [left.length > 0 ? `no ${left.join(', ')} record was fetched` : '', skipped.length > 0 ? `not recorded: ${skipped.join(', ')}` : ''].filter((n) => n !== '').join('; ')
  const got = first ?? (e.on(EXTRA_SOURCES[seenKinds[0] as keyof typeof EXTRA_SOURCES])[0] as Got)
  return directly(got, value, note || undefined)
}

/** The id at the end of an applications/details/{id} link, if it ends in one. */
const linkedId = (href: unknown) => {
  const found = typeof href === 'string' ? /\/([0-9]+)\/?$/.exec(href) : null
  return found ? Number(found[1]) : undefined
}

/**
 * The share of listed applications whose applicant matches no listed candidate (no
 * candidate lists it among its applications, none has its e-mail): guests. Told only when
 * every candidate was listed (as many as candidates/list's total): otherwise the applicant
 * may be a candidate on a page the run did not read.
 */
export function guestApplicants(e: Evidence): Reading {
  const plain = (g: Got) => !g.query.has('since') && !g.query.has('vacancy') && pageOf(g.answer) !== undefined
  const appPages = e.on(APPLICATIONS.path, plain)
  const applications = new Map<unknown, Record<string, unknown>>()
  for (const got of appPages) for (const a of pageOf(got.answer)?.data ?? []) applications.set(a.id, a)
  const [first] = appPages
  if (!first || applications.size === 0) return notSeen(e.selected(APPLICATIONS) ? 'no application was listed' : 'the applications group did not run', e.missed(APPLICATIONS.path))
  const candidatePages = e.on(CANDIDATES.path, plain)
  const candidates = new Map<unknown, Record<string, unknown>>()
  for (const got of candidatePages) for (const c of pageOf(got.answer)?.data ?? []) candidates.set(c.id, c)
  const total = candidatePages.map((g) => int(pageOf(g.answer)?.total)).find((n) => n !== undefined)
  if (total === undefined || candidates.size < total) {
    const read = total === undefined ? 'no candidates/list page was read' : `${candidates.size} of the ${total} candidates were listed`
    return notSeen(`${read}: an applicant no listed candidate matches may be one on a page not read`, e.missed(CANDIDATES.path))
  }
  const theirs = new Set<number | undefined>()
  const emails = new Set<string>()
  for (const c of candidates.values()) {
    for (const entry of recs(c.applications)) theirs.add(linkedId(entry.href))
    for (const email of [c.email, c.signup_email]) if (typeof email === 'string') emails.add(email.toLowerCase())
  }
  const guests = [...applications.values()].filter((a) => {
    const email = str(rec(a.applicant).email)
    return !theirs.has(int(a.id)) && (email === undefined || !emails.has(email.toLowerCase()))
  })
  const share = Math.round((guests.length / applications.size) * 100) / 100
  return {
    ...directly(first, share, `${guests.length} of the ${applications.size} applications listed match none of the ${candidates.size} candidates (all of them)`),
    seen: 'inferred',
  }
}

/**
 * The word a marketing record says for an approval (the spec shows only `Revoked`): the
 * action, other than Revoked, the listed marketing records give most; else the consent
 * values the listed candidates give. A board has one such word; more than one is mixed.
 */
export function marketingApprovalAction(e: Evidence): Reading {
  const plain = (g: Got) => !g.query.has('since') && pageOf(g.answer) !== undefined
  const words = (pages: Got[], values: (row: Record<string, unknown>) => unknown[]) => {
    const counts = new Map<string, { n: number; got: Got }>()
    for (const got of pages) {
      for (const row of pageOf(got.answer)?.data ?? []) {
        for (const value of values(row)) {
          if (typeof value !== 'string' || value === '' || value === 'Revoked') continue
          const seen = counts.get(value)
          counts.set(value, { n: (seen?.n ?? 0) + 1, got: seen?.got ?? got })
        }
      }
    }
    return [...counts].sort((a, b) => b[1].n - a[1].n)
  }
  let found = words(e.on(MARKETING.path, plain), (m) => [m.action])
  let from = 'marketing records listed'
  if (found.length === 0) {
    found = words(e.on(CANDIDATES.path, plain), (c) => recs(c.consent).map((entry) => entry.value))
    from = "consent entries of the candidates listed"
  }
  const [first] = found
  if (!first) return notSeen('no marketing record or consent entry listed says anything but Revoked', e.missed(MARKETING.path))
  if (found.length > 1) return seenOther('mixed', `the ${from} approve with ${found.map(([word, { n }]) => `${JSON.stringify(word)} (${n})`).join(', ')}`)
  return directly(first[1].got, first[0], `${first[1].n} ${from} approve with it`)
}

/** The labels metrics/list answered beyond the ten the spec names, in the order they came (none: an empty list). */
export function extraMetricLabels(e: Evidence): Reading {
  const got = e.on('/metrics/list', (g) => Array.isArray(rec(g.answer.json).metrics))[0]
  if (!got) return notSeen(e.ctx.settings.groups.includes('metrics') ? 'metrics/list was not answered with a metrics array' : 'the metrics group did not run', e.missed('/metrics/list'))
  const labels = recs(rec(got.answer.json).metrics).map((m) => m.label)
  const extra = [...new Set(labels.filter((label) => !(METRIC_LABELS as readonly unknown[]).includes(label)))]
  const schema = behaviourProperties.extraMetricLabels
  const fit = (label: unknown) => typeof label === 'string' && new RegExp(schema.items.pattern).test(label)
  if (extra.length > schema.maxItems || !extra.every(fit)) return seenOther(`${extra.length} other labels`, `metrics/list answered labels a profile cannot hold: ${extra.slice(0, 5).map((l) => JSON.stringify(l)).join(', ')}`)
  return directly(got, extra, extra.length === 0 ? 'the ten labels the spec names and no other' : undefined)
}
