// The parts of a fake built on first use: the control API (/__mock/…), its page
// (/__mock/ui) and the OpenAPI document's routes (/openapi.json, /openapi.yaml, /docs).
// A Fastify app pays for every route it registers when it is made (some 0.1 ms a route),
// and most fakes a suite makes never ask for these: so the shared app of the fake's routes
// lists them unbuilt (definedRoutes) and the first request for one builds a second Fastify
// app of the fake's, holding the areas' routes, with the same hooks, validation and error
// answers (src/fake/shared-app.ts wires both the same way). The fake sends a request of an
// area straight to it (src/fake/app.ts, by the shared app's `areaOf`): one app, one pass
// through the hooks, as any request. The shared app keeps one catch-all route per area,
// which takes only a URL spelled with escapes (`/__m%6Fck/…`, which the router decodes)
// and hands it on. The answers are the ones the routes gave when they were the fake's own,
// byte for byte (the same hooks on the same raw request: its body still unread).
import type { FastifyInstance } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { contextOf, type LazyApp } from './http/request-context.js'

/** A route as `app.endpoints` lists it. */
export interface Endpoint {
  method: string
  url: string
}

type Plugin<O> = (app: FastifyInstance, options: O) => unknown

/**
 * The routes a plugin registers under a prefix, as Fastify lists them to onRoute hooks:
 * a GET and then its HEAD; a GET of `/` under a prefix as the prefix, with a HEAD for it
 * and one for the prefix and a slash. Read by running the plugin on a stand-in that
 * records its routes (their handlers are never called): it knows addHook, get, post,
 * put, patch, delete and route; a plugin calling anything else fails at every fake's start.
 */
export function definedRoutes<O>(plugin: Plugin<O>, prefix: string, options: O): Endpoint[] {
  const found: Endpoint[] = []
  const add = (method: string) => (path: string) => {
    const url = path === '/' && prefix !== '' ? prefix : `${prefix}${path}`
    found.push({ method, url })
    if (method !== 'GET') return
    found.push({ method: 'HEAD', url })
    if (path === '/' && prefix !== '') found.push({ method: 'HEAD', url: `${prefix}/` })
  }
  const recorder = {
    addHook: () => {},
    get: add('GET'),
    post: add('POST'),
    put: add('PUT'),
    patch: add('PATCH'),
    delete: add('DELETE'),
    route: ({ method, url }: { method: string | string[]; url: string }) => {
      for (const one of [method].flat()) add(one)(url)
    },
  }
  void plugin(recorder as unknown as FastifyInstance, options)
  return found
}

/** Marks a fake's catch-all routes (their config): a request they match is handed to the lazily built app. */
export const HANDED_ON = 'handedOn'

/** The request id a raw request handed on by the shared app had there (the built app's genReqId, with the JSON log); undefined for one sent straight to it. */
export const handedOnId = (raw: IncomingMessage): string | undefined => contextOf(raw).outerId

/** The app `build` makes, made on the first request handed on (a failed build is tried again on the next). */
export function lazyApp(build: () => Promise<FastifyInstance>): LazyApp {
  let built: FastifyInstance | undefined
  let building: Promise<FastifyInstance> | undefined
  const make = () => {
    building ??= build().then(
      (app) => {
        built = app
        return app
      },
      (error: unknown) => {
        building = undefined
        throw error
      },
    )
    return building
  }
  const route = (raw: IncomingMessage, response: ServerResponse) => {
    if (built !== undefined) return built.routing(raw, response)
    make().then(
      (app) => app.routing(raw, response),
      (error: unknown) => failed(response, error),
    )
  }
  return {
    route,
    handOn(request, reply) {
      reply.hijack()
      contextOf(request.raw).outerId = request.id
      route(request.raw, reply.raw)
    },
    async close() {
      if (building === undefined) return
      const app = await building.catch(() => undefined)
      await app?.close()
    },
  }
}

/** A build that failed (a bug): the request gets a 500 in the fake's style, and the next tries again. */
function failed(response: ServerResponse, error: unknown): void {
  if (response.headersSent) return
  const body = JSON.stringify({ status: 500, message: `The fake could not build its control routes: ${(error as Error)?.message ?? String(error)}` })
  response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  response.end(body)
}
