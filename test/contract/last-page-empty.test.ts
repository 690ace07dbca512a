// A last page whose next_page is the empty string (as a board that prints an empty link
// answers): the spec says what next_page is while there is a next page, and nothing of the
// last page's. The kit reads it as the end of the list and records it (profile point
// lastPageNextPage: empty); the fake can answer so; a --profile run pins it. On our fake
// and on the second server, which we did not write.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { startOtherBoard } from '../helpers/other-board.js'
import { board, contract } from './helpers.js'

const AUTH = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }
const pointOf = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { points: Record<string, { value?: unknown }> }).points.lastPageNextPage?.value

t.test('the fake told lastPageNextPage empty answers "" on a last page, and the kit passes it and records it', async (t) => {
  const { url } = await board(t, {}, { lastPageNextPage: 'empty', pageSize: 1000, rateLimitWindow: 0 })
  const last = (await (await fetch(`${url}/api/v1/marketing/list`, { headers: AUTH })).json()) as { next_page?: unknown }
  t.equal(last.next_page, '', 'the one page of a list holds next_page ""')
  const profile = join(t.testdir(), 'profile.json')
  const run = await contract({ baseUrl: url, writeProfile: profile, rateLimitWindow: 0 })
  t.equal(run.exitCode, 0, `${run.reason ?? 'exit 0'}; failed: ${run.failed().join('; ') || 'none'}`)
  t.equal(pointOf(profile), 'empty', 'the profile records it')
  const pinned = await contract({ baseUrl: url, profile, rateLimitWindow: 0 })
  t.equal(pinned.exitCode, 0, 'pinned, the same deployment conforms')
  t.equal(pinned.check('profile', 'lastPageNextPage is as the profile records it')?.status, 'pass', 'the point is checked')
})

t.test('a profile that recorded "" fails a deployment that now answers false', async (t) => {
  const { url } = await board(t, {}, { lastPageNextPage: 'empty', pageSize: 1000, rateLimitWindow: 0 })
  const profile = join(t.testdir(), 'profile.json')
  t.equal((await contract({ baseUrl: url, writeProfile: profile, rateLimitWindow: 0 })).exitCode, 0)
  const { url: changed } = await board(t, {}, { lastPageNextPage: 'false', pageSize: 1000, rateLimitWindow: 0 })
  const run = await contract({ baseUrl: changed, profile, rateLimitWindow: 0 })
  t.equal(run.exitCode, 1)
  t.match(run.failed(), ['profile: lastPageNextPage is as the profile records it'])
})

for (const style of ['a', 'b'] as const) {
  t.test(`the second server, style ${style}, with "" on its last pages: exit 0, recorded as empty`, async (t) => {
    const other = await startOtherBoard({ style, username: 'u', password: 'p', lastPageNextPage: '' })
    t.teardown(() => other.close())
    const profile = join(t.testdir(), 'profile.json')
    const run = await contract({ baseUrl: other.url, username: 'u', password: 'p', writeProfile: profile })
    t.equal(run.exitCode, 0, `${run.reason ?? 'exit 0'}; failed: ${run.failed().join('; ') || 'none'}`)
    t.equal(pointOf(profile), 'empty')
  })
}
