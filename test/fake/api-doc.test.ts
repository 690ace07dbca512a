// docs/api.md: every endpoint and control route has a curl example, and each example,
// run in order against a fake, gets the status its `# → NNN` line says.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { createMockServer } from '../../src/fake/server.js'
import { checked } from '../helpers/board.js'
import { ROOT } from '../helpers/cli.js'
import { haveTools, needs } from '../helpers/tools.js'

const DOCUMENTED_ORIGIN = 'http://127.0.0.1:4010'

interface Example {
  command: string
  status: number
  line: number
}

/** The curl commands of the page's sh blocks, each with the status of the `# → NNN` line after it. */
function examples(markdown: string): Example[] {
  const found: Example[] = []
  let inBlock = false
  let command: string[] = []
  let start = 0
  markdown.split('\n').forEach((text, index) => {
    if (/^```/.test(text)) {
      inBlock = !inBlock && text.trim() === '```sh'
      if (command.length > 0) throw new Error(`docs/api.md:${start}: a curl example without a "# → NNN" line`)
      return
    }
    if (!inBlock) return
    const answer = /^# → ([0-9]{3})\b/.exec(text)
    if (answer) {
      if (command.length === 0) throw new Error(`docs/api.md:${index + 1}: an answer without a curl example`)
      found.push({ command: command.join('\n'), status: Number(answer[1]), line: start })
      command = []
    } else if (command.length > 0 || text.startsWith('curl ')) {
      if (command.length === 0) start = index + 1
      command.push(text)
    }
  })
  return found
}

/** Runs one example with bash in `cwd`, on the fake's origin, and answers the HTTP status curl saw. */
function run(example: Example, origin: string, cwd: string): Promise<{ status: number; stderr: string }> {
  // the status goes to stderr, so that an example that redirects its output keeps it whole
  const command = example.command.replaceAll(DOCUMENTED_ORIGIN, origin).replace(/^curl /, `curl -w '%{stderr}<status %{http_code}>' `)
  const child = spawn('bash', ['-c', command], { cwd })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  child.stdout.resume()
  return new Promise((resolve) =>
    child.on('close', () => resolve({ status: Number(/<status ([0-9]{3})>/.exec(stderr)?.[1] ?? 0), stderr })),
  )
}

t.test('every curl example gets the status docs/api.md gives it', needs('curl'), async (t) => {
  if (!haveTools(t, 'curl')) return
  const markdown = await readFile(join(ROOT, 'docs', 'api.md'), 'utf8')
  const all = examples(markdown)
  // the documented rate-limit window for exploring, and a clock that does not make jobs close as years pass
  const mock = await createMockServer({ rateLimitWindow: 0, clock: 'virtual', ...checked(t) })
  const origin = await mock.listen(0)
  t.teardown(() => mock.close())
  const cwd = await mkdtemp(join(tmpdir(), 'jobboard-kit-api-doc-'))
  t.teardown(() => rm(cwd, { recursive: true, force: true }))
  for (const example of all) {
    const { status, stderr } = await run(example, origin, cwd)
    t.equal(status, example.status, `docs/api.md:${example.line} answers ${example.status}`, { command: example.command, stderr })
  }

  t.test('covers every route of the API and of the control API', async (t) => {
    const paths = all.map((e) => {
      const url = /(https?:\/\/127\.0\.0\.1:4010\S*)/.exec(e.command.replace(/'/g, ' '))?.[1] ?? ''
      return new URL(url).pathname
    })
    const routes = mock.app.endpoints.filter((e) => e.method !== 'HEAD' && /^\/(api\/v1|__mock|jobs|openapi|docs)(\/|\.|$)/.test(e.url) && !/\/docs\/./.test(e.url))
    for (const { method, url } of routes) {
      const pattern = new RegExp(`^${url.replace(/:[a-z]+/g, '[^/]+').replace(/\*$/, '.*')}$`)
      const hit = all.some((e, i) => pattern.test(paths[i] as string) && methodOf(e.command) === method)
      t.ok(hit, `${method} ${url} has an example`)
    }
  })
})

/** The method a curl command sends: -X, else POST when it has a body, else GET. */
function methodOf(command: string): string {
  const explicit = /-X\s+([A-Z]+)/.exec(command)?.[1]
  if (explicit) return explicit
  return /\s(-d|--data\S*)\s/.test(command) ? 'POST' : 'GET'
}
