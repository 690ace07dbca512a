// The fake as a server: builds the app and listens. createMockServer is the in-process
// API (the CLI's `serve` is a thin shell over it).
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { isIP } from 'node:net'
import { buildApp, type BuildOptions } from './app.js'
import type { Board } from './board.js'
import { resolveOptions, type ResolvedOptions } from './options.js'

export class ServerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServerError'
  }
}

/** Whether binding to this host keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1'
  return false
}

export interface MockServer {
  readonly app: FastifyInstance
  readonly options: ResolvedOptions
  /** The board behind the server: store, clock, rate-limit windows. */
  readonly board: Board
  /** http://HOST:PORT once listening. */
  readonly url: string
  /** Listens on the port given (default: the options'; 0 picks a free one) and answers the URL. */
  listen(port?: number): Promise<string>
  /** A request in-process, without a socket. */
  inject(request: InjectOptions | string): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

export async function createMockServer(input: BuildOptions = {}): Promise<MockServer> {
  const { scenarioData, ...rest } = input
  const options = resolveOptions(rest)
  const app = await buildApp({ ...options, ...(scenarioData ? { scenarioData } : {}) } as BuildOptions)
  let url: string | undefined
  return {
    app,
    options,
    get board() {
      return app.board
    },
    get url() {
      if (url === undefined) throw new ServerError('The mock server is not listening: call listen() first.')
      return url
    },
    async listen(port = options.port) {
      if (options.control && !isLoopback(options.host) && options.controlToken === undefined) {
        throw new ServerError(`Refusing to listen on ${options.host} with the control API open: give a control token (--control-token), or --control off.`)
      }
      await app.listen({ port, host: options.host })
      const address = app.server.address()
      if (address === null || typeof address === 'string') throw new ServerError('The server has no TCP address.')
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      url = `http://${host}:${address.port}`
      return url
    },
    inject: (request) => app.inject(request as InjectOptions),
    close: () => app.close(),
  }
}
