// What one page of an answer with since tells of the records it leaves out: where the spec
// orders the list ("List entries are ordered newest first (highest id first)": applications)
// a page covers every record down to its oldest, so a record at or after since between
// them that is not on it is missing; of a list the spec does not order (candidates,
// timesheets, marketing) a page that happens to run newest first says nothing of what its
// next page holds. A deployment serving the since answer's first page with its last
// record swapped for the next page's first passes for the unordered lists and fails for
// applications.
import t from 'tap'
import { AUTHORIZATION, board, contract, type Breakage } from './helpers.js'

const CHECK = 'the answer with since leaves out no record at or after since'

/** The first page of each answer with since, its last record swapped for the first of the page after it. */
function swapped(origin: () => string): Breakage {
  return {
    reply: async (x, r) => {
      if (!/^\/api\/v1\/[a-z]+\/list\?since=[^&]+$/.test(x.url) || r.status !== 200) return r
      const page = JSON.parse(r.body.toString('utf8')) as { data: unknown[]; next_page?: unknown }
      if (typeof page.next_page !== 'string' || page.data.length === 0) return r
      const next = (await (await fetch(`${origin()}${x.url}&page=2`, { headers: { authorization: AUTHORIZATION } })).json()) as { data: unknown[] }
      if (next.data[0] === undefined) return r
      page.data[page.data.length - 1] = next.data[0]
      return { ...r, body: Buffer.from(JSON.stringify(page)) }
    },
  }
}

t.test('a since page of an unordered list with a record of its next page leaves none out', async (t) => {
  let origin = ''
  const { url } = await board(t, swapped(() => origin), { rateLimitWindow: 0 })
  origin = url
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates,timesheets,marketing' })
  for (const endpoint of ['candidates/list', 'timesheets/list', 'marketing/list']) {
    const made = run.check(endpoint, CHECK)
    t.not(made?.status, 'fail', `${endpoint}: ${made === undefined ? 'not made' : `${made.status} ${[...made.passes, ...made.failures].join('; ')}`}`)
  }
})

t.test('a since page of applications with a record of its next page leaves one out', async (t) => {
  let origin = ''
  const { url } = await board(t, swapped(() => origin), { rateLimitWindow: 0 })
  origin = url
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'applications' })
  t.equal(run.exitCode, 1)
  t.equal(run.check('applications/list', CHECK)?.status, 'fail', 'the page covers the records down to its oldest: the record it dropped is missing')
})
