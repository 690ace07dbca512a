// `jobboard-kit serve`: runs the fake over HTTP until SIGINT or SIGTERM. Its flags are the
// options of schemas/options.ts in kebab-case, each also read from its JOBBOARD_* variable
// (flags > env > defaults). Exit codes: 0 on a clean stop, 1 when --verdict-exit and the
// verdict failed, 2 on a usage or start-up error (main.ts says why in one line).
import { type Command, Option } from 'commander'
import { serverOptions } from '../../schemas/options.js'
import { envName, fromEnvironment, kebab, schemaOptions } from '../core/cli-options.js'
import { BoardInputError } from '../core/errors.js'
import type { ServerOptionsInput } from '../core/types.js'
import type { AccountInput } from '../fake/accounts.js'
import { useColour } from '../fake/http/log.js'
import { OptionsError, resolveOptions } from '../fake/options.js'
import { scenarioNames } from '../fake/scenario.js'
import { createMockServer } from '../fake/server.js'
import { overrideLine } from '../profile/deployment-profile.js'
import type { CommandIo } from './io.js'
import { shutdownVerdict } from './verdict.js'

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
  const verdictFlags = (['verdictExit', 'verdictJson', 'verdictJunit', 'verdictHtml'] as const).filter((name) => given[name] !== undefined && given[name] !== false)
  if (given.verdict === false && verdictFlags.length > 0) {
    throw new OptionsError(`${verdictFlags.map((name) => `--${kebab(name)}`).join(', ')} need the verdict: leave out --verdict off`)
  }
  const scenario = given.scenario
  if (scenario !== undefined && !/[\\/]|\.json$/i.test(scenario) && !scenarioNames().includes(scenario)) {
    throw new OptionsError(`there is no scenario ${JSON.stringify(scenario)}: the scenarios are ${scenarioNames().join(', ')}, or give the path of a .json file`)
  }
}

/** The flags that declare accounts: not options of schemas/options.ts, but a list made of them. */
interface AccountFlags {
  account?: string[]
  accounts?: string
}

const ACCOUNT_FLAGS = new Set(['account', 'accounts'])

/** The most accounts --accounts N makes. */
const MAX_ACCOUNTS = 1_000

/**
 * The accounts `--account NAME:PASSWORD[:SCENARIO]` (repeatable) and `--accounts N` declare:
 * the named ones first, then worker-1 … worker-N with --password and --scenario (each seed
 * the next: see Accounts). The password never appears in a refusal.
 */
function declaredAccounts({ account = [], accounts }: AccountFlags): AccountInput[] | undefined {
  const declared: AccountInput[] = account.map((text) => {
    const colon = text.indexOf(':')
    if (colon <= 0) throw new OptionsError(`--account ${JSON.stringify(text.split(':', 1)[0])} needs a password: give --account NAME:PASSWORD[:SCENARIO]`)
    const name = text.slice(0, colon)
    const rest = text.slice(colon + 1)
    const next = rest.indexOf(':')
    const password = next < 0 ? rest : rest.slice(0, next)
    const scenario = next < 0 ? undefined : rest.slice(next + 1)
    if (password === '') throw new OptionsError(`--account "${name}" has an empty password: give --account NAME:PASSWORD[:SCENARIO]`)
    if (scenario === '') throw new OptionsError(`--account "${name}" names an empty scenario: leave out the last ':' or give a scenario`)
    return { name, password, ...(scenario === undefined ? {} : { scenario }) }
  })
  if (accounts !== undefined) {
    const count = /^[0-9]+$/.test(accounts) ? Number(accounts) : Number.NaN
    if (!(count >= 1 && count <= MAX_ACCOUNTS)) throw new OptionsError(`--accounts ${JSON.stringify(accounts)} is not a whole number from 1 to ${MAX_ACCOUNTS}`)
    for (let i = 1; i <= count; i++) declared.push({ name: `worker-${i}` })
  }
  return declared.length === 0 ? undefined : declared
}

/**
 * Runs the fake until SIGINT or SIGTERM and answers the exit code once it has closed. Each
 * option not given as a flag may come from its JOBBOARD_* variable (flags > env > defaults),
 * a bad one refused naming the variable.
 */
async function serve(allFlags: ServerOptionsInput & AccountFlags, io: CommandIo, options: readonly Option[]): Promise<number> {
  const { account, accounts: count, ...flags } = allFlags
  const accounts = declaredAccounts({ ...(account ? { account } : {}), ...(count === undefined ? {} : { accounts: count }) })
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
  // the bar's module (cli-progress, and Node's readline with it) is loaded for a terminal only:
  // a pipe gets no bar, and a start before the first answer does not pay for it
  const stopProgress = io.stderr.isTTY ? (await import('./build-progress.js')).showBuildProgress(io.stderr) : () => {}
  const server = await createMockServer(accounts ? { ...given, accounts } : given, { write: (line) => void io.stdout.write(line), colour: useColour(io.env, Boolean(io.stdout.isTTY)) })
    .catch((error: unknown) => {
      // a refused account is a usage error: one line naming it, exit 2
      if (error instanceof BoardInputError && error.field === 'accounts') throw new OptionsError(`--account: ${error.message}`)
      throw error
    })
    .finally(stopProgress)
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
      // the verdict is taken before the board goes: its files, its account, and --verdict-exit
      const log = server.options.log === 'pretty' ? io.stdout : undefined
      shutdownVerdict(server, given, log, io.stderr)
        .catch((error: unknown) => {
          io.stderr.write(`jobboard-kit: the verdict could not be taken: ${String(error)}\n`)
          return undefined
        })
        .then((outcome) => server.close().then(() => (outcome === 'fail' && given.verdictExit ? 1 : 0)))
        .then(
        (code) => resolve(code),
        (error: unknown) => {
          io.stderr.write(`jobboard-kit: error while closing on ${signal}: ${String(error)}\n`)
          resolve(1)
        },
      ).finally(stopListening)
    })
    io.stdout.write(`jobboard-kit listening on ${url}\n`)
  })
}

/** Adds `serve` to the jobboard-kit program. */
export function addServeCommand(cli: Command, io: CommandIo, done: (code: number) => void): void {
  const serveCommand = cli
    .command('serve')
    .description('Run the fake board over HTTP until SIGINT or SIGTERM.')
    .action(async (flags: ServerOptionsInput & AccountFlags) => {
      // the account flags have no JOBBOARD_* variable: they are not options of the schema
      const code = await serve(flags, io, serveCommand.options.filter((option) => !ACCOUNT_FLAGS.has(option.attributeName())))
      done(code)
      // closed: leave now rather than wait for idle sockets and timers to let go
      io.exit(code)
    })
  for (const option of schemaOptions(serverOptions)) {
    option.description = `${option.description} [env ${envName(option.attributeName())}]`
    serveCommand.addOption(option)
  }
  // the accounts: not options of the schema (a list, each with its own password and scenario)
  serveCommand.addOption(
    new Option('--account <NAME:PASSWORD[:SCENARIO]>', 'Serve an account: a board of its own, for API user NAME with PASSWORD, on SCENARIO (default: --scenario). Repeatable; the first is the one the /__mock routes without an account act on.').argParser(
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    ),
  )
  serveCommand.addOption(
    new Option('--accounts <N>', 'Serve N accounts, worker-1 … worker-N, each with --password (or the scenario\'s) on --scenario and its seed: the same board for every worker (--account-seed-step S puts worker-K on the seed + (K - 1) x S).'),
  )

}
