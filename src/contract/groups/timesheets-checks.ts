// The timesheets group: timesheets/list (two-way paging, since, links to the timesheet
// download and to the candidate) and /candidates/timesheets/download/{id}.
import type { Minimal } from '@tapjs/core'
import { candidateDetail } from '../../../schemas/index.js'
import { check, endpoint, need } from '../checks.js'
import type { RunContext } from '../context.js'
import { CANDIDATES, TIMESHEETS } from '../lists.js'
import { oneFileOneName } from './file-entries-checks.js'
import { filesReadInTurn } from './in-turn-checks.js'
import { rec, str, succeeded } from '../records.js'
import { listChecks } from './lists-checks.js'
import { linksRead } from './record-links.js'
import { recordsRead } from './records-read.js'
import { downloadChecks, heldAsDetail, hrefsPointAt, resolves } from './resources-checks.js'
import { matrixListChecks } from './matrix-checks.js'
import { walkChecks } from './walk-checks.js'

export function timesheetsGroup(root: Minimal, ctx: RunContext): void {
  const { plan } = ctx
  endpoint(root, TIMESHEETS.endpoint, (t) => {
    listChecks(t, ctx, TIMESHEETS)
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    matrixListChecks(t, ctx, TIMESHEETS)
    // every page of each walk of the list, and every pair of pages read one after the other (src/contract/walk.ts)
    walkChecks(t, ctx, TIMESHEETS)
    check(t, 'attachment hrefs point at /candidates/timesheet/{id}', async (a) => {
      const read = await recordsRead(ctx, TIMESHEETS)
      hrefsPointAt(a, ctx, await linksRead(ctx, TIMESHEETS, 'attachment'), 'attachment hrefs point at candidates/timesheet')
      const sameId = read.filter(({ record: r }) => str(rec(r.attachment).href)?.endsWith(`/candidates/timesheet/${String(r.id)}`)).length
      ctx.observations.add({ topic: 'links', endpoint: TIMESHEETS.endpoint, summary: `${sameId} of ${read.length} attachment hrefs use the timesheet's own id` })
    })
    check(t, 'candidate hrefs point at /candidates/details/{id} of the candidate', async (a) => {
      hrefsPointAt(a, ctx, await linksRead(ctx, TIMESHEETS, 'candidate'), 'candidate hrefs point at the candidate')
    })
    check(t, 'an attachment href resolves', async (a) => {
      resolves(a, need(await plan.linked('attachment')), 'the attachment href')
    })
    check(t, 'a candidate href resolves', async (a) => {
      const answer = need(await plan.linked('candidate'))
      resolves(a, answer, 'the candidate href')
      // the detail it names is read: one Candidate, held to the table and its links as every record read is
      if (succeeded(answer)) heldAsDetail(a, ctx, { list: CANDIDATES, endpoint: 'candidates/details/{id}', schema: candidateDetail }, answer, 'the candidate the href names')
    })
    // a timesheet is one file on the timesheet list and among its candidate's timesheets (the candidates' answers the run read)
    oneFileOneName(t, ctx, 'timesheets', ['candidates'])
  })
  endpoint(root, 'candidates/timesheets/download/{id}', (t) =>
    // with the timesheet downloads the list's attachments link, a share a run in turn (both paths are timesheet downloads)
    downloadChecks(t, ctx, { endpoint: 'candidates/timesheets/download/{id}', pick: () => plan.timesheetDownload(), also: () => filesReadInTurn(ctx, 'timesheets', /^\/candidates\/timesheet\/[^/]+$/), contentType: 'octet-stream' }),
  )
}
