// The server side of the benchmark, run as a child process by bench/run.ts: either the
// bare Fastify ceiling or one fake board (with --verdict, two: the same board with the
// verdict on and off, on two ports of one process). It listens on 127.0.0.1, reports its
// URLs and build time over IPC, and stops when the parent says so or goes away. Keeping
// the server in its own process gives it a core of its own, apart from the load generator.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'

/** What the parent asks this child to serve (passed as JSON in argv[2]). */
export type ServerSpec =
  | { kind: 'ceiling' }
  /**
   * `twin`: also the same board with the verdict off, in this process, so that the two
   * meet the same compiled code and heap (one process's JIT may settle faster or slower
   * than another's, by more than the verdict costs).
   */
  | { kind: 'fake'; scenario: string; rateLimitWindow: number; verdict?: boolean; twin?: boolean }

/** The child's first message, once it listens. */
export interface ServerReady {
  type: 'ready'
  url: string
  /** Milliseconds spent building the app (for a fake: generating the board), not listening. */
  buildMs: number
  /** Resident set size once built, in bytes. */
  rss: number
  /** The twin board's URL (verdict off), when asked for. */
  offUrl?: string | undefined
}

/** The answer to a 'cpu' message: CPU time this process has used so far, user and system. */
export interface ServerCpu {
  type: 'cpu'
  micros: number
}

interface Listening {
  url: string
  offUrl?: string | undefined
  buildMs: number
  close(): Promise<void>
}

async function start(spec: ServerSpec): Promise<Listening> {
  if (spec.kind === 'ceiling') {
    // The least a Fastify route can do: no auth, no validation, no response schema. What
    // the fake costs on top of this is what the ratios show.
    const started = performance.now()
    const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 })
    app.get('/', async () => ({ hello: 'world' }))
    // The same bytes as the fake's answers, copied in by the bench (targets.ts,
    // sameBytes; throughput.ts, copyAnswers): what a bare Fastify route sending those
    // bodies can do. A JSON body is kept as the string a route would return, a file as
    // bytes. The wrk rounds copy the answer's status and headers too, keep every body as
    // bytes (`bytes`: a Buffer is sent without the UTF-8 encoding a string costs on each
    // answer, 30 µs for a 59 KB page: the least a route can do), and the
    // Authorization header the fake was asked with: then the route checks it first (a
    // string compare, as the least a Basic check can be) and answers 401 to any other.
    interface Copy {
      status: number
      headers: Record<string, string>
      body: string | Buffer
      auth: string | undefined
    }
    const copies = new Map<string, Copy>()
    app.put<{ Body: { path: string; type: string; base64: string; method?: string; status?: number; headers?: Record<string, string>; auth?: string; bytes?: boolean } }>(
      '/__bytes',
      async (request) => {
        const { path, type, base64, method = 'GET', status = 200, headers = {}, auth, bytes: asBytes = false } = request.body
        const bytes = Buffer.from(base64, 'base64')
        copies.set(`${method} ${path}`, {
          status,
          headers: { ...headers, 'content-type': type },
          body: type.startsWith('application/json') && !asBytes ? bytes.toString('utf8') : bytes,
          auth,
        })
        return { ok: true }
      },
    )
    const copied = async (request: FastifyRequest, reply: FastifyReply) => {
      const copy = copies.get(`${request.method} ${request.url}`)
      if (copy === undefined) return reply.code(404).send({ status: 404 })
      if (copy.auth !== undefined && request.headers.authorization !== copy.auth) return reply.code(401).send({ status: 401 })
      return reply.code(copy.status).headers(copy.headers).send(copy.body)
    }
    app.get('/*', copied)
    // a POST's JSON body is parsed, as any Fastify route's is, then the copy is sent
    app.post('/*', copied)
    await app.ready()
    const buildMs = performance.now() - started
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    return { url, buildMs, close: () => app.close() }
  }
  // A virtual clock keeps every run on the scenario's own date, so the same job/add body
  // and since values stay valid whenever the bench is run.
  // Imported here so that the ceiling's process loads nothing of the fake.
  const { createMockServer } = await import('../src/fake/server.js')
  const make = async (verdict: boolean) => {
    const server = await createMockServer({ scenario: spec.scenario, rateLimitWindow: spec.rateLimitWindow, verdict, clock: 'virtual', host: '127.0.0.1' })
    // Route schemas compile at ready(); they are part of what a test waits for.
    await server.app.ready()
    return server
  }
  const started = performance.now()
  const server = await make(spec.verdict ?? true)
  const buildMs = performance.now() - started
  const url = await server.listen(0)
  if (spec.twin !== true) return { url, buildMs, close: () => server.close() }
  const off = await make(false)
  const offUrl = await off.listen(0)
  return { url, offUrl, buildMs, close: async () => void (await Promise.all([server.close(), off.close()])) }
}

async function main(): Promise<void> {
  const send = process.send?.bind(process)
  if (send === undefined) throw new Error('bench/server.ts is started by bench/run.ts, with an IPC channel.')
  const spec = JSON.parse(process.argv[2] ?? '') as ServerSpec
  const listening = await start(spec)
  const ready: ServerReady = { type: 'ready', url: listening.url, offUrl: listening.offUrl, buildMs: listening.buildMs, rss: process.memoryUsage().rss }
  send(ready)

  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    listening.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('message', (message) => {
    if (message === 'close') stop()
    if (message === 'cpu') {
      // Whether a run kept this server busy, or it sat waiting on the load generator.
      const { user, system } = process.cpuUsage()
      const cpu: ServerCpu = { type: 'cpu', micros: user + system }
      send(cpu)
    }
  })
  // The parent died or closed the channel: never outlive it.
  process.on('disconnect', stop)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
