// A scenario file that cannot be built stops `serve` with exit code 2 and one line
// naming the field, never a stack trace; SIGTERM lets a held request finish.
import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runToEnd, serve } from '../../helpers/cli.js'
import { AUTH } from '../../helpers/board.js'

t.test('serve with a scenario whose records name a missing candidate exits 2 with one line naming the field', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-'))
  const path = join(dir, 'broken.json')
  writeFileSync(path, JSON.stringify({ name: 'broken', records: { timesheets: [{ candidate_id: 99_999 }] } }))
  const run = await runToEnd(['serve', '--port', '0', '--scenario', path])
  t.equal(run.code, 2)
  t.match(run.stderr, /records\.timesheets\[0\]\.candidate_id|candidate 99999/)
  t.notMatch(run.stderr, /\n\s+at /, 'no stack trace')
  t.equal(run.stderr.trim().split('\n').length, 1, 'one line')
})

t.test('SIGTERM lets a request held by a delay fault finish before serve exits 0', async (t) => {
  const { url, stop } = await serve(t, ['--clock', 'virtual'])
  const armed = await fetch(`${url}/__mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: '/api/v1/metrics/list', delayMs: 600_000 }) })
  t.equal(armed.status, 201)
  const held = fetch(`${url}/api/v1/metrics/list`, { headers: AUTH })
  // the request is held once it has taken the fault
  while (((await (await fetch(`${url}/__mock/faults`)).json()) as { total: number }).total > 0) await new Promise((resolve) => setTimeout(resolve, 10))
  const exited = stop('SIGTERM')
  const answer = await held
  t.equal(answer.status, 200, 'the held request answered')
  t.equal(await exited, 0, 'serve exited 0')
})
