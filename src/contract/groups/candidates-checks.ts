// The candidates group: candidates/list (paging, since, links), candidates/details/{id}
// and the three candidate file downloads, each by the href a File entry gives.
import type { Minimal } from '@tapjs/core'
import { applicationDetail, candidateDetail } from '../../../schemas/index.js'
import { check, endpoint, need } from '../checks.js'
import type { RunContext } from '../context.js'
import { APPLICATIONS, CANDIDATES } from '../lists.js'
import { FILE_KINDS } from '../record-picks.js'
import { succeeded } from '../records.js'
import { availabilityAgrees, sectorsAgree } from './values-checks.js'
import { listChecks } from './lists-checks.js'
import { linksRead } from './record-links.js'
import { recordsRead } from './records-read.js'
import { detailChecks, downloadChecks, heldAsDetail, hrefsPointAt, resolves } from './resources-checks.js'
import { oneFileOneName } from './file-entries-checks.js'
import { applicationsInTurn, filesReadInTurn } from './in-turn-checks.js'
import { matrixListChecks } from './matrix-checks.js'
import { walkChecks } from './walk-checks.js'

export function candidatesGroup(root: Minimal, ctx: RunContext): void {
  const { plan } = ctx
  /** Every candidate the run read: on every page of the list, and in every detail (records-read.ts). */
  const candidatesRead = async () => (await recordsRead(ctx, CANDIDATES)).map((r) => r.record)
  endpoint(root, CANDIDATES.endpoint, (t) => {
    listChecks(t, ctx, CANDIDATES)
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    matrixListChecks(t, ctx, CANDIDATES)
    // every page of each walk of the list, and every pair of pages read one after the other (src/contract/walk.ts)
    walkChecks(t, ctx, CANDIDATES)
    check(t, 'file hrefs point at /candidates/{timesheet,resume,document}/{id}', async (a) => {
      hrefsPointAt(a, ctx, await linksRead(ctx, CANDIDATES, 'file'), 'file hrefs point at their download endpoint')
    })
    check(t, 'application hrefs point at /applications/details/{id}', async (a) => {
      hrefsPointAt(a, ctx, await linksRead(ctx, CANDIDATES, 'application entry'), 'application hrefs point at applications/details')
    })
    check(t, 'available_from_year, _month and _day tell the date available_from gives', async (a) => {
      availabilityAgrees(a, await candidatesRead())
    })
    check(t, 'every sector sector_disciplines names is among the sectors', async (a) => {
      sectorsAgree(a, await candidatesRead())
    })
    check(t, 'an application href resolves', async (a) => {
      const answer = need(await plan.linked('application'))
      resolves(a, answer, 'the application href')
      // the detail it names is read: one Application, held to the table and its links as every record read is
      if (succeeded(answer)) heldAsDetail(a, ctx, { list: APPLICATIONS, endpoint: 'applications/details/{id}', schema: applicationDetail }, answer, 'the application the href names')
    })
  })
  endpoint(root, 'candidates/details/{id}', (t) => {
    detailChecks(t, ctx, { list: CANDIDATES, endpoint: 'candidates/details/{id}', noun: 'candidate', schema: candidateDetail, pick: () => plan.candidateDetail() })
    // after the pages and the details: a file a candidate lists on each of them (and the timesheet list, where read) is one file
    oneFileOneName(t, ctx, 'candidates', ['timesheets'])
    // what only reading a link tells: a share of the applications linked a run, in turn (in-turn.ts)
    applicationsInTurn(t, ctx)
  })
  for (const { kind } of FILE_KINDS) {
    const name = `candidates/${kind}/{id}`
    endpoint(root, name, (t) =>
      // each download of the kind the run read: the plan's pick, and a share of the files listed, in turn (in-turn.ts)
      downloadChecks(t, ctx, { endpoint: name, pick: () => plan.candidateFile(kind), also: () => filesReadInTurn(ctx, 'candidates', new RegExp(`^/candidates/${kind}/[^/]+$`)), contentType: kind === 'timesheet' ? 'octet-stream' : 'observed' }),
    )
  }
}

