// The candidates group: candidates/list (paging, since, links), candidates/details/{id}
// and the three candidate file downloads, each by the href a File entry gives.
import type { Minimal } from '@tapjs/core'
import { applicationDetail, candidateDetail } from '../../../schemas/index.js'
import { check, endpoint, need } from '../checks.js'
import type { RunContext } from '../context.js'
import { CANDIDATES } from '../lists.js'
import { FILE_KINDS } from '../record-picks.js'
import { rec, recs, str, succeeded } from '../records.js'
import { availabilityAgrees, sectorsAgree } from './values-checks.js'
import { listChecks } from './lists-checks.js'
import { detailChecks, downloadChecks, hrefsPointAt, resolves } from './resources-checks.js'
import { matrixListChecks } from './matrix-checks.js'
import { walkChecks } from './walk-checks.js'

export function candidatesGroup(root: Minimal, ctx: RunContext): void {
  const { plan } = ctx
  /** The candidates listed, and the one whose detail was fetched. */
  const candidatesFetched = async () => {
    const detail = (await plan.candidateDetail()).got
    const held = detail.kind === 'answer' ? recs(rec(detail.json).data) : []
    return [...(await plan.records(CANDIDATES)), ...held]
  }
  endpoint(root, CANDIDATES.endpoint, (t) => {
    listChecks(t, ctx, CANDIDATES)
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    matrixListChecks(t, ctx, CANDIDATES)
    // every page of each walk of the list, and every pair of pages read one after the other (src/contract/walk.ts)
    walkChecks(t, ctx, CANDIDATES)
    check(t, 'file hrefs point at /candidates/{timesheet,resume,document}/{id}', async (a) => {
      const candidates = await plan.records(CANDIDATES)
      const hrefs = candidates.flatMap((c) =>
        FILE_KINDS.flatMap(({ list, kind }) =>
          recs(c[list]).map((file) => ({ href: file.href, path: new RegExp(`^/candidates/${kind}/[1-9][0-9]*$`), what: `candidate ${String(c.id)}'s ${list} href` })),
        ),
      )
      hrefsPointAt(a, ctx, hrefs, 'file hrefs point at their download endpoint')
    })
    check(t, 'application hrefs point at /applications/details/{id}', async (a) => {
      const candidates = await plan.records(CANDIDATES)
      const hrefs = candidates.flatMap((c) =>
        recs(c.applications).map((entry) => ({ href: entry.href, path: /^\/applications\/details\/[1-9][0-9]*$/, what: `candidate ${String(c.id)}'s application href` })),
      )
      hrefsPointAt(a, ctx, hrefs, 'application hrefs point at applications/details')
    })
    check(t, 'available_from_year, _month and _day tell the date available_from gives', async (a) => {
      availabilityAgrees(a, await candidatesFetched())
    })
    check(t, 'every sector sector_disciplines names is among the sectors', async (a) => {
      sectorsAgree(a, await candidatesFetched())
    })
    check(t, 'an application href resolves', async (a) => {
      const hrefs = (await plan.records(CANDIDATES)).flatMap((c) => recs(c.applications).map((entry) => str(entry.href))).filter((h): h is string => h !== undefined)
      const answer = need(await plan.resolve(hrefs, 'application href'))
      resolves(a, answer, 'the application href')
      // the detail it names is read: it is an Application, held to the table as every answer read is
      if (succeeded(answer)) ctx.fits(a, applicationDetail, answer, 'applications/details/{id}', 'the application the href names')
    })
  })
  endpoint(root, 'candidates/details/{id}', (t) =>
    detailChecks(t, ctx, { list: CANDIDATES, endpoint: 'candidates/details/{id}', noun: 'candidate', schema: candidateDetail, pick: () => plan.candidateDetail() }),
  )
  for (const { kind } of FILE_KINDS) {
    const name = `candidates/${kind}/{id}`
    endpoint(root, name, (t) =>
      downloadChecks(t, ctx, { endpoint: name, pick: () => plan.candidateFile(kind), contentType: kind === 'timesheet' ? 'octet-stream' : 'observed' }),
    )
  }
}

