// What every command reads and writes, and how it leaves: the process (nodeProcess), or a
// test's stand-in that captures the output and sends signals without a process; and the
// pieces the commands share: a usage error as one line, a signal that stops a run, a
// command whose flags come from an options schema.
import type { Command } from 'commander'
import type { Output } from '../contract/run.js'
import { schemaOptions } from '../core/cli-options.js'

export interface CommandIo {
  stdout: Output & { readonly isTTY?: boolean }
  stderr: Output & { readonly isTTY?: boolean }
  env: NodeJS.ProcessEnv
  exit(code: number): never | void
  /** Calls back on SIGINT and SIGTERM; answers a function that stops listening. */
  onSignal(listener: (signal: NodeJS.Signals) => void): () => void
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']

/** The real process: its streams, environment, exit and signals. */
export const nodeProcess = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  exit: (code) => process.exit(code),
  onSignal: (listener) => {
    for (const signal of SIGNALS) process.on(signal, listener)
    return () => {
      for (const signal of SIGNALS) process.off(signal, listener)
    }
  },
} satisfies CommandIo

/** `see jobboard-kit serve --help`: where to read about the command that was misused. */
export const seeHelp = (command?: string) => `see jobboard-kit${command ? ` ${command}` : ''} --help`

/** A commander message ("error: unknown option '--prot'\n(Did you mean --port?)") as one line. */
export const oneLine = (message: string, command?: string) =>
  `jobboard-kit: ${message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim().replace(/\.$/, '')}; ${seeHelp(command)}\n`

/**
 * The first SIGINT or SIGTERM aborts the controller (the run stops and `first` says what
 * it does then); a second one leaves at once, exit 2.
 */
export function stopOnSignal(io: CommandIo, say: (line: string) => void, first: string, second: string): { controller: AbortController; stopListening: () => void } {
  const controller = new AbortController()
  const stopListening = io.onSignal((signal) => {
    // a second signal means now
    if (controller.signal.aborted) {
      say(`${signal} again: stopped ${second}`)
      io.exit(2)
      return
    }
    say(`${signal}: stopping, ${first}`)
    controller.abort(signal)
  })
  return { controller, stopListening }
}

/** Adds a command whose flags come from an options schema and whose action answers the exit code. */
export function addRunCommand<Flags>(
  program: Command,
  io: CommandIo,
  spec: { name: string; description: string; options: { properties: object }; action: (flags: Flags, io: CommandIo) => Promise<number> },
): Command {
  const command = program
    .command(spec.name)
    .description(spec.description)
    .action(async (flags: Flags) => {
      const code = await spec.action(flags, io)
      // undici keeps idle connections open for a while: leave now rather than wait for them
      io.exit(code)
    })
  for (const option of schemaOptions(spec.options)) command.addOption(option)
  return command
}

