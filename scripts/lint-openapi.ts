// `npm run lint`'s second half: the OpenAPI document the fake serves at /openapi.json, read
// by two linters nobody here wrote, as teams that generate a client from it would: Redocly
// CLI under its recommended rules (redocly.yaml) and Spectral under spectral:oas
// (.spectral.yaml). Any error or warning of either fails the step; a rule turned off says
// why in its ruleset file. Runs on the source (node --import tsx), so needs no build.
// Given a file (`lint-openapi.ts FILE`), lints that document instead: the test's broken copy.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/index.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
// neither linter needs the network: no usage reports, no update checks
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

/** Runs a linter; answers its status and output, the output shown as it came when it found something. */
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
  const totals = (JSON.parse(redocly.stdout || '{}') as { totals?: { errors: number; warnings: number } }).totals
  if (totals === undefined) {
    process.stdout.write(`redocly: no report (exit ${redocly.status})\n${redocly.stderr}`)
    failed = true
  } else {
    process.stdout.write(`redocly (recommended): ${totals.errors} errors, ${totals.warnings} warnings\n`)
    if (totals.errors + totals.warnings > 0) {
      process.stdout.write(run(bin('redocly'), ['lint', '--config', join(root, 'redocly.yaml'), file]).stdout)
      failed = true
    }
  }

  // --fail-severity warn: a warning fails, as an error does
  const spectral = run(bin('spectral'), ['lint', '--ruleset', join(root, '.spectral.yaml'), '--fail-severity', 'warn', '--quiet', '--format', 'json', file])
  const results = JSON.parse(spectral.stdout || 'null') as Array<{ severity: number; code: string; message: string; path: string[] }> | null
  if (results === null) {
    process.stdout.write(`spectral: no report (exit ${spectral.status})\n${spectral.stderr}`)
    failed = true
  } else {
    // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint
    const errors = results.filter((r) => r.severity === 0).length
    const warnings = results.filter((r) => r.severity === 1).length
    process.stdout.write(`spectral (spectral:oas): ${errors} errors, ${warnings} warnings\n`)
    for (const r of results) process.stdout.write(`  ${['error', 'warning', 'info', 'hint'][r.severity]} ${r.code}: ${r.message} at ${r.path.join('.')}\n`)
    if (errors + warnings > 0 || spectral.status !== 0) failed = true
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0
