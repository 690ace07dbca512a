// `jobboard-kit record`: records a deployment into a scenario the fake loads (docs/record.md).
// Flags or JOBBOARD_* variables give the settings; progress goes to stderr, the summary
// (with the requests each record cost, and each kind's records seen → written) to stdout.
// Exit codes: 0 a whole recording, 1 records read that the scenario cannot hold (named on
// stderr; --allow-loss writes the scenario without them and exits 0), 3 incomplete (a partial scenario was written: run again to go on), 2 a usage error,
// refused credentials or an interrupt (a partial scenario was written too, but for a usage error).
import type { Command } from 'commander'
import { recordOptions } from '../../schemas/record.js'
import { UsageError } from '../contract/settings.js'
import { realKitClock } from '../contract/kit-clock.js'
import { redacting, redactorOf } from '../contract/redact.js'
import { clientSettings } from '../record/record-settings.js'
import { addRunCommand, nodeProcess, stopOnSignal, type CommandIo } from './io.js'
import { resolveRecordSettings, type RecordFlags } from '../record/record-settings.js'

export async function recordAction(flags: RecordFlags, given: CommandIo = nodeProcess): Promise<number> {
  let settings: ReturnType<typeof resolveRecordSettings>
  try {
    settings = resolveRecordSettings(flags, given.env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    given.stderr.write(`jobboard-kit record: ${error.message}\n`)
    return 2
  }
  // no secret in what the command prints; the recorder reads the answers as they came
  const redact = redactorOf(clientSettings(settings))
  const io = { ...given, stdout: redacting(given.stdout, redact), stderr: redacting(given.stderr, redact) }
  const say = (reason: string) => io.stderr.write(`jobboard-kit record: ${reason}\n`)
  const { controller, stopListening } = stopOnSignal(io, say, 'writing what was recorded so far', 'without writing')
  try {
    const { Recorder, WriteError } = await import('../record/recorder.js')
    let recorder: InstanceType<typeof Recorder>
    try {
      recorder = new Recorder(settings, { stderr: given.stderr, signal: controller.signal, clock: realKitClock() })
    } catch (error) {
      if (!(error instanceof UsageError)) throw error
      say(error.message)
      return 2
    }
    let result: Awaited<ReturnType<typeof recorder.run>>
    try {
      result = await recorder.run()
    } catch (error) {
      if (!(error instanceof WriteError)) throw error
      say(error.message)
      return 2
    }
    const counts = Object.entries(result.counts)
    const perRecord = result.records === 0 ? 'no records' : `${(result.requests / result.records).toFixed(3)} requests per record`
    io.stdout.write(
      `${result.complete ? 'Recorded' : 'Recorded part of'} ${settings.baseUrl}: ${result.records} records in ${result.requests} requests (${perRecord}).\n` +
        `Records seen → written: ${Object.entries(result.carried).map(([kind, c]) => `${kind} ${c.seen} → ${c.written}`).join(', ')}${result.guests > 0 ? ` (${result.guests} applications by guest applicants, no listed candidate being theirs)` : ''}\n` +
        `Jobs: ${result.jobs}, recorded as the applications and the candidates' entries show them (the API cannot list jobs)\n` +
        `Scenario: ${result.scenarioPath}${result.complete ? '' : ' (incomplete: run the same command again to go on)'}\n` +
        `Profile: ${result.profilePath}\n` +
        (counts.some(([, n]) => n > 0) ? `Generated besides the recorded records: ${counts.filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ')}\n` : '') +
        (result.dropped.length > 0 ? `Left to the generator (did not fit the scenario format): ${result.dropped.length} values, such as ${result.dropped.slice(0, 3).join(', ')}\n` : '') +
        `Serve it with: jobboard-kit serve --scenario ${result.scenarioPath}\n`,
    )
    if (result.reason !== undefined) say(`stopped: ${result.reason}`)
    return result.exitCode
  } finally {
    stopListening()
  }
}

/** Adds `record` to the jobboard-kit program. */
export function addRecordCommand(program: Command, io: CommandIo = nodeProcess): Command {
  return addRunCommand(program, io, {
    name: 'record',
    description: 'Record a deployment into a scenario file the fake loads, personal values replaced (docs/record.md).',
    options: recordOptions,
    action: recordAction,
  })
}
