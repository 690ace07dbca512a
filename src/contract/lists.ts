// The four paged lists of the API and what tells their records apart: the kit checks
// paging, `since` and order the same way on each, reading these definitions.
import { applicationList, candidateList, marketingList, timesheetList } from '../../schemas/index.js'
import { int, str, type Rec } from './records.js'
import type { Group } from './settings.js'

export type SinceField = 'updated_at' | 'created_at'

export interface ListDef {
  /** The endpoint as checks are grouped under. */
  readonly endpoint: string
  readonly group: Group
  readonly path: string
  readonly schema: object
  /** What one record is, in messages. */
  readonly noun: string
  /** What makes two records the same one: the id, or the whole record where there is none. */
  identity(record: Rec): string
  /** The key the list is ordered by, newest first: which records two answers must share. */
  orderKey(record: Rec): number | string | undefined
  /** The fields `since` may compare (docs/contract.md): any one that explains the answer is accepted. */
  readonly sinceFields: readonly SinceField[]
  /** The spec says the list is newest first (highest id first); elsewhere the order is only observed. */
  readonly newestFirst: boolean
  /** Whether the list carries prev_page. */
  readonly twoWay: boolean
}

/** A list of records with ids, at /<group>/list. */
const listOfIds = (
  group: 'candidates' | 'applications' | 'timesheets',
  schema: object,
  noun: string,
  rules: Pick<ListDef, 'sinceFields' | 'newestFirst' | 'twoWay'>,
): ListDef => ({
  endpoint: `${group}/list`,
  group,
  path: `/${group}/list`,
  schema,
  noun,
  identity: (record: Rec) => `id ${String(record.id)}`,
  orderKey: (record: Rec) => int(record.id),
  ...rules,
})

export const CANDIDATES = listOfIds('candidates', candidateList, 'candidate', { sinceFields: ['updated_at', 'created_at'], newestFirst: false, twoWay: false })
export const APPLICATIONS = listOfIds('applications', applicationList, 'application', { sinceFields: ['updated_at', 'created_at'], newestFirst: true, twoWay: false })
export const TIMESHEETS = listOfIds('timesheets', timesheetList, 'timesheet', { sinceFields: ['created_at'], newestFirst: false, twoWay: true })

export const MARKETING: ListDef = {
  endpoint: 'marketing/list',
  group: 'marketing',
  path: '/marketing/list',
  schema: marketingList,
  noun: 'marketing record',
  // no id: a record is what it says, and the list runs by time
  identity: (record: Rec) => JSON.stringify(record),
  orderKey: (record: Rec) => str(record.created_at),
  sinceFields: ['created_at'],
  newestFirst: false,
  twoWay: false,
}

export const LISTS: readonly ListDef[] = [CANDIDATES, APPLICATIONS, TIMESHEETS, MARKETING]
