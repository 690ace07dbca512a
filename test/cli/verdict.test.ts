// The verdict from the command line: serve's --verdict-json, --verdict-junit and
// --verdict-exit at SIGTERM, the account on the pretty request log, and the `verdict`
// command reading a running fake.
import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { runToEnd, serve, serveProcess } from '../helpers/cli.js'

const auth = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

const tempDir = async (t: Test) => {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

t.test('serve writes the verdict files at SIGTERM and --verdict-exit turns a failed verdict into exit 1', async (t) => {
  const dir = await tempDir(t)
  const json = join(dir, 'verdict.json')
  const junit = join(dir, 'verdict.xml')
  const served = await serve(t, ['--scenario', 'empty', '--clock', 'virtual', '--verdict-json', json, '--verdict-junit', junit, '--verdict-exit', 'on'])
  t.equal((await fetch(`${served.url}/api/v1/metrics/list`)).status, 401, 'a request without credentials')
  t.equal(await served.stop('SIGTERM'), 1)
  const written = JSON.parse(await readFile(json, 'utf8'))
  t.equal(written.outcome, 'fail')
  t.match(written.rules.find((r: { id: string }) => r.id === 'credentials'), { outcome: 'fail', findings: [{ requests: [1] }] })
  const xml = await readFile(junit, 'utf8')
  t.match(xml, /<testsuite name="jobboard-kit verdict"[^>]* failures="1"/)
  t.match(xml, /<skipped\/>/, 'rules not exercised are skipped')
  t.match(served.stderr(), /FAIL credentials: Every API request carries HTTP Basic credentials\./, 'the account says why on stderr')
  t.match(served.stderr(), /#1 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d GET \/api\/v1\/metrics\/list/)
})

t.test('serve --verdict-html writes the page of the day at SIGTERM: the verdict and the journal inside, nothing to load', async (t) => {
  const dir = await tempDir(t)
  const html = join(dir, 'day.html')
  const served = await serve(t, ['--scenario', 'empty', '--clock', 'virtual', '--verdict-html', html])
  t.equal((await fetch(`${served.url}/api/v1/metrics/list`)).status, 401, 'a request without credentials')
  t.equal((await fetch(`${served.url}/api/v1/metrics/list`, { headers: auth })).status, 200, 'and one with them')
  t.equal(await served.stop('SIGTERM'), 0)
  const page = await readFile(html, 'utf8')
  const day = JSON.parse(/<script type="application\/json" id="day">([^<]*)<\/script>/.exec(page)?.[1] ?? 'null')
  t.same(
    day.journal.map((e: unknown[]) => [e[0], e[2], e[3], e[4]]),
    [
      [1, 'GET', '/api/v1/metrics/list', 401],
      [2, 'GET', '/api/v1/metrics/list', 200],
    ],
    'the journal is inside',
  )
  t.match(day.board.verdict.rules.find((r: { id: string }) => r.id === 'credentials'), { outcome: 'fail', findings: [{ requests: [1] }] }, 'and the verdict, with its findings')
  t.notMatch(page, /\bsrc=|<link rel="stylesheet"/, 'it loads nothing')
  t.match(page, /Content-Security-Policy" content="default-src 'none'/, 'and forbids every load')
  t.notMatch(page, auth.authorization.slice(6), 'never the Authorization header')
})

t.test('serve exits 0 at SIGTERM with --verdict-exit when the verdict passes', async (t) => {
  const served = await serve(t, ['--scenario', 'empty', '--clock', 'virtual', '--verdict-exit', 'on'])
  t.equal((await fetch(`${served.url}/api/v1/metrics/list`, { headers: auth })).status, 200)
  t.equal(await served.stop('SIGTERM'), 0)
})

t.test('serve exits 0 on a failed verdict without --verdict-exit, and prints the account on the pretty log', async (t) => {
  const served = await serve(t, ['--scenario', 'empty', '--clock', 'virtual', '--log', 'pretty'])
  await fetch(`${served.url}/api/v1/metrics/list`)
  t.equal(await served.stop('SIGINT'), 0)
  t.match(served.output(), /Verdict: FAIL \(1 failed, 1 passed, 9 not exercised\)/)
})

t.test('a real serve process exits 1 on SIGTERM with --verdict-exit when its client broke a rule', async (t) => {
  const { url, child } = await serveProcess(t, ['--scenario', 'empty', '--verdict-exit', 'on'])
  await fetch(`${url}/api/v1/metrics/list`)
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
})

t.test('jobboard-kit verdict prints the account of a running fake and exits 1 when it fails, 0 when it passes', async (t) => {
  const served = await serve(t, ['--scenario', 'empty', '--clock', 'virtual'])
  const passing = await runToEnd(['verdict', '--url', served.url])
  t.equal(passing.code, 0)
  t.match(passing.stdout, /Verdict: PASS/)
  await fetch(`${served.url}/api/v1/metrics/list`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'x' })
  const failing = await runToEnd(['verdict', '--url', served.url])
  t.equal(failing.code, 1)
  t.match(failing.stdout, /FAIL post-json/)
  t.match(failing.stdout, /#1 .* POST \/api\/v1\/metrics\/list/)
  t.match(failing.stdout, /instead: Serialize the body with JSON/)
  const json = await runToEnd(['verdict', '--url', served.url, '--json'])
  t.equal(JSON.parse(json.stdout).outcome, 'fail')
})

t.test('jobboard-kit verdict exits 2 naming the problem when the fake cannot be asked', async (t) => {
  const bad = await runToEnd(['verdict', '--url', 'not a url'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /--url "not a url" is not an http\(s\) URL/)
  const away = await runToEnd(['verdict', '--url', 'http://127.0.0.1:9'])
  t.equal(away.code, 2)
  t.match(away.stderr, /^jobboard-kit verdict: /)
})

t.test('serve refuses --verdict-exit with --verdict off, naming both, exit 2', async (t) => {
  const { code, stderr } = await runToEnd(['serve', '--port', '0', '--verdict', 'off', '--verdict-exit', 'on'])
  t.equal(code, 2)
  t.match(stderr, /--verdict-exit need the verdict: leave out --verdict off/)
})
