// `jobboard-kit serve` over a real socket: the listening line, the API with its auth,
// rate limit, paging links and downloads, and a graceful stop on SIGINT and SIGTERM.
// It runs in process (main with captured output), but for the signals, sent to a real one.
import { once } from 'node:events'
import t from 'tap'
import { runToEnd, serve, serveProcess } from '../helpers/cli.js'

const auth = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

t.test('prints where it listens and answers the API there', async (t) => {
  const { url } = await serve(t, ['--clock', 'virtual'])
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/, 'a free port on the loopback interface')
  const list = await fetch(`${url}/api/v1/applications/list`, { headers: auth })
  t.equal(list.status, 200)
  const body = (await list.json()) as { total: number; data: Array<{ href: string; applicant: { attachment: { href: string; filename: string } } }>; next_page: string }
  t.equal(body.next_page, `${url}/api/v1/applications/list?page=2`, 'next_page on the address it listens on')
  t.ok(body.data[0]?.href.startsWith(`${url}/api/v1/applications/details/`), 'so are the hrefs')
  const attachment = await fetch(body.data[0]?.applicant.attachment.href as string, { headers: auth })
  const bytes = Buffer.from(await attachment.arrayBuffer())
  t.equal(attachment.status, 200)
  t.equal(Number(attachment.headers.get('content-length')), bytes.length, 'Content-Length is the bytes received')
  t.equal(attachment.headers.get('content-disposition'), `attachment; filename="${body.data[0]?.applicant.attachment.filename}"`)
  t.equal((await fetch(`${url}/api/v1/applications/list`)).status, 401, 'without credentials')
  const again = await fetch(`${url}/api/v1/applications/list`, { headers: auth })
  t.equal(again.status, 429, 'the same URL again')
  t.equal(again.headers.get('retry-after'), '900')
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  t.test(`stops cleanly on ${signal}`, async (t) => {
    // a real process: the signal comes from the system, the exit code is the process's
    const { url, child } = await serveProcess(t, ['--scenario', 'empty'])
    t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: auth })).status, 200)
    child.kill(signal)
    const [code] = await once(child, 'exit')
    t.equal(code, 0)
    await t.rejects(fetch(`${url}/api/v1/metrics/list`, { headers: auth }), 'no longer listening')
  })
}

t.test('takes its settings from flags', async (t) => {
  const { url } = await serve(t, [
    '--scenario', 'edge-cases', '--seed', '9', '--page-size', '3', '--username', 'u', '--password', 'p',
    '--rate-limit-window', '0', '--public-base-url', 'https://board.example.com', '--last-page-next-page', 'null',
  ])
  const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }
  const first = (await (await fetch(`${url}/api/v1/timesheets/list`, { headers })).json()) as { data: unknown[]; next_page: string }
  t.equal(first.data.length, 3)
  t.equal(first.next_page, 'https://board.example.com/api/v1/timesheets/list?page=2')
  t.equal((await fetch(`${url}/api/v1/timesheets/list`, { headers })).status, 200, 'no rate limit')
  const last = (await (await fetch(`${url}/api/v1/timesheets/list?page=99`, { headers })).json()) as { next_page: unknown }
  t.equal(last.next_page, null)
})

t.test('--help lists every command and flag', async (t) => {
  const top = await runToEnd(['--help'])
  t.equal(top.code, 0)
  for (const command of ['serve', 'contract', 'openapi', 'scenarios']) t.match(top.stdout, new RegExp(`^  ${command}`, 'm'), command)
  for (const flag of ['--page-size', '--rate-limit-window', '--clock', '--base-url', '--writes', '--ledger', '--out']) t.match(top.stdout, flag, `the top-level help lists ${flag}`)
  const help = await runToEnd(['serve', '--help'])
  for (const flag of ['--port', '--host', '--scenario', '--seed', '--page-size', '--username', '--password', '--public-base-url', '--rate-limit-window', '--clock', '--control', '--control-token', '--prefer']) {
    t.match(help.stdout, new RegExp(`${flag}\\b`), flag)
  }
})

t.test('exits 2 with a one-line reason for bad flags and scenarios', async (t) => {
  for (const args of [['serve', '--page-size', '0'], ['serve', '--clock', 'sundial'], ['serve', '--scenario', 'no-such'], ['serve', '--port', 'abc'], ['frobnicate']]) {
    const run = await runToEnd(args)
    t.equal(run.code, 2, args.join(' '))
    t.ok(run.stderr.trim().length > 0, `${args.join(' ')}: says why`)
  }
  const bad = await runToEnd(['serve', '--page-size', '0'])
  t.match(bad.stderr, /^jobboard-kit: .*--page-size/m)
})

t.test('exits 2 when the port is taken', async (t) => {
  const { url } = await serve(t, ['--scenario', 'empty'])
  const run = await runToEnd(['serve', '--scenario', 'empty', '--port', new URL(url).port])
  t.equal(run.code, 2)
  t.match(run.stderr, /address is in use/)
})

t.test('refuses to start off loopback with the control API open and no token', async (t) => {
  const run = await runToEnd(['serve', '--host', '0.0.0.0', '--scenario', 'empty'])
  t.equal(run.code, 2)
  t.match(run.stderr, /control token/)
})

t.test('serves the control API unless told not to, behind a token when given one', async (t) => {
  const open = await serve(t, ['--scenario', 'empty', '--clock', 'virtual'])
  t.equal((await fetch(`${open.url}/__mock/clock`)).status, 200)
  const off = await serve(t, ['--scenario', 'empty', '--control', 'off'])
  t.equal((await fetch(`${off.url}/__mock/clock`)).status, 404)
  const guarded = await serve(t, ['--scenario', 'empty', '--control-token', 'open-sesame'])
  t.equal((await fetch(`${guarded.url}/__mock/clock`)).status, 401)
  t.equal((await fetch(`${guarded.url}/__mock/clock`, { headers: { authorization: 'Bearer open-sesame' } })).status, 200)
})
