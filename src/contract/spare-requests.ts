// The request plan's spare requests (plan.ts): full requests a run spends on purpose and
// on nothing else, so that none uses up a window another check needs: SPARE's pages asked
// without credentials, with wrong ones, with a wrong password, in another form of
// authentication, with a Content-Type on a GET; a detail and a download asked without
// credentials (of records no check asks for), an id no board has (UNKNOWN_ID on each
// detail and download path, ID_PATHS), and the fresh requests of the 429 check.
import { id as idSchema } from '../../schemas/common.js'
import { notMade, type Got } from './checks.js'
import type { AuthForm } from './request-credentials.js'
import { LaterPages, lastPageOf } from './later-pages.js'
import { APPLICATIONS, CANDIDATES, MARKETING, TIMESHEETS } from './lists.js'
import { SPARE } from './plan-basis.js'
import { FILE_KINDS } from './record-picks.js'
import { int, pageOf, rec, recs, str } from './records.js'
import type { Group } from './settings.js'

/** An id no board has yet: the largest the schemas allow. */
export const UNKNOWN_ID = idSchema.maximum

/** The Content-Types a GET is sent with to see them ignored: JSON, and one that is not. */
export const GET_CONTENT_TYPES = [
  { contentType: 'application/json', use: 'contentTypeJson' },
  { contentType: 'text/plain', use: 'contentTypeText' },
] as const

/** The detail and download paths, by group: each is asked for an unknown id once. */
export const ID_PATHS: Readonly<Partial<Record<Group, readonly string[]>>> = {
  candidates: ['/candidates/details', ...FILE_KINDS.map(({ kind }) => `/candidates/${kind}`)],
  applications: ['/applications/details', '/applications/attachment'],
  timesheets: ['/candidates/timesheets/download'],
}

export class SpareRequests extends LaterPages {
  /** An id that exists on no board, on a detail or download path. */
  unknown(path: string): Promise<Got> {
    return this.client.get(this.client.api(`${path}/${UNKNOWN_ID}`))
  }

  /**
   * A GET of marketing/list sent with a Content-Type ("A content-type header on GET requests
   * is ignored") and what it must be answered as: with no window to spend, the first page
   * again, against the plan's own first page; else a spare page (SPARE), against what that
   * page is without it: a page of records where the list reaches it (`records`), else the
   * plan's page past the last. `undefined`: the first page gives no total and size to tell.
   */
  withContentType(contentType: string, use: (typeof GET_CONTENT_TYPES)[number]['use']): Promise<{ got: Got; without: Got | 'records' | undefined }> {
    return this.once(`content-type ${use}`, () => this.#withContentType(contentType, use))
  }

  async #withContentType(contentType: string, use: (typeof GET_CONTENT_TYPES)[number]['use']): Promise<{ got: Got; without: Got | 'records' | undefined }> {
    const first = await this.first(MARKETING)
    const firstUrl = this.client.api(MARKETING.path)
    if (first.kind === 'answer' && this.client.free('GET', firstUrl)) return { got: await this.client.get(firstUrl, { contentType }), without: first }
    const got = await this.client.get(this.spare(use), { contentType })
    const page = first.kind === 'answer' ? pageOf(first) : undefined
    const total = page ? int(page.total) : undefined
    if (!page || total === undefined || page.data.length === 0) return { got, without: undefined }
    return { got, without: SPARE.pages[use] <= lastPageOf(total, page.data.length) ? 'records' : (await this.pastLast(MARKETING)).got }
  }

  /** The URL of a spare full request (SPARE). */
  spare(use: keyof (typeof SPARE)['pages']): string {
    return this.client.api(SPARE.path, { page: SPARE.pages[use] })
  }

  withoutCredentials(): Promise<Got> {
    return this.client.get(this.spare('withoutCredentials'), { credentials: 'none' })
  }

  wrongCredentials(): Promise<Got> {
    return this.client.get(this.spare('wrongCredentials'), { credentials: 'wrong' })
  }

  /** The given user with a wrong password: a deployment that knows the user must still check the password. */
  wrongPassword(): Promise<Got> {
    return this.client.get(this.spare('wrongPassword'), { credentials: 'wrong-password' })
  }

  /** A spare page asked with the given credentials sent in another form than the spec's (http.ts AUTH_FORMS). */
  authForm(form: AuthForm): Promise<Got> {
    return this.client.get(this.spare(form), { credentials: form })
  }

  /**
   * A detail asked without credentials: of a listed record the run fetches for nothing
   * else (another candidate, else another application), so it spends no window a check needs.
   */
  detailWithoutCredentials(): Promise<Got> {
    return this.once('detail-without-credentials', async () => {
      const picked = [(await this.candidateDetail()).url, (await this.applicationDetail()).url]
      const candidates = (await this.fetched(CANDIDATES)).map((c) => this.client.api(`/candidates/details/${String(c.id)}`))
      const applications = (await this.fetched(APPLICATIONS)).map((a) => this.client.api(`/applications/details/${String(a.id)}`))
      const url = [...candidates, ...applications].find((u) => !picked.includes(u) && !/\/(undefined|null)$/.test(u))
      if (url === undefined) return notMade('no listed candidate or application is left to ask for without credentials')
      return this.client.get(url, { credentials: 'none' })
    })
  }

  /** Download links listed and not fetched by this run, on the base URL's origin: candidates' files, then timesheets' and attachments. */
  async #unfetchedDownloads(): Promise<string[]> {
    const candidates = (await this.fetched(CANDIDATES)).flatMap((c) => FILE_KINDS.flatMap(({ list }) => recs(c[list]).map((f) => str(f.href))))
    const timesheets = (await this.fetched(TIMESHEETS)).map((t) => this.client.api(`/candidates/timesheets/download/${String(t.id)}`))
    const attachments = (await this.fetched(APPLICATIONS)).map((a) => str(rec(rec(a.applicant).attachment).href))
    return [...candidates, ...timesheets, ...attachments].filter((u): u is string => u !== undefined && this.client.sameOrigin(u) && !this.client.has(u))
  }

  /** A download asked without credentials: a listed file the run downloads for nothing else. */
  downloadWithoutCredentials(): Promise<Got> {
    return this.once('download-without-credentials', async () => {
      const url = (await this.#unfetchedDownloads())[0]
      if (url === undefined) return notMade('no listed file is left to ask for without credentials')
      return this.client.get(url, { credentials: 'none' })
    })
  }

  /**
   * Fresh full requests for the 429 check, each differing from the repeated one in one
   * part only: another page, the same page with a since, another download. Not asked here:
   * the check asks them right after its 429.
   */
  async freshUrls(): Promise<Array<{ what: string; url: string }>> {
    const fresh = [
      { what: 'another page', url: this.spare('fresh') },
      { what: 'the same page with a since', url: this.client.api(SPARE.path, { since: '2000-01-01 00:00', page: SPARE.pages.rateLimit }) },
    ]
    const unauthenticated = this.asked('download-without-credentials') ? await this.downloadWithoutCredentials() : undefined
    const download = (await this.#unfetchedDownloads()).find((u) => unauthenticated?.kind !== 'answer' || u !== unauthenticated.url)
    if (download !== undefined) fresh.push({ what: 'another download', url: download })
    // one a window still holds (this run, or the ledger's) would answer 429 rightly
    return fresh.filter((f) => this.client.free('GET', f.url))
  }

}
