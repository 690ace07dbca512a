// The walks of one run: each form of each selected list (src/contract/walk.ts reads one),
// the first page of each asked through the plan, and how much of each this run reads — known
// once every form's first page is (allot: the run's walk budget, the rotation the ledger or
// the night gives). Each walk is read once a run and shared by every check that needs it.
import type { Got } from './checks.js'
import type { Client } from './http.js'
import type { ListDef } from './lists.js'
import { allot, extentOf, formsOf, HEAD, readWalk, TAIL, walkEntry, walkId, type Allotment, type Walk, type WalkEntry } from './walk.js'

/** Which walks went in full when (the ledger's, by walk id, epoch ms), and the night of the run: the walks' rotation (walk.ts allot). */
export interface WalkRotation {
  readonly walked: Readonly<Record<string, number>>
  readonly night: number
}

/** The plan's requests a walk starts from: the first page of each form, and the values its filters are asked with. */
export interface WalkStarts {
  first(list: ListDef): Promise<Got>
  since(list: ListDef): Promise<Got>
  vacancy(): Promise<Got>
  combined(list: ListDef, filters: readonly string[]): Promise<Got>
  sinceValue(list: ListDef): Promise<string | undefined>
  vacancyId(): Promise<number | undefined>
  combinedQuery(list: ListDef, filters: readonly string[]): Promise<Record<string, string | number> | undefined>
}

export class Walker {
  readonly #starts: WalkStarts
  readonly #client: Pick<Client, 'get' | 'api' | 'sameOrigin' | 'apiPath'>
  /** The lists of the groups the run selected. */
  readonly #lists: () => readonly ListDef[]
  readonly #rotation: WalkRotation
  readonly #walks = new Map<string, Promise<Walk>>()
  #allotments: Promise<Map<string, Allotment>> | undefined

  constructor(starts: WalkStarts, client: Pick<Client, 'get' | 'api' | 'sameOrigin' | 'apiPath'>, lists: () => readonly ListDef[], rotation: WalkRotation) {
    this.#starts = starts
    this.#client = client
    this.#lists = lists
    this.#rotation = rotation
  }

  /** The first page of a form of a list: the list's own, the answer with since, for one vacancy, or with both. */
  #start(list: ListDef, filters: readonly string[]): Promise<Got> {
    if (filters.length === 0) return this.#starts.first(list)
    if (filters.length === 1 && filters[0] === 'since') return this.#starts.since(list)
    if (filters.length === 1 && filters[0] === 'vacancy') return this.#starts.vacancy()
    return this.#starts.combined(list, filters)
  }

  /** The values a form asks its filters with, as every link of its walk carries them; empty when there are none to ask with. */
  async #query(list: ListDef, filters: readonly string[]): Promise<Record<string, string>> {
    if (filters.length === 0) return {}
    if (filters.length === 1 && filters[0] === 'since') {
      const since = await this.#starts.sinceValue(list)
      return since === undefined ? {} : { since }
    }
    if (filters.length === 1 && filters[0] === 'vacancy') {
      const vacancy = await this.#starts.vacancyId()
      return vacancy === undefined ? {} : { vacancy: String(vacancy) }
    }
    return Object.fromEntries(Object.entries((await this.#starts.combinedQuery(list, filters)) ?? {}).map(([key, value]) => [key, String(value)]))
  }

  /** How much of each walk of the selected lists this run reads (walk.ts allot): known once every form's first page is. */
  #allot(): Promise<Map<string, Allotment>> {
    this.#allotments ??= (async () => {
      const forms = this.#lists().flatMap((list) => formsOf(list).map((filters) => ({ list, filters })))
      const extents = await Promise.all(forms.map(async ({ list, filters }) => ({ id: walkId(list, filters), last: extentOf(await this.#start(list, filters)).last })))
      return allot(extents, this.#rotation.walked, this.#rotation.night)
    })()
    return this.#allotments
  }

  /** One walk of a list: the form with these filters (none, since, vacancy, or a combination), read once. */
  walk(list: ListDef, filters: readonly string[]): Promise<Walk> {
    const id = walkId(list, filters)
    let walk = this.#walks.get(id)
    if (walk === undefined) {
      walk = (async () => {
        const query = await this.#query(list, filters)
        const got = await this.#start(list, filters)
        const url = got.kind === 'not-made' ? this.#client.api(list.path, query) : got.url
        const pager = {
          get: (link: string) => this.#client.get(link),
          pageUrl: (page: number) => this.#client.api(list.path, { ...query, page }),
          sameOrigin: (link: string) => this.#client.sameOrigin(link),
          apiPath: (link: string) => this.#client.apiPath(link),
        }
        const allotment = async (): Promise<Allotment> => (await this.#allot()).get(id) ?? { full: false, head: HEAD, tail: TAIL, why: 'its group is not selected' }
        return readWalk({ id, list, filters, query }, { url, got }, allotment, pager)
      })()
      this.#walks.set(id, walk)
    }
    return walk
  }

  /** Every walk of a list, one per form. */
  walks(list: ListDef): Promise<Walk[]> {
    return Promise.all(formsOf(list).map((filters) => this.walk(list, filters)))
  }

  /** The walks of the selected lists as the report carries them: which went in full this run, which in part. */
  async entries(): Promise<WalkEntry[]> {
    const walks = (await Promise.all(this.#lists().map((list) => this.walks(list)))).flat()
    return walks.map((walk) => walkEntry(walk, this.#rotation.walked[walk.id]))
  }
}
