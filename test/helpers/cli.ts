// Runs the CLI as a child process from source, as `npm start` does.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } })
}

/** Starts `jobboard-kit serve` and answers its URL once it prints the listening line. */
export function serve(t: Test, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcessWithoutNullStreams; output: () => string }> {
  const child = runCli(['serve', '--port', '0', ...args], env)
  let out = ''
  let err = ''
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = /^jobboard-kit listening on (http:\/\/\S+)$/m.exec(out)
      if (match) resolve({ url: match[1] as string, child, output: () => out })
    })
    child.stderr.on('data', (chunk: Buffer) => (err += chunk))
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
  })
}

/** Runs the CLI to its end. */
export function runToEnd(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runCli(args, env)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}
