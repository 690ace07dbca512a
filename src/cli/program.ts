// What every build of the command line shares: the program's root (its name, version,
// output and usage errors), the one line a failure is reported in, and the run that turns
// the program's end into an exit code. main.ts wires every command onto it; serve-main.ts
// wires `serve` alone, for the bundle `jobboard-kit serve` starts from (scripts/bundle.mjs).
import { Command, CommanderError } from 'commander'
import { asFlags } from '../core/cli-options.js'
import { OptionsError } from '../core/errors.js'
import { PACKAGE_VERSION } from '../core/paths.js'
import { ActivityError } from '../fake/activity/load.js'
import { ScenarioError } from '../fake/scenario.js'
import { ServerError } from '../fake/server.js'
import { ProfileError } from '../profile/deployment-profile.js'
import { type CommandIo, nodeProcess, oneLine } from './io.js'

/** Where the CLI reads and writes, and how it leaves (src/cli/io.ts). */
export type CliProcess = CommandIo

export const processIo: CliProcess = nodeProcess

/** Says why the command stopped (one line, naming the flag, for a usage error) and answers exit code 2. */
function report(error: unknown, io: CliProcess): 2 {
  const usage = error instanceof OptionsError || error instanceof ScenarioError || error instanceof ProfileError || error instanceof ActivityError
  const known = usage || error instanceof ServerError
  const code = (error as NodeJS.ErrnoException).code
  const reason =
    code === 'EADDRINUSE'
      ? `the address is in use: ${(error as Error).message.replace(/^listen EADDRINUSE: address already in use /, '')}`
      : known || code === 'EACCES'
        ? (error as Error).message
        : `unexpected error: ${(error as Error).stack ?? String(error)}`
  io.stderr.write(usage ? oneLine(asFlags(reason), 'serve') : `jobboard-kit: ${asFlags(reason)}\n`)
  return 2
}

/** The program's root on `io`, with no command yet. */
export function programRoot(io: CliProcess): Command {
  return new Command('jobboard-kit')
    .description('A local fake and a contract test kit for the Recruitment Job Board Data API.')
    .version(PACKAGE_VERSION)
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
}

/** Once its commands are added: a usage error is one line naming the problem and the command's help, not the help itself. */
export function oneLineUsageErrors(cli: Command): Command {
  cli.configureOutput({ outputError: (message, write) => write(oneLine(message)) })
  for (const command of cli.commands) command.configureOutput({ outputError: (message, write) => write(oneLine(message, command.name())) })
  return cli
}

/**
 * A reader that stops reading (`jobboard-kit scenarios | head`) ends the command quietly,
 * with the exit code it has so far, as it would end `cat`: not with an unhandled EPIPE
 * and its stack trace. Any other error of the process's own streams is thrown as before.
 */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0)
    })
  }
}

/**
 * Runs `program` (made on `io`, its `done` hearing each command's exit code) on `argv` and
 * answers the exit code. `serve` answers once a signal has stopped it; a usage error
 * answers 2, --help and --version 0. With the process's io (the default), serve and
 * contract still leave through process.exit when they end.
 */
export async function runProgram(argv: string[], io: CliProcess, program: (io: CliProcess, done: (code: number) => void) => Command): Promise<number> {
  if (io === processIo) quietOnClosedPipe()
  let code: number | undefined
  // the first code is the one that counts, as the process's first exit would be
  const done = (given: number) => {
    code ??= given
  }
  try {
    await program(io, done).parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    const failed = report(error, io)
    io.exit(failed)
    return failed
  }
  return code ?? 0
}
