// The four paged lists of the API and what tells their records apart: the kit checks
// paging, `since` and order the same way on each, reading these definitions.
import { applicationList, candidateList, marketingList, timesheetList } from '../../schemas/index.js'
import { applicationsQuery, pagedQuery } from '../../schemas/query.js'
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
  /** The query parameters it takes: the schema its route declares (schemas/query.ts), as the OpenAPI document gives them. */
  readonly query: { readonly properties: Readonly<Record<string, unknown>> }
}

/** The parameters a list takes that narrow it (all but page), in the schema's order. */
export const filtersOf = (list: Pick<ListDef, 'query'>): string[] => Object.keys(list.query.properties).filter((name) => name !== 'page')

/**
 * The sets of two or more filters of a list asked together (each with page too, by the
 * answer's next_page): every combination its query schema allows. A single filter, and
 * page alone, are the request matrix's filter rows.
 */
export function combinationsOf(list: Pick<ListDef, 'query'>): string[][] {
  const filters = filtersOf(list)
  const sets: string[][] = []
  for (let mask = 1; mask < 1 << filters.length; mask++) {
    const set = filters.filter((_, i) => mask & (1 << i))
    if (set.length >= 2) sets.push(set)
  }
  return sets
}

/** A list of records with ids, at /<group>/list. */
const listOfIds = (
  group: 'candidates' | 'applications' | 'timesheets',
  schema: object,
  noun: string,
  rules: Pick<ListDef, 'sinceFields' | 'newestFirst' | 'twoWay' | 'query'>,
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

export const CANDIDATES = listOfIds('candidates', candidateList, 'candidate', { sinceFields: ['updated_at', 'created_at'], newestFirst: false, twoWay: false, query: pagedQuery })
export const APPLICATIONS = listOfIds('applications', applicationList, 'application', { sinceFields: ['updated_at', 'created_at'], newestFirst: true, twoWay: false, query: applicationsQuery })
export const TIMESHEETS = listOfIds('timesheets', timesheetList, 'timesheet', { sinceFields: ['created_at'], newestFirst: false, twoWay: true, query: pagedQuery })

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
  query: pagedQuery,
}

export const LISTS: readonly ListDef[] = [CANDIDATES, APPLICATIONS, TIMESHEETS, MARKETING]
