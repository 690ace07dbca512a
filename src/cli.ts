// The command line: `jobboard-kit serve` runs the fake; its flags are the options of
// schemas/options.ts in kebab-case, with their descriptions as help. Exit codes: 0 on a
// clean stop, 2 on a usage or start-up error, with a one-line reason and where the help is.
import { Command, Option } from 'commander'
import { asFlags, kebab, schemaOptions } from './cli-options.js'
import { realpathSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { serverOptions } from '../schemas/options.js'
import { buildApp } from './app.js'
import { addContractCommand } from './contract/cli.js'
import { overrideLine, ProfileError } from './profile.js'
import { addProfileCommand } from './profile-cli.js'
import { OptionsError } from './options.js'
import { PACKAGE_VERSION } from './paths.js'
import { loadScenario, ScenarioError, scenarioNames } from './scenario.js'
import { createMockServer, ServerError } from './server.js'
import type { ServerOptionsInput } from './types.js'

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

function fail(error: unknown): never {
  const usage = error instanceof OptionsError || error instanceof ScenarioError || error instanceof ProfileError
  const known = usage || error instanceof ServerError
  const code = (error as NodeJS.ErrnoException).code
  const reason =
    code === 'EADDRINUSE'
      ? `the address is in use: ${(error as Error).message.replace(/^listen EADDRINUSE: address already in use /, '')}`
      : known || code === 'EACCES'
        ? (error as Error).message
        : `unexpected error: ${(error as Error).stack ?? String(error)}`
  process.stderr.write(usage ? oneLine(asFlags(reason), 'serve') : `jobboard-kit: ${asFlags(reason)}\n`)
  process.exit(2)
}

async function serve(flags: ServerOptionsInput): Promise<void> {
  const given = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as ServerOptionsInput
  if (given.logger !== undefined) process.stderr.write(`jobboard-kit: --logger is deprecated; use --log ${given.logger ? 'json' : 'off'}\n`)
  // a person at a terminal sees each request; pipes (tests, CI) stay quiet unless asked
  if (given.log === undefined && given.logger === undefined && process.stdout.isTTY) given.log = 'pretty'
  checkSlips(given)
  const server = await createMockServer(given)
  // said before the ready line, which stays the last line a script waits for
  for (const override of server.profileOverrides) process.stderr.write(`jobboard-kit: ${overrideLine(override, `--${kebab(override.point)}`)}\n`)
  const url = await server.listen()
  process.stdout.write(`jobboard-kit listening on ${url}\n`)
  let closing = false
  const stop = (signal: string) => {
    if (closing) return
    closing = true
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`jobboard-kit: error while closing on ${signal}: ${String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
}

export function program(): Command {
  const cli = new Command('jobboard-kit')
    .description('A local fake and a contract test kit for the Recruitment Job Board Data API.')
    .version(PACKAGE_VERSION)
    .showHelpAfterError(false)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))

  const serveCommand = cli
    .command('serve')
    .description('Run the fake board over HTTP until SIGINT or SIGTERM.')
    .action((flags: ServerOptionsInput) => serve(flags).catch(fail))
  for (const option of schemaOptions(serverOptions)) serveCommand.addOption(option)

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
      else process.stdout.write(document)
    })

  cli
    .command('scenarios')
    .description('List the scenarios shipped in scenarios/.')
    .action(() => {
      for (const name of scenarioNames()) {
        const { description, counts } = loadScenario(name)
        process.stdout.write(`${name.padEnd(12)} ${counts.candidates} candidates, ${counts.applications} applications. ${description}\n`)
      }
    })
  addContractCommand(cli)
  addProfileCommand(cli)
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

export async function main(argv: string[] = process.argv): Promise<void> {
  await program().parseAsync(argv)
}

const invoked = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href
if (invoked) main().catch(fail)
