// interceptBoard: every request a client makes to a board's base URL, through
// node:http/https (and libraries on them) or the global fetch, is answered by the fake
// in-process via nock. Imported from `jobboard-kit/nock`, so that importing the package
// entry never patches http; nock itself is a peer dependency of this one module, loaded
// by the first interceptBoard call once its version is known to work on this Node (nock
// patches the network when loaded: nock 15 on Node 20 would break every socket).
// nock 14 hands reply functions (uri, body, callback); nock 15 hands them a fetch Request.
import type { FastifyInstance } from 'fastify'
import type nock from 'nock'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { ORIGIN_HEADER } from './http/in-process.js'
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

/** interceptBoard cannot work with the nock installed, on this Node: the message says which versions do. */
export class NockVersionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NockVersionError'
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
const major = (version: string) => Number.parseInt(version, 10)

/**
 * Why this pair of versions cannot work, or undefined when it can: nock 14 on Node 20 and
 * later; nock 15, whose interceptors need Node 22 (and which is an ES module, loaded here
 * with require, as Node does from 22.12), on Node 22.12 and later.
 */
export function nockSupport(nockVersion: string, nodeVersion: string): string | undefined {
  const [node = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number)
  const works = 'jobboard-kit/nock works with nock 14 on Node 20 or later, and nock 15 on Node 22.12 or later'
  if (![14, 15].includes(major(nockVersion))) return `${works}; nock ${nockVersion} is installed. Install one of those: npm install --save-dev nock@14`
  if (major(nockVersion) === 15 && (node < 22 || (node === 22 && minor < 12))) {
    return `${works}: nock ${nockVersion} cannot intercept fetch or http on Node ${nodeVersion.replace(/^v/, '')} (its interceptors need Node 22). Use nock 14 on this Node (npm install --save-dev nock@14), or Node 22.12 or later.`
  }
  return undefined
}

/**
 * Where `nock` resolves from here, if anywhere: as an import would from the sources; in the
 * built package (one CommonJS bundle) as a require would, without resolver hooks.
 */
function resolveNock(): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve('nock'))
  } catch {
    return undefined
  }
}

/** The version of the nock this module loads, if it can be read. */
export function installedNockVersion(): string | undefined {
  const main = resolveNock()
  if (main === undefined) return undefined
  let dir = dirname(main)
  for (let up = 0; up < 5; up++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'nock') return pkg.version
    } catch {
      // no package.json at this level: look further up
    }
  }
  return undefined
}

/** nock itself: CommonJS (14) or an ES module (15), loaded synchronously. */
function loadNock(): typeof nock {
  const main = resolveNock()
  if (main === undefined) throw new NockVersionError('jobboard-kit/nock needs nock installed beside it: npm install --save-dev nock@14')
  const loaded = createRequire(import.meta.url)(main) as typeof nock | { default: typeof nock }
  return 'default' in loaded && typeof loaded.default === 'function' ? loaded.default : (loaded as typeof nock)
}

function toPayload(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null || body === '') return undefined
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body
  return JSON.stringify(body)
}

type Reply = [status: number, body: Buffer | Readable, headers: Record<string, string>]

/**
 * Answers every request for `baseUrl` (any path, any method) from the fake. A dropped
 * connection fault reaches the client as a network error; a truncated body arrives
 * short of its Content-Length (node:http clients see `aborted`; fetch through nock 14
 * cannot be cut mid-body, so it sees fewer bytes than Content-Length says; through
 * nock 15 it fails mid-body, as over a socket).
 * Throws NockVersionError at once when the installed nock cannot work on this Node.
 */
export function interceptBoard(baseUrl: string, mock: MockServer | FastifyInstance): BoardInterception {
  const nockVersion = installedNockVersion() ?? '14'
  const unsupported = nockSupport(nockVersion, process.versions.node)
  if (unsupported) throw new NockVersionError(unsupported)
  const nock = loadNock()
  const app = 'inject' in mock && 'app' in mock ? mock.app : (mock as FastifyInstance)
  const origin = new URL(baseUrl).origin
  const made: InterceptedRequest[] = []
  if (!nock.isActive()) nock.activate()
  const scope = nock(origin).persist()

  /** The fake's answer to one request, or the network error a dropped connection is. */
  const cutStream = major(nockVersion) >= 15
  const answer = async (method: string, url: string, given: Record<string, string | undefined>, payload: string | Buffer | undefined): Promise<Reply> => {
    // the body's length is inject's to set, from the body it is given
    const { 'content-length': _length, ...headers } = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string>
    const response = await app.inject({ method: method as (typeof METHODS)[number], url, headers: { ...headers, [ORIGIN_HEADER]: origin }, ...(payload === undefined ? {} : { payload }) })
    const fault = response.headers['x-jobboard-kit-fault']
    made.push({ method, url, status: fault === 'drop' ? 0 : response.statusCode })
    if (fault === 'drop') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
    const { 'x-jobboard-kit-fault': _, ...answerHeaders } = response.headers
    const bytes = response.rawPayload
    if (fault !== 'truncate') return [response.statusCode, bytes, answerHeaders as Record<string, string>]
    const half = bytes.subarray(0, Math.floor(bytes.length / 2))
    // nock 15 streams the body: half of it, then the connection fails, as over a socket
    const cut = async function* () {
      yield half
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
    }
    return [response.statusCode, cutStream ? Readable.from(cut()) : half, answerHeaders as Record<string, string>]
  }

  const interceptors = METHODS.map((method) => scope.intercept(() => true, method))
  if (major(nockVersion) >= 15) {
    // nock 15: the reply function gets the request as a fetch Request, body unread
    for (const interceptor of interceptors) {
      const reply = async (request: Request): Promise<Reply> => {
        const { pathname, search } = new URL(request.url)
        const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
        return answer(request.method, `${pathname}${search}`, Object.fromEntries(request.headers), body && body.length > 0 ? body : undefined)
      }
      ;(interceptor.reply as unknown as (fn: typeof reply) => nock.Scope).call(interceptor, reply)
    }
  } else {
    // nock 14 hands reply functions a JSON body already parsed (and throws, uncaught, on bad JSON):
    // take the body as sent, before that, and stop nock from parsing it
    const sent = new WeakMap<object, { body: string; headers: Record<string, string> }>()
    scope.on('request', (req: { headers: Record<string, string> }, _interceptor: unknown, body: string) => {
      sent.set(req, { body, headers: { ...req.headers } })
      req.headers = { ...req.headers, 'content-type': 'application/x-jobboard-kit-raw' }
    })
    interceptors.forEach((interceptor, i) => {
      const method = METHODS[i] as string
      interceptor.reply(function (this: nock.ReplyFnContext, uri: string, body: nock.Body, done: (err: NodeJS.ErrnoException | null, result: nock.ReplyFnResult) => void) {
        const original = sent.get(this.req)
        answer(method, uri, original?.headers ?? (this.req.headers as Record<string, string>), toPayload(original ? original.body : body)).then(
          (reply) => done(null, reply),
          (error: Error) => done(error, [0, '']),
        )
      })
    })
  }
  return {
    baseUrl: origin,
    requests: () => [...made],
    stop: () => {
      for (const interceptor of interceptors) nock.removeInterceptor(interceptor)
    },
  }
}
