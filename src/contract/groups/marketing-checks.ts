// The marketing group: marketing/list, paged and filtered by since like the others.
import type { Minimal } from '@tapjs/core'
import { endpoint } from '../checks.js'
import type { RunContext } from '../context.js'
import { MARKETING } from '../lists.js'
import { contentTypeChecks } from './content-type-checks.js'
import { listChecks } from './lists-checks.js'
import { matrixListChecks } from './matrix-checks.js'
import { walkChecks } from './walk-checks.js'

export function marketingGroup(root: Minimal, ctx: RunContext): void {
  endpoint(root, MARKETING.endpoint, (t) => {
    listChecks(t, ctx, MARKETING)
    // the request matrix's shapes past the first page (src/contract/matrix.ts)
    matrixListChecks(t, ctx, MARKETING)
    // every page of each walk of the list, and every pair of pages read one after the other (src/contract/walk.ts)
    walkChecks(t, ctx, MARKETING)
    // "A content-type header on GET requests is ignored": asked of marketing, whose spare pages it may spend
    contentTypeChecks(t, ctx, MARKETING)
  })
}
