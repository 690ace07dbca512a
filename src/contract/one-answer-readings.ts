// The profile points one answer shows by itself (the proxy's --profile,
// src/proxy/profile-points.ts): the recorders' table (point-recorders.ts) run over one
// answer alone, as if it were a run's only answer.
import { isMinute } from '../../schemas/formats.js'
import { PROFILE_POINTS } from '../../schemas/profile.js'
import type { Answer } from './request-outcomes.js'
import type { Credentials } from './request-credentials.js'
import { LISTS } from './lists.js'
import { ID_PATHS } from './spare-requests.js'
import { Evidence, type EvidenceContext, meant, type Readings } from './point-evidence.js'
import { RECORDERS } from './point-recorders.js'
import { pageOf } from './records.js'

/**
 * The points one answer shows by itself (the proxy's --profile, src/proxy/profile-points.ts):
 * every recorder of the catalogue run over that answer alone, as if it were a run's only
 * answer; a point is kept where the answer showed it directly, or showed none of its values
 * (`other`). An answer that is what the run asks on purpose stands for it: a 404 to an id
 * path (the unknown id: notFoundBody), a page past the last that is empty or 404
 * (outOfRangePage), a list asked with a since that is no time and answered as a list or a
 * 412 (malformedSince). A point a recorder infers (from several answers, or a run's pace)
 * or cannot see in one answer is left out: one answer says nothing of it.
 */
export function readOneAnswer(answer: Answer, options: { apiBase: string; credentials: Credentials; at: number }): Partial<Readings> {
  // what the run would have asked on purpose, where this answer is one: an unknown id, a page past the last, a since that is no time
  const url = new URL(answer.url)
  const prefix = new URL(options.apiBase).pathname
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname
  const page = pageOf(answer)
  // a 404, or (errorHttpStatus ok with a body that is no JSON) a JSON endpoint answered 200 without JSON, as the recorders read them
  const notFound = answer.status === 404 || meant(answer) === 404
  const noJson = answer.status === 200 && answer.json === undefined
  const id = /^(.+)\/([0-9]{1,10})$/.exec(path)
  const idPath = id !== null && Object.values(ID_PATHS).flat().includes(id[1] as string)
  const unknownId = id !== null && idPath && (notFound || (noJson && /\/details$/.test(id[1] as string))) ? id[2] : undefined
  const since = url.searchParams.get('since')
  const malformedSince = since !== null && !isMinute(since) && (page !== undefined || meant(answer) === 412) ? since : undefined
  const list = LISTS.find((l) => l.path === path)
  const pageAsked = Number(url.searchParams.get('page') ?? 1)
  const pastTheLast = list !== undefined && pageAsked > 1 && since === null && (page ? page.data.length === 0 : notFound || noJson) ? { list, page: pageAsked } : undefined
  const alone: EvidenceContext = {
    settings: { groups: [], writes: false },
    client: { api: (apiPath) => `${options.apiBase}${apiPath}`, pace: undefined },
    plan: { peekOutOfRange: () => pastTheLast },
    idField: undefined,
    ...(unknownId === undefined ? {} : { unknownId }),
    ...(malformedSince === undefined ? {} : { malformedSince }),
  }
  const evidence = new Evidence(alone, [{ credentials: options.credentials, outcome: answer, at: options.at, body: undefined, order: 0 }])
  const shown: Partial<Readings> = {}
  for (const point of PROFILE_POINTS) {
    const reading = RECORDERS[point](evidence)
    if ((reading.seen === 'directly' && reading.value !== undefined) || reading.other !== undefined) shown[point] = reading
  }
  return shown
}
