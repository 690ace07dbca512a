// `jobboard-kit proxy`: a pass-through in front of a deployment that checks every answer
// against the contract kit's rules and judges the client by the verdict the fake holds its
// clients to, at no cost in requests (docs/proxy.md). One node:http server: a request
// under /__mock goes to a small Fastify app (the proxy's own routes and the page of
// src/watch/ui) and never upstream; every other request goes upstream as sent
// (forward.ts). Each is then handed to the watching layer as an exchange and its answer
// held to the contract kit's checks of one answer (judged-traffic.ts); the /__mock routes
// serve what that holds (mock-routes.ts). This file is the proxy's face: createProxy, its
// options and what it answers.
import Fastify, { type FastifyInstance } from 'fastify'
import { Agent as HttpAgent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { API_PREFIX } from '../../schemas/common.js'
import { OptionsError } from '../core/errors.js'
import { createClock } from '../core/clock.js'
import { AnswerChecks } from '../contract/answer.js'
import { isDownloadPath } from '../contract/wire.js'
import type { Journal } from '../watch/journal.js'
import type { DetailedVerdict } from '../watch/verdict/verdict-types.js'
import { type LoadedProfile, loadProfile } from '../profile/deployment-profile.js'
import { AnswerMemo } from './answer-memo.js'
import { forward, type Upstream } from './forward.js'
import { JudgedTraffic, type Observation, type Violation } from './judged-traffic.js'
import { linkRewriter } from './link-rewrite.js'
import { registerMockRoutes } from './mock-routes.js'
import { profilePoints } from './profile-points.js'
import { accountLines, ProxyRecording, type RecordingAccount } from './recording.js'

export type { Observation, Violation }

export interface ProxyOptions {
  /** The deployment's {base_url}. */
  to: string
  host?: string
  port?: number
  control?: boolean
  controlToken?: string
  keepLinks?: boolean
  upstreamTimeout?: number
  checkBytes?: number
  log?: 'pretty' | 'json' | 'off'
  /** A deployment profile (a path, or one loaded): its points one answer shows are held to it (profile-points.ts). */
  profile?: string | LoadedProfile
  /** Writes what passed through as a scenario the fake loads, at close (recording.ts). */
  record?: string
}

/** Where the proxy writes as it works: a line per request (--log), a line per violation. */
export interface ProxyHooks {
  /** The request log (stdout). */
  write?: (line: string) => void
  /** A violation, as it happens (stderr). */
  warn?: (line: string) => void
  /** The clock's time in epoch ms (a test's); the machine's by default. */
  now?: () => number
}

export interface RunningProxy {
  /** The listening URL, once listening. */
  readonly url: string
  listen(): Promise<string>
  close(): Promise<void>
  readonly journal: Journal
  violations(): Violation[]
  observations(): Observation[]
  verdict(): DetailedVerdict
  /** What the page of /__mock/ui shows beside the journal: the verdict, what staging broke above it, the clock (`/__mock/ui/board`). */
  view(): object
  /** Requests sent upstream so far. */
  readonly upstreamRequests: number
  /** The deployment it stands in front of: --to's base URL (which carries no credentials). */
  readonly to: string
  /** Violations found and not kept, past MAX_VIOLATIONS. */
  readonly droppedViolations: number
  /** What --record wrote at close (undefined before, or without --record). */
  readonly recorded: RecordingAccount | undefined
}

/** A --to, --host or token the proxy cannot start with: a usage error (one line, exit 2). */
export class ProxyError extends OptionsError {
  override name = 'ProxyError'
}

const LOOPBACK = /^(127\.[0-9.]+|::1|localhost|\[::1\])$/i

/** The upstream a --to URL names, refused in one line when it is none. */
export function upstreamOf(to: string): Upstream {
  if (!/^https?:\/\//i.test(to) || !URL.canParse(to)) throw new ProxyError(`--to ${JSON.stringify(to)} is not an http(s) URL: give the deployment's base URL, such as https://staging.example.com`)
  const url = new URL(to)
  if (url.username !== '' || url.password !== '') throw new ProxyError('--to carries credentials: give the bare base URL; the client sends its own credentials, which the proxy passes on')
  if (url.search !== '' || url.hash !== '') throw new ProxyError(`--to ${JSON.stringify(`${url.origin}${url.pathname}`)}… carries a query or a fragment: give the base URL alone`)
  const https = url.protocol === 'https:'
  const basePath = url.pathname.replace(/\/+$/, '')
  return {
    protocol: https ? 'https:' : 'http:',
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
    host: url.host,
    basePath,
    base: `${url.origin}${basePath}`,
    agent: https ? new HttpsAgent({ keepAlive: true, maxSockets: 256 }) : new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  }
}

export function createProxy(options: ProxyOptions, hooks: ProxyHooks = {}): RunningProxy {
  const upstream = upstreamOf(options.to)
  const host = options.host ?? '127.0.0.1'
  const control = options.control ?? true
  if (control && options.controlToken === undefined && !LOOPBACK.test(host)) {
    throw new ProxyError(`--host ${host} is not loopback: give --control-token (the /__mock routes show the traffic), or --control off`)
  }
  const timeoutMs = options.upstreamTimeout ?? 30_000
  const holdBytes = options.checkBytes ?? 8 * 1024 * 1024
  const links = options.keepLinks ? undefined : linkRewriter(upstream.base)
  const realClock = hooks.now === undefined ? createClock('real', 0) : undefined
  const now = hooks.now ?? (() => (realClock as { now(): number }).now())
  const checks = new AnswerChecks(upstream.base)
  /** What the proxy made of each distinct answer, used again when it comes again (answer-memo.ts). */
  const memo = new AnswerMemo()
  const loaded = options.profile === undefined ? undefined : loadProfile(options.profile)
  const points = loaded === undefined ? undefined : profilePoints(loaded, `${upstream.base}${API_PREFIX}`)
  const recording = options.record === undefined ? undefined : new ProxyRecording(options.record, upstream.base)
  let recorded: RecordingAccount | undefined
  /** The journal, the verdict, the violations and observations: the traffic judged both ways (judged-traffic.ts). */
  const traffic = new JudgedTraffic({ upstream, checks, points, recording, now, log: options.log, write: hooks.write, warn: hooks.warn })
  const journal = traffic.journal
  let sentUpstream = 0
  let url = ''

  const passThrough = (request: IncomingMessage, response: ServerResponse) => {
    const started = now()
    const path = (request.url ?? '/').split('?', 1)[0] as string
    const apiPath = checks.apiPath(`${upstream.basePath}${path}`)
    forward(request, response, {
      upstream,
      links,
      timeoutMs,
      holdBytes,
      download: apiPath !== undefined && isDownloadPath(apiPath),
      memo,
      sent: () => {
        sentUpstream += 1
      },
      done: (passed) => {
        try {
          traffic.record(request, passed, started)
        } catch (error) {
          hooks.warn?.(`jobboard-kit proxy: could not record ${request.method} ${path}: ${String(error)}\n`)
        }
      },
    })
  }

  const verdict = () => traffic.verdict()
  const view = () => traffic.view(sentUpstream)

  const app: FastifyInstance = Fastify({
    serverFactory: (handler) =>
      createServer((request, response) => {
        const url = request.url ?? '/'
        // the proxy's own routes never go upstream, whatever they are
        if (url === '/__mock' || url.startsWith('/__mock/') || url.startsWith('/__mock?')) handler(request, response)
        else passThrough(request, response)
      }),
  })
  registerMockRoutes(app, traffic, { control, controlToken: options.controlToken, view })

  return {
    get url() {
      return url
    },
    get journal() {
      return journal
    },
    get upstreamRequests() {
      return sentUpstream
    },
    get to() {
      return upstream.base
    },
    get droppedViolations() {
      return traffic.droppedViolations
    },
    get recorded() {
      return recorded
    },
    async listen() {
      await app.listen({ host, port: options.port ?? 4010 })
      const address = (app.server as Server).address()
      const port = typeof address === 'object' && address !== null ? address.port : options.port
      url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
      return url
    },
    async close() {
      if (recording !== undefined && recorded === undefined) {
        // what passed through, as a scenario: the profile's points, where one is given, name the deployment's choices
        recorded = recording.write(now(), (loaded?.points ?? {}) as Record<string, { value?: unknown } | undefined>)
        const { out, loss } = accountLines(recorded)
        hooks.write?.(out)
        if (loss !== undefined) hooks.warn?.(loss)
      }
      ;(app.server as Server).closeAllConnections?.()
      await app.close()
      upstream.agent.destroy()
    },
    violations: () => traffic.violations(),
    observations: () => traffic.observations(),
    verdict,
    view,
  }
}
