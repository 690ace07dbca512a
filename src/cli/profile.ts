// `jobboard-kit profile diff A B`: the points two deployment profiles disagree on, as a
// table (point, A, B). Exit codes: 0 when they agree, 1 when they differ, 2 when a file
// cannot be read or is not a profile (the message names the field).
import type { Command } from 'commander'
import { diffProfiles, formatDifferences, loadProfile, ProfileError } from '../profile/deployment-profile.js'

interface Output {
  write(text: string): unknown
}

export function diffCommand(a: string, b: string, out: Output = process.stdout): number {
  const rows = diffProfiles(loadProfile(a), loadProfile(b))
  if (rows.length === 0) {
    out.write(`The profiles agree on every point.\n`)
    return 0
  }
  out.write(`${formatDifferences(rows, { a, b })}\n${rows.length} point${rows.length === 1 ? '' : 's'} differ.\n`)
  return 1
}

/** Adds `profile diff` to the program: it writes on `io` and tells `done` its exit code. */
export function addProfileCommand(cli: Command, io: { stdout: Output; stderr: Output }, done: (code: number) => void): void {
  const profile = cli.command('profile').description('Work with deployment profiles (docs/profile.md).')
  profile
    .command('diff')
    .description('Print the points two deployment profiles differ on; exit 1 when they differ, 2 on a bad file.')
    .argument('<a>', 'the first profile (JSON)')
    .argument('<b>', 'the second profile (JSON)')
    .action((a: string, b: string) => {
      try {
        done(diffCommand(a, b, io.stdout))
      } catch (error) {
        if (!(error instanceof ProfileError)) throw error
        io.stderr.write(`jobboard-kit: ${error.message}\n`)
        done(2)
      }
    })
}
