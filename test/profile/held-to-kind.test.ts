// The points records move, one by one (docs/profile.md, "A live deployment: points held to
// their kind"): a point read from the records (the share of guests) passes at another
// value and the file takes the new one; an extra field's type read from the values met
// (null, or whole numbers, yesterday) holds when tonight's records tell it, and another
// kind of value fails; a page past the last that records filled while the run read the
// list is not seen, and one holding records its total does not explain fails; a real
// change of choice on a live deployment (the page size, the last page's link) still fails.
// Time passing: the window read through a Retry-after a second later is the same window.
import { join } from 'node:path'
import t from 'tap'
import { heldToKind, PROFILE_POINTS } from '../../schemas/profile.js'
import { loadProfile } from '../../src/profile/deployment-profile.js'
import { board, changeJson, contract, json } from '../contract/helpers.js'
import { liveBoard } from '../helpers/live-board.js'
import { startOtherBoard } from '../helpers/other-board.js'

const held = (file: string, point: string) => (loadProfile(file).points as Record<string, { value?: unknown; seen: string; note?: string; request?: string } | undefined>)[point]
const named = (point: string) => `${point} is as the profile records it`

t.test('a share of guests that arrivals moved holds: read from the records, it is held to its kind, and the file takes the new share', async (t) => {
  t.ok(heldToKind('guestApplicants'), "guestApplicants' definition says it is read from the records")
  t.same(PROFILE_POINTS.filter(heldToKind), ['guestApplicants'], 'the only point read from the records: every other is a choice the deployment made')
  // every candidate fits on a page (7): the kit lists them all and tells a guest from a candidate
  const other = await startOtherBoard({ style: 'a', username: 'u', password: 'p', rateLimitWindow: 0, counts: { candidates: 4, applications: 6 }, guestShare: 0 })
  t.teardown(() => other.close())
  const file = join(t.testdir(), 'staging.json')
  const flags = { baseUrl: other.url, username: 'u', password: 'p', rateLimitWindow: 0, only: 'candidates,applications' }
  const yesterday = await contract({ ...flags, writeProfile: file })
  t.equal(yesterday.exitCode, 0, yesterday.reason ?? 'exit 0')
  t.equal(held(file, 'guestApplicants')?.value, 0, 'no guest yesterday')
  // a candidate, a guest's application, a timesheet, a consent, in turn: three guests arrive overnight
  for (let i = 0; i < 12; i++) other.arrive()
  const tonight = await contract({ ...flags, profile: file, writeProfile: file })
  t.equal(tonight.check('profile', named('guestApplicants'))?.status, 'pass', 'guests arriving are no change of the deployment')
  t.equal(tonight.exitCode, 0, tonight.reason ?? 'exit 0')
  const share = held(file, 'guestApplicants')?.value
  t.ok(typeof share === 'number' && share > 0.2, `the file takes tonight's share (${String(share)})`)
  t.match(tonight.output, /\n {2}moved with the records \(held to its kind, not a change\): guestApplicants 0 → 0\.[0-9]+ \(GET \/api\/v1\/applications\/list\)/, 'and says it moved with the records')
  t.match(tonight.output, /\n {2}no recorded point changed/)
})

t.test("an extra field's type read from the values met: null or whole numbers yesterday, filled or fractional tonight, holds; another kind of value fails", async (t) => {
  // the deployment fills `referrer` and gives `rating` halves on the candidates that arrive after yesterday's run
  const since = { id: Number.POSITIVE_INFINITY, highest: 0, kind: 'string' as 'string' | 'integer' }
  const extra = changeJson(/^\/candidates\/(list|details\/[0-9]+)$/, (body) => {
    for (const record of Array.isArray(body.data) ? (body.data as Array<Record<string, unknown>>) : []) {
      const id = Number(record.id)
      since.highest = Math.max(since.highest, id)
      const arrived = id > since.id
      record.referrer = arrived ? (since.kind === 'string' ? 'job-board' : id) : null
      record.rating = arrived ? id + 0.5 : id
    }
  })
  const live = await liveBoard(t, { seed: 3, count: 900, rateLimitWindow: 0 }, extra)
  const file = join(t.testdir(), 'staging.json')
  const flags = { baseUrl: live.url, rateLimitWindow: 0, only: 'candidates' }
  const yesterday = await contract({ ...flags, writeProfile: file })
  t.not(yesterday.exitCode, 1, yesterday.reason ?? 'yesterday passes')
  t.match(held(file, 'extraFields')?.value, { candidate: { referrer: { type: 'null' }, rating: { type: 'integer' } } }, 'yesterday: referrer met only as null, rating only whole')

  since.id = since.highest
  live.night(8)
  const tonight = await contract({ ...flags, profile: file, writeProfile: file })
  t.equal(tonight.check('profile', named('extraFields'))?.status, 'pass', 'a type the records now show is no change of the deployment')
  t.not(tonight.exitCode, 1, tonight.reason ?? 'tonight passes')
  t.match(held(file, 'extraFields')?.value, { candidate: { referrer: { type: 'string' }, rating: { type: 'number' } } }, 'the file takes the types tonight could tell')
  t.notMatch(tonight.output, /changed: extraFields/)

  // the deployment now sends referrer as a number: a change of its records' shape
  since.kind = 'integer'
  since.id = since.highest
  live.night(8)
  const moved = await contract({ ...flags, profile: file })
  t.equal(moved.exitCode, 1, 'another kind of value fails')
  t.same(moved.failed(), [`profile: ${named('extraFields')}`])
  t.match(moved.check('profile', named('extraFields'))?.failures, [/^profile: extraFields candidate\.referrer string, candidate\.rating number .*; deployment now answers candidate\.referrer integer, candidate\.rating number/])
})

t.test('a page past the last that records filled while the run read the list is not seen; one that holds records though its total did not move fails', async (t) => {
  // 9 timesheets: one page of 25, so the page past the last the kit asks is page 3
  const scenarioData = { name: 'small', counts: { candidates: 12, applications: 40, timesheets: 9, marketing: 7, jobs: 6 } }
  const pastTheLast = (url: string) => /^\/api\/v1\/timesheets\/list\?page=3$/.test(url)
  /** The deployment, as it is (none), receiving records just before the page past the last is asked (arrive), or answering records there itself (fill). */
  const deployment = async (mode: 'none' | 'arrive' | 'fill') => {
    let first: unknown
    const { url, fake } = await board(
      t,
      {
        request: async (exchange) => {
          if (mode === 'arrive' && pastTheLast(exchange.url)) {
            for (let i = 0; i < 45; i++) await fetch(`${fake.url}/__mock/timesheets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
          }
          return exchange
        },
        reply: (exchange, reply) => {
          if (/^\/api\/v1\/timesheets\/list$/.test(exchange.url)) {
            json(reply, (body) => {
              first = (body.data as unknown[])[0]
            })
          }
          return mode === 'fill' && pastTheLast(exchange.url) ? json(reply, (body) => ({ ...(body as object), data: [first] })) : reply
        },
      },
      { rateLimitWindow: 0, scenarioData } as never,
    )
    return { baseUrl: url, rateLimitWindow: 0, only: 'timesheets' }
  }
  const file = join(t.testdir(), 'staging.json')
  await contract({ ...(await deployment('none')), writeProfile: file })
  t.equal(held(file, 'outOfRangePage')?.value, 'empty', `yesterday: the page past the last is empty (${held(file, 'outOfRangePage')?.request ?? ''})`)

  const tonight = await contract({ ...(await deployment('arrive')), profile: file })
  const check = tonight.check('profile', named('outOfRangePage'))
  t.equal(check?.status, 'skip', 'records that filled the page leave the point not seen')
  t.equal(check?.skip, 'not-applicable', 'for want of a page past the last, not for an answer missed')
  t.match(check?.reason, /records arrived while the run read timesheets\/list: its total grew from 9 to 54, so page 3 \(4 records\) is no longer past the last/)
  t.same(tonight.failed(), [], 'nothing fails')

  const filled = await contract({ ...(await deployment('fill')), profile: file })
  t.match(filled.check('profile', named('outOfRangePage'))?.failures, [/^profile: outOfRangePage empty \(GET \/api\/v1\/timesheets\/list\?page=3.*\); deployment now answers 1 records \(page 3 answered 1 records, though total and page size put it past the last\)/])
  t.equal(filled.exitCode, 1, 'a page past the last holding records its total does not explain fails')
})

t.test('a real change of choice on a live deployment still fails: another page size, another last page', async (t) => {
  const file = join(t.testdir(), 'staging.json')
  const live = await liveBoard(t, { seed: 1, count: 900 })
  const yesterday = await contract({ baseUrl: live.url, writeProfile: file })
  t.not(yesterday.exitCode, 1, yesterday.reason ?? 'yesterday passes')
  t.equal(held(file, 'pageSize')?.value, 25)
  t.equal(held(file, 'lastPageNextPage')?.value, 'false')
  // the same deployment redeployed with 10 a page and null on its last pages, records arriving as before
  const redeployed = await liveBoard(t, { seed: 1, count: 900, pageSize: 10, lastPageNextPage: 'null' })
  redeployed.night(8)
  const tonight = await contract({ baseUrl: redeployed.url, profile: file })
  t.equal(tonight.exitCode, 1, 'the run fails')
  t.same(
    tonight.failed().filter((name) => name.startsWith('profile: ')).sort(),
    [`profile: ${named('lastPageNextPage')}`, `profile: ${named('pageSize')}`],
    'on the two points that moved, and no other',
  )
  t.match(tonight.check('profile', named('pageSize'))?.failures, [/^profile: pageSize 25 .*; deployment now answers 10 /])
  t.match(tonight.check('profile', named('lastPageNextPage'))?.failures, [/^profile: lastPageNextPage false .*; deployment now answers null /])
})

t.test('the window read through a Retry-after the seconds since it opened shorten: a second later is the same window; a shorter window fails', async (t) => {
  const spare = /^\/api\/v1\/marketing\/list\?page=1002$/
  /**
   * A deployment with a window of `window` seconds whose repeat of the 429 check's request
   * comes `late` seconds after the first ask (a slow staging, or a second boundary
   * crossed), or whose window an earlier run opened (`opened`: the first ask is refused).
   */
  const deployment = async (window: number, late: number, opened = false) => {
    const asked = new Map<string, number>()
    const { url, fake } = await board(
      t,
      {
        request: (exchange) => {
          const times = (asked.get(exchange.url) ?? 0) + 1
          asked.set(exchange.url, times)
          if (spare.test(exchange.url) && times === 2) fake.clock.advance(late)
          return exchange
        },
        answer: (exchange) =>
          opened && spare.test(exchange.url) ? { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '600' }, body: Buffer.from('{"status":429,"message":"Too many requests."}') } : undefined,
      },
      { rateLimitWindow: window },
    )
    return { baseUrl: url, only: 'metrics,rate-limit', rateLimitWindow: window }
  }
  const file = join(t.testdir(), 'staging.json')
  await contract({ ...(await deployment(900, 0)), writeProfile: file })
  t.equal(held(file, 'rateLimitWindow')?.value, 900, 'yesterday: the repeat came at once, Retry-after 900')

  const late = await contract({ ...(await deployment(900, 1)), profile: file, writeProfile: file })
  t.equal(late.check('profile', named('rateLimitWindow'))?.status, 'pass', 'tonight the repeat came a second later (Retry-after 899): the same window')
  t.equal(late.exitCode, 0, late.reason ?? 'exit 0')
  t.equal(held(file, 'rateLimitWindow')?.value, 900, 'the file keeps the window it recorded')
  t.notMatch(late.output, /changed: rateLimitWindow/)

  const before = await contract({ ...(await deployment(900, 0, true)), profile: file })
  t.equal(before.check('profile', named('rateLimitWindow'))?.status, 'pass', 'a window an earlier run opened 300 s ago (Retry-after 600 to the first ask) is no shorter window')

  const shorter = await contract({ ...(await deployment(600, 0)), profile: file })
  t.equal(shorter.exitCode, 1, 'a window of 600 s fails')
  t.match(shorter.check('profile', named('rateLimitWindow'))?.failures, [/^profile: rateLimitWindow 900 .*; deployment now answers 600 /])
})
