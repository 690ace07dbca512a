// `jobboard-kit contract`: the command that points the schemas at a deployment. Flags
// or JOBBOARD_* variables give the settings (so CI secrets stay off the command line);
// SIGINT or SIGTERM stops the run, which still deletes what it made; the exit code is
// 0 (every planned check made, or --min-coverage of them, and conforming), 1 (a check
// failed, or a job is left behind), 2 (usage or connection error, refused credentials,
// interrupted) or 3 (incomplete: planned checks not made, none failed), with a one-line
// reason on stderr.
import type { Command } from 'commander'
import { closeSync, existsSync, mkdirSync, openSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { contractOptions } from '../../schemas/contract.js'
import { addRunCommand, nodeProcess, stopOnSignal, type CommandIo } from './io.js'
import { redactor } from '../contract/redact.js'
import { resolveSettings, UsageError, type ContractFlags, type ContractSettings } from '../contract/settings.js'

export async function contractAction(flags: ContractFlags, io: CommandIo = nodeProcess): Promise<number> {
  // before the settings are known good, hide what the flags and environment give as secrets
  const redact = redactor({
    username: flags.username ?? io.env.JOBBOARD_USERNAME,
    password: flags.password ?? io.env.JOBBOARD_PASSWORD,
    proxies: [io.env.HTTPS_PROXY, io.env.https_proxy, io.env.HTTP_PROXY, io.env.http_proxy],
  })
  const say = (reason: string) => io.stderr.write(`jobboard-kit contract: ${redact.text(reason)}\n`)
  let settings: ContractSettings
  try {
    settings = resolveSettings(flags, io.env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    say(error.message)
    return 2
  }
  // --html is refused before the run when it cannot be written: a night's run must not end with nothing to show
  const htmlProblem = settings.html === undefined ? undefined : unwritable(settings.html)
  if (htmlProblem !== undefined) {
    say(`--html ${settings.html} cannot be written: ${htmlProblem}`)
    return 2
  }
  const { controller, stopListening } = stopOnSignal(io, say, 'deleting what this run made', 'without cleaning up')
  // the run's own deadline stops it as a signal would: what it made is still deleted
  const deadline =
    settings.runTimeout === undefined
      ? undefined
      : setTimeout(() => {
          say(`--run-timeout ${settings.runTimeout} s: stopping, deleting what this run made`)
          controller.abort(`--run-timeout ${settings.runTimeout} s`)
        }, settings.runTimeout * 1000)
  deadline?.unref()
  try {
    // loaded here, not at the top: `serve` need not load tap
    const { runContract } = await import('../contract/run.js')
    const result = await runContract(settings, { stdout: io.stdout, stderr: io.stderr, signal: controller.signal })
    if (result.reason !== undefined) say(result.reason)
    // the report the run answers is redacted already (runContract): the page shows what the JSON report does
    if (settings.html !== undefined && result.report !== undefined) {
      const { contractHtml } = await import('../contract/html.js')
      writeFileSync(settings.html, contractHtml(result.report))
    }
    return result.exitCode
  } finally {
    clearTimeout(deadline)
    stopListening()
  }
}

/** Adds `contract` to the jobboard-kit program. */
export function addContractCommand(program: Command, io: CommandIo = nodeProcess): Command {
  return addRunCommand(program, io, {
    name: 'contract',
    description: 'Check a deployment of the Job Board API against the spec and its schemas (docs/contract.md).',
    options: contractOptions,
    action: contractAction,
  })
}

/** Why a file cannot be written there, or undefined when it can (tried by opening it; a file made for the try is removed). */
function unwritable(path: string): string | undefined {
  const existed = existsSync(path)
  try {
    mkdirSync(dirname(path), { recursive: true })
    closeSync(openSync(path, 'a'))
    if (!existed) unlinkSync(path)
    return undefined
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message
  }
}
