// `Prefer: code=NNN` (as Prism has it): one answer with that status, without touching
// the board or the rate limit. Only statuses the spec or docs/behaviour.md document for
// the route can be asked for; which those are is read off the route's own schema.
import type { FastifySchema } from 'fastify'
import { REALM } from './auth.js'
import { boardError, BoardError } from './errors.js'

/** Statuses every API route can answer: auth, the rate limit, and a failing server. */
const EVERY_ROUTE = [401, 429, 500, 503]

/** The error statuses a route documents, from what its schema takes. */
export function documentedErrors(method: string, schema: FastifySchema | undefined): number[] {
  const codes = new Set(EVERY_ROUTE)
  if (schema?.params) [404, 412].forEach((c) => codes.add(c))
  if (schema?.querystring) codes.add(412)
  // a page past the last answers 404 when behaviour.outOfRangePage says so
  if ((schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties?.page) codes.add(404)
  if (schema?.body) [400, 412, 415].forEach((c) => codes.add(c))
  // job operations name a job that may not exist; their id is in the body
  if (method === 'POST' && schema?.body && (schema.body as { required?: readonly string[] }).required?.includes('id')) codes.add(404)
  return [...codes].sort((a, b) => a - b)
}

export interface Preference {
  code: number
  retryAfter?: number
}

/** Reads `code=NNN` (and `retry-after=N`) from a Prefer header; undefined when it asks for no code. */
export function parsePrefer(header: string | string[] | undefined): Preference | undefined {
  const text = [header ?? []].flat().join(',')
  const params = new Map<string, string>()
  for (const part of text.split(/[;,]/)) {
    const [key, value] = part.split('=').map((s) => s.trim().toLowerCase())
    if (key && value !== undefined) params.set(key, value.replace(/^"|"$/g, ''))
  }
  const code = params.get('code')
  if (code === undefined) return undefined
  if (!/^[1-5][0-9]{2}$/.test(code)) throw boardError.injected(400, `Prefer: code=${code} is not an HTTP status.`)
  const retryAfter = params.get('retry-after')
  return { code: Number(code), ...(retryAfter !== undefined && /^[0-9]+$/.test(retryAfter) ? { retryAfter: Number(retryAfter) } : {}) }
}

const REASON: Record<number, string> = {
  400: 'The body is not valid JSON.',
  404: 'The record was not found.',
  412: 'The request is invalid.',
  415: 'The body must be JSON, sent with Content-Type: application/json.',
  500: 'The server failed to answer.',
  503: 'The service is unavailable; try again later.',
}

/** The error a preference asks for, or a 400 saying the route does not document that status. */
export function preferredError(preference: Preference, documented: readonly number[], window: number, route: string): BoardError {
  const { code } = preference
  if (!documented.includes(code)) {
    return boardError.injected(400, `Prefer: code=${code} is not an answer ${route} documents; it documents ${documented.join(', ')}.`)
  }
  const asked = ` (asked for with Prefer: code=${code})`
  if (code === 401) return boardError.unauthorized(REALM, `Authentication required${asked}.`)
  if (code === 429) {
    const error = boardError.rateLimited(Math.max(1, preference.retryAfter ?? window))
    return boardError.injected(429, error.message.replace(/\.$/, `${asked}.`), { ...error.headers })
  }
  return boardError.injected(code, `${(REASON[code] as string).replace(/\.$/, '')}${asked}.`, code === 503 ? { 'retry-after': String(preference.retryAfter ?? 60) } : {})
}
