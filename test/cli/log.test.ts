// The request log of `jobboard-kit serve`: one line per request on a terminal (time,
// method, URL, status, milliseconds, a mark for 429s, faults and Prefer answers), in
// colour unless NO_COLOR; --log json for Fastify's JSON lines; quiet when piped. In process
// (main with captured output) but for the JSON lines and the terminal, which need a process.
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { ROOT, runToEnd, serve, serveProcess } from '../helpers/cli.js'
import { haveTools, needs } from '../helpers/tools.js'

const auth = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }
const ESC = '\u001b['
const LINE = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR): (GET|POST) (\S+) (\d{3}|---) (\d+\.\d) ms(?: {2}← (.+))?$/

/** Waits until the output holds `count` log lines (or a few seconds pass) and answers them. */
async function logLines(output: () => string, count: number): Promise<string[]> {
  const lines = () => output().split(/\r?\n/).filter((line) => line.startsWith('['))
  for (let i = 0; i < 100 && lines().length < count; i++) await sleep(50)
  return lines()
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes this strips
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

t.test('--log pretty prints one line per request, with a mark for 429, fault and Prefer answers', async (t) => {
  const { url, output } = await serve(t, ['--scenario', 'empty', '--log', 'pretty'], { NO_COLOR: '1' })
  await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
  await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
  await fetch(`${url}/api/v1/candidates/details/1`, { headers: { ...auth, prefer: 'code=404' } })
  await fetch(`${url}/__mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: '/api/v1/job/fields', status: 503 }) })
  await fetch(`${url}/api/v1/job/fields`, { headers: auth })
  await fetch(`${url}/api/v1/job/fields`)
  const lines = await logLines(output, 6)
  t.equal(lines.length, 6, `six requests, six lines:\n${output()}`)
  const parsed = lines.map((line) => LINE.exec(line))
  for (const [i, match] of parsed.entries()) t.ok(match, `line ${i + 1} has time, level, method, URL, status and ms: ${lines[i]}`)
  const [ok, limited, preferred, control, fault, refused] = parsed.map((m) => ({ level: m?.[1], method: m?.[2], url: m?.[3], status: m?.[4], mark: m?.[6] }))
  t.match(ok, { level: 'INFO', method: 'GET', url: '/api/v1/metrics/list', status: '200', mark: undefined }, 'an ordinary answer has no mark')
  t.match(limited, { level: 'WARN', status: '429', mark: 'rate limited' })
  t.match(preferred, { status: '404', mark: 'Prefer: code=404' })
  t.match(control, { method: 'POST', url: '/__mock/faults', status: '201' }, 'control API requests are logged too')
  t.match(fault, { level: 'ERROR', status: '503', mark: 'fault: 503' })
  t.match(refused, { status: '401', mark: undefined })
  t.notMatch(output(), ESC, 'NO_COLOR: no colour codes')
  t.match(output(), /^jobboard-kit listening on http:\/\/\S+\r?\n\[/, 'the ready line comes first, the request lines after it')
})

t.test('colours the status and the mark when colour is on', async (t) => {
  const { url, output } = await serve(t, ['--scenario', 'empty', '--log', 'pretty'], { FORCE_COLOR: '1', NO_COLOR: '' })
  await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
  await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
  const lines = await logLines(output, 2)
  t.equal(lines.length, 2)
  t.match(lines[0], `${ESC}32m200`, '200 in green')
  t.match(lines[1], `${ESC}33m429`, '429 in yellow')
  t.match(lines[1], `${ESC}35m← rate limited`, 'the mark in magenta')
  t.match(plain(lines[1] as string), LINE, 'and without the colour codes, the same line')
})

t.test('is off by default when stdout is not a terminal', async (t) => {
  const { url, output } = await serve(t, ['--scenario', 'empty'])
  t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: auth })).status, 200)
  await sleep(300)
  t.equal(output().trim().split('\n').length, 1, `only the ready line:\n${output()}`)
})

t.test('--log json prints Fastify\'s JSON lines, and --logger on still does, with a deprecation note', async (t) => {
  for (const flags of [['--log', 'json'], ['--logger', 'on']]) {
    // a real process: Fastify's logger writes to file descriptor 1 itself
    const { url, output } = await serveProcess(t, ['--scenario', 'empty', ...flags])
    await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
    let json: Array<Record<string, unknown>> = []
    for (let i = 0; i < 100 && !json.some((line) => line.msg === 'request completed'); i++) {
      await sleep(50)
      json = output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
    }
    t.ok(json.some((line) => line.msg === 'request completed' && (line.res as { statusCode?: number })?.statusCode === 200), `${flags.join(' ')}: a completed request as JSON`)
    t.notMatch(output(), /^\[\d\d:/m, `${flags.join(' ')}: no pretty lines`)
  }
  const deprecated = await runToEnd(['serve', '--logger', 'on', '--port', '-1'])
  t.match(deprecated.stderr, /--logger is deprecated; use --log json/)
})

t.test('--log off is quiet, and --log takes only pretty, json or off', async (t) => {
  const { url, output } = await serve(t, ['--scenario', 'empty', '--log', 'off'], { FORCE_COLOR: '1' })
  await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
  await sleep(300)
  t.equal(output().trim().split('\n').length, 1)
  const bad = await runToEnd(['serve', '--log', 'loud'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /'loud' is invalid\. Allowed choices are pretty, json, off/)
})

/** `serve` under a pseudo-terminal (util-linux `script`), as a person at a terminal runs it. */
function serveOnTerminal(t: Test, env: NodeJS.ProcessEnv): Promise<{ url: string; output: () => string }> {
  const command = `exec ${JSON.stringify(process.execPath)} --import tsx src/cli/main.ts serve --port 0 --scenario empty`
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: undefined, ...env } })
  let out = ''
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGTERM')
  })
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      const match = /jobboard-kit listening on (http:\/\/[0-9.:]+)/.exec(out)
      if (match) resolve({ url: match[1] as string, output: () => out })
    })
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
  })
}

t.test('on a terminal, logs each request by default, in colour unless NO_COLOR', needs('script'), async (t) => {
  if (!haveTools(t, 'script')) return
  const coloured = await serveOnTerminal(t, { NO_COLOR: '' })
  await fetch(`${coloured.url}/api/v1/metrics/list`, { headers: auth })
  const [line] = await logLines(coloured.output, 1)
  t.match(plain(line ?? ''), LINE, 'a request line without any flag')
  t.match(line, ESC, 'in colour')
  const monochrome = await serveOnTerminal(t, { NO_COLOR: '1' })
  await fetch(`${monochrome.url}/api/v1/metrics/list`, { headers: auth })
  const [bare] = await logLines(monochrome.output, 1)
  t.match(bare, LINE, 'NO_COLOR: the same line')
  t.notMatch(monochrome.output(), ESC, 'without colour codes')
})
