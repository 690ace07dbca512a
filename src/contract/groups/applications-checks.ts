// The applications group: applications/list (newest first, paging, since, the vacancy
// filter, links), applications/details/{id} by a listed href, and the attachment.
import type { Minimal } from '@tapjs/core'
import { applicationDetail } from '../../../schemas/index.js'
import { check, endpoint, Skip } from '../checks.js'
import type { RunContext } from '../context.js'
import { APPLICATIONS } from '../lists.js'
import { pageOrSkip } from '../plan-basis.js'
import { describeLink, int, rec } from '../records.js'
import { linkProblems, listChecks } from './lists-checks.js'
import { salaryDisplayed } from './values-checks.js'
import { linksRead } from './record-links.js'
import { recordsRead } from './records-read.js'
import { detailChecks, downloadChecks, hrefsPointAt } from './resources-checks.js'
import { oneFileOneName } from './file-entries-checks.js'
import { filesReadInTurn } from './in-turn-checks.js'
import { matrixListChecks } from './matrix-checks.js'
import { walkChecks } from './walk-checks.js'

export function applicationsGroup(root: Minimal, ctx: RunContext): void {
  const { plan, client } = ctx
  endpoint(root, APPLICATIONS.endpoint, (t) => {
    listChecks(t, ctx, APPLICATIONS)
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    matrixListChecks(t, ctx, APPLICATIONS)
    // every page of each walk of the list, and every pair of pages read one after the other (src/contract/walk.ts)
    walkChecks(t, ctx, APPLICATIONS)
    check(t, 'the vacancy filter answers only applications for that vacancy', async (a) => {
      const vacancy = await plan.vacancyId()
      const page = pageOrSkip(await plan.vacancy(), 'the answer for one vacancy')
      const others = page.data.filter((r) => int(rec(r.vacancy).id) !== vacancy)
      a.ok(page.data.length > 0, `it holds ${page.data.length} applications`, `it is empty, though applications for vacancy ${String(vacancy)} were listed`)
      a.ok(others.length === 0, `every one is for vacancy ${String(vacancy)}`, `${others.length} are for other vacancies, e.g. application ${String(others[0]?.id)}`)
      // a filter must be seen to filter: where the list holds other vacancies, fewer are answered
      const first = await plan.firstPage(APPLICATIONS)
      const elsewhere = (await plan.records(APPLICATIONS)).filter((r) => int(rec(r.vacancy).id) !== vacancy).length
      const [total, all] = [int(page.total), int(first.total)]
      if (elsewhere > 0) {
        a.ok(total !== undefined && all !== undefined && total <= all - elsewhere, `total ${String(total)} leaves out at least the ${elsewhere} applications fetched for other vacancies`,
          `total for vacancy ${String(vacancy)} is ${JSON.stringify(page.total)}, without the filter ${JSON.stringify(first.total)}, though ${elsewhere} applications fetched are for other vacancies: the filter is not applied`)
      }
    })
    check(t, 'next_page of the vacancy answer carries vacancy and page', async (a) => {
      const vacancy = String(await plan.vacancyId())
      const page = pageOrSkip(await plan.vacancy(), 'the answer for one vacancy')
      const total = int(page.total)
      if (total !== undefined && total <= page.data.length) {
        ctx.observations.add({ topic: 'last-page', endpoint: APPLICATIONS.endpoint, summary: `the last page's next_page, for one vacancy: ${describeLink(page, 'next_page')}` })
        throw new Skip(`one page holds vacancy ${vacancy}'s ${total} applications; the last page's next_page is an observation`)
      }
      a.none(linkProblems(page.nextPage, client, { path: APPLICATIONS.path, page: 2, carries: { vacancy } }, 'next_page'), `next_page carries vacancy=${vacancy} and page=2`)
    })
    check(t, 'hrefs point at /applications/details/{id} of the application', async (a) => {
      hrefsPointAt(a, ctx, await linksRead(ctx, APPLICATIONS, 'own'), 'hrefs point at their own detail')
    })
    check(t, "a vacancy's salary shows a currency symbol and a unit", async (a) => {
      salaryDisplayed(a, (await recordsRead(ctx, APPLICATIONS)).map((r) => r.record))
    })
    check(t, 'attachment hrefs point at /applications/attachment/{id}', async (a) => {
      hrefsPointAt(a, ctx, await linksRead(ctx, APPLICATIONS, 'attachment'), 'attachment hrefs point at applications/attachment')
    })
  })
  endpoint(root, 'applications/details/{id}', (t) => {
    detailChecks(t, ctx, { list: APPLICATIONS, endpoint: 'applications/details/{id}', noun: 'application', schema: applicationDetail, pick: () => plan.applicationDetail() })
    // after the pages and the details: an attachment listed on each of them is one file
    oneFileOneName(t, ctx, 'applications')
  })
  endpoint(root, 'applications/attachment/{id}', (t) =>
    downloadChecks(t, ctx, { endpoint: 'applications/attachment/{id}', pick: () => plan.attachment(), also: () => filesReadInTurn(ctx, 'applications', /^\/applications\/attachment\/[^/]+$/), contentType: 'application/octet-stream' }),
  )
}
