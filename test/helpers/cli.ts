// Runs the CLI for tests. In process (runToEnd, serve): main(argv, io) with the output
// captured, the environment given and signals sent by the test, which is what most CLI
// tests need and costs no process start. As a real process from source (runCli,
// serveProcess, runProcessToEnd), as `npm start` does: for what only a process shows
// (signals from the system, the exit of the process, a terminal, Fastify's JSON log on fd 1).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'
import { main, type CliProcess } from '../../src/cli/main.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What a run in process wrote, and a way to send it SIGINT or SIGTERM. */
export interface CapturedIo {
  io: CliProcess
  stdout(): string
  stderr(): string
  /** Calls back after each write to stdout. */
  onStdout(listener: () => void): void
  signal(signal: NodeJS.Signals): void
}

/** An io for main(): stdout and stderr kept as text (not a terminal), env over process.env, exit only noted. */
export function captureIo(env: NodeJS.ProcessEnv = {}): CapturedIo {
  let out = ''
  let err = ''
  const outListeners: Array<() => void> = []
  const signalListeners = new Set<(signal: NodeJS.Signals) => void>()
  const io: CliProcess = {
    stdout: {
      isTTY: false,
      write: (text: string) => {
        out += text
        for (const listener of outListeners) listener()
        return true
      },
    },
    stderr: { write: (text: string) => (err += text) },
    env: { ...process.env, ...env },
    // main answers the code; a process would leave here, a test carries on
    exit: () => {},
    onSignal: (listener) => {
      signalListeners.add(listener)
      return () => signalListeners.delete(listener)
    },
  }
  return {
    io,
    stdout: () => out,
    stderr: () => err,
    onStdout: (listener) => outListeners.push(listener),
    signal: (signal) => {
      for (const listener of [...signalListeners]) listener(signal)
    },
  }
}

const argvOf = (args: string[]) => [process.execPath, 'jobboard-kit', ...args]
const READY = /^jobboard-kit listening on (http:\/\/\S+)$/m

export interface Served {
  url: string
  output: () => string
  stderr: () => string
  /** What serve had said on stderr when it printed the listening line. */
  stderrAtReady: string
  /** Sends the signal and answers serve's exit code once it has closed. */
  stop(signal?: NodeJS.Signals): Promise<number>
}

/** Starts `jobboard-kit serve` in process and answers its URL once it prints the listening line; stopped at teardown. */
export async function serve(t: Test, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const captured = captureIo(env)
  const ended = main(argvOf(['serve', '--port', '0', ...args]), captured.io)
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    captured.signal(signal)
    return ended
  }
  t.teardown(() => stop())
  const { url, stderrAtReady } = await new Promise<{ url: string; stderrAtReady: string }>((resolve, reject) => {
    const ready = () => {
      const match = READY.exec(captured.stdout())
      if (match) resolve({ url: match[1] as string, stderrAtReady: captured.stderr() })
    }
    captured.onStdout(ready)
    ready()
    void ended.then((code) => reject(new Error(`serve ended ${code}: ${captured.stderr()}`)))
  })
  return { url, output: captured.stdout, stderr: captured.stderr, stderrAtReady, stop }
}

/** Runs the CLI in process to its end. */
export async function runToEnd(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIo(env)
  const code = await main(argvOf(args), captured.io)
  return { code, stdout: captured.stdout(), stderr: captured.stderr() }
}

/** The CLI as a child process, from source (loaded as the tests are: test/helpers/register.mjs). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', './test/helpers/register.mjs', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } })
}

/** Starts `jobboard-kit serve` as a process and answers its URL once it prints the listening line. */
export function serveProcess(t: Test, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcessWithoutNullStreams; output: () => string }> {
  const child = runCli(['serve', '--port', '0', ...args], env)
  let out = ''
  let err = ''
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = READY.exec(out)
      if (match) resolve({ url: match[1] as string, child, output: () => out })
    })
    child.stderr.on('data', (chunk: Buffer) => (err += chunk))
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
  })
}

/** Runs the CLI as a process to its end. */
export function runProcessToEnd(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runCli(args, env)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}
