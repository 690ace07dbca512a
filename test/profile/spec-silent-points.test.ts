// The spec-silent points issue 27 added to the profile, each from both sides of the
// loop: `contract --write-profile` on a deployment records it, `contract --profile` of
// that file fails a deployment that now answers otherwise (naming the point), and passes
// the same deployment. The deployments are the fake behind the test proxy, moved by the
// point's own knob (so the fake honours it) or by the proxy where the fake cannot.
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { ProfilePointName } from '../../schemas/profile.js'
import type { BuildOptions } from '../../src/fake/app.js'
import { loadProfile } from '../../src/profile/deployment-profile.js'
import { board, changeJson, contract, jsonReply, steppingClock, type Breakage, type Exchange } from '../contract/helpers.js'

const held = (file: string, point: ProfilePointName) =>
  (loadProfile(file).points as Record<string, { value?: unknown; seen: string; note?: string } | undefined>)[point]

const sentence = (point: ProfilePointName) => `profile: ${point} is as the profile records it`

interface Twin {
  point: ProfilePointName
  /** The groups the runs need to see the point. */
  only: string
  /** What the first deployment records, and the fake's options (or the proxy's breakage) for it. */
  recorded: unknown
  options?: BuildOptions
  breakage?: Breakage
  /** The deployment that answers otherwise: the fake's options, or a breakage. */
  moved: { options?: BuildOptions; breakage?: Breakage }
  /** What the failure names as the deployment's answer now. */
  now: RegExp
}

async function twins(t: Test, twin: Twin): Promise<void> {
  const file = join(t.testdir(), 'profile.json')
  const first = await board(t, twin.breakage ?? {}, { rateLimitWindow: 0, ...twin.options })
  const write = await contract({ baseUrl: first.url, only: twin.only, rateLimitWindow: 0, writeProfile: file })
  t.equal(write.exitCode, 0, write.reason ?? 'the recording run exits 0')
  t.same(held(file, twin.point)?.value, twin.recorded, `${twin.point} is recorded: ${JSON.stringify(held(file, twin.point))}`)

  const same = await board(t, twin.breakage ?? {}, { rateLimitWindow: 0, ...twin.options })
  const pass = await contract({ baseUrl: same.url, only: twin.only, rateLimitWindow: 0, profile: file })
  t.same(pass.failed(), [], 'the same deployment fails no check')
  t.equal(pass.exitCode, 0, pass.reason ?? 'and exits 0')
  t.equal(pass.check('profile', `${twin.point} is as the profile records it`)?.status, 'pass', 'the point is checked and passes')

  const moved = await board(t, twin.moved.breakage ?? twin.breakage ?? {}, { rateLimitWindow: 0, ...twin.options, ...twin.moved.options })
  const fail = await contract({ baseUrl: moved.url, only: twin.only, rateLimitWindow: 0, profile: file })
  t.equal(fail.exitCode, 1, 'a deployment that moved fails')
  t.same(fail.failed(), [sentence(twin.point)], 'on that point alone')
  t.match(fail.check('profile', `${twin.point} is as the profile records it`)?.failures, [twin.now])
}

t.test("the HTTP status line of a 412 body: recorded, and another one later fails", async (t) => {
  await twins(t, {
    point: 'preconditionHttpStatus',
    only: 'candidates',
    recorded: 412,
    moved: { options: { preconditionHttpStatus: 200 } },
    now: /^profile: preconditionHttpStatus 412 \(GET .*since=not-a-time.*\); deployment now answers 200 \(GET /,
  })
})

t.test('a 404 and a 412 are recorded apart: a 404 with HTTP 200 beside a 412 with HTTP 412', async (t) => {
  const file = join(t.testdir(), 'profile.json')
  const first = await board(t, {}, { rateLimitWindow: 0, errorHttpStatus: 'ok' })
  await contract({ baseUrl: first.url, only: 'candidates', rateLimitWindow: 0, writeProfile: file })
  t.equal(held(file, 'errorHttpStatus')?.value, 'ok', 'the 404 came with HTTP 200')
  t.equal(held(file, 'preconditionHttpStatus')?.value, 412, 'the 412 with HTTP 412')
})

t.test('the set of metric labels: an 11th label is recorded, and losing it later fails', async (t) => {
  await twins(t, {
    point: 'extraMetricLabels',
    only: 'metrics',
    recorded: ['Video interviews', 'Referrals'],
    options: { extraMetricLabels: ['Video interviews', 'Referrals'] },
    moved: { options: { extraMetricLabels: ['Referrals'] } },
    now: /^profile: extraMetricLabels labels beyond the spec's ten: "Video interviews", "Referrals" \(GET \/api\/v1\/metrics\/list.*\); deployment now answers labels beyond the spec's ten: "Referrals"/,
  })
})

t.test('the set of metric labels: a deployment that gains a label after a profile of the ten fails; in another order they are the same set', async (t) => {
  await twins(t, {
    point: 'extraMetricLabels',
    only: 'metrics',
    recorded: [],
    moved: { options: { extraMetricLabels: ['Referrals'] } },
    now: /deployment now answers labels beyond the spec's ten: "Referrals"/,
  })
  const file = join(t.testdir(), 'labels.json')
  const first = await board(t, {}, { rateLimitWindow: 0, extraMetricLabels: ['Referrals', 'Video interviews'] })
  await contract({ baseUrl: first.url, only: 'metrics', rateLimitWindow: 0, writeProfile: file })
  const reordered = await board(t, {}, { rateLimitWindow: 0, extraMetricLabels: ['Video interviews', 'Referrals'] })
  const run = await contract({ baseUrl: reordered.url, only: 'metrics', rateLimitWindow: 0, profile: file })
  t.equal(run.exitCode, 0, run.reason ?? 'the same labels in another order pass')
})

/** Lets one request a second through, by the kit's clock; the rest get 429 with Retry-after: 1 (test/contract/pacing.test.ts). */
function burstLimiter(clock: { now(): number }) {
  let last = Number.NEGATIVE_INFINITY
  return (x: Exchange) => {
    const now = clock.now()
    if (!x.url.startsWith('/api/') || now - last >= 1000) {
      last = now
      return undefined
    }
    return jsonReply(429, { status: 429, message: 'Slow down.' }, { 'retry-after': '1' })
  }
}

/** A run against the fake, behind a burst limiter or not, on a clock of its own that the limiter shares. */
async function limitedRun(t: Test, limiter: boolean, flags: Parameters<typeof contract>[0]) {
  const clock = steppingClock()
  const { url } = await board(t, limiter ? { answer: burstLimiter(clock) } : {}, { rateLimitWindow: 0 })
  return contract({ baseUrl: url, rateLimitWindow: 0, ...flags }, { clock })
}

const BURST = 'burstLimit is as the profile records it'
const burstNotes = (run: Awaited<ReturnType<typeof contract>>) => run.report.observations.filter((o) => o.endpoint === 'profile' && /burstLimit/.test(o.summary)).map((o) => o.summary)

t.test("a burst limiter: recorded with its Retry-after and the kit's pace, and the same deployment's 429s never fail a --profile run", async (t) => {
  const file = join(t.testdir(), 'profile.json')
  const write = await limitedRun(t, true, { maxWait: 120, writeProfile: file })
  t.equal(write.exitCode, 0, write.reason ?? 'the recording run exits 0')
  t.match(held(file, 'burstLimit'), { value: { retryAfter: 1, concurrency: 1, spacingSeconds: 1 }, seen: 'inferred' }, 'the limiter is recorded')
  t.not(held(file, 'rateLimitWindow')?.value, 1, "the limiter's Retry-after is not taken for the window")

  const paced = await limitedRun(t, true, { maxWait: 120, profile: file })
  t.same(paced.failed(), [], 'no check fails')
  t.equal(paced.exitCode, 0, paced.reason ?? 'with the budget to wait, the run is complete: exit 0')
  t.equal(paced.check('profile', BURST)?.status, 'pass', 'the limiter is as recorded')

  const short = await limitedRun(t, true, { maxWait: 0, profile: file })
  t.same(short.failed(), [], "without a budget to wait, the limiter's 429s fail no check")
  t.equal(short.exitCode, 3, short.reason ?? 'the run is incomplete: exit 3, never 1')
  t.ok(short.report.checks.some((c) => c.endpoint === 'profile' && c.status === 'skip' && c.skip === 'unavailable'), 'the points the 429s hid are not made')
})

t.test('a deployment whose burst limiter went away, or came, is reported (an observation), not failed', async (t) => {
  const limited = join(t.testdir(), 'limited.json')
  const plain = join(t.testdir(), 'plain.json')
  await limitedRun(t, true, { maxWait: 120, writeProfile: limited })
  await limitedRun(t, false, { writeProfile: plain })
  t.match(held(plain, 'burstLimit'), { value: false, seen: 'inferred' }, 'a deployment without a limiter records none')

  const gone = await limitedRun(t, false, { profile: limited })
  t.equal(gone.exitCode, 0, gone.reason ?? 'the limiter gone: exit 0')
  t.match(burstNotes(gone), [/^profile: burstLimit a burst limiter \(Retry-after 1 s.*; this run met no burst limiter$/], 'and the change is reported')

  const came = await limitedRun(t, true, { maxWait: 120, profile: plain })
  t.same(came.failed(), [], 'a limiter come since fails no check')
  t.equal(came.exitCode, 0, came.reason ?? 'exit 0')
  t.match(burstNotes(came), [/^profile: burstLimit no burst limiter; this run met a burst limiter \(Retry-after 1 s/], 'and the change is reported')

  const same = await limitedRun(t, false, { profile: plain })
  t.same(burstNotes(same), [], 'no limiter then and now: nothing to report')
})

/** A deployment that adds per_page to its list answers (a key the spec does not name). */
const perPage = changeJson(/^\/(candidates|applications|timesheets|marketing)\/list$/, (body) => {
  body.per_page = 25
})

t.test('the keys of each envelope: a key added to list answers is recorded, and losing it later fails', async (t) => {
  await twins(t, {
    point: 'envelopeKeys',
    only: 'candidates,metrics',
    recorded: { list: ['per_page'], details: [], error: [], metrics: [] },
    breakage: perPage,
    moved: { breakage: {} },
    now: /^profile: envelopeKeys list \+per_page; .*\(GET .*\); deployment now answers list the spec's keys; /,
  })
})

t.test('the keys of each envelope: a deployment that adds a key after a profile without it fails; without a profile the key is drift only', async (t) => {
  await twins(t, {
    point: 'envelopeKeys',
    only: 'candidates,metrics',
    recorded: { list: [], details: [], error: [], metrics: [] },
    moved: { breakage: perPage },
    now: /deployment now answers list \+per_page; /,
  })
  const { url } = await board(t, perPage, { rateLimitWindow: 0 })
  const plain = await contract({ baseUrl: url, only: 'candidates,metrics', rateLimitWindow: 0 })
  t.equal(plain.exitCode, 0, plain.reason ?? 'without a profile the added key fails nothing')
  t.ok(plain.report.observations.some((o) => o.topic === 'drift' && /per_page/.test(JSON.stringify(o))), 'it is reported as drift')
})

t.test('the keys of each envelope: a fake started with the recorded keys answers as the deployment did, and one without them fails', async (t) => {
  await twins(t, {
    point: 'envelopeKeys',
    only: 'candidates,metrics',
    recorded: { list: ['per_page'], details: [], error: ['code'], metrics: [] },
    options: { envelopeKeys: { list: ['per_page'], error: ['code'] } },
    moved: { options: { envelopeKeys: { list: ['per_page'] } } },
    now: /deployment now answers list \+per_page; details the spec's keys; metrics the spec's keys; error the spec's keys \(GET /,
  })
})

t.test('the keys of each envelope: a kind a later run got no answer of (job/add without --writes) is kept, and not compared', async (t) => {
  const file = join(t.testdir(), 'profile.json')
  const { url } = await board(t, {}, { rateLimitWindow: 0 })
  await contract({ baseUrl: url, only: 'candidates,jobs', writes: true, rateLimitWindow: 0, writeProfile: file })
  t.match(held(file, 'envelopeKeys')?.value, { jobAdd: [], jobOperation: [], list: [] }, 'the writes run saw job/add and the job operations')
  const read = await contract({ baseUrl: url, only: 'candidates', rateLimitWindow: 0, profile: file, writeProfile: file })
  t.equal(read.exitCode, 0, read.reason ?? 'a read-only run passes the profile')
  t.match(held(file, 'envelopeKeys')?.value, { jobAdd: [], jobOperation: [], list: [] }, 'and the merged profile still holds the kinds it did not see')
})
