// `jobboard-kit contract`: the command that points the schemas at a deployment. Flags
// or JOBBOARD_* variables give the settings (so CI secrets stay off the command line);
// SIGINT or SIGTERM stops the run, which still deletes what it made; the exit code is
// 0 (every planned check made, or --min-coverage of them, and conforming), 1 (a check
// failed, or a job is left behind), 2 (usage or connection error, refused credentials,
// interrupted) or 3 (incomplete: planned checks not made, none failed), with a one-line
// reason on stderr.
import type { Command } from 'commander'
import type { Output } from '../contract/run.js'
import { contractOptions } from '../../schemas/contract.js'
import { schemaOptions } from '../core/cli-options.js'
import { resolveSettings, UsageError, type ContractFlags, type ContractSettings } from '../contract/settings.js'

export interface ContractProcess {
  stdout: Output
  stderr: Output
  env: NodeJS.ProcessEnv
  exit(code: number): never | void
  /** Calls back on SIGINT and SIGTERM; answers a function that stops listening. */
  onSignal(listener: (signal: NodeJS.Signals) => void): () => void
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']

/** The real process: its streams, environment, exit and signals (src/cli/main.ts uses it too). */
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
} satisfies ContractProcess

export async function contractAction(flags: ContractFlags, io: ContractProcess = nodeProcess): Promise<number> {
  const say = (reason: string) => io.stderr.write(`jobboard-kit contract: ${reason}\n`)
  let settings: ContractSettings
  try {
    settings = resolveSettings(flags, io.env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    say(error.message)
    return 2
  }
  const { controller, stopListening } = stopOnSignal(io, say, 'deleting what this run made', 'without cleaning up')
  try {
    // loaded here, not at the top: `serve` need not load tap
    const { runContract } = await import('../contract/run.js')
    const result = await runContract(settings, { stdout: io.stdout, stderr: io.stderr, signal: controller.signal })
    if (result.reason !== undefined) say(result.reason)
    return result.exitCode
  } finally {
    stopListening()
  }
}

/**
 * The first SIGINT or SIGTERM aborts the controller (the run stops and `first` says what
 * it does then); a second one leaves at once, exit 2.
 */
export function stopOnSignal(io: ContractProcess, say: (line: string) => void, first: string, second: string): { controller: AbortController; stopListening: () => void } {
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
  io: ContractProcess,
  spec: { name: string; description: string; options: { properties: object }; action: (flags: Flags, io: ContractProcess) => Promise<number> },
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

/** Adds `contract` to the jobboard-kit program. */
export function addContractCommand(program: Command, io: ContractProcess = nodeProcess): Command {
  return addRunCommand(program, io, {
    name: 'contract',
    description: 'Check a deployment of the Job Board API against the spec and its schemas (docs/contract.md).',
    options: contractOptions,
    action: contractAction,
  })
}
