// The verdict reads since, vacancy and page of every list request straight from its URL
// (list-urls.ts, listParams) rather than through a URLSearchParams of the whole query: it
// must read each as URLSearchParams does, whatever the spelling.
import t from 'tap'
import { listParams } from '../../../src/watch/verdict/list-urls.js'

const URLS = [
  '/api/v1/applications/list',
  '/api/v1/applications/list?',
  '/api/v1/applications/list?page=2',
  '/api/v1/applications/list?since=2026-11-20+09:30&page=3',
  '/api/v1/applications/list?since=2026-11-20%2009%3A30&vacancy=7&page=2',
  '/api/v1/applications/list?page=1&page=2&since=a&since=b',
  '/api/v1/applications/list?p%61ge=4&page=5',
  '/api/v1/applications/list?s%69nce=2026-11-20+09:30',
  '/api/v1/applications/list??page=6',
  '/api/v1/applications/list?page',
  '/api/v1/applications/list?page=&since=',
  '/api/v1/applications/list?&&page=7&&',
  '/api/v1/applications/list?vacancy=a+b%2Bc&page=1=2',
  '/api/v1/applications/list?since=%ZZ%2&page=%31',
  '/api/v1/applications/list?since=%C3%A9%FF&vacancy=\u00e9',
  '/api/v1/applications/list?since=\ud800x&page=+1',
  '/api/v1/applications/list?bench=7&pag+e=9&page=8',
  `/api/v1/applications/list?page=${'0'.repeat(2000)}1`,
]

t.test('reads since, vacancy and page as URLSearchParams reads them', async (t) => {
  for (const url of URLS) {
    const mark = url.indexOf('?')
    const expected = new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1))
    const read = listParams(url)
    for (const name of ['since', 'vacancy', 'page'] as const) {
      t.equal(read[name], expected.get(name) ?? undefined, `${name} of ${url.slice(0, 80)}`)
    }
  }
})
