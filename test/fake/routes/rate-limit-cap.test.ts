// The rate limiter keeps at most rateLimitMaxWindows windows (and 32 Mi characters of
// keys): a client sending ever new URLs cannot grow the fake without bound. Past the cap
// the oldest window is dropped first.
import t from 'tap'
import { createClock } from '../../../src/core/clock.js'
import { MAX_KEY_CHARS, RateLimiter } from '../../../src/fake/board/windows.js'
import { board, call } from '../../helpers/board.js'

t.test('past rateLimitMaxWindows the oldest window is dropped first, over HTTP', async (t) => {
  const app = await board(t, { rateLimitWindow: 900, rateLimitMaxWindows: 3 })
  for (const page of [1, 2, 3, 4]) t.equal((await call(app, `/api/v1/timesheets/list?page=${page}`)).status, 200, `page ${page} admitted`)
  const open = await call(app, '/__mock/rate-limits')
  t.equal(open.body.total, 3, 'three windows are open')
  t.same(open.body.data.map((w: { url: string }) => w.url), ['/api/v1/timesheets/list?page=2', '/api/v1/timesheets/list?page=3', '/api/v1/timesheets/list?page=4'])
  t.equal((await call(app, '/api/v1/timesheets/list?page=4')).status, 429, 'a window still held refuses')
  t.equal((await call(app, '/api/v1/timesheets/list?page=1')).status, 200, 'the dropped window admits again')
})

t.test('the default cap is 100,000 windows', async (t) => {
  const app = await board(t, { rateLimitWindow: 900 })
  t.equal(app.board.options.rateLimitMaxWindows, 100_000)
})

t.test('50,000 distinct URLs of 8 KB keep the windows under the character budget', async (t) => {
  const limiter = new RateLimiter(createClock('virtual', 0), 900, 'all', 100_000)
  const tail = 'x'.repeat(8_000)
  let refused = 0
  for (let i = 0; i < 50_000; i++) if (!limiter.admit(`jobboard\u0000GET\u0000/api/v1/candidates/list?i=${i}&${tail}`).admitted) refused += 1
  t.equal(refused, 0, 'every new URL is admitted')
  t.ok(limiter.size * 8_000 <= MAX_KEY_CHARS, `${limiter.size} windows of 8 KB fit in ${MAX_KEY_CHARS} characters`)
  t.ok(limiter.size < 50_000, 'older windows were dropped')
  t.notOk(limiter.admit(`jobboard\u0000GET\u0000/api/v1/candidates/list?i=49999&${tail}`).admitted, 'the newest window still refuses')
})
