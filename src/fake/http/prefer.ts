// `Prefer: code=NNN` (as Prism has it): one answer with that status, without touching
// the board or the rate limit. Only statuses the spec or docs/behaviour.md document for
// the route can be asked for; which those are is read off the route's own schema.
import type { FastifyRequest, FastifySchema } from 'fastify'
import type { LoadedScenario } from '../scenario.js'
import { REALM } from './basic-auth.js'
import { boardError, type BoardError } from '../../core/errors.js'

/**
 * Why a route may answer each error status, read off what its schema takes. The one list
 * of a route's error statuses: Prefer may ask for any of them, the OpenAPI document
 * describes each (src/fake/routes/schemas.ts), and the test suite holds every answer to it.
 */
export function routeErrors(method: string, schema: FastifySchema | undefined): ReadonlyMap<number, readonly string[]> {
  const body = schema?.body as { required?: readonly string[] } | undefined
  const page = Boolean((schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties?.page)
  // what the list depends on, read off the schema: every fake's routes ask again, and 96 routes of a later fake asked for 1-2 ms
  const key = `${method} ${Boolean(body)} ${Boolean(body?.required?.includes('id'))} ${Boolean(schema?.params)} ${Boolean(schema?.querystring)} ${page}`
  let reasons = ROUTE_ERRORS.get(key)
  if (reasons === undefined) {
    reasons = errorsOf(method, schema)
    ROUTE_ERRORS.set(key, reasons)
  }
  return reasons
}

/**
 * Each route's error list by what it depends on: a handful of kinds of route. Why at
 * module level: a pure function of its key, bounded by the few keys there are, never
 * written after it is made, so no fake sees another's use of it but by being faster.
 */
const ROUTE_ERRORS = new Map<string, ReadonlyMap<number, readonly string[]>>()

function errorsOf(method: string, schema: FastifySchema | undefined): ReadonlyMap<number, readonly string[]> {
  const reasons = new Map<number, string[]>()
  const add = (code: number, reason: string) => reasons.set(code, [...(reasons.get(code) ?? []), reason])
  const body = schema?.body as { required?: readonly string[] } | undefined
  if (body) add(400, 'the body is not JSON, or is empty')
  add(400, 'a Prefer header asks for a status this route does not document, or for no status at all')
  add(401, 'no credentials, or wrong ones')
  if (schema?.params) add(404, 'no record has this id')
  // job operations name a job that may not exist; their id is in the body
  if (method === 'POST' && body?.required?.includes('id')) add(404, 'no job has this id, or it was deleted')
  // a page past the last answers 404 when behaviour.outOfRangePage says so
  if ((schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties?.page) {
    add(404, 'the page is past the last one (only when the board runs with outOfRangePage "not-found")')
  }
  if (schema?.params) add(412, 'a path parameter is invalid (the message names it)')
  if (schema?.querystring) add(412, 'a query parameter is invalid (the message names it)')
  if (body) add(412, 'a field of the body is invalid or missing (the message names it)')
  if (body) add(413, 'the body is over 1 MiB')
  if (body) add(415, 'the body is not sent as Content-Type: application/json')
  add(429, 'the same full request (method, path and query string) was made within the rate-limit window')
  add(500, 'the server failed')
  add(503, 'the service is unavailable')
  return new Map([...reasons].sort(([a], [b]) => a - b))
}

/** Each error list's statuses, made once (every fake's routes ask again); frozen, read-only like the lists. */
const STATUSES = new WeakMap<ReadonlyMap<number, readonly string[]>, readonly number[]>()

/** The error statuses a route documents. */
export function documentedErrors(method: string, schema: FastifySchema | undefined): readonly number[] {
  const reasons = routeErrors(method, schema)
  let statuses = STATUSES.get(reasons)
  if (statuses === undefined) {
    statuses = Object.freeze([...reasons.keys()])
    STATUSES.set(reasons, statuses)
  }
  return statuses
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
  400: 'The request is malformed.',
  404: 'The record was not found.',
  412: 'The request is invalid.',
  413: 'The body is too large.',
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

/** The answer a request's Prefer header asks for, if it asks for one (a malformed code throws the 400). */
export function preferenceAsked(request: FastifyRequest, board: { readonly scenario: Pick<LoadedScenario, 'rateLimitWindow'> }): BoardError | undefined {
  if (request.headers.prefer === undefined) return undefined
  const preference = parsePrefer(request.headers.prefer)
  if (!preference) return undefined
  const window = board.scenario.rateLimitWindow || 900
  return preferredError(preference, request.routeOptions.config.errors ?? [], window, `${request.method} ${request.routeOptions.url}`)
}
