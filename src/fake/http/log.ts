// The request log: `off`, Fastify's own JSON lines (`json`), or one readable line per
// request (`pretty`: time, method, URL, status, milliseconds and a mark for a 429, a
// fault or a Prefer answer). Pretty lines go through pino and pino-pretty's formatter,
// loaded only when asked for and run synchronously in-process, so lines come out in
// order and nothing is left in a worker when the process stops.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createRequire } from 'node:module'
import { parsePrefer } from './prefer.js'
import type { ServerOptions } from '../../core/types.js'

export type LogMode = NonNullable<ServerOptions['log']>

/** The mode in effect: `log` when given, else the deprecated `logger` switch. */
export function logMode(options: { readonly log?: LogMode | undefined; readonly logger?: boolean | undefined }): LogMode {
  return options.log ?? (options.logger ? 'json' : 'off')
}

/** Colours unless NO_COLOR is set (https://no-color.org); on a terminal, or anywhere with FORCE_COLOR. */
export function useColour(env: NodeJS.ProcessEnv = process.env, isTTY = Boolean(process.stdout.isTTY)): boolean {
  if (env.NO_COLOR) return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return isTTY
}

/** What a request's answer was besides its status: a rate limit, a fault, a Prefer answer. */
export interface LoggedRequest {
  method: string
  url: string
  /** 0 when no status was sent (a dropped connection, a client that gave up). */
  status: number
  ms: number
  mark?: string
}

export type RequestLog = (request: FastifyRequest, reply: FastifyReply, status: number) => void

/** The mark of an answer, or undefined for an ordinary one. */
export function markOf(request: FastifyRequest, status: number, preferOn: boolean): string | undefined {
  const fault = request.fault
  if (fault) {
    const kind = fault.drop ? 'drop' : fault.truncate ? 'truncate' : fault.status !== undefined ? String(fault.status) : `delay ${fault.delayMs} ms`
    return `fault: ${kind}`
  }
  if (status === 429) return 'rate limited'
  const preference = preferOn ? parsePrefer(request.headers.prefer) : undefined
  if (preference && preference.code === status) return `Prefer: code=${preference.code}`
  if (status === 0) return 'the client closed the connection'
  return undefined
}

type Colours = Record<'green' | 'cyan' | 'yellow' | 'red' | 'magenta' | 'gray' | 'bold', (text: string) => string>

function statusColour(colours: Colours, status: number): (text: string) => string {
  if (status >= 500 || status === 0) return colours.red
  if (status >= 400) return colours.yellow
  if (status >= 300) return colours.cyan
  return colours.green
}

/** One line's text after the time stamp: `GET /api/v1/metrics/list 200 1.2 ms  ← rate limited`. */
export function formatLine(entry: LoggedRequest, colours: Colours): string {
  const status = statusColour(colours, entry.status)(entry.status === 0 ? '---' : String(entry.status))
  const ms = colours.gray(`${entry.ms.toFixed(1)} ms`)
  const mark = entry.mark ? `  ${colours.magenta(`← ${entry.mark}`)}` : ''
  return `${colours.bold(entry.method)} ${entry.url} ${status} ${ms}${mark}`
}

/**
 * The pretty request log: a function for the app's response hooks that writes one line
 * per request to `write` (stdout by default). pino and pino-pretty are loaded here, on demand,
 * and required (both are CommonJS): left out of the bundle, they load from node_modules.
 */
export async function prettyRequestLog(options: {
  prefer: boolean
  colour?: boolean
  write?: (line: string) => void
}): Promise<RequestLog> {
  const require = createRequire(import.meta.url)
  const { pino } = require('pino') as typeof import('pino')
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty')
  const write = options.write ?? ((line: string) => void process.stdout.write(line))
  const prettify = prettyFactory({
    colorize: options.colour ?? useColour(),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,request',
    hideObject: true,
    messageKey: 'msg',
    messageFormat: (log, _key, _level, { colors }) => formatLine(log.request as LoggedRequest, colors as unknown as Colours),
  })
  // pino gives each line its time stamp and JSON; the prettifier turns it into text at once
  const logger = pino({ base: null }, { write: (json: string) => write(prettify(json)) })
  return (request, reply, status) => {
    const mark = markOf(request, status, options.prefer)
    const entry: LoggedRequest = { method: request.method, url: request.url, status, ms: reply.elapsedTime, ...(mark ? { mark } : {}) }
    // the level says how it went: INFO for an answer, WARN for a client error, ERROR for a server error or none
    const level = status === 0 || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
    logger[level]({ request: entry })
  }
}
