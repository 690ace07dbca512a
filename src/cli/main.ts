// The command line: `jobboard-kit serve` runs the fake; its flags are the options of
// schemas/options.ts in kebab-case, with their descriptions as help. Exit codes: 0 on a
// clean stop, 2 on a usage or start-up error, with a one-line reason and where the help is.
// main(argv, io) runs it on the process's streams, signals and exit, or on a test's: it
// answers the exit code and leaves ending the process to its caller (bin/, or this file
// when node runs it).
import { Command, CommanderError, Option } from 'commander'
import { asFlags, envName, fromEnvironment, kebab, schemaOptions } from '../core/cli-options.js'
import { realpathSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { serverOptions } from '../../schemas/options.js'
import { buildApp } from '../fake/app.js'
import { addContractCommand, type ContractProcess, nodeProcess } from './contract.js'
import { overrideLine, ProfileError } from '../profile/profile.js'
import { addProfileCommand } from './profile.js'
import { addHealthCommand } from './health.js'
import { addRecordCommand } from './record.js'
import { useColour } from '../fake/http/log.js'
import { OptionsError, resolveOptions } from '../fake/options.js'
import { ActivityError } from '../fake/activity/load.js'
import { PACKAGE_VERSION } from '../core/paths.js'
import { loadScenario, ScenarioError, scenarioNames } from '../fake/scenario.js'
import { showBuildProgress } from './build-progress.js'
import { createMockServer, ServerError } from '../fake/server.js'
import type { ServerOptionsInput } from '../core/types.js'

/**
 * Where the CLI reads and writes, and how it leaves when it must leave at once (after
 * serve has closed, after a contract run, on a second signal): the process, or a test's
 * stand-in that captures the output and sends signals without a process.
 */
export interface CliProcess extends ContractProcess {
  readonly stdout: ContractProcess['stdout'] & { readonly isTTY?: boolean }
}

export const processIo: CliProcess = nodeProcess

/** `see jobboard-kit serve --help`: where to read about the command that was misused. */
const seeHelp = (command?: string) => `see jobboard-kit${command ? ` ${command}` : ''} --help`

/** A commander message ("error: unknown option '--prot'\n(Did you mean --port?)") as one line. */
const oneLine = (message: string, command?: string) =>
  `jobboard-kit: ${message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim().replace(/\.$/, '')}; ${seeHelp(command)}\n`

/** Plain words for the slips people make most; the schema's own message covers the rest. */
function checkSlips(given: ServerOptionsInput): void {
  const url = given.publicBaseUrl
  if (url !== undefined && !(/^https?:\/\//i.test(url) && URL.canParse(url))) {
    throw new OptionsError(`--public-base-url ${JSON.stringify(url)} is not an http(s) URL: give the origin clients should see, such as https://board.example.com`)
  }
  const { minLength } = serverOptions.properties.controlToken
  if (given.controlToken !== undefined && given.controlToken.length < minLength) {
    throw new OptionsError(`--control-token is too short: it needs at least ${minLength} characters, it has ${given.controlToken.length}`)
  }
  const scenario = given.scenario
  if (scenario !== undefined && !/[\\/]|\.json$/i.test(scenario) && !scenarioNames().includes(scenario)) {
    throw new OptionsError(`there is no scenario ${JSON.stringify(scenario)}: the scenarios are ${scenarioNames().join(', ')}, or give the path of a .json file`)
  }
}

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
 * Runs the fake until SIGINT or SIGTERM and answers the exit code once it has closed. Each
 * option not given as a flag may come from its JOBBOARD_* variable (flags > env > defaults),
 * a bad one refused naming the variable.
 */
async function serve(flags: ServerOptionsInput, io: CliProcess, options: readonly Option[]): Promise<number> {
  const typed = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined))
  const fromEnv = fromEnvironment(options, typed, io.env, (one) => {
    resolveOptions(one)
    checkSlips(one)
  })
  const given = { ...fromEnv, ...typed } as ServerOptionsInput
  if (given.logger !== undefined) io.stderr.write(`jobboard-kit: --logger is deprecated; use --log ${given.logger ? 'json' : 'off'}\n`)
  // a person at a terminal sees each request; pipes (tests, CI) stay quiet unless asked
  if (given.log === undefined && given.logger === undefined && io.stdout.isTTY) given.log = 'pretty'
  checkSlips(given)
  const stopProgress = showBuildProgress(io.stderr)
  const server = await createMockServer(given, { write: (line) => void io.stdout.write(line), colour: useColour(io.env, Boolean(io.stdout.isTTY)) }).finally(stopProgress)
  // said before the ready line, which stays the last line a script waits for
  for (const override of server.profileOverrides) io.stderr.write(`jobboard-kit: ${overrideLine(override, `--${kebab(override.point)}`)}\n`)
  const recording = server.board.scenario.recording
  if (recording?.complete === false) {
    io.stderr.write(`jobboard-kit: the scenario is an incomplete recording${recording.reason ? ` (${recording.reason})` : ''}: the rest of each list is generated; run jobboard-kit record again with the same --out to complete it\n`)
  }
  let url: string
  try {
    url = await server.listen()
  } catch (error) {
    await server.close()
    throw error
  }
  return new Promise((resolve) => {
    let closing = false
    const stopListening = io.onSignal((signal) => {
      if (closing) return
      closing = true
      server.close().then(
        () => resolve(0),
        (error: unknown) => {
          io.stderr.write(`jobboard-kit: error while closing on ${signal}: ${String(error)}\n`)
          resolve(1)
        },
      ).finally(stopListening)
    })
    io.stdout.write(`jobboard-kit listening on ${url}\n`)
  })
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

  const serveCommand = cli
    .command('serve')
    .description('Run the fake board over HTTP until SIGINT or SIGTERM.')
    .action(async (flags: ServerOptionsInput) => {
      const code = await serve(flags, io, serveCommand.options)
      done(code)
      // closed: leave now rather than wait for idle sockets and timers to let go
      io.exit(code)
    })
  for (const option of schemaOptions(serverOptions)) {
    option.description = `${option.description} [env ${envName(option.attributeName())}]`
    serveCommand.addOption(option)
  }

  cli
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the API the fake serves, generated from schemas/.')
    .addOption(new Option('--format <format>', 'json or yaml').choices(['json', 'yaml']).default('json'))
    .option('--out <file>', 'write it to a file instead')
    .action(async ({ out, format }: { out?: string; format: 'json' | 'yaml' }) => {
      const app = await buildApp({ scenario: 'empty' })
      await app.ready()
      // YAML as /openapi.yaml serves it (@fastify/swagger writes it with the yaml library)
      const document = format === 'yaml' ? app.swagger({ yaml: true }) : `${JSON.stringify(app.swagger(), null, 2)}\n`
      await app.close()
      if (out) await writeFile(out, document)
      else io.stdout.write(document)
    })

  cli
    .command('scenarios')
    .description('List the scenarios shipped in scenarios/.')
    .action(() => {
      for (const name of scenarioNames()) {
        const { description, counts } = loadScenario(name)
        io.stdout.write(`${name.padEnd(12)} ${counts.candidates} candidates, ${counts.applications} applications. ${description}\n`)
      }
    })
  addContractCommand(cli, {
    ...io,
    exit: (code) => {
      done(code)
      return io.exit(code)
    },
  })
  addProfileCommand(cli, io, done)
  addHealthCommand(cli, io, done)
  addRecordCommand(cli, {
    ...io,
    exit: (code) => {
      done(code)
      return io.exit(code)
    },
  })
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
export async function main(argv: string[] = process.argv, io: CliProcess = processIo): Promise<number> {
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
