// Raw HTTP over a real socket, for what inject cannot send: malformed request lines,
// oversized headers, bodies that trickle in.
import type { FastifyInstance } from 'fastify'
import { connect, createServer, type Socket } from 'node:net'
import type { Test } from 'tap'
import { buildApp, type BuildOptions } from '../../src/fake/app.js'

/** A fake listening on 127.0.0.1 with a free port, closed when the test ends. */
export async function listening(t: Test, options: BuildOptions = {}): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildApp({ clock: 'virtual', rateLimitWindow: 0, ...options })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return { app, port: address.port }
}

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Parses the first HTTP answer of raw bytes (Content-Length framed). */
export function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n')
  const [line = '', ...lines] = raw.slice(0, end).split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  const length = Number(headers['content-length'] ?? raw.length)
  return { status: Number(line.split(' ')[1]), headers, body: raw.slice(end + 4, end + 4 + length) }
}

/** Writes raw bytes and collects everything until the server closes the connection (or `waitMs` passes). */
export function rawRequest(port: number, text: string, waitMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(received)
    }, waitMs)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('error', (error) => {
      clearTimeout(timer)
      if (received) resolve(received)
      else reject(error)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.write(text, 'latin1')
  })
}

/** A port that was free a moment ago, for a process told its port (JOBBOARD_PORT, a container's). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}
