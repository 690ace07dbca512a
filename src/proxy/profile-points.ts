// --profile FILE: a deployment profile's points held against the answers that pass, where
// one answer shows a point (docs/profile.md): the page size of a page that names a next
// one, what next_page holds on a last page, and the HTTP status line of a JSON error whose
// body says 412. Where the spec is silent the profile pins the deployment's own earlier
// choice: a change is a violation of the profile, never of the spec, and says so.
import type { ProfilePointName } from '../../schemas/profile.js'
import { PROFILE } from '../contract/rules.js'
import { type LoadedProfile, profileValues } from '../profile/profile.js'

/** A point an answer does not keep: the check (`profile: pageSize is as the profile records it`) and what differs. */
export interface PointProblem {
  readonly point: ProfilePointName
  readonly check: string
  readonly message: string
}

/** The answer as far as the points read it. */
export interface PointAnswer {
  readonly method: string
  /** Its path under the API root (`/candidates/list`). */
  readonly path: string
  readonly status: number
  readonly body: unknown
}

const LIST = /^\/(candidates|applications|timesheets|marketing)\/list$/

/** What lastPageNextPage calls what a last page's next_page holds. */
function lastPageForm(body: Record<string, unknown>): string | undefined {
  if (!('next_page' in body)) return 'omit'
  const value = body.next_page
  return value === false ? 'false' : value === null ? 'null' : value === '' ? 'empty' : undefined
}

const named = (point: ProfilePointName) => PROFILE.replace('*', point)

/** The points of a profile one answer can show; an empty list when it pins none of them. */
export function profilePoints(profile: LoadedProfile): (answer: PointAnswer) => PointProblem[] {
  const values = profileValues(profile)
  const pageSize = typeof values.pageSize === 'number' ? values.pageSize : undefined
  const lastPage = typeof values.lastPageNextPage === 'string' ? values.lastPageNextPage : undefined
  const precondition = typeof values.preconditionHttpStatus === 'number' ? values.preconditionHttpStatus : undefined
  return (answer) => {
    const problems: PointProblem[] = []
    const body = answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body) ? (answer.body as Record<string, unknown>) : undefined
    if (body === undefined) return problems
    if (precondition !== undefined && body.status === 412 && answer.status !== precondition) {
      problems.push({ point: 'preconditionHttpStatus', check: named('preconditionHttpStatus'), message: `a body saying status 412 came as HTTP ${answer.status}; the profile records HTTP ${precondition}` })
    }
    if (answer.method !== 'GET' || answer.status !== 200 || !LIST.test(answer.path) || !Array.isArray(body.data)) return problems
    const next = typeof body.next_page === 'string' && body.next_page !== ''
    if (next && pageSize !== undefined && body.data.length !== pageSize) {
      problems.push({ point: 'pageSize', check: named('pageSize'), message: `a page that names a next one holds ${body.data.length} records; the profile records a page size of ${pageSize}` })
    }
    const form = next ? undefined : lastPageForm(body)
    if (!next && lastPage !== undefined && form !== lastPage) {
      problems.push({ point: 'lastPageNextPage', check: named('lastPageNextPage'), message: `the last page's next_page is ${form === undefined ? JSON.stringify(body.next_page) : form}; the profile records ${lastPage}` })
    }
    return problems
  }
}
