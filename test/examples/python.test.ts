// A client in another language: examples/python/sync.py (standard library only) runs
// against a real `serve --activity busy-monday --clock-speed 60 --verdict-exit on`;
// stopping the fake with SIGTERM exits 0 when the client kept every rule and 1 when it
// broke one. Skipped where python3 is missing.
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import t from 'tap'
import { ROOT, serveProcess } from '../helpers/cli.js'

const python = spawnSync('python3', ['--version']).status === 0

const run = (url: string, extra: string[] = []) =>
  spawnSync('python3', [join(ROOT, 'examples/python/sync.py'), '--url', url, ...extra], { encoding: 'utf8', timeout: 120_000 })

for (const [mistake, code] of [
  [undefined, 0],
  ['no-credentials', 1],
] as const) {
  const name = mistake === undefined ? 'the correct Python client leaves serve --verdict-exit to exit 0' : `a Python client that makes the mistake ${mistake} makes serve --verdict-exit exit 1`
  t.test(python ? name : `${name} (skipped: python3 is not installed)`, { skip: !python }, async (t) => {
    const { url, child } = await serveProcess(t, ['--scenario', 'default', '--activity', 'busy-monday', '--clock-speed', '60', '--verdict-exit', 'on'])
    const client = run(url, mistake === undefined ? [] : ['--mistake', mistake])
    t.equal(client.status, 0, `the client ran: ${client.stderr}`)
    // the day may have added records by then: at least the board's own
    const counts = JSON.parse(client.stdout) as { candidates: number; applications: number; timesheets: number; marketing: number }
    t.ok(counts.candidates >= 48 && counts.applications >= 180 && counts.timesheets >= 72 && counts.marketing >= 96, `it walked every list to its end: ${client.stdout}`)
    child.kill('SIGTERM')
    const [exit] = await once(child, 'exit')
    t.equal(exit, code)
  })
}
