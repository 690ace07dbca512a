// The request plan: which full requests answer which checks. Every request a read-only
// run makes is chosen here, each at most once, and chosen so that checks share answers:
// the detail of a candidate is the one a timesheet links to, a download is the one a
// list links to, the second page is the URL the first page's next_page gave. Checks ask
// the plan; the plan asks the client, which makes each request once. prefetch() asks
// for everything the selected groups need at once, so the requests overlap.
//
// The plan's families, each built on the one before: plan-basis.ts (the client, each
// request once, the first pages and records), filter-requests.ts (since, vacancy and their
// combinations), record-picks.ts (which detail and download a run asks), later-pages.ts
// (the request matrix's pages after the first, and the walks), spare-requests.ts (full
// requests spent on purpose: refusals, an unknown id, the 429's fresh ones). This file
// asks them all at once (prefetch).
import { AUTH_FORMS, type AuthForm } from './request-credentials.js'
import { APPLICATIONS, CANDIDATES, combinationsOf, LISTS } from './lists.js'
import { FILE_KINDS } from './record-picks.js'
import { GET_CONTENT_TYPES, ID_PATHS, SpareRequests } from './spare-requests.js'
import { formsOf } from './walk.js'

/** Every request a run makes, chosen by the families it extends; prefetch() asks for them all at once. */
export class Plan extends SpareRequests {
  /** Asks for every read the selected groups need, at once. Failures show up in the checks. */
  async prefetch(): Promise<void> {
    const lists = LISTS.filter((list) => this.selected(list.group))
    const reads: Array<Promise<unknown>> = []
    for (const list of lists) reads.push(this.first(list))
    if (this.selected('metrics')) reads.push(this.metrics())
    await Promise.all(reads)
    for (const list of lists) reads.push(this.next(list), this.since(list), this.malformedSince(list), this.empty(list))
    if (this.selected('candidates')) {
      reads.push(this.candidateDetail(), ...FILE_KINDS.map(({ kind }) => this.candidateFile(kind)))
    }
    if (this.selected('applications')) reads.push(this.applicationDetail(), this.attachment(), this.vacancy())
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    for (const list of lists) reads.push(this.sinceNext(list), ...formsOf(list).map((filters) => this.walk(list, filters)), this.lastPage(list), this.sinceLast(list), this.pastLast(list))
    if (this.selected('applications')) reads.push(this.vacancyNext(), this.vacancyLast(), this.lastDetail(APPLICATIONS))
    for (const list of lists) for (const filters of combinationsOf(list)) reads.push(this.combinedNext(list, filters))
    if (this.selected('candidates')) reads.push(this.lastDetail(CANDIDATES))
    if (this.selected('timesheets')) reads.push(this.timesheetDownload())
    if (this.selected('auth')) reads.push(this.withoutCredentials(), this.wrongCredentials(), this.wrongPassword(), ...(Object.keys(AUTH_FORMS) as AuthForm[]).map((form) => this.authForm(form)))
    // a GET with a Content-Type, asked while the walks read the list: on a live board what arrives between it and the page it is compared with is what the walk saw arrive
    if (this.selected('marketing')) reads.push(...GET_CONTENT_TYPES.map(({ contentType, use }) => this.withContentType(contentType, use)))
    for (const group of this.groups) for (const path of ID_PATHS[group] ?? []) reads.push(this.unknown(path))
    if (this.profiling) reads.push(this.outOfRange())
    await Promise.all(reads)
    // the links the records give, followed once every page and detail above is asked (resolve prefers one already asked)
    const links: Array<Promise<unknown>> = []
    if (this.selected('candidates')) links.push(this.linked('application'))
    if (this.selected('timesheets')) links.push(this.linked('attachment'), this.linked('candidate'))
    await Promise.all(links)
    // last: they take what no other check asks for, which is known only now
    if (this.selected('auth')) await Promise.all([this.detailWithoutCredentials(), this.downloadWithoutCredentials()])
  }
}
