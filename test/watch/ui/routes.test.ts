// The JSON routes /__mock/ui reads and the page's own answers, over inject: the journal in
// windows, one entry (a long URL capped), the board with each rule's sentence, an unknown
// filter answered with the page and a notice, and the control token guarding the data.
import t from 'tap'
import { RULES } from '../../../src/watch/verdict/client-rules.js'
import { basic, board, call } from '../../helpers/board.js'

t.test('the page, its script and its style answer with a policy that keeps them on this server', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  for (const [path, type] of [
    ['/__mock/ui', 'text/html'],
    ['/__mock/ui/ui.js', 'text/javascript'],
    ['/__mock/ui/ui.css', 'text/css'],
  ] as const) {
    const answer = await app.inject(path)
    t.equal(answer.statusCode, 200, `${path} answers 200`)
    t.match(answer.headers['content-type'], new RegExp(`^${type};`), `${path} is ${type}`)
    t.match(answer.headers['content-security-policy'], /default-src 'self'/, `${path} comes with the policy`)
  }
  t.notMatch((await app.inject('/__mock/ui')).body, /https?:\/\//, 'the page names no other host')
})

t.test('an unknown filter answers the page with a notice, never an error', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const answer = await app.inject('/__mock/ui?colour=red&status=abc&user=x')
  t.equal(answer.statusCode, 200, 'the page answers 200')
  t.match(answer.body, /id="notice"[^>]*>Ignored &#34;colour&#34;/, 'the notice names the unknown filter')
  t.match(answer.body, /Ignored status &#34;abc&#34;/, 'and a status that is no number')
  t.notMatch(answer.body, /Ignored &#34;user&#34;/, 'a known filter is not ignored')
  t.notMatch((await app.inject('/__mock/ui?user=x')).body, /id="notice"/, 'known filters alone bring no notice')
  t.match((await app.inject('/__mock/ui?<script>=1')).body, /Ignored &#34;&#60;script&#62;&#34;/, 'a filter name is shown escaped')
})

t.test('the journal is read in windows after an id', async (t) => {
  const app = await board(t, { scenario: 'default', rateLimitWindow: 0 })
  for (let page = 1; page <= 7; page++) await call(app, `/api/v1/candidates/list?page=${page}`)
  const first = (await app.inject('/__mock/ui/journal?after=2&limit=3')).json()
  t.same(
    first.entries.map((e: unknown[]) => e[0]),
    [3, 4, 5],
    'three entries after id 2',
  )
  t.equal(first.newest, 7, 'the answer names the newest id')
  t.equal(first.held, 7, 'and how many the journal holds')
  const [id, ms, method, url, status, user] = first.entries[0]
  t.same([id, method, url, status, user], [3, 'GET', '/api/v1/candidates/list?page=3', 200, 'jobboard'], 'an entry: id, method, URL, status, user')
  t.ok(Number.isSafeInteger(ms), 'and its board time in epoch milliseconds')
  t.same((await app.inject('/__mock/ui/journal?after=7')).json().entries, [], 'nothing after the newest')
  t.equal((await app.inject('/__mock/ui/journal?after=abc&limit=-4')).json().entries.length, 1, 'a bad cursor reads from the start, a bad limit as one')
  await app.inject({ method: 'DELETE', url: '/__mock/requests' })
  t.equal((await app.inject('/__mock/ui/journal?after=7')).json().newest, 0, 'an emptied journal says so: its newest id falls back')
})

t.test('one entry: its request and answer, a long URL capped, an unknown id a 404', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const long = `/api/v1/candidates/list?since=${'x'.repeat(6000)}`
  await call(app, long)
  const entry = (await app.inject('/__mock/ui/entry/1')).json().entry
  t.equal(entry.status, 412, 'the entry has its answer status')
  t.ok(entry.url.length < 4200, 'a long URL is capped')
  t.match(entry.url, /… \(\d+ more characters\)$/, 'and says how much more it had')
  const missing = await app.inject('/__mock/ui/entry/99')
  t.equal(missing.statusCode, 404, 'an id the journal does not hold is a 404')
  t.same(Object.keys(missing.json()).sort(), ['message', 'status'], 'as {status, message}')
})

t.test('the board: counts, clock, faults, the verdict with each rule sentence', async (t) => {
  const app = await board(t, { scenario: 'default', clock: 'virtual' })
  await app.inject({ method: 'POST', url: '/__mock/faults', payload: { path: '/api/v1/metrics/list', status: 503 } })
  const answer = (await app.inject('/__mock/ui/board')).json()
  t.equal(answer.counts.candidates, (await call(app, '/api/v1/candidates/list')).body.total, 'the candidates counted are the list total')
  t.equal(answer.clock.mode, 'virtual', 'the clock and its mode')
  t.equal(answer.faults.length, 1, 'the armed fault')
  t.same(
    answer.verdict.rules.map((r: { id: string; sentence: string }) => [r.id, r.sentence]),
    RULES.map((r) => [r.id, r.sentence]),
    'every rule by id and sentence',
  )
})

const TOKEN = 'a-control-token-of-thirty-two-chars'

t.test('with a control token the data asks for it; the page does not', async (t) => {
  const app = await board(t, { scenario: 'empty', controlToken: TOKEN })
  t.equal((await app.inject('/__mock/ui')).statusCode, 200, 'the page answers without the token (it holds nothing of the board)')
  for (const path of ['/__mock/ui/journal', '/__mock/ui/board', '/__mock/ui/entry/1']) {
    t.equal((await app.inject(path)).statusCode, 401, `${path} refuses a request without the token`)
  }
  t.equal((await app.inject({ url: '/__mock/ui/board', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200, 'and answers one with it')
})

t.test('under /__mock/accounts/{name}/ui the page reads that account; an unknown one is a 404', async (t) => {
  const app = await board(t, {
    scenario: 'empty',
    accounts: [
      { name: 'worker-1', password: 'one' },
      { name: 'worker-2', password: 'two' },
    ],
  })
  const ask = (user: string, password: string) => app.inject({ url: '/api/v1/metrics/list', headers: { authorization: basic(user, password) } })
  await ask('worker-2', 'two')
  await ask('worker-2', 'two')
  await ask('worker-1', 'one')
  const page = await app.inject('/__mock/accounts/worker-2/ui')
  t.equal(page.statusCode, 200, 'the page answers')
  t.match(page.body, 'src="/__mock/accounts/worker-2/ui/ui.js"', 'and reads its parts and data under the account')
  t.equal((await app.inject('/__mock/accounts/worker-2/ui/journal')).json().held, 2, "worker-2's journal: its two requests")
  t.equal((await app.inject('/__mock/ui/journal')).json().held, 1, "/__mock/ui: the first account's one")
  t.equal((await app.inject('/__mock/accounts/worker-2/ui/entry/2')).json().entry.user, 'worker-2', 'an entry of that account')
  const unknown = await app.inject('/__mock/accounts/nobody/ui/board')
  t.equal(unknown.statusCode, 404, 'an unknown account is a 404')
  t.match(unknown.json(), { status: 404 }, 'as {status, message}')
})
