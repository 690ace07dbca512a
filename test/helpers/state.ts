// Saving and restoring boards in tests: a state over the control API in either form, a
// fresh fake it goes into, and the answers a board gives to a broad set of URLs read off
// the board itself (pages, `since`, details, downloads, metrics, job pages), to compare
// two boards by.
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import type { BuildOptions } from '../../src/fake/app.js'
import type { CompactBoardState } from '../../src/core/types.js'
import { board, call, type Json } from './board.js'
import { jobInputSample } from '../fixtures/samples.js'

export type Form = 'full' | 'compact'

/** The saved state's text, as GET /__mock/state answers it. */
export async function savedText(app: FastifyInstance, form: Form = 'full'): Promise<string> {
  const answer = await app.inject({ url: `/__mock/state${form === 'compact' ? '?form=compact' : ''}` })
  if (answer.statusCode !== 200) throw new Error(`GET /__mock/state answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`)
  return answer.body
}

/** PUT /__mock/state with a state's text: the status and body. */
export async function putState(app: FastifyInstance, text: string): Promise<{ status: number; body: Json }> {
  const answer = await app.inject({ method: 'PUT', url: '/__mock/state', headers: { 'content-type': 'application/json' }, payload: text })
  return { status: answer.statusCode, body: answer.json() }
}

/** A fresh fake the state is restored into: another seed, so that nothing matches by chance. */
export async function restoredFrom(t: Test, text: string, options: BuildOptions = {}): Promise<FastifyInstance> {
  const fresh = await board(t, { seed: 777, ...options })
  const answer = await putState(fresh, text)
  if (answer.status !== 200) throw new Error(`PUT /__mock/state answered ${answer.status}: ${answer.body.message}`)
  return fresh
}

const path = (href: string) => {
  const url = new URL(href)
  return `${url.pathname}${url.search}`
}

/** The minute of a timestamp, as `since` takes it. */
const minuteOf = (timestamp: string) => encodeURIComponent(timestamp.slice(0, 16)).replace('%20', '+')

/**
 * URLs that cover a board: every list's first pages and a `since` from the middle of its
 * first page, the details and files of the records on them and of the written records,
 * metrics, job fields, and the job pages of every job written or deleted.
 */
export async function boardUrls(app: FastifyInstance): Promise<string[]> {
  const urls = new Set<string>(['/api/v1/metrics/list', '/api/v1/job/fields'])
  const compact = JSON.parse(await savedText(app, 'compact')) as CompactBoardState
  const lists = [
    ['candidates', 'updated_at'],
    ['applications', 'updated_at'],
    ['timesheets', 'created_at'],
    ['marketing', 'created_at'],
  ] as const
  for (const [list, field] of lists) {
    const first = (await call(app, `/api/v1/${list}/list`)).body
    urls.add(`/api/v1/${list}/list`).add(`/api/v1/${list}/list?page=2`)
    const middle = first.data[Math.floor(first.data.length / 2)]
    if (middle) urls.add(`/api/v1/${list}/list?since=${minuteOf(middle[field] ?? middle.created_at)}`)
    for (const item of first.data.slice(0, 6)) {
      if (list === 'candidates') candidateUrls(item, urls)
      if (list === 'applications') {
        urls.add(path(item.href)).add(path(item.applicant.attachment.href)).add(`/api/v1/applications/list?vacancy=${item.vacancy.id}`)
      }
      if (list === 'timesheets') urls.add(path(item.attachment.href)).add(`/api/v1/candidates/timesheets/download/${item.id}`)
    }
  }
  const written = compact.store.written
  for (const c of written.candidates) urls.add(`/api/v1/candidates/details/${c.id}`)
  for (const { record } of written.applications) urls.add(`/api/v1/applications/details/${record.id}`).add(`/api/v1/applications/attachment/${record.id}`)
  for (const f of written.files) urls.add(`/api/v1/candidates/${f.kind}/${f.id}`)
  for (const ts of written.timesheets) urls.add(`/api/v1/candidates/timesheet/${ts.id}`)
  for (const id of [1, 2, ...written.jobs.map((j) => j.id), ...compact.store.deletedJobs]) urls.add(`/jobs/${id}`)
  return [...urls]
}

function candidateUrls(candidate: Json, urls: Set<string>): void {
  urls.add(`/api/v1/candidates/details/${candidate.id}`)
  for (const file of [...candidate.resumes, ...candidate.documents, ...candidate.timesheets].slice(0, 4)) urls.add(path(file.href))
}

/** Each URL's answer: status, content type and body bytes. */
export async function answers(app: FastifyInstance, urls: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const url of urls) {
    const answer = await call(app, url)
    out.set(url, `${answer.status} ${answer.headers['content-type']} ${answer.raw.rawPayload.toString('base64')}`)
  }
  return out
}

/** The URLs on which two boards answer differently (none when they are the same board). */
export async function differences(one: FastifyInstance, two: FastifyInstance, urls: readonly string[]): Promise<string[]> {
  const [a, b] = [await answers(one, urls), await answers(two, urls)]
  return urls.filter((url) => a.get(url) !== b.get(url))
}

/** A control-API POST with a JSON body. */
export const control = (app: FastifyInstance, url: string, body: unknown = {}) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) })

/** Adds of every kind through the control API, job writes through the API, and a clock move. */
export async function writeMix(app: FastifyInstance): Promise<void> {
  await control(app, '/__mock/clock/advance', { seconds: 3 * 86_400 })
  const grace = (await control(app, '/__mock/candidates', { name: 'Grace Hopper', resumes: [{ filename: 'grace.pdf' }], documents: [{ filesize: 1200 }] })).json()
  await control(app, '/__mock/applications', { candidate_id: grace.id, attachment_filesize: 4321 })
  await control(app, '/__mock/applications', {})
  await control(app, '/__mock/timesheets', { candidate_id: 2 })
  await control(app, '/__mock/marketing', { candidate_id: 3 })
  await control(app, '/__mock/marketing', { email: 'nobody@example.org', candidate_id: 0 })
  const added = (await control(app, '/__mock/jobs', jobInputSample())).json()
  const api = (path: string, body: unknown) => call(app, { method: 'POST', url: `/api/v1/job/${path}`, payload: body as object })
  const viaApi = (await api('add', { ...jobInputSample(), job_reference: 'VET-0043' })).body
  await api('close', { id: 2 })
  await api('expire', { id: 3 })
  await api('repost', { id: viaApi.id, closing_date: '2027-02-01 12:00' })
  await api('delete', { id: 1 })
  await api('delete', { id: added.id })
  await control(app, '/__mock/clock/advance', { seconds: 40 * 86_400 })
}
