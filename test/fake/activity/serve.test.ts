// `serve --activity` over a real socket: under the virtual clock the control API plays the
// day, under --clock-speed it plays by itself; and the same day on the same seed makes the
// same board.
import t from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { AUTH } from '../../helpers/board.js'
import { serve } from '../../helpers/cli.js'

const NOW = '2026-03-02 08:00:00'

t.test('serve --activity bad-day --clock virtual: the control API plays the day over a socket', async (t) => {
  const { url } = await serve(t, ['--activity', 'bad-day', '--clock', 'virtual', '--now', NOW, '--rate-limit-window', '0'])
  const advanced = await fetch(`${url}/__mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 2 * 3600 + 600 }) })
  t.equal(advanced.status, 200)
  const down = await fetch(`${url}/api/v1/candidates/list`, { headers: AUTH })
  t.equal(down.status, 503)
  t.equal(down.headers.get('retry-after'), '600', 'the ten minutes left of the outage')
  t.match(await down.json(), { status: 503, message: /outage until 2026-03-02 10:20:00/ })
  const status = await (await fetch(`${url}/__mock/activity`)).json()
  t.match(status, { status: 200, name: 'bad-day', start: NOW, played: 5, next: { at: '2026-03-02 10:20:00', event: 'outage' } })
})

t.test('serve --activity quiet-day --clock-speed 3600 plays the day by itself', async (t) => {
  const { url } = await serve(t, ['--activity', 'quiet-day', '--clock-speed', '3600', '--now', NOW, '--scenario', 'default'])
  // the first event is at +00:45: three quarters of a real second
  let played = 0
  for (let i = 0; i < 50 && played === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    played = ((await (await fetch(`${url}/__mock/activity`)).json()) as { played: number }).played
  }
  t.ok(played >= 1, `${played} events played within five real seconds`)
})

t.test('the same day on the same scenario and seed makes the same board', async (t) => {
  const saved: string[] = []
  for (let i = 0; i < 2; i++) {
    const server = await createMockServer({ clock: 'virtual', now: NOW, activity: 'busy-monday' })
    server.clock.advance(12 * 3600)
    saved.push(JSON.stringify(server.exportState({ form: 'compact' })))
    await server.close()
  }
  t.ok((saved[0] as string).length > 1000)
  t.equal(saved[0], saved[1])
})
