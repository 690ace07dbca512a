// The timesheets group: timesheets/list (two-way paging, since, links to the timesheet
// download and to the candidate) and /candidates/timesheets/download/{id}.
import type { Minimal } from '@tapjs/core'
import { candidateDetail } from '../../../schemas/index.js'
import { check, endpoint, need } from '../checks.js'
import type { RunContext } from '../context.js'
import { TIMESHEETS } from '../lists.js'
import { rec, str, succeeded } from '../records.js'
import { listChecks } from './lists-checks.js'
import { downloadChecks, hrefsPointAt, resolves } from './resources-checks.js'
import { matrixListChecks } from './matrix-checks.js'
import { walkChecks } from './walk-checks.js'

export function timesheetsGroup(root: Minimal, ctx: RunContext): void {
  const { plan } = ctx
  const hrefs = async (part: 'attachment' | 'candidate') =>
    (await plan.records(TIMESHEETS)).map((r) => str(rec(r[part]).href)).filter((h): h is string => h !== undefined)
  endpoint(root, TIMESHEETS.endpoint, (t) => {
    listChecks(t, ctx, TIMESHEETS)
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    matrixListChecks(t, ctx, TIMESHEETS)
    // every page of each walk of the list, and every pair of pages read one after the other (src/contract/walk.ts)
    walkChecks(t, ctx, TIMESHEETS)
    check(t, 'attachment hrefs point at /candidates/timesheet/{id}', async (a) => {
      const records = await plan.records(TIMESHEETS)
      hrefsPointAt(a, ctx, records.map((r) => ({ href: rec(r.attachment).href, path: /^\/candidates\/timesheet\/[1-9][0-9]*$/, what: `timesheet ${String(r.id)}'s attachment href` })), 'attachment hrefs point at candidates/timesheet')
      const sameId = records.filter((r) => str(rec(r.attachment).href)?.endsWith(`/candidates/timesheet/${String(r.id)}`)).length
      ctx.observations.add({ topic: 'links', endpoint: TIMESHEETS.endpoint, summary: `${sameId} of ${records.length} attachment hrefs use the timesheet's own id` })
    })
    check(t, 'candidate hrefs point at /candidates/details/{id} of the candidate', async (a) => {
      const records = await plan.records(TIMESHEETS)
      hrefsPointAt(a, ctx, records.map((r) => ({ href: rec(r.candidate).href, path: `/candidates/details/${String(rec(r.candidate).id)}`, what: `timesheet ${String(r.id)}'s candidate href` })), 'candidate hrefs point at the candidate')
    })
    check(t, 'an attachment href resolves', async (a) => {
      resolves(a, need(await plan.resolve(await hrefs('attachment'), 'attachment href')), 'the attachment href')
    })
    check(t, 'a candidate href resolves', async (a) => {
      const answer = need(await plan.resolve(await hrefs('candidate'), 'candidate href'))
      resolves(a, answer, 'the candidate href')
      // the detail it names is read: it is a Candidate, held to the table as every answer read is
      if (succeeded(answer)) ctx.fits(a, candidateDetail, answer, 'candidates/details/{id}', 'the candidate the href names')
    })
  })
  endpoint(root, 'candidates/timesheets/download/{id}', (t) =>
    downloadChecks(t, ctx, { endpoint: 'candidates/timesheets/download/{id}', pick: () => plan.timesheetDownload(), contentType: 'octet-stream' }),
  )
}
