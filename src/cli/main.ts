// The command line: one file per command in this folder, wired here. main(argv, io) runs
// it on the process's streams, signals and exit, or on a test's: it answers the exit code
// and leaves ending the process to its caller (bin/, or this file when node runs it). A
// usage error is one line naming the problem and where the help is, exit 2.
import { Command, CommanderError } from 'commander'
import { realpathSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { asFlags } from '../core/cli-options.js'
import { OptionsError } from '../core/errors.js'
import { PACKAGE_VERSION } from '../core/paths.js'
import { ActivityError } from '../fake/activity/load.js'
import { ScenarioError } from '../fake/scenario.js'
import { ServerError } from '../fake/server.js'
import { ProfileError } from '../profile/deployment-profile.js'
import { addContractCommand } from './contract.js'
import { addHealthCommand } from './health.js'
import { type CommandIo, nodeProcess, oneLine } from './io.js'
import { addOpenapiCommand } from './openapi.js'
import { addProfileCommand } from './profile.js'
import { addProxyCommand } from './proxy.js'
import { addRecordCommand } from './record.js'
import { addScenariosCommand } from './scenarios.js'
import { addServeCommand } from './serve.js'
import { addVerdictCommand } from './verdict.js'

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

/**
 * The program on `io`; `done` hears each command's exit code. Usage errors, --help and
 * --version throw commander's CommanderError (main turns it into 2 or 0).
 */
export function program(io: CliProcess = processIo, done: (code: number) => void = () => {}): Command {
  const cli = new Command('jobboard-kit')
    .description('A local fake and a contract test kit for the Recruitment Job Board Data API.')
    .version(PACKAGE_VERSION)
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })

  addServeCommand(cli, io, done)
  addProxyCommand(cli, io, done)
  addOpenapiCommand(cli, io)
  addScenariosCommand(cli, io)
  // the run commands leave through exit when they end: done hears their code first
  const reporting: CommandIo = {
    ...io,
    exit: (code) => {
      done(code)
      return io.exit(code)
    },
  }
  addContractCommand(cli, reporting)
  addProfileCommand(cli, io, done)
  addVerdictCommand(cli, io, done)
  addHealthCommand(cli, io, done)
  addRecordCommand(cli, reporting)
  // a usage error is one line naming the problem and the command's help, not the help itself
  cli.configureOutput({ outputError: (message, write) => write(oneLine(message)) })
  for (const command of cli.commands) command.configureOutput({ outputError: (message, write) => write(oneLine(message, command.name())) })
  // `jobboard-kit --help` shows every command with all of its flags, not only the names
  cli.addHelpText('after', () =>
    cli.commands
      .filter((command) => command.options.length > 0)
      .map((command) => `\n${command.name()} options:\n${command.options.map((o) => `  ${o.flags.padEnd(32)} ${o.description}`).join('\n')}`)
      .join('\n'),
  )
  return cli
}

/**
 * Runs the command line and answers its exit code. `serve` answers once a signal has
 * stopped it; a usage error answers 2, --help and --version 0. With the process's io
 * (the default), serve and contract still leave through process.exit when they end.
 */
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

export async function main(argv: string[] = process.argv, io: CliProcess = processIo): Promise<number> {
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

const invoked = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href
if (invoked) {
  void main().then((code) => {
    process.exitCode = code
  })
}
