// `jobboard-kit proxy --to URL`: runs the proxy (src/proxy/) in front of a deployment
// until SIGINT or SIGTERM. Its flags are schemas/proxy.ts's in kebab-case, each also read
// from its JOBBOARD_* variable (flags > env > defaults), as serve's are; the ready line
// is serve's. Exit codes: 0 on a clean stop, 1 when --verdict-exit and staging broke a
// rule or the client's verdict failed, or when --record read records it could not write,
// 2 on a usage or start-up error.
import type { Command } from 'commander'
import { proxyOptions } from '../../schemas/proxy.js'
import { asFlags, envName, fromEnvironment, schemaOptions } from '../core/cli-options.js'
import { createClock } from '../core/clock.js'
import { OptionsError } from '../core/errors.js'
import { formatTimestamp } from '../core/time.js'
import { ProfileError } from '../profile/deployment-profile.js'
import type { ProxyOptions, RunningProxy, upstreamOf as UpstreamOf } from '../proxy/proxy-server.js'
import { type CommandIo, oneLine } from './io.js'

/** Whether --record read records it did not write. */
const lossOf = (recorded: RunningProxy['recorded']): boolean =>
  recorded !== undefined && (recorded.lost.length > 0 || Object.values(recorded.pastBound).some((n) => n > 0))

type ProxyFlags = ProxyOptions & { verdictExit?: boolean; junit?: string; report?: string; reportText?: string; html?: string }

/** The slips a value of the environment is held to as its flag is. */
function checkSlips(given: Partial<ProxyFlags>, upstreamOf: typeof UpstreamOf): void {
  if (given.to !== undefined) upstreamOf(given.to).agent.destroy()
  const { minLength } = proxyOptions.properties.controlToken
  if (given.controlToken !== undefined && given.controlToken.length < minLength) {
    throw new OptionsError(`--control-token is too short: it needs at least ${minLength} characters, it has ${given.controlToken.length}`)
  }
}

async function runProxy(flags: Partial<ProxyFlags>, io: CommandIo, command: Command): Promise<number> {
  // loaded when the command runs: the proxy brings the contract kit's checks and undici,
  // which no other command's start should pay for (serve's spawn → first answer)
  const [{ createProxy, upstreamOf }, { writeOutputs }] = await Promise.all([import('../proxy/proxy-server.js'), import('../proxy/outputs.js')])
  const typed = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined))
  const fromEnv = fromEnvironment(command.options, typed, io.env, (one) => checkSlips(one as Partial<ProxyFlags>, upstreamOf))
  const given = { ...fromEnv, ...typed } as Partial<ProxyFlags>
  if (given.to === undefined) throw new OptionsError(`--to is required: the deployment's base URL, such as https://staging.example.com (or ${envName('to')})`)
  checkSlips(given, upstreamOf)
  const proxy = createProxy(given as ProxyFlags, {
    write: (line) => void io.stdout.write(line),
    warn: (line) => void io.stderr.write(line),
  })
  const url = await proxy.listen()
  const clock = createClock('real', 0)
  return new Promise((resolve) => {
    let closing = false
    const stopListening = io.onSignal(() => {
      if (closing) return
      closing = true
      writeOutputs(proxy, given, formatTimestamp(clock.now()))
        .then(
          // --record: a record read and not written (or past the bound) is a loss, and exits 1 as `record` does
          (failed) => proxy.close().then(() => ((failed && given.verdictExit) || lossOf(proxy.recorded) ? 1 : 0)),
          (error: unknown) => {
            io.stderr.write(`jobboard-kit: the proxy's outputs could not be written: ${String(error)}\n`)
            return proxy.close().then(() => 1)
          },
        )
        .then(resolve, (error: unknown) => {
          io.stderr.write(`jobboard-kit: the proxy could not close cleanly: ${error instanceof Error ? error.message : String(error)}\n`)
          resolve(1)
        })
        .finally(stopListening)
    })
    io.stdout.write(`jobboard-kit listening on ${url}\n`)
  })
}

/** Adds `proxy` to the jobboard-kit program. */
export function addProxyCommand(cli: Command, io: CommandIo, done: (code: number) => void): void {
  const command = cli
    .command('proxy')
    .description(
      "Stand in front of a deployment (--to): pass each request through as sent and each answer back as it came, streamed; check every answer against the contract kit's rules (GET /__mock/violations) and judge the client (GET /__mock/verdict, /__mock/ui). The one change: the upstream's origin in answer links is rewritten to the proxy's (--keep-links turns it off).",
    )
    .action(async (flags: Partial<ProxyFlags>) => {
      let code: number
      try {
        code = await runProxy(flags, io, command)
      } catch (error) {
        // a usage error: one line that points at this command's help
        if (!(error instanceof OptionsError || error instanceof ProfileError)) throw error
        io.stderr.write(oneLine(asFlags(error.message), 'proxy'))
        code = 2
      }
      done(code)
      io.exit(code)
    })
  for (const option of schemaOptions(proxyOptions)) {
    option.description = `${option.description} [env ${envName(option.attributeName())}]`
    command.addOption(option)
  }
}
