// Starts one bench server (bench/server.ts: the bare Fastify ceiling or a fake board) in a
// child process on a given Node, and waits until it listens: its URLs, its build time, its
// process id (the throughput rounds read its CPU time from /proc) and how to stop it.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Build } from './report.js'
import type { ServerCpu, ServerReady, ServerSpec } from './server.js'

export interface Server {
  url: string
  /** With `twin`: the same board with the verdict off, in the same process. */
  offUrl?: string | undefined
  build: Build
  /** The child's process id. */
  pid: number
  /** CPU time the server process has used, in microseconds. */
  cpu(): Promise<number>
  close(): Promise<void>
}

const SERVER_FILE = fileURLToPath(new URL('./server.ts', import.meta.url))

/** Starts bench/server.ts in a child process on a Node and waits, at most timeoutMs, until it listens. */
export function startServer(name: string, spec: ServerSpec, timeoutMs: number, node: string): Promise<Server> {
  // fork keeps this process's execArgv, so the child loads TypeScript through tsx too, on whichever Node runs it.
  const child: ChildProcess = fork(SERVER_FILE, [JSON.stringify(spec)], { execPath: node, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    if (child.connected) child.send('close')
    const late = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(late)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name} did not listen within ${timeoutMs / 1000} s.`))
    }, timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${signal ?? code}) before it listened.`))
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    // The child answers one message at a time, so each 'cpu' reply belongs to the oldest asker.
    const cpuWaiting: Array<(micros: number) => void> = []
    const cpu = () =>
      new Promise<number>((answer) => {
        cpuWaiting.push(answer)
        child.send('cpu')
      })
    child.on('message', (message: ServerReady | ServerCpu) => {
      if (message.type === 'cpu') {
        cpuWaiting.shift()?.(message.micros)
        return
      }
      clearTimeout(timer)
      resolve({ url: message.url, offUrl: message.offUrl, pid: child.pid ?? 0, build: { name, ms: message.buildMs, rssBytes: message.rss }, cpu, close })
    })
  })
}
