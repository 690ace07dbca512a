// A query parameter a route does not read (a client's cache-buster) leaves its answer as
// it is and is answered from the same kept answer; a parameter the route reads, written
// in any way, is never answered with another URL's answer. The rate limit still counts
// each full URL apart.
import t from 'tap'
import { board, call } from '../../helpers/board.js'

const LIST = '/api/v1/applications/list'

t.test('a list with an unknown parameter answers the same bytes as without it, first and again', async (t) => {
  const app = await board(t)
  const plain = await call(app, `${LIST}?page=2`)
  for (const url of [`${LIST}?page=2&bench=1`, `${LIST}?bench=2&page=2`, `${LIST}?page=2&bench=1`, `${LIST}?page=2&x=`]) {
    const answer = await call(app, url)
    t.equal(answer.status, 200)
    t.equal(answer.raw.body, plain.raw.body, `${url}: the page-2 answer`)
    t.equal(answer.headers['content-type'], plain.headers['content-type'])
  }
  const fresh = await board(t)
  t.equal((await call(fresh, `${LIST}?page=2&bench=9`)).raw.body, plain.raw.body, 'a board that never answered page 2 answers the same')
})

t.test('a read parameter written another way is answered for what it says, not from a kept answer', async (t) => {
  const app = await board(t)
  const fresh = await board(t)
  await call(app, `${LIST}?page=1`)
  await call(app, `${LIST}?page=1&bench=1`)
  for (const url of [`${LIST}?p%61ge=2`, `${LIST}?page=1&page=2`, `${LIST}?page=2`, `${LIST}?page=%32`, `${LIST}?since=2000-01-01+00:00&page=1`, `${LIST}?page=x`]) {
    const answer = await call(app, url)
    const expected = await call(fresh, url)
    t.equal(answer.status, expected.status, `${url}: ${expected.status}`)
    t.equal(answer.raw.body, expected.raw.body, `${url}: the same body as a board that kept nothing`)
  }
})

t.test('a detail with a query string answers the detail', async (t) => {
  const app = await board(t)
  const id = (await call(app, '/api/v1/candidates/list')).body.data[0].id
  const plain = await call(app, `/api/v1/candidates/details/${id}`)
  t.equal((await call(app, `/api/v1/candidates/details/${id}?nocache=5`)).raw.body, plain.raw.body)
})

t.test('under the rate limit, each distinct URL opens its own window though its answer is kept', async (t) => {
  const app = await board(t, { rateLimitWindow: 900 })
  t.equal((await call(app, `${LIST}?page=1&bench=1`)).status, 200)
  t.equal((await call(app, `${LIST}?page=1&bench=2`)).status, 200, 'another URL: its own window')
  const again = await call(app, `${LIST}?page=1&bench=1`)
  t.equal(again.status, 429, 'the same URL again: refused')
  t.match(again.headers['retry-after'], /^[0-9]+$/)
})
