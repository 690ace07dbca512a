// Builds a fake for one test, in-process, and closes it when the test ends.
import type { Test } from 'tap'
import { buildApp, type BuildOptions } from '../../src/fake/app.js'
import { CachedResponseValidators } from './response-validators.js'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'

export const USER = 'jobboard'
export const PASSWORD = 'jobboard'
export const basic = (user = USER, password = PASSWORD) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
export const AUTH = { authorization: basic() }

// the one piece of state the helpers keep, for this test process: the check's validators,
// compiled once and shared by every fake the file builds (compiling them was most of a
// checked fake's cost), and kept for the run's other processes (./response-validators.ts)
const RESPONSE_VALIDATORS = new CachedResponseValidators()

/**
 * The check every fake in the suite runs with: an answer the OpenAPI document does not
 * describe (status, headers, body) fails the test that got it, so the document cannot drift.
 */
export const checked = (t: Test) => ({ checkResponses: (problem: string) => t.fail(problem), responseValidators: RESPONSE_VALIDATORS })

/** A fake with a virtual clock and, unless the test says otherwise, no rate limit. */
export async function board(t: Test, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp({ clock: 'virtual', rateLimitWindow: 0, ...checked(t), ...options })
  t.teardown(() => app.close())
  return app
}

/**
 * A JSON body a test reads without a schema type: tests probe answers field by field and let
 * t.equal, t.match and t.same do the checking; a test that relies on a shape passes its type.
 */
// biome-ignore lint/suspicious/noExplicitAny: the one untyped JSON body of the suite, named so that its uses are visible
export type Json = any

export interface Answer<T = Json> {
  status: number
  headers: LightMyRequestResponse['headers']
  body: T
  raw: LightMyRequestResponse
}

/** An authenticated GET (or any request) whose JSON body is parsed. */
export async function call<T = Json>(app: FastifyInstance, request: string | InjectOptions): Promise<Answer<T>> {
  const options: InjectOptions = typeof request === 'string' ? { url: request } : request
  const raw = await app.inject({ ...options, headers: { ...AUTH, ...(options.headers ?? {}) } })
  const json = /json/.test(String(raw.headers['content-type'] ?? ''))
  return { status: raw.statusCode, headers: raw.headers, body: (json ? raw.json() : raw.body) as T, raw }
}

/** Every page of a list, following next_page until it stops. */
export async function allPages<T = Json>(app: FastifyInstance, first: string): Promise<Array<Answer<{ data: T[]; next_page?: unknown; prev_page?: unknown; total: number }>>> {
  const pages = []
  let url: string | undefined = first
  while (url !== undefined) {
    const answer: Answer = await call(app, url)
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`)
    pages.push(answer)
    const next = answer.body.next_page
    url = typeof next === 'string' ? new URL(next).pathname + new URL(next).search : undefined
    if (pages.length > 10_000) throw new Error('paging does not end')
  }
  return pages
}
