// The command line: one file per command in this folder, wired here (program.ts holds what
// every build of it shares; serve-main.ts wires `serve` alone). main(argv, io) runs
// it on the process's streams, signals and exit, or on a test's: it answers the exit code
// and leaves ending the process to its caller (bin/, or this file when node runs it). A
// usage error is one line naming the problem and where the help is, exit 2.
import type { Command } from 'commander'
import { realpathSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { addContractCommand } from './contract.js'
import { addHealthCommand } from './health.js'
import type { CommandIo } from './io.js'
import { addOpenapiCommand } from './openapi.js'
import { addProfileCommand } from './profile.js'
import { type CliProcess, oneLineUsageErrors, processIo, programRoot, runProgram } from './program.js'
import { addProxyCommand } from './proxy.js'
import { addRecordCommand } from './record.js'
import { addScenariosCommand } from './scenarios.js'
import { addServeCommand } from './serve.js'
import { addVerdictCommand } from './verdict.js'

export { type CliProcess, processIo } from './program.js'

/**
 * The program on `io`; `done` hears each command's exit code. Usage errors, --help and
 * --version throw commander's CommanderError (main turns it into 2 or 0).
 */
export function program(io: CliProcess = processIo, done: (code: number) => void = () => {}): Command {
  const cli = programRoot(io)
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
  oneLineUsageErrors(cli)
  // `jobboard-kit --help` shows every command with all of its flags, not only the names
  cli.addHelpText('after', () =>
    cli.commands
      .filter((command) => command.options.length > 0)
      .map((command) => `\n${command.name()} options:\n${command.options.map((o) => `  ${o.flags.padEnd(32)} ${o.description}`).join('\n')}`)
      .join('\n'),
  )
  return cli
}

/** Runs the command line on `argv` and answers its exit code (program.ts, runProgram). */
export function main(argv: string[] = process.argv, io: CliProcess = processIo): Promise<number> {
  return runProgram(argv, io, program)
}

const invoked = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href
if (invoked) {
  void main().then((code) => {
    process.exitCode = code
  })
}
