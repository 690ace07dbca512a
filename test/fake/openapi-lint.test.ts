// `npm run lint` runs two linters nobody here wrote on the served OpenAPI document
// (scripts/lint-openapi.ts): Redocly's recommended rules and Spectral's spectral:oas,
// failing on any error or warning of either.
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { board } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'

/** Runs the lint step, on the served document or on `file`. */
function lint(file?: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'lint-openapi.ts'), ...(file ? [file] : [])], { cwd: ROOT })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

t.test('finds no error and no warning in the served document, under either linter', async (t) => {
  const { code, output } = await lint()
  t.match(output, /redocly \(recommended\): 0 errors, 0 warnings/)
  t.match(output, /spectral \(spectral:oas\): 0 errors, 0 warnings/)
  t.equal(code, 0, output)
})

t.test('fails naming the rules when an operation has no summary and info no contact', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const document = (await app.inject('/openapi.json')).json()
  delete document.paths['/api/v1/metrics/list'].get.summary
  delete document.paths['/api/v1/metrics/list'].get.operationId
  delete document.info.contact
  const dir = await mkdtemp(join(tmpdir(), 'jobboard-kit-openapi-lint-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'openapi.json')
  await writeFile(file, JSON.stringify(document))
  const { code, output } = await lint(file)
  t.equal(code, 1)
  t.match(output, /redocly \(recommended\): 1 errors, [1-9][0-9]* warnings/)
  t.match(output, /operation-summary/)
  t.match(output, /spectral \(spectral:oas\): 0 errors, [1-9][0-9]* warnings/)
  t.match(output, /warning info-contact/)
  t.match(output, /warning operation-operationId/)
})
