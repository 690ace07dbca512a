// A saved board holding a __proto__ key, at the top level or inside a record, full or
// compact, or in its scenario (a credentials entry's __proto__, a constructor.prototype):
// refused with 412 {status, message} naming the key and where it is, over a real socket
// (with a Content-Length and chunked, streamed in pieces, without credentials) and in
// process (a state read with JSON.parse, which makes __proto__ an own key); the board is
// unchanged.
import t from 'tap'
import { createMockServer } from '../../../src/fake/server.js'
import { listening, sendAll } from '../../helpers/socket.js'

/** The saved text with `{"__proto__":{"polluted":1},` put in after the first `anchor` ending in `{`. */
const poisoned = (text: string, anchor: string) => {
  const at = text.indexOf(anchor)
  if (at < 0) throw new Error(`no ${anchor} in the state`)
  const cut = at + anchor.length
  return `${text.slice(0, cut)}"__proto__":{"polluted":1},${text.slice(cut)}`
}

/** Each form of a saved board and where a __proto__ goes in it: the text and the place the refusal names. */
async function cases(text: (form: 'full' | 'compact') => Promise<string>): Promise<Array<{ name: string; body: string; place: string }>> {
  const full = await text('full')
  const compact = await text('compact')
  return [
    { name: 'full, at the top level', body: poisoned(full, '{'), place: 'at the top level' },
    { name: 'full, inside a job record', body: poisoned(full, '"jobs":[{'), place: 'at store.jobs[0].__proto__' },
    { name: 'compact, at the top level', body: poisoned(compact, '{'), place: 'at the top level' },
    { name: 'compact, inside a written candidate', body: poisoned(compact, '"candidates":[{'), place: 'at store.written.candidates[0].__proto__' },
  ]
}

t.test('PUT /__mock/state over a socket refuses a __proto__ key with 412 naming where it is, sent with a Content-Length or chunked, and the board is unchanged', async (t) => {
  const { app, port } = await listening(t)
  // a written record, so that the compact form has one to hold the key
  t.equal((await app.inject({ method: 'POST', url: '/__mock/candidates', payload: { name: 'Ada Lovelace' } })).statusCode, 201)
  const saved = async (form: 'full' | 'compact') => (await app.inject({ url: `/__mock/state?form=${form}` })).body
  const before = await saved('full')
  for (const { name, body, place } of await cases(saved)) {
    for (const chunked of [false, true]) {
      const sent = chunked
        ? // a stream body: fetch sends it chunked, with no Content-Length
          { body: new Blob([body]).stream(), duplex: 'half' as const }
        : { body }
      const answer = await fetch(`http://127.0.0.1:${port}/__mock/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, ...sent } as RequestInit)
      const json = (await answer.json()) as { status: number; message: string }
      const how = `${name}, ${chunked ? 'chunked' : 'with a Content-Length'}`
      t.equal(answer.status, 412, how)
      t.same(Object.keys(json).sort(), ['message', 'status'], how)
      t.equal(json.status, 412, how)
      t.match(json.message, `holds the key __proto__ (${place})`, how)
    }
  }
  t.equal(await saved('full'), before, 'the board is unchanged')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
  // the fake still takes a state without the key
  const restored = await fetch(`http://127.0.0.1:${port}/__mock/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: before })
  t.equal(restored.status, 200)
})

t.test('importState in process refuses a state read with JSON.parse holding a __proto__ key, naming where it is, and the board is unchanged', async (t) => {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => server.close())
  server.store.addCandidate({ name: 'Ada Lovelace' })
  const saved = async (form: 'full' | 'compact') => JSON.stringify(server.exportState({ form }))
  const before = await saved('full')
  for (const { name, body, place } of await cases(saved)) {
    // JSON.parse makes __proto__ an own key, as a state read from a file has it
    const state = JSON.parse(body)
    t.throws(() => server.importState(state), { message: `The state holds the key __proto__ (${place}), which is refused: no field of a saved board has that name.` }, name)
  }
  t.equal(await saved('full'), before, 'the board is unchanged')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
})

/** The saved text with `insert` put in first thing in its scenario. */
const inScenario = (text: string, insert: string) => text.replace('"scenario":{', `"scenario":{${insert},`)

/** A scenario carrying a prototype key: in a credentials entry (as sent and \u-escaped), or as constructor.prototype. */
const SCENARIO_CASES = [
  {
    name: 'a credentials entry holding __proto__',
    insert: '"credentials":[{"username":"jobboard","password":"jobboard","__proto__":{"polluted":1}}]',
    key: '__proto__',
    place: 'at scenario.credentials[0].__proto__',
  },
  {
    name: 'a credentials entry holding __proto__ written with a \\u escape',
    insert: '"credentials":[{"username":"jobboard","password":"jobboard","\\u005f_proto__":{"polluted":1}}]',
    key: '__proto__',
    place: 'at scenario.credentials[0].__proto__',
  },
  { name: 'a scenario holding constructor.prototype', insert: '"constructor":{"prototype":{"polluted":1}}', key: 'constructor', place: 'at scenario.constructor' },
]

/** The text in pieces of at most 16 KiB, as a client streaming it sends them. */
const inPieces = (text: string) => {
  const bytes = Buffer.from(text)
  return Array.from({ length: Math.ceil(bytes.length / 16_384) }, (_, i) => bytes.subarray(i * 16_384, (i + 1) * 16_384))
}

t.test('PUT /__mock/state over a socket refuses a scenario whose credentials entry or itself carries a prototype key, naming the path, streamed with a Content-Length or chunked', async (t) => {
  const { app, port } = await listening(t)
  const before = (await app.inject({ url: '/__mock/state' })).body
  for (const { name, insert, key, place } of SCENARIO_CASES) {
    for (const chunked of [false, true]) {
      const how = `${name}, ${chunked ? 'chunked' : 'with a Content-Length'}`
      const exchange = await sendAll(port, 'PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n', inPieces(inScenario(before, insert)), { chunked })
      t.equal(exchange.error, undefined, `${how}: no reset`)
      const [answer] = exchange.answers
      t.equal(answer?.status, 412, how)
      const json = JSON.parse(answer?.body ?? '{}') as { status?: number; message?: string }
      t.same(Object.keys(json).sort(), ['message', 'status'], how)
      t.equal(json.message, `The body holds the key ${key} (${place}), which is refused: no field of the API or the control API has that name.`, how)
    }
  }
  t.equal((await app.inject({ url: '/__mock/state' })).body, before, 'the board is unchanged')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
})

t.test('importState in process refuses a scenario whose credentials entry or itself carries a prototype key, naming the path', async (t) => {
  const server = await createMockServer({ clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => server.close())
  const before = JSON.stringify(server.exportState())
  for (const { name, insert, key, place } of SCENARIO_CASES) {
    const state = JSON.parse(inScenario(before, insert))
    t.throws(() => server.importState(state), { message: `The state holds the key ${key} (${place}), which is refused: no field of a saved board has that name.` }, name)
  }
  t.equal(JSON.stringify(server.exportState()), before, 'the board is unchanged')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is unpolluted')
})
