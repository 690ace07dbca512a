// `npm run lint`'s second half: the OpenAPI document the fake serves at /openapi.json, read
// by a linter nobody here wrote, as teams that generate a client from it would: Redocly CLI
// under its recommended rules and every rule of Spectral's spectral:oas that applies to an
// OpenAPI 3.1 document (redocly.yaml names each; Spectral's own packages bring an
// install-time usage beacon, so they are not in the tree). Any error or warning fails the
// step; a rule turned off says why in redocly.yaml. Runs on the source (node --import tsx),
// so needs no build.
// Given a file (`lint-openapi.ts FILE`), lints that document instead: the test's broken copy.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/index.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
// the linter needs no network: no usage reports (redocly.yaml says so too), no update checks
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' }

/** The document as /openapi.json serves it, from a fake at its defaults. */
async function servedDocument(): Promise<string> {
  const app = await buildApp({ scenario: 'empty', clock: 'virtual' })
  try {
    const answer = await app.inject('/openapi.json')
    if (answer.statusCode !== 200) throw new Error(`/openapi.json answered ${answer.statusCode}`)
    return answer.body
  } finally {
    await app.close()
  }
}

/** Runs the linter; answers its status and output. */
function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
  if (result.error) throw new Error(`${command} did not run: ${result.error.message}`)
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-openapi-lint-'))
let failed = false
try {
  const given = process.argv[2]
  const file = given ?? join(dir, 'openapi.json')
  if (given === undefined) writeFileSync(file, await servedDocument())

  const redocly = run(bin('redocly'), ['lint', '--config', join(root, 'redocly.yaml'), '--format', 'json', file])
  const report = JSON.parse(redocly.stdout || '{}') as {
    totals?: { errors: number; warnings: number }
    problems?: Array<{ ruleId: string; severity: 'error' | 'warn'; message: string; location: Array<{ pointer: string }> }>
  }
  if (report.totals === undefined) {
    process.stdout.write(`redocly: no report (exit ${redocly.status})\n${redocly.stderr}`)
    failed = true
  } else {
    const { errors, warnings } = report.totals
    process.stdout.write(`redocly (recommended and spectral:oas): ${errors} errors, ${warnings} warnings\n`)
    for (const p of report.problems ?? []) process.stdout.write(`  ${p.severity === 'warn' ? 'warning' : p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '#'}\n`)
    if (errors + warnings > 0 || redocly.status !== 0) failed = true
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0
