// No alarm the spec's words do not back (issue 43 item 4): a request case whose value the
// words leave open (src/contract/cases.ts OPEN_CASES: an empty keyword, a longitude past
// ±180, coordinates left out, a closing or expiry date in another form) demands no
// refusal. A deployment that accepts every such value exits 0 in front of the fake and of
// the second server, with an observation per case and the profile point openJobValues
// recording each accepted; run with that profile, a deployment that refuses them fails the
// point's check (the profile pins the deployment's own choice), never the case's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { isMinute } from '../../schemas/formats.js'
import { REQUEST_CASES } from '../../src/contract/cases.js'
import { board, contract, on, otherBoard, type Breakage, type Exchange } from './helpers.js'

const OPEN = REQUEST_CASES.filter((c) => c.open !== undefined)
const FLAGS = { only: 'fields,jobs', writes: true, rateLimitWindow: 0 } as const

/** A job/add and repost that put right, before the upstream sees them, the values the spec's words leave open. */
const lenient: Breakage = {
  request: (x: Exchange) => {
    if (x.method !== 'POST' || !on(x, /^\/job\/(add|repost)$/)) return x
    const body = JSON.parse(x.body.toString('utf8') || '{}') as Record<string, unknown>
    for (const field of ['closing_date', 'expiry_date']) if (typeof body[field] === 'string' && !isMinute(body[field] as string)) body[field] = '2026-12-20 09:30'
    if (typeof body.keywords === 'string') body.keywords = body.keywords.split(',').filter((k) => k.trim() !== '').join(',') || 'vets'
    if (typeof body.job_longitude === 'number') body.job_longitude = ((((body.job_longitude + 180) % 360) + 360) % 360) - 180
    if (on(x, /^\/job\/add$/) && 'job_title' in body) {
      body.job_latitude ??= 53.8
      body.job_longitude ??= -1.55
    }
    return { ...x, body: Buffer.from(JSON.stringify(body)) }
  },
}

t.test('the open cases are those the words leave open, each saying why', async (t) => {
  t.same(OPEN.map((c) => c.id).sort(), ['job/add closing_date form', 'job/add expiry_date form', 'job/add job_latitude missing', 'job/add job_longitude maximum', 'job/add job_longitude minimum', 'job/add job_longitude missing', 'job/add keywords form', 'job/repost closing_date form'])
  for (const c of OPEN) t.match(c.name, /is accepted, or refused with 412 naming [a-z_]+ \(the spec's words leave it open\)$/, c.id)
})

for (const server of ['the fake', 'the second server'] as const) {
  t.test(`in front of ${server}, a deployment accepting every value the words leave open exits 0; its profile pins the choice`, async (t) => {
    const up = (breakage: Breakage) => (server === 'the fake' ? board(t, breakage, { rateLimitWindow: 0 }) : otherBoard(t, breakage, { style: 'a', username: 'jobboard', password: 'jobboard', rateLimitWindow: 0 }))
    const file = join(t.testdir(), 'profile.json')
    const { url } = await up(lenient)
    const run = await contract({ baseUrl: url, ...FLAGS, writeProfile: file })
    t.equal(run.exitCode, 0, `exit 0 (failed: ${run.failed().join('; ') || 'none'})`)
    for (const c of OPEN) t.equal(run.check(c.endpoint, c.name)?.status, 'pass', `${c.id}: accepted, not failed`)
    const noted = run.report.observations.filter((o) => o.topic === 'jobs' && o.summary.includes("the spec's words leave it open"))
    t.equal(noted.length, OPEN.length, 'an observation per case accepted')
    const points = (JSON.parse(readFileSync(file, 'utf8')) as { points: Record<string, { value?: unknown; seen: string }> }).points
    t.same(points.openJobValues?.value, Object.fromEntries(OPEN.map((c) => [c.id, 'accepted'])), 'the profile records each accepted')
    // the same deployment refusing them now: the profile's point fails, never the cases
    const strict = await up({})
    const pinned = await contract({ baseUrl: strict.url, ...FLAGS, profile: file })
    t.equal(pinned.exitCode, 1, 'the profile pins the choice')
    t.same(pinned.failed(), ['profile: openJobValues is as the profile records it'], 'only the profile point fails')
    for (const c of OPEN) t.equal(pinned.check(c.endpoint, c.name)?.status, 'pass', `${c.id}: refused with 412 naming the field, which passes too`)
  })
}
