// A tap on the line to an upstream, for the proxy's tests: a plain node:http server that
// passes each request on to `target` (another server of the suite) and its answer back,
// counting what it was sent, so a test knows exactly which requests reached the upstream.
// `mutate` may change a JSON answer on its way (a deployment that breaks a rule), and
// `answer` may answer a request itself (a deployment that misbehaves on the wire).
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface UpstreamTap {
  /** The tap's base URL: the target's path kept. */
  url: string
  /** Each request the tap was sent: `METHOD /path?query`, and its headers and body. */
  requests: Array<{ line: string; headers: IncomingMessage['headers']; rawHeaders: string[]; body: Buffer }>
  close(): Promise<void>
}

export interface TapOptions {
  /** Changes a JSON answer of a path (the body parsed; the request's whole URL beside); answers the body to send instead. */
  mutate?: (path: string, body: unknown, url: string) => unknown
  /** Answers a request itself, instead of passing it on; true when it did. */
  answer?: (request: IncomingMessage, response: ServerResponse) => boolean
}

export async function tapUpstream(target: string, options: TapOptions = {}): Promise<UpstreamTap> {
  const to = new URL(target)
  const requests: UpstreamTap['requests'] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({ line: `${request.method} ${request.url}`, headers: request.headers, rawHeaders: request.rawHeaders, body })
      if (options.answer?.(request, response)) return
      // the Host as sent to the tap: a deployment behind it writes its links on the tap's origin
      const headers = request.headers
      const out = httpRequest({ hostname: to.hostname, port: to.port, method: request.method, path: request.url, headers }, (answer) => {
        const mutate = options.mutate
        const type = answer.headers['content-type'] ?? ''
        if (mutate === undefined || !/json/.test(type)) {
          response.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
          answer.pipe(response)
          return
        }
        const parts: Buffer[] = []
        answer.on('data', (chunk: Buffer) => parts.push(chunk))
        answer.on('end', () => {
          const path = (request.url ?? '/').split('?', 1)[0] as string
          const text = Buffer.concat(parts).toString('utf8')
          const changed = Buffer.from(JSON.stringify(mutate(path, JSON.parse(text), request.url ?? '/')))
          const headers: Record<string, string> = {}
          for (const [name, value] of Object.entries(answer.headers)) if (typeof value === 'string' && name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value
          response.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(changed.length) })
          response.end(changed)
        })
      })
      out.on('error', () => response.destroy())
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${to.pathname.replace(/\/+$/, '')}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
