// interceptBoard: every request a client makes to a board's base URL, through
// node:http/https (and libraries on them) or the global fetch, is answered by the fake
// in-process via nock. Imported from `jobboard-kit/nock`, so that importing the package
// entry never patches http; nock itself is a peer dependency of this one module.
import type { FastifyInstance } from 'fastify'
import nock from 'nock'
import { ORIGIN_HEADER } from './routes/reply.js'
import type { MockServer } from './server.js'

export interface InterceptedRequest {
  method: string
  /** Path and query string as the client sent them. */
  url: string
  status: number
}

export interface BoardInterception {
  readonly baseUrl: string
  /** The requests answered so far, in order (status 0 for a dropped connection). */
  requests(): InterceptedRequest[]
  /** Stops answering; the base URL is no longer intercepted. */
  stop(): void
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

function toPayload(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null || body === '') return undefined
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body
  return JSON.stringify(body)
}

/**
 * Answers every request for `baseUrl` (any path, any method) from the fake. A dropped
 * connection fault reaches the client as a network error; a truncated body arrives
 * short of its Content-Length (node:http clients see `aborted`; fetch through nock
 * cannot be cut mid-body, so it sees fewer bytes than Content-Length says).
 */
export function interceptBoard(baseUrl: string, mock: MockServer | FastifyInstance): BoardInterception {
  const app = 'inject' in mock && 'app' in mock ? mock.app : (mock as FastifyInstance)
  const origin = new URL(baseUrl).origin
  const made: InterceptedRequest[] = []
  if (!nock.isActive()) nock.activate()
  const scope = nock(origin).persist()
  // nock hands reply functions a JSON body already parsed (and throws, uncaught, on bad JSON):
  // take the body as sent, before that, and stop nock from parsing it
  const sent = new WeakMap<object, { body: string; headers: Record<string, string> }>()
  scope.on('request', (req: { headers: Record<string, string> }, _interceptor: unknown, body: string) => {
    sent.set(req, { body, headers: { ...req.headers } })
    req.headers = { ...req.headers, 'content-type': 'application/x-jobboard-kit-raw' }
  })
  const interceptors = METHODS.map((method) => {
    const interceptor = scope.intercept(() => true, method)
    interceptor.reply(function (this: nock.ReplyFnContext, uri: string, body: nock.Body, done: (err: NodeJS.ErrnoException | null, result: nock.ReplyFnResult) => void) {
      const original = sent.get(this.req)
      const given = original?.headers ?? (this.req.headers as Record<string, string>)
      // the body's length is inject's to set, from the body it is given
      const { 'content-length': _length, ...headers } = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string>
      const payload = toPayload(original ? original.body : body)
      app
        .inject({ method, url: uri, headers: { ...headers, [ORIGIN_HEADER]: origin }, ...(payload === undefined ? {} : { payload }) })
        .then((response) => {
          const fault = response.headers['x-jobboard-kit-fault']
          made.push({ method, url: uri, status: fault === 'drop' ? 0 : response.statusCode })
          const { 'x-jobboard-kit-fault': _, ...answerHeaders } = response.headers
          if (fault === 'drop') {
            done(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), [0, ''])
            return
          }
          const bytes = response.rawPayload
          const sent = fault === 'truncate' ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes
          done(null, [response.statusCode, sent, answerHeaders as Record<string, string>])
        })
        .catch((error: Error) => done(error, [0, '']))
    })
    return interceptor
  })
  return {
    baseUrl: origin,
    requests: () => [...made],
    stop: () => {
      for (const interceptor of interceptors) nock.removeInterceptor(interceptor)
    },
  }
}
