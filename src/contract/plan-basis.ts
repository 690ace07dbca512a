// What every family of the request plan asks through (plan.ts): the client, each request
// made once however many checks ask (once), the groups the run selected, the first page of
// a list and the page its next_page names, the records fetched without filters, and how a
// check that found no record to use is skipped (notMade: as the first page went). The
// families build on it, each a room of its own: filter-requests.ts, record-picks.ts,
// later-pages.ts, spare-requests.ts. Also SPARE, the pages no walk reaches, which
// later-pages.ts steps over and spare-requests.ts spends.
import { need, notMade, Skip, where, type Got, type NotMade, type SkipKind } from './checks.js'
import { isServiceError } from './request-outcomes.js'
import type { Client } from './http.js'
import type { ListDef } from './lists.js'
import { isRec, notAPage, pageOf, succeeded, type Page, type Rec } from './records.js'
import type { Group } from './settings.js'
import type { WalkRotation } from './walker.js'

/** What rotates across runs: the walks (walker.ts) and the links read in turn (in-turn.ts: the last each took, by rotation). */
export type Rotation = WalkRotation & { readonly inTurn?: Readonly<Record<string, string>> }

/**
 * Full requests the run needs for nothing else, spent by the checks that must not use up
 * another's window: pages of marketing/list far past the last page of any list the kit
 * reads, so that no walk of the list (every page by next_page, or its last pages) asks one
 * of them. Fixed numbers, so that a run inside an earlier run's windows leaves them out by
 * the ledger as it does every other request. The kit sends only the query parameters the
 * spec defines (since, page, vacancy).
 */
export const SPARE = {
  path: '/marketing/list',
  pages: {
    withoutCredentials: 1000,
    wrongCredentials: 1001,
    rateLimit: 1002,
    wrongPassword: 1003,
    fresh: 1004,
    // the spec's authentication sent otherwise (http.ts AUTH_FORMS): a full request each, so that a deployment that
    // counts a refused request against the window (or wrongly lets one in) spends no window another check needs
    bearer: 1005,
    digest: 1006,
    garbage: 1007,
    'malformed-base64': 1008,
    'no-colon': 1009,
    'lower-case-scheme': 1010,
    // a GET with a Content-Type, answered as without it (withContentType): a full request each where the window forbids asking a page twice
    contentTypeJson: 1011,
    contentTypeText: 1012,
  },
} as const

export class PlanBasis {
  protected readonly client: Client
  protected readonly groups: readonly Group[]
  readonly #memo = new Map<string, Promise<unknown>>()
  /** With --profile or --write-profile: also ask for a page past the last (the outOfRange point). */
  protected readonly profiling: boolean
  /** Which walks went in full when, the last link each rotation of in-turn.ts took, and the night of the run. */
  protected readonly rotation: Rotation

  constructor(client: Client, groups: readonly Group[], profiling = false, rotation: Rotation = { walked: {}, night: 0 }) {
    this.client = client
    this.groups = groups
    this.profiling = profiling
    this.rotation = rotation
  }

  /** The request (or pick) made under `key`, made once: every later ask gets the same promise. */
  protected once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let made = this.#memo.get(key) as Promise<T> | undefined
    if (!made) {
      made = make()
      this.#memo.set(key, made)
    }
    return made
  }

  /** Whether something was made under `key` (once) yet. */
  protected asked(key: string): boolean {
    return this.#memo.has(key)
  }

  protected selected(group: Group): boolean {
    return this.groups.includes(group)
  }

  /**
   * How a check that found no record of a list to use is skipped: as the first page went
   * (errored by an outage, not made under the limit), or as not applicable when the list
   * was answered and simply holds none.
   */
  async #missing(list: ListDef): Promise<SkipKind> {
    const first = await this.first(list)
    return first.kind === 'unavailable' ? (isServiceError(first.cause) ? 'error' : 'unavailable') : 'not-applicable'
  }

  /** Not made for want of the list's records; when the first page did not come, the reason says why (ledger, 429, outage). */
  protected async notMade(reason: string, list: ListDef): Promise<NotMade> {
    const first = await this.first(list)
    const why = first.kind === 'unavailable' ? ` (the first page of ${list.endpoint}: ${first.reason})` : ''
    return notMade(`${reason}${why}`, await this.#missing(list))
  }

  fields(): Promise<Got> {
    return this.client.get(this.client.api('/job/fields'))
  }

  metrics(): Promise<Got> {
    return this.client.get(this.client.api('/metrics/list'))
  }

  first(list: ListDef): Promise<Got> {
    return this.client.get(this.client.api(list.path))
  }

  /** The first page of a list, or a Skip saying why there is none. */
  async firstPage(list: ListDef): Promise<Page> {
    return pageOrSkip(await this.first(list), `the first page of ${list.endpoint}`)
  }

  /** The page the first page's next_page names, when it names one on this origin. */
  next(list: ListDef): Promise<Got> {
    return this.once(`next ${list.path}`, async () => {
      const first = await this.first(list)
      if (first.kind !== 'answer') return await this.notMade('no answer', list)
      const page = pageOf(first)
      if (!page) return notMade(`the first page of ${list.endpoint} ${notAPage(first)}`)
      if (typeof page.nextPage !== 'string') return notMade(`the first page's next_page is ${JSON.stringify(page.nextPage) ?? 'absent'}: there is no second page to fetch`)
      if (!this.client.sameOrigin(page.nextPage)) return notMade(`next_page ${page.nextPage} is not on ${this.client.origin}: not followed with credentials`)
      return this.client.get(page.nextPage)
    })
  }

  /** The records of the pages fetched without filters (the first, and the second when there is one). */
  async records(list: ListDef): Promise<Rec[]> {
    const pages = [await this.first(list), await this.next(list)]
    return pages.flatMap((got) => (got.kind === 'answer' ? (pageOf(got)?.data ?? []) : []))
  }

  /** Records of a list fetched so far, without asking for more (for picks that only prefer). */
  protected async fetched(list: ListDef): Promise<Rec[]> {
    return this.selected(list.group) ? this.records(list) : []
  }
}

/** The page an outcome holds, or a Skip naming why there is none. */
export function pageOrSkip(got: Got, what: string): Page {
  const answer = need(got)
  const page = pageOf(answer)
  if (!page) throw new Skip(`${what} (${answer.method} ${where(answer.url)}) ${notAPage(answer)}`)
  return page
}

/** The answer's JSON object, or a Skip naming why there is none. */
export function bodyOrSkip(got: Got, what: string): Rec {
  const answer = need(got)
  if (!succeeded(answer) || !isRec(answer.json)) throw new Skip(`${what} (${answer.method} ${where(answer.url)}) ${notAPage(answer)}`)
  return answer.json
}
