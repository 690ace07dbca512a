// Properties over every control route with hostile bodies and query strings: no 5xx,
// every error body `{status, message}`, a refused call leaves the saved board
// byte-identical, Object.prototype stays clean, and the control API still answers.
import fc from 'fast-check'
import t from 'tap'
import { applicationSeed, candidateSeed, faultBody, jobInput, marketingSeed, timesheetSeed } from '../../../schemas/index.js'
import { board, call } from '../../helpers/board.js'
import { hostileKey, hostileString, hostileText, hostileValue, PROPERTY_SEED, prototypeClean } from '../../helpers/hostile.js'
import { runs } from '../../helpers/deep.js'

const FIELDS: Record<string, string[]> = {
  '/__mock/candidates': Object.keys(candidateSeed.properties),
  '/__mock/applications': Object.keys(applicationSeed.properties),
  '/__mock/timesheets': Object.keys(timesheetSeed.properties),
  '/__mock/marketing': Object.keys(marketingSeed.properties),
  '/__mock/jobs': Object.keys(jobInput.properties),
  '/__mock/faults': Object.keys(faultBody.properties),
  '/__mock/clock/set': ['now'],
  '/__mock/clock/advance': ['seconds'],
  '/__mock/reset': ['seed'],
  '/__mock/job-fields': ['retire', 'add'],
}

/** A body of known field names with hostile values: past the "unknown field" refusal, into the checks behind it. */
const knownFieldBody = (path: string) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...(FIELDS[path] ?? ['x'])), hostileKey), hostileValue, { maxKeys: 4 }).map((body) => JSON.stringify(body))

t.test('no hostile body or query on a control route answers 5xx, and a refused call changes nothing', async (t) => {
  const app = await board(t)
  const routes = app.endpoints.filter((e) => e.url.startsWith('/__mock') && !['HEAD', 'GET'].includes(e.method) || e.url === '/__mock/requests' || e.url === '/__mock/state')
  let failures = 0
  const fail = (message: string) => {
    failures += 1
    t.fail(message)
  }
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...routes).chain((route) => fc.tuple(fc.constant(route), fc.oneof(hostileText, knownFieldBody(route.url)), hostileString, hostileString)),
      async ([route, payload, key, value]) => {
        const before = JSON.stringify(app.controller.exportState())
        const query = `${encodeURIComponent(key.replace(/[\ud800-\udfff]/g, ''))}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}`
        const answer = await app.inject({
          method: route.method as 'POST',
          url: `${route.url}?${query}`,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json' }, payload }),
        })
        const what = `${route.method} ${route.url}?${query.slice(0, 40)} ${payload.slice(0, 100)}`
        if (answer.statusCode >= 500) return fail(`${what} → ${answer.statusCode}: ${answer.body.slice(0, 200)}`)
        if (answer.statusCode >= 400) {
          const body = answer.json() as Record<string, unknown>
          if (Object.keys(body).sort().join() !== 'message,status' || body.status !== answer.statusCode) fail(`${what} → ${answer.body.slice(0, 200)}`)
          if (JSON.stringify(app.controller.exportState()) !== before) fail(`${what} was refused but changed the board`)
        }
        if (answer.statusCode < 300) {
          // whatever was armed or changed, the control API still lists and saves
          if ((await app.inject({ url: '/__mock/faults' })).statusCode !== 200) fail(`after ${what}: GET /__mock/faults fails`)
          if ((await app.inject({ url: '/__mock/state' })).statusCode !== 200) fail(`after ${what}: GET /__mock/state fails`)
          app.controller.clearFaults()
        }
      },
    ),
    { numRuns: runs(300), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0, 'every answer fits the catalogue')
  t.ok(prototypeClean(), 'Object.prototype is unpolluted')
  t.equal((await call(app, '/api/v1/metrics/list')).status, 200, 'the API still answers')
})

t.test('a saved board with one value replaced by a hostile one is restored whole or refused with 412, never half', async (t) => {
  const app = await board(t)
  const saved = app.controller.exportState()
  /** Every path to a value in the saved board, below the top. */
  const paths: string[][] = []
  const walk = (node: unknown, path: string[]) => {
    if (path.length > 0) paths.push(path)
    if (node !== null && typeof node === 'object' && path.length < 6) {
      const entries = Object.entries(node)
      for (const [key, child] of Array.isArray(node) ? entries.slice(0, 2) : entries) walk(child, [...path, key])
    }
  }
  walk(saved, [])
  let failures = 0
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...paths), hostileValue, async (path, value) => {
      const state = structuredClone(saved) as unknown as Record<string, unknown>
      let node = state
      for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
      node[path.at(-1) as string] = value
      const before = JSON.stringify(app.controller.exportState())
      const answer = await app.inject({ method: 'PUT', url: '/__mock/state', payload: state })
      if (answer.statusCode === 412) {
        if (JSON.stringify(app.controller.exportState()) !== before) failures += 1
      } else if (answer.statusCode !== 200) {
        failures += 1
        t.fail(`${path.join('.')} = ${JSON.stringify(value)?.slice(0, 80)} → ${answer.statusCode} ${answer.body.slice(0, 200)}`)
      } else {
        // a restored board answers its lists and saves again
        if ((await app.inject({ url: '/__mock/state' })).statusCode !== 200) failures += 1
      }
      app.controller.importState(saved)
    }),
    { numRuns: runs(80), seed: PROPERTY_SEED },
  )
  t.equal(failures, 0)
})
