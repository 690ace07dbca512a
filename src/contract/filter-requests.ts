// The request plan's filtered requests (plan.ts): each list asked with since at a
// boundary the fetched records give, with a since after every record (an answer with no
// records), with a since that is no time; applications for the vacancy most of them are
// for; and a list asked with a combination of its filters at once. The walks start from
// these (walker.ts WalkStarts).
import { isTimestamp } from '../../schemas/formats.js'
import { formatMinute } from '../core/time.js'
import type { Got } from './checks.js'
import { APPLICATIONS, type ListDef } from './lists.js'
import { PlanBasis } from './plan-basis.js'
import { int, pageOf, rec, str, type Rec } from './records.js'

/** How far after the newest time seen the empty answer's since lies. */
const DAY_MS = 24 * 60 * 60 * 1000

/** A value of `since` that no reading of the spec takes for a time. */
export const MALFORMED_SINCE = 'not-a-time'

export class FilterRequests extends PlanBasis {
  /**
   * A `since` at a boundary: the minute of a record R whose next older record P (by the
   * first field the list may filter on) is as close before it as the fetched records
   * allow, in an earlier minute, R taken from the older half so that the answer is likely
   * to have a next page to check too. A service off by a minute leaves R out; one off by
   * minutes the other way, or comparing dates only, keeps P: both fail.
   */
  sinceValue(list: ListDef): Promise<string | undefined> {
    return this.once(`since-value ${list.path}`, async () => {
      const field = list.sinceFields[0] as string
      const times = (await this.records(list))
        .map((record) => str(record[field]))
        .filter((value): value is string => value !== undefined && isTimestamp(value))
        .sort()
        .reverse()
      const minutes = [...new Set(times.map((time) => time.slice(0, 16)))]
      if (minutes.length < 2) return minutes[0]
      let best: { at: string; gap: number } | undefined
      for (let i = Math.floor(minutes.length / 2); i < minutes.length - 1; i++) {
        const [at, before] = [minutes[i] as string, minutes[i + 1] as string]
        const gap = Date.parse(`${at.replace(' ', 'T')}Z`) - Date.parse(`${before.replace(' ', 'T')}Z`)
        if (!best || gap < best.gap) best = { at, gap }
      }
      return best?.at ?? minutes[Math.floor((minutes.length * 3) / 4)]
    })
  }

  since(list: ListDef): Promise<Got> {
    return this.once(`since ${list.path}`, async () => {
      const since = await this.sinceValue(list)
      if (since === undefined) return await this.notMade(`no record of ${list.endpoint} has a valid ${list.sinceFields[0]} to take since from`, list)
      return this.client.get(this.client.api(list.path, { since }))
    })
  }

  /**
   * A `since` after every record the board holds, for an answer with no records at all:
   * a day after the newest time the run saw, of the records fetched and of the first
   * page's Date header (the deployment's own clock: the pages not read, and records
   * arriving during the run, are older than that). A day covers a board that writes its
   * times in another zone than GMT.
   */
  emptySince(list: ListDef): Promise<string | undefined> {
    return this.once(`empty-since ${list.path}`, async () => {
      const first = await this.first(list)
      const date = first.kind === 'answer' ? Date.parse(first.headers.date ?? '') : Number.NaN
      const times = (await this.records(list))
        .flatMap((record) => [...list.sinceFields, 'created_at'].map((field) => str(record[field])))
        .filter((value): value is string => value !== undefined && isTimestamp(value))
        .map((value) => Date.parse(`${value.replace(' ', 'T')}Z`))
      const newest = Math.max(...times, ...(Number.isNaN(date) ? [] : [date]))
      return Number.isFinite(newest) ? formatMinute(newest + DAY_MS) : undefined
    })
  }

  /** The list asked with a since after its newest record: an answer with no records at all (issue 27). */
  empty(list: ListDef): Promise<Got> {
    return this.once(`empty ${list.path}`, async () => {
      const since = await this.emptySince(list)
      if (since === undefined) return await this.notMade(`neither a record of ${list.endpoint} nor the first page's Date header gives a time to ask after`, list)
      return this.client.get(this.client.api(list.path, { since }))
    })
  }

  malformedSince(list: ListDef): Promise<Got> {
    return this.client.get(this.client.api(list.path, { since: MALFORMED_SINCE }))
  }

  /** The vacancy most applications fetched are for: the most records to check the filter on. */
  vacancyId(): Promise<number | undefined> {
    return this.once('vacancy-id', async () => {
      const counts = new Map<number, number>()
      for (const record of await this.records(APPLICATIONS)) {
        const vacancy = int(rec(record.vacancy).id)
        if (vacancy !== undefined) counts.set(vacancy, (counts.get(vacancy) ?? 0) + 1)
      }
      return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
    })
  }

  vacancy(): Promise<Got> {
    return this.once('vacancy', async () => {
      const vacancy = await this.vacancyId()
      if (vacancy === undefined) return await this.notMade('no application fetched names a vacancy id', APPLICATIONS)
      return this.client.get(this.client.api(APPLICATIONS.path, { vacancy }))
    })
  }

  /**
   * The query of a combination of filters (lists.ts combinationsOf): vacancy the one most
   * applications fetched are for; since the middle minute of the records the other filters
   * give (the vacancy's first page), by the latest of the fields since may compare, so that
   * records on both sides of it come: a deployment that lets one filter drop the other keeps
   * some it must not.
   */
  combinedQuery(list: ListDef, filters: readonly string[]): Promise<Record<string, string | number> | undefined> {
    return this.once(`combined-query ${list.path} ${filters.join('+')}`, async () => {
      const query: Record<string, string | number> = {}
      let narrowed: Rec[] | undefined
      if (filters.includes('vacancy')) {
        const vacancy = await this.vacancyId()
        if (vacancy === undefined) return undefined
        query.vacancy = vacancy
        const got = await this.vacancy()
        narrowed = got.kind === 'answer' ? (pageOf(got)?.data ?? []) : []
      }
      if (filters.includes('since')) {
        const records = narrowed ?? (await this.records(list))
        const minutes = records
          .map((record) => list.sinceFields.map((field) => str(record[field])).filter((v): v is string => v !== undefined && isTimestamp(v)).sort().at(-1))
          .filter((v): v is string => v !== undefined)
          .map((v) => v.slice(0, 16))
          .sort()
        const middle = minutes[Math.floor(minutes.length / 2)]
        if (middle === undefined) return undefined
        query.since = middle
      }
      return query
    })
  }

  /** A list asked with a combination of its filters at once (the request matrix's combination rows). */
  combined(list: ListDef, filters: readonly string[]): Promise<Got> {
    return this.once(`combined ${list.path} ${filters.join('+')}`, async () => {
      const query = await this.combinedQuery(list, filters)
      if (query === undefined) return await this.notMade(`no record of ${list.endpoint} fetched gives ${filters.join(' and ')} to ask with`, list)
      return this.client.get(this.client.api(list.path, query))
    })
  }
}
