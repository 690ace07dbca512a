// Paging of every list: next_page is a full URL of the same list carrying page and the
// filters given; total is the total matching count; pages neither overlap nor skip.
import t from 'tap'
import { allPages, board, call } from '../../helpers/board.js'

const LISTS = ['candidates/list', 'applications/list', 'timesheets/list', 'marketing/list'] as const
const keyOf = (item: { id?: number; created_at: string; candidate?: { email: string }; action?: string }) =>
  item.id ?? `${item.created_at} ${item.candidate?.email} ${item.action}`

for (const list of LISTS) {
  t.test(`${list} pages through every record once`, async (t) => {
    const app = await board(t)
    const pages = await allPages(app, `/api/v1/${list}`)
    const first = pages[0]?.body
    t.ok(first, 'has a first page')
    const total = first?.total ?? 0
    t.ok(pages.length >= 2, `spans several pages (${pages.length})`)
    t.equal(pages.length, Math.ceil(total / 25), 'as many pages as 25 records a page make')
    const keys = pages.flatMap((p) => p.body.data.map(keyOf))
    t.equal(keys.length, total, 'the pages hold total records')
    t.equal(new Set(keys).size, keys.length, 'no record appears twice')
    for (const [i, page] of pages.entries()) {
      t.equal(page.body.total, total, `page ${i + 1} gives the same total`)
      if (i < pages.length - 1) t.equal(page.body.data.length, 25, `page ${i + 1} is full`)
      const next = page.body.next_page
      if (i < pages.length - 1) {
        t.type(next, 'string', `page ${i + 1} links to the next`)
        const url = new URL(next as string)
        t.equal(url.origin, 'http://localhost', 'on the origin the request came in on')
        t.equal(url.pathname, `/api/v1/${list}`, 'of the same list')
        t.equal(url.searchParams.get('page'), String(i + 2), 'with the next page number')
      } else {
        t.equal(next, false, 'the last page says false')
      }
    }
  })
}

t.test('applications are newest first within and across pages', async (t) => {
  const app = await board(t)
  const ids = (await allPages(app, '/api/v1/applications/list')).flatMap((p) => p.body.data.map((a: { id: number }) => a.id))
  t.same(ids, [...ids].sort((a, b) => b - a))
})

t.test('every list is newest first', async (t) => {
  const app = await board(t)
  for (const list of LISTS) {
    const data = (await allPages(app, `/api/v1/${list}`)).flatMap((p) => p.body.data) as Array<{ id?: number; created_at: string }>
    if (data[0]?.id !== undefined) t.same(data.map((r) => r.id), data.map((r) => r.id).sort((a, b) => (b as number) - (a as number)), `${list} by id`)
    else t.same(data.map((r) => r.created_at), data.map((r) => r.created_at).sort().reverse(), `${list} by time`)
  }
})

t.test('timesheets carry prev_page: false on the first page, a URL after it', async (t) => {
  const app = await board(t)
  const pages = await allPages(app, '/api/v1/timesheets/list')
  t.equal(pages[0]?.body.prev_page, false)
  for (const [i, page] of pages.entries()) {
    if (i === 0) continue
    const prev = new URL(page.body.prev_page as string)
    t.equal(prev.searchParams.get('page'), String(i), `page ${i + 1} points back at page ${i}`)
  }
  t.equal((await call(app, '/api/v1/applications/list')).body.prev_page, undefined, 'other lists do not carry prev_page')
})

t.test('next_page carries since and vacancy, and only them', async (t) => {
  const app = await board(t)
  const vacancy = (await call(app, '/api/v1/applications/list')).body.data[0].vacancy.id
  const answer = await call(app, `/api/v1/applications/list?foo=bar&vacancy=${vacancy}&since=2024-01-01+00:00`)
  t.equal(answer.status, 200)
  if (answer.body.total > 25) {
    const next = new URL(answer.body.next_page)
    t.same([...next.searchParams.keys()], ['since', 'vacancy', 'page'])
    t.equal(next.searchParams.get('since'), '2024-01-01 00:00')
    t.equal(next.searchParams.get('vacancy'), String(vacancy))
  }
  const since = await call(app, '/api/v1/marketing/list?since=2025-01-01%2000:00')
  const next = new URL(since.body.next_page)
  t.equal(next.searchParams.get('since'), '2025-01-01 00:00')
  t.match(since.body.next_page, /since=2025-01-01\+00%3A00&page=2$/, 'form-encoded, as http_build_query writes it')
  const followed = await call(app, next.pathname + next.search)
  t.equal(followed.status, 200, 'and the link answers')
  t.equal(followed.body.total, since.body.total)
})

t.test('answers an empty page past the last', async (t) => {
  const app = await board(t)
  const answer = await call(app, '/api/v1/applications/list?page=999')
  t.equal(answer.status, 200)
  t.same(answer.body.data, [])
  t.ok(answer.body.total > 0, 'with the real total')
  t.equal(answer.body.next_page, false)
})

t.test('follows the paging knobs', async (t) => {
  const nulls = await board(t, { lastPageNextPage: 'null' })
  t.equal((await call(nulls, '/api/v1/marketing/list?page=99')).body.next_page, null, 'null on the last page')
  const omitted = await board(t, { lastPageNextPage: 'omit' })
  t.notOk('next_page' in (await call(omitted, '/api/v1/marketing/list?page=99')).body, 'no next_page on the last page')
  const strict = await board(t, { outOfRangePage: 'not-found' })
  const past = await call(strict, '/api/v1/applications/list?page=999')
  t.equal(past.status, 404)
  t.match(past.body, { status: 404, message: /Page 999/ })
  const whole = await board(t, { pageCandidates: false })
  const all = await call(whole, '/api/v1/candidates/list')
  t.equal(all.body.data.length, all.body.total, 'one page holds every candidate')
  t.notOk('next_page' in all.body || all.body.next_page)
  const small = await board(t, { pageSize: 7 })
  t.equal((await call(small, '/api/v1/applications/list')).body.data.length, 7, 'the page size follows pageSize')
})

t.test('answers 412 naming page for a bad page', async (t) => {
  const app = await board(t)
  for (const page of ['0', '-1', '1.5', 'two', '', '99999999999']) {
    const answer = await call(app, `/api/v1/timesheets/list?page=${page}`)
    t.equal(answer.status, 412, `page=${page}`)
    t.match(answer.body, { status: 412, message: /query parameter page/ }, `page=${page} is named`)
  }
})

t.test('puts links on the public base URL when one is set', async (t) => {
  const app = await board(t, { publicBaseUrl: 'https://board.example.com/' })
  const answer = await call(app, '/api/v1/applications/list')
  t.match(answer.body.next_page, /^https:\/\/board\.example\.com\/api\/v1\/applications\/list\?page=2$/)
  t.match(answer.body.data[0].href, /^https:\/\/board\.example\.com\/api\/v1\/applications\/details\/\d+$/)
})

t.test('puts links on the origin the request came in on otherwise', async (t) => {
  const app = await board(t)
  const answer = await call(app, { url: '/api/v1/candidates/list', headers: { host: 'fake.test:8123' } })
  t.match(answer.body.next_page, /^http:\/\/fake\.test:8123\//)
  const hrefs = JSON.stringify(answer.body).match(/"href":"[^"]+"/g) ?? []
  t.ok(hrefs.length > 0)
  for (const href of hrefs) t.match(href, /"href":"http:\/\/fake\.test:8123\/api\/v1\//)
})

t.test('a page past an empty list answers 404 when told to, and page 1 is the empty list', async (t) => {
  const app = await board(t, { scenario: 'empty', outOfRangePage: 'not-found' })
  t.equal((await call(app, '/api/v1/applications/list')).status, 200)
  t.equal((await call(app, '/api/v1/applications/list?page=2')).status, 404)
  t.equal((await call(app, { url: '/api/v1/applications/list', headers: { prefer: 'code=404' } })).status, 404, 'so Prefer may ask for it')
})

t.test('a Host header that is no host never reaches the JSON', async (t) => {
  const app = await board(t)
  for (const host of ['a"b\\c', 'x y']) {
    const answer = await app.inject({ url: '/api/v1/applications/list', headers: { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}`, host } })
    t.equal(answer.statusCode, 200)
    const body = answer.json()
    t.match(body.next_page, /^http:\/\/127\.0\.0\.1:4010\/api\/v1\/applications\/list\?page=2$/, `Host ${JSON.stringify(host)}: links on the board's own origin`)
  }
})
