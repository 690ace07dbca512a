// `proxy --record FILE`: the correct example client's day through the proxy in front of the
// second server (test/helpers/other-board/), in both styles, writes at close a scenario
// the fake loads, whose records hold no personal value the upstream sent (every string of
// a personal field, read off the answers on their way), with the accounting printed (the
// records seen and written) and no form of the credentials anywhere in the file.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { loadScenario } from '../../src/fake/scenario.js'
import { proxiedDay } from '../helpers/proxy-day.js'

/**
 * Fields whose values are a person's: none may come out as it went in. A city or county is
 * replaced too, but drawn from a short list of places, where the replacement of one
 * person's may by chance be another's real one: those are left out of the comparison.
 */
const PERSONAL = new Set(['name', 'email', 'signup_email', 'telephone', 'address', 'postcode', 'identifier', 'current_employer', 'cover_letter', 'overview', 'filename', 'ip_address'])

/** Every string of a personal field in an answer (or a scenario's records), at any depth. */
function personalValues(value: unknown, into: Set<string>, field = ''): void {
  if (Array.isArray(value)) for (const item of value) personalValues(item, into, field)
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) personalValues(item, into, key)
  else if (typeof value === 'string' && (PERSONAL.has(field) || (field === 'attachment_filename')) && value.length >= 4) into.add(value)
}

const username = 'staging-sync'
const password = 'Tr0ub4dor:&"correct/horse"-battery-staple-2026'

for (const style of ['a', 'b'] as const) {
  t.test(`style ${style}: the client's day through the proxy with --record writes a scenario the fake loads, with no personal value the upstream sent`, async (t) => {
    const file = join(t.testdir(), 'traffic.json')
    const seen = new Set<string>()
    const { proxy, lines } = await proxiedDay(t, {
      style,
      username,
      password,
      record: file,
      tap: {
        mutate: (_path, body) => {
          personalValues(body, seen)
          return body
        },
      },
    })
    await proxy.close()
    t.ok(seen.size > 20, `the upstream sent ${seen.size} personal values`)

    const loaded = loadScenario(file)
    t.ok(loaded, 'the fake loads the scenario')
    const text = readFileSync(file, 'utf8')
    const scenario = JSON.parse(text) as { records: Record<string, unknown[]>; recording: { complete: boolean; origin: string } }
    t.ok(scenario.records.candidates?.length, `it holds ${scenario.records.candidates?.length} candidates`)
    t.ok(scenario.records.applications?.length, `it holds ${scenario.records.applications?.length} applications`)
    t.equal(scenario.recording.complete, true)
    const written = new Set<string>()
    personalValues(scenario.records, written)
    t.ok(written.size > 20, `the records hold ${written.size} personal values, each replaced`)
    t.same([...written].filter((value) => seen.has(value)), [], 'no personal value of the upstream is in the records')

    const recorded = proxy.recorded
    t.ok(recorded, 'the proxy says what it recorded')
    t.same(recorded?.lost, [], 'nothing read was lost')
    t.equal(recorded?.carried.candidates.written, scenario.records.candidates?.length)
    const printed = lines.join('')
    t.match(printed, /Records seen → written: candidates [0-9]+ → [0-9]+, applications [0-9]+ → [0-9]+, timesheets [0-9]+ → [0-9]+, marketing [0-9]+ → [0-9]+/, 'the accounting is printed')
    t.match(printed, `recorded what passed through into ${file}`)

    const pair = `${username}:${password}`
    for (const form of [Buffer.from(pair).toString('base64'), pair, encodeURIComponent(pair), password, encodeURIComponent(password), JSON.stringify(password).slice(1, -1)]) {
      t.notOk(text.includes(form), 'the file holds no form of the credentials')
    }
  })
}
