// `npm run lint` runs a linter nobody here wrote on the served OpenAPI document
// (scripts/lint-openapi.ts): Redocly's recommended rules and Spectral's spectral:oas rules
// (redocly.yaml), failing on any error or warning.
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { board, type Json } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'

/** Runs the lint step, on the served document or on `file`. */
function lint(file?: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'lint-openapi.ts'), ...(file ? [file] : [])], { cwd: ROOT })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

t.test('finds no error and no warning in the served document, under either ruleset', async (t) => {
  const { code, output } = await lint()
  t.match(output, /redocly \(recommended and spectral:oas\): 0 errors, 0 warnings/)
  t.equal(code, 0, output)
})

/** Lints a copy of the served document as `change` leaves it. */
async function lintChanged(t: Test, change: (document: Json) => void): Promise<{ code: number | null; output: string }> {
  const app = await board(t, { scenario: 'empty' })
  const document = (await app.inject('/openapi.json')).json()
  change(document)
  const dir = await mkdtemp(join(tmpdir(), 'jobboard-kit-openapi-lint-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'openapi.json')
  await writeFile(file, JSON.stringify(document))
  return lint(file)
}

t.test('fails naming the rules when an operation has no summary and info no contact', async (t) => {
  const { code, output } = await lintChanged(t, (document) => {
    delete document.paths['/api/v1/metrics/list'].get.summary
    delete document.paths['/api/v1/metrics/list'].get.operationId
    delete document.info.contact
  })
  t.equal(code, 1)
  t.match(output, /redocly \(recommended and spectral:oas\): 1 errors, [1-9][0-9]* warnings/)
  t.match(output, /error operation-summary/)
  t.match(output, /warning info-contact/)
  t.match(output, /warning operation-operationId/)
})

t.test("fails naming spectral:oas's rules that redocly.yaml writes as its own", async (t) => {
  const { code, output } = await lintChanged(t, (document) => {
    const list = document.paths['/api/v1/metrics/list'].get
    delete document.info.description
    list.description += ' eval(x)'
    delete list.tags
    const media = list.responses['200'].content['application/json']
    media.schema.properties.extra = { type: 'array' }
    media.examples = { empty: { summary: 'neither a value nor an external value' } }
    document.webhooks = { hook: { post: { servers: [{ url: 'https://example.org' }], responses: { 200: { description: 'Taken.' } } } } }
  })
  t.equal(code, 1)
  for (const rule of ['info-description', 'no-eval-in-markdown', 'operation-tags', 'array-items', 'oas3-examples-value-or-externalValue', 'oas3_1-servers-in-webhook']) {
    t.match(output, new RegExp(`(error|warning) rule/${rule}: `), rule)
  }
})
