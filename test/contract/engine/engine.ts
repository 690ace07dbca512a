// The deviation engine (issue 43 item 3): every operator of operators.ts applied to the
// exchanges of a recorded run (sessions.ts), each pair run and ended one of three ways:
// - caught: the kit exits 1 and a check that the unbroken run passes fails citing words
//   the deviation broke (words.ts says which: the row naming the member, the sentence or
//   RFC naming the header…); for a deviation that leaves the answer unreadable (cut short,
//   a broken length) an errored check is its catch too, as the issue's Bad input says;
// - legal: LEGAL (legal.ts) quotes the words that allow it, and the kit passes it;
// - unexplained: neither. The test holds each to the known findings (known.ts).
//
// Sites are spread, not multiplied: an operator's sites of one rotation group (a member of
// a resource's record wherever the record is answered; a header on answers of one kind; a
// status, a page's records or links in one class of exchange) go each to one exchange of
// the group that holds it, the exchange and the record within it turning with the site,
// so that every exchange of a group takes deviations and every site of it is deviated
// once, and a run costs a group's sites rather than its sites times its exchanges (a
// candidate's 60 members on every page of every candidates answer would be thousands of
// runs). An operator with no site on an exchange is skipped there and counted.
import { citedFirst } from '../../../src/contract/citations.js'
import { citationOf } from '../../../src/contract/rules.js'
import type { KitRun, Reply } from '../helpers.js'
import { type Variant, VARIANTS } from './requests.js'
import { legalOf } from './legal.js'
import { OPERATORS, type Operator, type Place, type Site, type View } from './operators.js'
import type { Server, Session } from './sessions.js'
import { type Config, type Deviation, isJson, jsonOf, type Recorded } from './transcript.js'
import { brokenWords, type Expectation, quotes } from './words.js'

export interface Pair {
  server: Server
  config: Config
  op: Operator
  x: Recorded
  site: Site
  place: Place
  expect: Expectation
}

export type Outcome = 'caught' | 'legal' | 'unexplained'

export interface Result {
  pair: Pair
  outcome: Outcome
  /** What ended it: the catching check, the legal words, or what the kit did instead. */
  why: string
}

/** The families whose sites are a class's own (a status, a page's records and links): spread over the class, not the kind. */
const BY_CLASS = new Set(['status', 'records', 'link', 'total', 'limit'])

export const viewOf = (session: Session): View => {
  const given = session.exchanges.filter((x) => /\(given\)/.test(x.id) && x.id.endsWith('#1'))
  const byPath = new Map(given.map((x) => [x.url, x]))
  let records: Map<string, Readonly<Record<string, unknown>>> | undefined
  const recordsOf = () => {
    if (records !== undefined) return records
    records = new Map()
    for (const x of given) {
      const list = x.path.replace(/\/details\/[0-9]+$/, '/list')
      const data = isJson(x.reply) ? (jsonOf(x.reply) as { data?: unknown }).data : undefined
      if (!Array.isArray(data)) continue
      for (const record of data) if (typeof record === 'object' && record !== null && typeof record.id === 'number' && !records.has(`${list} ${record.id}`)) records.set(`${list} ${record.id}`, record)
    }
    return records
  }
  return {
    record: (list, id) => recordsOf().get(`${list} ${id}`),
    byUrl: (url) => {
      try {
        const u = new URL(url)
        return byPath.get(`${u.pathname}${u.search}`)
      } catch {
        return undefined
      }
    },
  }
}

/** The pairs of a session: each operator's sites spread over their groups' exchanges; and how many operator × exchange did not fit. */
export function pairsOf(session: Session, operators: readonly Operator[] = OPERATORS): { pairs: Pair[]; skipped: number } {
  const view = viewOf(session)
  const pairs: Pair[] = []
  let skipped = 0
  operators.forEach((op, opIndex) => {
    // the exchanges holding each site, by group and key, in the order the run made them
    const groups = new Map<string, Map<string, Array<{ x: Recorded; site: Site }>>>()
    for (const x of session.exchanges) {
      const sites = op.sites(x, view)
      if (sites.length === 0) skipped++
      for (const site of sites) {
        const group = BY_CLASS.has(op.family) && !site.group.startsWith('record ') ? `class ${x.cls}` : site.group
        const keys = groups.get(group) ?? new Map()
        keys.set(site.key, [...(keys.get(site.key) ?? []), { x, site: { ...site, group } }])
        groups.set(group, keys)
      }
    }
    for (const keys of groups.values()) {
      ;[...keys.values()].forEach((holders, i) => {
        const turn = i + opIndex
        const { x, site } = holders[turn % holders.length] as { x: Recorded; site: Site }
        const place = site.places[turn % site.places.length] as Place
        const legal = legalOf(op, x, site, place, view)
        // an answer left unreadable: its body cut short, or a Content-Length the client cannot take
        const outage = OUTAGES.has(op.name) && (op.family !== 'header' || place.header === 'content-length')
        const expect: Expectation = legal ? { breaks: [], legal } : { breaks: brokenWords(op, x, site, place), outage }
        pairs.push({ server: session.server, config: session.config, op, x, site, place, expect })
      })
    }
  })
  return { pairs, skipped }
}

/** Deviations after which the answer cannot be read whole: the kit may report them as an outage of the checks that needed it. */
const OUTAGES = new Set(['body cut short of its Content-Length', 'header another valid-looking value', 'header number as a decimal', 'header duplicated'])

/**
 * Whether a failing check's citation, as the kit prints it for its findings (citedFirst: the
 * words the findings contradict first, then the rest), quotes one of the words: a statement's
 * by quotes(), an RFC section as written (the kit may add a fragment of the RFC's words).
 */
const cites = (run: KitRun, check: string, words: readonly string[]) => {
  const citation = citationOf(check)
  if (citation.kind !== 'spec') return false
  const failures = run.report.checks.find((c) => `${c.endpoint}: ${c.name}` === check)?.failures ?? []
  const { first, also } = citedFirst(check, citation.words, failures)
  const shown = [...first, ...also]
  return words.some((w) => (w.startsWith('RFC ') ? shown.some((q) => q === w || q.startsWith(`${w} `)) : shown.some((q) => quotes(q, w))))
}

const errored = (run: KitRun) => run.report.checks.filter((c) => c.status === 'error').map((c) => `${c.endpoint}: ${c.name}`)

/** How the pair ended, from the deviated run and the unbroken one with the same flags. */
export function classify(pair: Pair, run: KitRun, base: KitRun): Result {
  const fresh = run.failed().filter((check) => !base.failed().includes(check))
  const outage = errored(run).filter((check) => !errored(base).includes(check))
  const what = `exit ${run.exitCode}${fresh.length > 0 ? `, failed: ${fresh.join('; ')}` : ''}${outage.length > 0 ? `, errored: ${outage.slice(0, 3).join('; ')}` : ''}`
  if (pair.expect.legal) {
    const clean = fresh.length === 0 && (run.exitCode === 0 || run.exitCode === base.exitCode)
    return clean ? { pair, outcome: 'legal', why: pair.expect.legal.why } : { pair, outcome: 'unexplained', why: `legal (${pair.expect.legal.why}), but the kit did not pass it: ${what}` }
  }
  const citing = fresh.filter((check) => cites(run, check, pair.expect.breaks))
  if (run.exitCode === 1 && citing.length > 0) return { pair, outcome: 'caught', why: citing[0] as string }
  if (pair.expect.outage && run.exitCode === 3 && outage.length > 0) return { pair, outcome: 'caught', why: `an outage, said so: ${outage[0]}` }
  const broke = pair.expect.breaks.map((w) => (w.length > 70 ? `${w.slice(0, 67)}...` : w)).join(' | ') || '(no words found for the site)'
  return { pair, outcome: 'unexplained', why: fresh.length > 0 ? `caught by checks citing other words (${what}); breaks: ${broke}` : `not caught (${what}); breaks: ${broke}` }
}

/**
 * The sites whose deviation only reading the link they name tells: a listed file's name
 * and link, an application entry's link. The kit reads a share of those links a run, in
 * turn across nights (src/contract/in-turn.ts), so a pair there that one run lets through
 * runs again on the nights after, up to a lap: caught on the night its link comes round.
 */
const IN_TURN_SITE = /^((timesheets|resumes|documents|applications)\[\]|(applicant\.)?attachment)\.(href|filename)$/

/** More nights than the longest lap of a rotation over the boards the engine runs against (180 attachments, 10 a run). */
const NIGHTS = 30

/** A pair's name, as the test prints it. */
export const nameOf = (pair: Pair) => `${pair.server} ${pair.config}: ${pair.op.name} at ${pair.site.key} (${pair.site.group}) of ${pair.x.id}`

/**
 * Runs every pair of a session and ends each. A pair the words hold legal runs together
 * with the other legal pairs of its operator and group (one run for a candidate's free-text
 * members in capitals, not one each): a batch the kit passes passes each of its pairs; one
 * it fails is split in halves, down to the pairs it fails. Every other pair runs alone.
 */
export async function runPairs(session: Session, pairs: readonly Pair[], view: View = viewOf(session)): Promise<Result[]> {
  const results: Result[] = []
  const specOf = (pair: Pair) => {
    const spec = session.specOf.get(pair.x.id)
    if (spec === undefined) throw new Error(`no run asks ${pair.x.id}`)
    return spec
  }
  const deviation = (pair: Pair): Deviation => ({ id: pair.x.id, ...pair.op.apply(pair.x, pair.place, view) })
  const runAll = async (batch: readonly Pair[]): Promise<Result[]> => {
    const spec = specOf(batch[0] as Pair)
    const base = await session.baseline(spec)
    const { kit } = await session.run(spec, batch.map(deviation))
    if (batch.length === 1) return [await laterNights(batch[0] as Pair, classify(batch[0] as Pair, kit, base))]
    const ended = batch.map((pair) => classify(pair, kit, base))
    if (ended.every((r) => r.outcome === 'legal')) return ended
    const half = Math.ceil(batch.length / 2)
    return [...(await runAll(batch.slice(0, half))), ...(await runAll(batch.slice(half)))]
  }
  // a pair one run let through on a site read in turn: the nights after, until its link comes round (or a lap ends)
  const laterNights = async (pair: Pair, first: Result): Promise<Result> => {
    if (first.outcome !== 'unexplained' || pair.expect.legal || !IN_TURN_SITE.test(pair.site.key)) return first
    for (let night = 1; night <= NIGHTS; night++) {
      const base = await session.baseline(specOf(pair), night)
      const { kit } = await session.run(specOf(pair), [deviation(pair)], night)
      const later = classify(pair, kit, base)
      if (later.outcome === 'caught') return { ...later, why: `${later.why} (on night ${night + 1}: its link read in turn)` }
    }
    return first
  }
  const batches = new Map<string, Pair[]>()
  for (const pair of pairs) {
    const key = pair.expect.legal ? `${pair.op.name}\n${pair.site.group}\n${specOf(pair).key}` : `${results.length}\n${batches.size}`
    batches.set(key, [...(batches.get(key) ?? []), pair])
  }
  for (const batch of batches.values()) results.push(...(await runAll(batch)))
  return results
}

/** A legal variant of a request the kit sent, and how the deployment answered it. */
export interface VariantResult {
  server: Server
  config: Config
  variant: Variant
  x: Recorded
  outcome: Exclude<Outcome, 'caught'>
  why: string
}

/** An answer as compared: its status, its Content-Type and its body, the run's own origin left out (each fresh deployment has a port of its own). */
const comparable = (reply: Reply) => `${reply.status} ${reply.headers['content-type'] ?? ''} ${reply.body.toString('utf8').replace(/127\.0\.0\.1:[0-9]+/g, 'HOST')}`

/**
 * Every request of each run of a session sent in each legal variant (requests.ts), one
 * run per variant: each exchange whose request the variant changes must be answered as
 * the request was, the kit's way (its status, type and body); one it does not change is
 * skipped. A variant that changes none of a run's requests costs no run.
 */
export async function runVariants(session: Session, variants: readonly Variant[] = VARIANTS): Promise<{ results: VariantResult[]; skipped: number }> {
  const results: VariantResult[] = []
  let skipped = 0
  for (const spec of session.specs) {
    const own = session.exchanges.filter((x) => spec.config !== 'read' ? session.specOf.get(x.id)?.key === spec.key : true)
    for (const variant of variants) {
      const fits = own.filter((x) => variant.change(x.request) !== undefined)
      skipped += own.length - fits.length
      if (fits.length === 0) continue
      const { stage } = await session.vary(spec, variant.change)
      for (const x of fits) {
        const got = stage.seen.get(x.id)
        const base = { server: session.server, config: session.config, variant, x }
        if (got === undefined || !stage.varied.has(x.id)) results.push({ ...base, outcome: 'unexplained', why: 'the run did not ask it again' })
        else if (comparable(got.reply) === comparable(x.reply)) results.push({ ...base, outcome: 'legal', why: variant.why })
        else results.push({ ...base, outcome: 'unexplained', why: `answered otherwise: HTTP ${got.reply.status} ${got.reply.body.toString('utf8').slice(0, 120)}, not HTTP ${x.reply.status} ${x.reply.body.toString('utf8').slice(0, 120)}` })
      }
    }
  }
  return { results, skipped }
}
