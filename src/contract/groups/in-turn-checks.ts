// What only reading a link tells (src/contract/in-turn.ts): each file a list's records
// name downloads as its listing says — the download checks (resources-checks.ts) hold
// each download read in turn as they hold the one the plan picks: its headers, the
// original file name ("`Content-Disposition: attachment` with `filename` set to the
// original file name"), its size — and each application a candidate's entry links is an
// application of the entry's job. Every link the run read anyway is held so at no cost;
// the others a share a run, in turn across runs (the ledger's rotation), so that a link
// pointing at another file, or a name in another case, is caught within a lap of nights
// rather than only when it happens to be the one file of its kind the run downloads.
import type { Minimal } from '@tapjs/core'
import { check, fewProblems, Skip, where, type Asserter } from '../checks.js'
import type { RunContext } from '../context.js'
import type { InTurnName } from '../in-turn.js'
import { APPLICATIONS, CANDIDATES } from '../lists.js'
import type { Expected } from '../record-picks.js'
import { int, rec, recs, str, succeeded } from '../records.js'
import type { Answer } from '../request-outcomes.js'
import { bytesOf, type FileSource, listedFiles } from './file-entries-checks.js'
import { recordsRead } from './records-read.js'

/** The check's name (rules.ts cites it). */
export const APPLICATIONS_IN_TURN = "each application entry links an application of the entry's job (a share a run, in turn)"

const ROTATION: Record<FileSource, InTurnName> = { candidates: 'candidate files', timesheets: 'timesheet attachments', applications: 'application attachments' }

/**
 * The downloads of the files `source` lists that the run read in turn (and those it asked
 * anyway), whose path is `path`, each with what its listing says: the download checks
 * (resources-checks.ts downloadChecks, `also`) hold each as they hold the one the plan picks.
 */
export async function filesReadInTurn(ctx: RunContext, source: FileSource, path: RegExp): Promise<Array<{ answer: Answer; expected: Expected }>> {
  const listed = await listedFiles(ctx, [source])
  if (listed.size === 0) return []
  const { taken } = await ctx.plan.inTurn(ROTATION[source], [...listed.keys()])
  return taken.flatMap(({ url, got }) => {
    const listing = listed.get(url)?.[0]
    if (got.kind !== 'answer' || listing === undefined || !path.test(ctx.client.apiPath(url) ?? '')) return []
    return [{ answer: got, expected: { filename: str(listing.filename), filesize: bytesOf(listing.filesize), source: listing.where } }]
  })
}

/** The check that each application a candidate's entry links, of those read this run (the applications list's pages and details, and in turn), is one of the entry's job. */
export function applicationsInTurn(t: Minimal, ctx: RunContext): void {
  check(t, APPLICATIONS_IN_TURN, async (a: Asserter) => {
    const base = ctx.client.api('/')
    const entries = (await recordsRead(ctx, CANDIDATES)).flatMap(({ record, in: answer }) =>
      recs(record.applications).flatMap((entry) => {
        const href = str(entry.href)
        return href !== undefined && URL.canParse(href, base) ? [{ url: new URL(href, base).href, job: int(rec(entry.job).id), what: `candidate ${String(record.id)}'s application entry on ${answer}` }] : []
      }),
    )
    if (entries.length === 0) throw new Skip('no candidate read lists an application')
    // the applications the run read of their own list, by their href and their detail's URL: compared at no request
    const known = new Map<string, unknown>()
    for (const { record } of await recordsRead(ctx, APPLICATIONS)) {
      const href = str(record.href)
      if (href !== undefined && URL.canParse(href, base)) known.set(new URL(href, base).href, record.vacancy)
      if (int(record.id) !== undefined) known.set(ctx.client.api(`/applications/details/${String(record.id)}`), record.vacancy)
    }
    const unknown = entries.filter((e) => !known.has(e.url)).map((e) => e.url)
    const { taken, listed } = unknown.length === 0 ? { taken: [], listed: 0 } : await ctx.plan.inTurn('application entries', unknown)
    const answers = taken.flatMap(({ got }) => (got.kind === 'answer' ? [got] : []))
    const problems: string[] = []
    for (const answer of answers) {
      if (!succeeded(answer)) problems.push(`${where(answer.url)}, linked by ${entries.find((e) => e.url === answer.url)?.what}, answered HTTP ${answer.status}, not an application (2xx)`)
      else known.set(answer.url, recs(rec(answer.json).data)[0]?.vacancy)
    }
    const held = entries.filter((e) => known.has(e.url))
    if (held.length === 0) throw new Skip(`none of the ${unknown.length} applications linked was answered this run`, 'unavailable')
    for (const entry of held) {
      const vacancy = int(rec(known.get(entry.url)).id)
      if (entry.job !== undefined && vacancy !== undefined && vacancy !== entry.job) problems.push(`${entry.what} is for job ${entry.job}, but its href ${where(entry.url)} names an application for vacancy ${vacancy}`)
    }
    a.none(fewProblems(problems), `${held.length} of ${entries.length} application entries read link an application of their job (${answers.length} of ${listed} others followed this run, in turn)`)
  })
}
