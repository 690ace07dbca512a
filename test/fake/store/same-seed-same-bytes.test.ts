// Two fakes built from the same scenario and seed answer a page, a detail and a download
// byte for byte alike, whatever each was asked before: a generated record is a function
// of (seed, scenario, id), not of the order requests came in.
import t from 'tap'
import { createMockServer, type MockServer } from '../../../src/index.js'
import { AUTH } from '../../helpers/board.js'

const URLS = [
  '/api/v1/applications/list?page=2',
  '/api/v1/candidates/list',
  '/api/v1/candidates/details/9',
  '/api/v1/applications/details/17',
  '/api/v1/timesheets/list',
  '/api/v1/marketing/list',
  '/api/v1/candidates/resume/3',
  '/api/v1/applications/attachment/5',
  '/api/v1/candidates/timesheet/4',
]

async function answers(server: MockServer, urls: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  for (const url of urls) {
    const answer = await server.inject({ url, headers: AUTH })
    if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`)
    out.set(url, answer.rawPayload)
  }
  return out
}

for (const scenario of ['default', 'edge-cases']) {
  t.test(`two ${scenario} boards with the same seed answer a page, a detail and a download byte for byte alike`, async (t) => {
    const one = await createMockServer({ scenario, seed: 77, clock: 'virtual', rateLimitWindow: 0 })
    const two = await createMockServer({ scenario, seed: 77, clock: 'virtual', rateLimitWindow: 0 })
    t.teardown(() => Promise.all([one.close(), two.close()]))
    const first = await answers(one, URLS)
    // asked in the opposite order, details before the pages that list them
    const second = await answers(two, [...URLS].reverse())
    for (const url of URLS) t.ok(first.get(url)?.equals(second.get(url) as Buffer), `${url} is identical`)
    t.ok((first.get(URLS[6] as string)?.length ?? 0) > 0, 'the download has bytes')
  })
}

t.test('another seed gives another page', async (t) => {
  const one = await createMockServer({ seed: 77, clock: 'virtual', rateLimitWindow: 0 })
  const two = await createMockServer({ seed: 78, clock: 'virtual', rateLimitWindow: 0 })
  t.teardown(() => Promise.all([one.close(), two.close()]))
  const [a, b] = [await answers(one, [URLS[0] as string]), await answers(two, [URLS[0] as string])]
  t.notOk(a.get(URLS[0] as string)?.equals(b.get(URLS[0] as string) as Buffer))
})
