// `record` from the outside: a fake seeded with marker values in every personal field
// (and every profile point off its default) is recorded; the scenario loads in a second
// fake whose lists have the source's totals, record shapes, paging and month names, and
// whose recording has the same profile; no marker appears in any file written. Runs cut
// short (a 5xx storm, an endless next_page chain, refused credentials, a signal) leave a
// loadable scenario marked incomplete, and the next run goes on from it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { PROFILE_POINTS } from '../../schemas/profile.js'
import { createMockServer } from '../../src/fake/server.js'
import { loadScenario } from '../../src/fake/scenario.js'
import { loadProfile, sameValue } from '../../src/profile/deployment-profile.js'
import { Recorder } from '../../src/record/recorder.js'
import { resolveRecordSettings, type RecordFlags } from '../../src/record/record-settings.js'
import type { ScenarioFile } from '../../src/core/types.js'
import { AUTHORIZATION, board, changeJson, CREDENTIALS, jsonReply, on, steppingClock, type Breakage } from '../contract/helpers.js'
import { captureIo, serve } from '../helpers/cli.js'
import { main } from '../../src/cli/main.js'
import { nonDefaultOptions } from '../helpers/profile-values.js'

/** Strings planted in the source's personal fields: none may come out. */
const MARKERS = [
  'Zorvex',
  'Quillimbard',
  'Marklandshire',
  'ZX9 9QQ',
  '7700 913579',
  'marker-identifier',
  '51.123456',
  '1.654321',
  'strangerhost',
  '198.51.100.77',
  '203.0.113.99',
  'Marklander',
  'secret phrase',
  'Glimmerwick',
] as const

const PERSON = {
  identifier: 'marker-identifier-4242',
  name: 'Zorvex Quillimbard',
  email: 'zorvex.quillimbard@glimmerwick.example',
  signup_email: 'signup.zorvex@glimmerwick.example',
  telephone: '+44 7700 913579',
  address: '12 Quillimbard Lane',
  city: 'Zorvexton',
  county: 'Marklandshire',
  postcode: 'ZX9 9QQ',
  latitude: '51.123456',
  longitude: '-1.654321',
  current_employer: 'Glimmerwick Veterinary Holdings',
  cover_letter: 'Dear Marklander, this secret phrase is mine.',
  overview: 'Zorvex of Glimmerwick, equine work.',
  resumes: [{ filename: 'Zorvex_Quillimbard_CV.pdf', filesize: 12345 }],
  documents: [{ filename: 'Quillimbard_passport_scan.pdf', filesize: 54321 }],
}

/** A small board with two marked people among generated ones. */
const MARKED: ScenarioFile = {
  name: 'markers',
  seed: 7,
  // a third of the applications by guest applicants (no candidate theirs): recorded as guests, their people replaced too
  behaviour: { guestApplicants: 0.34 },
  counts: { jobs: 3, candidates: 6, applications: 9, timesheets: 5, resumes: 3, documents: 2, marketing: 7 },
  records: {
    candidates: [
      { id: 7, ...PERSON },
      { id: 9, ...PERSON, name: 'Marklander Glimmerwick', email: 'second.zorvex@glimmerwick.example', identifier: 'marker-identifier-77' },
    ],
    applications: [
      { candidate_id: 7, job_id: 1, cover_letter: 'Kindly consider the Zorvex application, secret phrase inside.', attachment_filename: 'Zorvex_attachment.docx' },
      { candidate_id: 9, job_id: 2, cover_letter: 'From Glimmerwick with thanks.' },
    ],
    timesheets: [{ candidate_id: 7, filename: 'Timesheet_Quillimbard_week.xlsx', filesize: 2048 }],
    marketing: [
      { email: 'stranger.zorvex@strangerhost.example', ip_address: '198.51.100.77', action: 'Approved' },
      { candidate_id: 7, ip_address: '203.0.113.99', action: 'Revoked' },
    ],
  },
}

const LISTS = ['/candidates/list', '/applications/list', '/timesheets/list', '/marketing/list'] as const

/** The source: every profile point off its default, but the rate limit off so the test may read pages itself. */
const SOURCE = { ...nonDefaultOptions(), rateLimitWindow: 0, scenarioData: MARKED } as never

async function recordFrom(url: string, out: string, flags: Partial<RecordFlags> = {}, io: { clock?: ReturnType<typeof steppingClock>; signal?: AbortSignal } = {}) {
  let stderr = ''
  const settings = resolveRecordSettings({ baseUrl: url, ...CREDENTIALS, out, ...flags })
  const result = await new Recorder(settings, { stderr: { write: (text: string) => (stderr += text) }, clock: io.clock ?? steppingClock(), signal: io.signal }).run()
  return { ...result, stderr }
}

async function getJson(base: string, path: string): Promise<Record<string, unknown>> {
  const answer = await fetch(`${base}/api/v1${path}`, { headers: { authorization: AUTHORIZATION } })
  return (await answer.json()) as Record<string, unknown>
}

/** A value's structure: object keys (sorted) and JSON types, arrays by their items' structures. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape)
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, shape(v)]))
  return value === null ? 'null' : typeof value
}

/** Every file in a folder, as text. */
const written = (dir: string) => readdirSync(dir).map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }))

function noMarkers(t: Test, dir: string): void {
  for (const { name, text } of written(dir)) {
    const found = MARKERS.filter((marker) => text.toLowerCase().includes(marker.toLowerCase()))
    t.same(found, [], `${name} holds no marker value`)
  }
}

/** Serves a scenario file, rate limit off, and answers its URL. */
async function serveFile(t: Test, path: string): Promise<string> {
  const copy = await createMockServer({ scenario: path, clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => copy.close())
  return copy.listen(0)
}

t.test('records a fake seeded with markers into a scenario the fake loads, with the same lists and profile and no marker in any file', async (t) => {
  const { url } = await board(t, {}, SOURCE)
  // the source really holds the markers, or the grep below proves nothing
  const sourcePeople = JSON.stringify(await getJson(url, '/candidates/list'))
  t.match(sourcePeople, /Zorvex Quillimbard/, 'the source lists the marked person')

  const dir = t.testdir()
  const out = join(dir, 'staging.json')
  const ledger = join(dir, 'ledger.json')
  const first = await recordFrom(url, out, { ledger })
  t.equal(first.exitCode, 0, `the recording is whole: ${first.reason ?? ''}`)
  t.ok(first.complete)
  t.match(first.stderr, /candidates\/list page 1.*candidates recorded/, 'progress is shown on stderr')
  t.ok(first.requests > 0 && first.requests < first.records, `fewer requests than records (${first.requests} for ${first.records})`)
  noMarkers(t, dir)

  const scenario = loadScenario(out)
  t.equal(scenario.recording?.complete, true, 'the scenario says its recording is whole')
  t.notOk(scenario.recording?.progress, 'a whole recording keeps no progress')
  const copy = await serveFile(t, out)

  for (const path of LISTS) {
    const [a, b] = await Promise.all([getJson(url, path), getJson(copy, path)])
    t.equal(b.total, a.total, `${path}: the copy has the source's total`)
    t.same(shape(b.data), shape(a.data), `${path}: the copy's first page has the source's records, field for field in shape`)
    t.equal(typeof b.next_page, typeof a.next_page, `${path}: next_page is of the same kind`)
    const ids = (body: Record<string, unknown>) => (body.data as Array<{ id?: number; created_at?: string }>).map((r) => r.id ?? r.created_at)
    t.same(ids(b), ids(a), `${path}: the same records in the same order`)
  }
  const [ma, mb] = await Promise.all([getJson(url, '/metrics/list'), getJson(copy, '/metrics/list')])
  const months = (body: Record<string, unknown>) => [...new Set((body.metrics as Array<{ aggregations: Array<{ month: string }> }>).flatMap((m) => m.aggregations.map((a) => a.month)))]
  t.ok(months(mb).every((m) => months(ma).includes(m) || /^[A-Z][a-z]{2}$/.test(m)), 'metric months are written in the source\'s short style')
  const fieldsOf = async (base: string) => getJson(base, '/job/fields')
  t.same(await fieldsOf(copy), await fieldsOf(url), 'job/fields gives the same lists in the same shape')

  // the copy recorded again: the same profile, point for point
  const again = join(dir, 'copy.json')
  const second = await recordFrom(copy, again)
  t.equal(second.exitCode, 0)
  const [pa, pb] = [loadProfile(first.profilePath).points, loadProfile(second.profilePath).points] as Array<Record<string, { value?: unknown } | undefined>>
  const seen = PROFILE_POINTS.filter((point) => pa?.[point]?.value !== undefined)
  t.ok(seen.includes('pageSize') && seen.includes('listOrder') && seen.includes('monthNames') && seen.includes('extraFields'), `paging, order, month names and extra fields are in the profile (${seen.join(', ')})`)
  for (const point of seen) t.ok(sameValue(point, pb?.[point]?.value, pa?.[point]?.value), `${point}: the copy answers as the source did`)
  const recordedAgain = loadScenario(again)
  t.same(
    Object.fromEntries(Object.entries(recordedAgain.records).map(([k, v]) => [k, (v as unknown[]).length])),
    Object.fromEntries(Object.entries(scenario.records).map(([k, v]) => [k, (v as unknown[]).length])),
    'recording the copy gives as many records of each kind',
  )
})

t.test('against the 15-minute limit, one request per URL records the whole board without a 429', async (t) => {
  const { url } = await board(t, {}, { scenarioData: MARKED })
  const result = await recordFrom(url, join(t.testdir(), 'limited.json'))
  t.equal(result.exitCode, 0, `whole, though --max-wait 0 would stop at the first 429: ${result.reason ?? ''}`)
  t.ok(result.records > 0)
})

t.test('a run long enough to save on the way ends with the same scenario and profile as a quick one', async (t) => {
  const { url } = await board(t, {}, SOURCE)
  const dir = t.testdir()
  const quick = await recordFrom(url, join(dir, 'quick.json'))
  // a clock that moves two seconds each time it is read: the partial scenario is written several times on the way
  const start = steppingClock()
  const slow = {
    ...start,
    now: () => {
      start.advance(2)
      return start.now()
    },
  }
  const long = await recordFrom(url, join(dir, 'long.json'), {}, { clock: slow })
  t.equal(quick.exitCode + long.exitCode, 0)
  const [a, b] = [loadScenario(join(dir, 'quick.json')), loadScenario(join(dir, 'long.json'))]
  t.same(b.records, a.records, 'the same records')
  t.same(b.behaviour, a.behaviour, 'the same behaviour, read from every answer and not only those before the first save')
  t.same(b.pageSize, a.pageSize)
  const points = (path: string) => Object.fromEntries(Object.entries(loadProfile(path).points).map(([k, v]) => [k, (v as { value?: unknown }).value === undefined]))
  t.same(points(long.profilePath), points(quick.profilePath), 'the same points seen')
})

t.test('the same person gets the same replacement everywhere, and a second run gives the same file', async (t) => {
  const { url } = await board(t, {}, SOURCE)
  const dir = t.testdir()
  const one = await recordFrom(url, join(dir, 'one.json'))
  const other = await recordFrom(url, join(dir, 'two.json'))
  t.equal(one.exitCode + other.exitCode, 0)
  const a = loadScenario(join(dir, 'one.json'))
  const b = loadScenario(join(dir, 'two.json'))
  t.same(a.records, b.records, 'the replacements are the same on every run')
  const person = a.records.candidates?.find((c) => c.id === 7)
  const consent = a.records.marketing?.find((m) => m.candidate_id === 7)
  t.ok(person?.email && person.email !== PERSON.email, 'the e-mail is replaced')
  t.equal(consent?.email, person?.email, "the person's marketing record carries the person's replaced e-mail")
  t.match(person?.cover_letter, /^[A-Z][a-z]+ [A-Z]?[a-z]+, [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+\.$/, 'a cover letter keeps its form: the same number of words and the punctuation')
  t.equal(person?.cover_letter?.length !== undefined && Math.abs(person.cover_letter.length - PERSON.cover_letter.length) <= 12, true, 'and about its length')
  t.match(person?.resumes?.[0]?.filename, /^[A-Z][a-z]+_[A-Z][a-z]+_[A-Z]{2}\.pdf$/, 'a file name keeps its form and extension')
  t.equal(person?.resumes?.[0]?.filesize, 12345, 'and its size')
})

t.test('a 5xx storm stops the run with a clear message and a loadable scenario marked incomplete; the next run goes on', async (t) => {
  let failing = true
  const breakage: Breakage = {
    answer: (exchange) => (failing && on(exchange, /^\/applications\/list$/) && exchange.url.includes('page=2') ? jsonReply(503, { status: 503, message: 'down for Zorvex Quillimbard' }) : undefined),
  }
  const { url } = await board(t, breakage, SOURCE)
  const dir = t.testdir()
  const out = join(dir, 'cut.json')
  const ledger = join(dir, 'ledger.json')
  const clock = steppingClock()
  const cut = await recordFrom(url, out, { ledger }, { clock })
  t.equal(cut.exitCode, 3, 'exit 3: incomplete')
  t.match(cut.reason, /applications\/list page 2 .*HTTP 503.*failing, stopped/, 'the reason names the page and the 5xx')
  t.notMatch(cut.reason, /Zorvex/, 'but not what the 5xx body said, which may hold anything')
  const partial = loadScenario(out)
  t.equal(partial.recording?.complete, false, 'the scenario is marked incomplete')
  t.match(partial.recording?.reason, /HTTP 503/)
  const totals = async (path: string) => (await getJson(url, path)).total
  t.equal(partial.records.candidates?.length, await totals('/candidates/list'), 'every candidate, read before the storm, is in it')
  await serveFile(t, out)
  t.pass('the partial scenario loads in the fake')
  noMarkers(t, dir)

  failing = false
  // within the window the ledger keeps the failed page back: the run stops again, saying when to come back
  const early = await recordFrom(url, out, { ledger }, { clock })
  t.equal(early.exitCode, 3)
  t.match(early.reason, /ledger says its window is open until .*run again later/, 'a run inside the window says to come back later')
  clock.advance(901)
  const resumed = await recordFrom(url, out, { ledger }, { clock })
  t.equal(resumed.exitCode, 0, `the run in the next window completes: ${resumed.reason ?? ''}`)
  t.match(resumed.stderr, /going on with the incomplete recording/)
  t.notMatch(resumed.stderr, /candidates\/list page/, 'pages read before are not asked again')
  const whole = loadScenario(out)
  t.equal(whole.recording?.complete, true)
  for (const kind of ['candidates', 'applications', 'timesheets', 'marketing'] as const) {
    t.equal(whole.records[kind]?.length, await totals(`/${kind}/list`), `every one of the source's ${kind} is recorded in the end`)
  }
  await serveFile(t, out)
})

t.test('a run cut at any request, by a failing deployment or a signal, leaves a scenario the fake loads', async (t) => {
  let count = 0
  let cutAt = Number.POSITIVE_INFINITY
  let how: 'storm' | 'signal' = 'storm'
  let controller = new AbortController()
  const { url } = await board(t, {
    answer: () => {
      count++
      if (count < cutAt) return undefined
      if (how === 'signal') controller.abort('SIGINT')
      return jsonReply(502, { status: 502, message: 'bad gateway' })
    },
  }, { scenarioData: MARKED, rateLimitWindow: 0 })
  const whole = await recordFrom(url, join(t.testdir(), 'whole.json'))
  const requests = count
  t.equal(whole.exitCode, 0)
  const dir = t.testdir()
  for (const mode of ['storm', 'signal'] as const) {
    for (let k = 1; k <= requests; k++) {
      count = 0
      cutAt = k
      how = mode
      controller = new AbortController()
      const out = join(dir, `${mode}-${k}.json`)
      const cut = await recordFrom(url, out, {}, { signal: controller.signal })
      // the last four requests are the downloads: one failing leaves only its Content-Type unseen
      t.equal(cut.exitCode, mode === 'storm' ? (k >= requests - 3 ? 0 : 3) : 2, `${mode} at request ${k}: exit ${cut.exitCode} (${cut.reason ?? 'whole'})`)
      const scenario = loadScenario(out)
      t.equal(scenario.recording?.complete, cut.exitCode === 0, `${mode} at request ${k}: the scenario says whether it is whole`)
      const fake = await createMockServer({ scenario: out, clock: 'virtual' })
      await fake.close()
    }
  }
})

t.test('an endless next_page chain stops with a clear message and a loadable scenario', async (t) => {
  let base = ''
  const endless: Breakage = {
    reply: (exchange, reply) => {
      if (!on(exchange, /^\/marketing\/list$/) || reply.status !== 200) return reply
      const body = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>
      const page = Number(new URL(exchange.url, 'http://x').searchParams.get('page') ?? 1)
      body.next_page = `${base}/api/v1/marketing/list?page=${page + 1}`
      // a page past the last that still has records: the chain never ends by itself
      if ((body.data as unknown[]).length === 0) body.data = [{ candidate: { email: 'x@example.com', id: 0, ip_address: '10.0.0.1' }, action: 'Approved', created_at: '2026-01-01 00:00:00' }]
      return { ...reply, body: Buffer.from(JSON.stringify(body)) }
    },
  }
  // a plain source: its page past the last is an empty JSON page, which the breakage fills
  const { url } = await board(t, endless, { scenarioData: MARKED, rateLimitWindow: 0 })
  base = url
  const out = join(t.testdir(), 'endless.json')
  const result = await recordFrom(url, out)
  t.equal(result.exitCode, 3)
  t.match(result.reason, /marketing\/list: next_page goes on past \d+ pages, more than its total of \d+ needs; stopped \(an endless next_page chain\)/)
  t.equal(loadScenario(out).recording?.complete, false)
  const served = await serve(t, ['--scenario', out, '--clock', 'virtual'])
  t.match(served.stderrAtReady, /the scenario is an incomplete recording \(marketing\/list: next_page goes on/, 'serve says it serves an incomplete recording, and why')
})

t.test('a next_page that is no URL stops the run, saying so', async (t) => {
  const { url } = await board(t, changeJson(/^\/timesheets\/list$/, (body) => {
    ;(body as Record<string, unknown>).next_page = 'http://[broken'
  }), { scenarioData: MARKED, rateLimitWindow: 0 })
  const out = join(t.testdir(), 'broken.json')
  const result = await recordFrom(url, out)
  t.equal(result.exitCode, 3)
  t.match(result.reason, /timesheets\/list: page 1's next_page is not a URL; stopped/)
  t.equal(loadScenario(out).recording?.complete, false)
})

t.test('an --out that cannot be written is said plainly', async (t) => {
  const { url } = await board(t, {}, { scenarioData: MARKED, rateLimitWindow: 0 })
  const dir = t.testdir({ 'taken.json': {} })
  const captured = captureIo()
  const code = await main([process.execPath, 'jobboard-kit', 'record', '--base-url', url, '--username', 'jobboard', '--password', 'jobboard', '--out', join(dir, 'taken.json')], captured.io)
  t.equal(code, 2)
  t.match(captured.stderr(), /jobboard-kit record: cannot write .*taken\.json: E[A-Z]+/, 'the file and the reason, no stack')
})

t.test('values the scenario format does not take are left to the generator, and the scenario still loads', async (t) => {
  const odd = changeJson(/^\/candidates\/list$/, (body) => {
    for (const candidate of (body as { data: Array<Record<string, unknown>> }).data) {
      candidate.available_from_month = 'Novembre'
      candidate.sector_disciplines = ['Astrology::Horoscopes', 'Veterinary Surgeon']
    }
  })
  const { url } = await board(t, odd, { scenarioData: MARKED, rateLimitWindow: 0 })
  const out = join(t.testdir(), 'odd.json')
  const result = await recordFrom(url, out)
  t.equal(result.exitCode, 0, `whole: ${result.reason ?? ''}`)
  t.ok(result.dropped.some((field) => /available_from_month$/.test(field)), 'the month name no scenario takes is named among the values left out')
  t.ok(result.dropped.some((field) => /sector_disciplines\[0\]$/.test(field)), 'so is the list value outside the lists')
  const scenario = loadScenario(out)
  t.ok(scenario.records.candidates?.every((c) => c.available_from_month === undefined && c.sector_disciplines?.[0] === 'Veterinary Surgeon'), 'those values are gone, the rest kept')
  await serveFile(t, out)
})

t.test('refused credentials stop the run at once, saying so, and still leave a loadable scenario', async (t) => {
  const { url } = await board(t, {}, SOURCE)
  const out = join(t.testdir(), 'refused.json')
  const result = await recordFrom(url, out, { password: 'wrong' })
  t.equal(result.exitCode, 2)
  t.match(result.reason, /refused the credentials \(HTTP 403 on job\/fields\): check --username and --password/)
  t.equal(result.requests, 1, 'one request, not one per list')
  t.equal(loadScenario(out).recording?.complete, false)
  await serveFile(t, out)

  const plain = await board(t, {}, { scenarioData: MARKED, rateLimitWindow: 0 })
  const unauthorised = await recordFrom(plain.url, join(t.testdir(), 'unauthorised.json'), { username: 'someone' })
  t.equal(unauthorised.exitCode, 2)
  t.match(unauthorised.reason, /refused the credentials \(HTTP 401 on job\/fields\)/, 'a 401 is said the same way')
})

t.test('--sample records a bounded slice and generates the rest to the source totals', async (t) => {
  const { url } = await board(t, {}, SOURCE)
  const out = join(t.testdir(), 'slice.json')
  const result = await recordFrom(url, out, { sample: 3 })
  t.equal(result.exitCode, 0)
  const slice = loadScenario(out)
  for (const kind of ['candidates', 'applications', 'timesheets', 'marketing'] as const) t.ok((slice.records[kind]?.length ?? 0) <= 3, `at most 3 ${kind}`)
  const copy = await serveFile(t, out)
  for (const path of LISTS) {
    const [a, b] = await Promise.all([getJson(url, path), getJson(copy, path)])
    t.equal(b.total, a.total, `${path}: the copy has the source's total`)
  }
})

t.test('the command: a bad variable is refused naming it, a signal leaves a partial scenario, the summary gives requests per record', async (t) => {
  const dir = t.testdir()
  const bad = captureIo({ JOBBOARD_BASE_URL: 'ftp://example.com', JOBBOARD_USERNAME: 'a', JOBBOARD_PASSWORD: 'b' })
  t.equal(await main([process.execPath, 'jobboard-kit', 'record', '--out', join(dir, 'x.json')], bad.io), 2)
  t.match(bad.stderr(), /JOBBOARD_BASE_URL: must be http or https/, 'the variable is named')

  const user = captureIo({ JOBBOARD_USERNAME: 'has:colon', JOBBOARD_PASSWORD: 'b' })
  t.equal(await main([process.execPath, 'jobboard-kit', 'record', '--base-url', 'http://127.0.0.1:1', '--out', join(dir, 'x.json')], user.io), 2)
  t.match(user.stderr(), /JOBBOARD_USERNAME is invalid/, 'a bad user name from the environment names its variable')
  const folder = captureIo()
  t.equal(await main([process.execPath, 'jobboard-kit', 'record', '--base-url', 'http://127.0.0.1:1', '--out', join(dir, 'nowhere', 'x.json')], folder.io), 2)
  t.match(folder.stderr(), /--out .*there is no folder/, 'a missing folder is said before any request')

  const flag = captureIo()
  t.equal(await main([process.execPath, 'jobboard-kit', 'record', '--base-url', 'http://127.0.0.1:1', '--out', join(dir, 'x.txt')], flag.io), 2)
  t.match(flag.stderr(), /--out/, 'a bad --out is named')

  let captured: ReturnType<typeof captureIo> | undefined
  const { url } = await board(t, {
    answer: (exchange) => {
      if (!on(exchange, /^\/timesheets\/list$/)) return undefined
      captured?.signal('SIGINT')
      return 'hang'
    },
  }, SOURCE)
  captured = captureIo()
  const out = join(dir, 'signal.json')
  const code = await main([process.execPath, 'jobboard-kit', 'record', '--base-url', url, '--username', 'jobboard', '--password', 'jobboard', '--out', out], captured.io)
  t.equal(code, 2, 'an interrupt exits 2')
  t.match(captured.stderr(), /SIGINT: stopping, writing what was recorded so far/)
  t.match(captured.stdout(), /Recorded part of .*: \d+ records in \d+ requests \([0-9.]+ requests per record\)/, 'the summary gives requests per record')
  t.equal(loadScenario(out).recording?.complete, false, 'the partial scenario is marked incomplete')
  t.ok((loadScenario(out).records.candidates?.length ?? 0) > 0, 'and holds what was read')
})
