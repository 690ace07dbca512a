// `proxy --record`'s accounting when it cannot write everything it read: a record the
// scenario cannot hold is named with why (as `record` names it), and past the bound of
// records kept a list, records are counted, not kept, and said; a record read again is
// one record. The answers are handed to the recording as the proxy hands them.
import { join } from 'node:path'
import t from 'tap'
import { loadScenario } from '../../src/fake/scenario.js'
import { accountLines, ProxyRecording } from '../../src/proxy/recording.js'

const BASE = 'http://staging.example.test'
const candidate = (id: unknown, name: string) => ({ id, name, email: `${name.toLowerCase()}@mail.example.org`, created_at: '2026-01-02 03:04:05' })
const page = (data: unknown[], total = data.length) => ({ status: 200, total, data })
const answer = (apiPath: string, json: unknown, query = '') => ({ apiPath, query, json, authorization: `Basic ${Buffer.from('u:p').toString('base64')}` })

t.test('a record the scenario cannot hold is named with why, and a record read again counts once', async (t) => {
  const file = join(t.testdir(), 'traffic.json')
  const recording = new ProxyRecording(file, BASE)
  recording.seen(answer('/candidates/list', page([candidate(2, 'Ada'), candidate('x', 'Bob')])))
  recording.seen(answer('/candidates/list', page([candidate(2, 'Ada')]), 'since=2026-01-01+00:00'))
  recording.seen(answer('/candidates/details/2', page([candidate(2, 'Ada')])))
  const account = recording.write(Date.parse('2026-11-20T12:00:00Z'), {})
  t.same(account.carried.candidates, { seen: 2, written: 1 }, 'two candidates seen (one of them three times), one written')
  t.same(account.lost, [{ kind: 'candidates', id: 'x', why: 'its id is not an integer of 1 or more' }])
  const { out, loss } = accountLines(account)
  t.match(out, 'Records seen → written: candidates 2 → 1')
  t.match(loss, /records read and not written: 1 candidates \(x\): its id is not an integer of 1 or more/)
  t.notMatch(loss, /--allow-loss/, 'the proxy has no --allow-loss to point at')
  t.ok(loadScenario(file), 'what could be written loads')
})

t.test('past the bound of records kept a list, records are counted and said, not kept', async (t) => {
  const file = join(t.testdir(), 'traffic.json')
  const recording = new ProxyRecording(file, BASE, 2)
  recording.seen(answer('/candidates/list', page([candidate(3, 'Ada'), candidate(2, 'Bob'), candidate(1, 'Cy')])))
  const account = recording.write(Date.parse('2026-11-20T12:00:00Z'), {})
  t.same(account.carried.candidates, { seen: 3, written: 2 })
  t.equal(account.pastBound.candidates, 1)
  t.match(accountLines(account).loss, /records past the bound of 2 kept a list, counted and not written: 1 candidates/)
})
