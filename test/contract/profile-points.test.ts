// With --profile, every pinned point compares what was seen with what was pinned,
// whatever was seen: month names short in one list and long in another ("mixed") fail a
// profile that pins long. A pinned point hidden by the deployment's own limiter (429s)
// fails; one left unmade because the run was cut short (the ledger's windows) makes the
// run incomplete, never failed.
import { join } from 'node:path'
import t from 'tap'
import { AUTHORIZATION, board, contract, json, jsonReply, on, steppingClock } from './helpers.js'

const MONTHS = 'monthNames is as the profile records it'
const AUTH = 'authStatus is as the profile records it'

t.test('months short in the metrics and long in the candidates fail a profile that pins long, naming "mixed"', async (t) => {
  const file = join(t.testdir(), 'profile.json')
  const pinned = await board(t, {}, { rateLimitWindow: 0 })
  const first = await contract({ baseUrl: pinned.url, only: 'candidates,metrics', rateLimitWindow: 0, writeProfile: file })
  t.equal(first.exitCode, 0, first.reason ?? 'exit 0')
  const { url } = await board(
    t,
    {
      reply: (x, r) =>
        on(x, /^\/metrics\/list$/)
          ? json(r, (b) => {
              for (const m of b.metrics) for (const a of m.aggregations) a.month = String(a.month).slice(0, 3)
            })
          : r,
    },
    { rateLimitWindow: 0 },
  )
  const run = await contract({ baseUrl: url, only: 'candidates,metrics', rateLimitWindow: 0, profile: file })
  t.equal(run.exitCode, 1)
  t.same(run.failed(), [`profile: ${MONTHS}`])
  t.match(run.check('profile', MONTHS)?.failures, [/^profile: monthNames long \(GET .*\); deployment now answers mixed \(months are written both long and short/])
})

t.test('a pinned point the deployment hid behind 429s fails the run', async (t) => {
  const file = join(t.testdir(), 'profile.json')
  const pinned = await board(t, {}, { rateLimitWindow: 0 })
  await contract({ baseUrl: pinned.url, only: 'auth', rateLimitWindow: 0, writeProfile: file })
  // every request without the right credentials is limited before it is refused
  const { url } = await board(t, { answer: (x) => (x.url.startsWith('/api/') && x.headers.authorization !== AUTHORIZATION ? jsonReply(429, { status: 429, message: 'Slow down' }, { 'retry-after': '900' }) : undefined) }, { rateLimitWindow: 0 })
  const run = await contract({ baseUrl: url, only: 'auth', rateLimitWindow: 0, profile: file })
  t.equal(run.exitCode, 1, 'failed, not incomplete')
  t.ok(run.failed().includes(`profile: ${AUTH}`))
  t.match(run.check('profile', AUTH)?.failures, [/^profile: authStatus 401 .*could not be seen: the deployment answered 429/])
})

t.test('a pinned point left unmade because the run was cut short (the ledger) is incomplete: exit 3, nothing failed', async (t) => {
  const dir = t.testdir()
  const [file, ledger] = [join(dir, 'profile.json'), join(dir, 'ledger.json')]
  const clock = steppingClock()
  const { url } = await board(t)
  const first = await contract({ baseUrl: url, only: 'auth,candidates', ledger, writeProfile: file }, { clock })
  t.equal(first.exitCode, 0, first.reason ?? 'exit 0')
  clock.advance(60)
  const second = await contract({ baseUrl: url, only: 'auth,candidates', ledger, profile: file }, { clock })
  t.same(second.failed(), [], 'no check failed')
  t.equal(second.exitCode, 3, 'incomplete')
  t.match(second.check('profile', 'notFoundBody is as the profile records it'), { status: 'skip', skip: 'unavailable' })
})
