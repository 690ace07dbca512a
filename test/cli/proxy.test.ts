// `jobboard-kit proxy` as a process: serve's ready line, JOBBOARD_* settings, a violation
// logged as one line on stderr as it happens, and at SIGTERM --report (JSON, held to its
// schema), --report-text and --junit in two sections (what staging broke, what the client
// broke), --html (the page with the traffic inside) and --verdict-exit's code; --record's
// scenario and its accounting.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { proxyReport as reportSchema } from '../../schemas/proxy.js'
import type { ProxyReport } from '../../src/core/types.js'
import { createAjv } from '../../src/core/validation.js'
import { loadScenario } from '../../src/fake/scenario.js'
import { runCli } from '../helpers/cli.js'
import { startOtherBoard } from '../helpers/other-board.js'
import { tapUpstream } from '../helpers/upstream-tap.js'

const READY = /jobboard-kit listening on (http:\/\/\S+)\n/
const fitsSchema = createAjv().compile<ProxyReport>(reportSchema)

/** The JSON report a stopped proxy wrote, held to its schema. */
function jsonReport(t: Test, file: string): ProxyReport {
  const report = JSON.parse(readFileSync(file, 'utf8')) as unknown
  t.ok(fitsSchema(report), `--report fits schemas/proxy.ts's proxyReport: ${JSON.stringify(fitsSchema.errors)}`)
  return report as ProxyReport
}
const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }

async function proxyProcess(t: Test, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = runCli(['proxy', ...args], env)
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk))
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = READY.exec(out)
      if (match) resolve(match[1] as string)
    })
    child.on('exit', (code) => reject(new Error(`proxy exited ${code}: ${err}`)))
  })
  const stop = () => new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code))
    child.kill('SIGTERM')
  })
  return { url, stop, stdout: () => out, stderr: () => err }
}

t.test('the ready line, the settings from JOBBOARD_*, and at SIGTERM a clean exit with both sections written', async (t) => {
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const dir = mkdtempSync(join(tmpdir(), 'proxy-'))
  const files = ['--report', join(dir, 'report.json'), '--report-text', join(dir, 'report.txt'), '--junit', join(dir, 'junit.xml'), '--html', join(dir, 'day.html')]
  const proxy = await proxyProcess(t, ['--port', '0', ...files, '--verdict-exit'], { JOBBOARD_TO: board.url })
  t.match(proxy.url, /^http:\/\/127\.0\.0\.1:[0-9]+$/)
  const page = await fetch(`${proxy.url}/api/v1/metrics/list`, { headers })
  t.equal(page.status, 200)
  t.equal(await proxy.stop(), 0, 'nothing broken: exit 0 under --verdict-exit')
  const json = jsonReport(t, join(dir, 'report.json'))
  t.match(json, { kind: 'jobboard-kit proxy report', version: 1, to: board.url, upstreamRequests: 1, outcome: 'pass', staging: { outcome: 'pass', violations: 0, rules: [] }, client: { outcome: 'pass' } })
  const copyInStep = json.client.rules.find((rule) => rule.id === 'copy-in-step')
  t.equal(copyInStep?.outcome, 'not-exercised')
  t.match(copyInStep?.notExercised, /^A proxy does not know the board/, 'and why, behind a proxy')
  t.ok(json.client.rules.every((rule) => rule.sentence.length > 0 && rule.spec.length > 0), "each client rule with its sentence and the spec's words")
  const report = readFileSync(join(dir, 'report.txt'), 'utf8')
  t.match(report, /^What staging broke: nothing \(1 request passed upstream\)/)
  t.match(report, /What the client broke: Verdict: PASS/)
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
  t.match(junit, /testsuite name="jobboard-kit proxy: what staging broke"/)
  t.match(junit, /testsuite name="jobboard-kit proxy: what the client broke"/)
  const html = readFileSync(join(dir, 'day.html'), 'utf8')
  t.match(html, /<script type="application\/json" id="day">/, '--html: the page with the traffic inside')
  t.match(html, `"proxy":{"to":"${board.url}"`, 'and whose traffic it is')
  t.match(html, '/api/v1/metrics/list', 'and the request')
})

t.test('a violation is one line on stderr as it happens, and --verdict-exit exits 1', async (t) => {
  const board = await startOtherBoard({ style: 'b', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const upstream = await tapUpstream(board.url, { mutate: (path, body) => (path === '/api/v1/metrics/list' ? { status: (body as { status: number }).status } : body) })
  t.teardown(() => upstream.close())
  const dir = mkdtempSync(join(tmpdir(), 'proxy-'))
  const proxy = await proxyProcess(t, ['--to', upstream.url, '--port', '0', '--verdict-exit', '--report', join(dir, 'report.json'), '--report-text', join(dir, 'report.txt')])
  await (await fetch(`${proxy.url}/api/v1/metrics/list`, { headers })).arrayBuffer()
  t.equal(await proxy.stop(), 1)
  const lines = proxy.stderr().trim().split('\n')
  t.equal(lines.length, 1, proxy.stderr())
  t.match(lines[0], /^jobboard-kit proxy: violation #1 GET \/api\/v1\/metrics\/list 200: metrics\/list: the answer fits the metrics schema: .*metrics.* \(spec: "/)
  const json = jsonReport(t, join(dir, 'report.json'))
  t.match(json, { outcome: 'fail', upstreamRequests: 1, staging: { outcome: 'fail', violations: 1 } })
  t.equal(json.staging.rules.length, 1, 'one rule broken')
  const [broken] = json.staging.rules
  t.equal(broken?.rule, 'metrics/list: the answer fits the metrics schema', "the rule's id")
  t.equal(broken?.basis, 'spec')
  t.ok((broken?.spec.length ?? 0) > 0, "with the spec's words")
  t.match(broken?.violations, [{ request: 1, method: 'GET', url: '/api/v1/metrics/list', status: 200, message: /metrics/ }], 'and the answer that broke it')
  const report = readFileSync(join(dir, 'report.txt'), 'utf8')
  t.match(report, /What staging broke: 1 rule in 1 answer \(1 request passed upstream\)/)
  t.match(report, /FAIL metrics\/list: the answer fits the metrics schema\n {2}spec: "/)
})

t.test('--record: at SIGTERM the traffic is written as a scenario the fake loads, the records seen and written printed, exit 0 when nothing was lost', async (t) => {
  const board = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0 })
  t.teardown(() => board.close())
  const file = join(mkdtempSync(join(tmpdir(), 'proxy-')), 'traffic.json')
  const proxy = await proxyProcess(t, ['--port', '0', '--record', file], { JOBBOARD_TO: board.url })
  for (const path of ['/api/v1/job/fields', '/api/v1/candidates/list', '/api/v1/applications/list']) t.equal((await fetch(`${proxy.url}${path}`, { headers })).status, 200)
  t.equal(await proxy.stop(), 0)
  t.match(proxy.stdout(), /Records seen → written: candidates ([0-9]+) → \1, applications ([0-9]+) → \2, timesheets 0 → 0, marketing 0 → 0/)
  t.match(proxy.stdout(), `Serve it with: jobboard-kit serve --scenario ${file}`)
  t.ok(loadScenario(file), 'the fake loads it')
})
