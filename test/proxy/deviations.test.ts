// The contract kit's deviations (test/contract/broken.test.ts, made by its rig,
// test/contract/helpers.ts) that one answer shows, seen through the proxy: each is a
// violation named by the kit's own check, with the spec's words. The fake behind the
// kit's breaking rig is the upstream; a client asks what shows the deviation.
import t from 'tap'
import { orderedCitation } from '../../src/contract/citations.js'
import { citationOf } from '../../src/contract/rules.js'
import { createProxy, type Violation } from '../../src/proxy/proxy-server.js'
import { AUTHORIZATION, type Breakage, board, changeAnswer, changeJson, dropHeader } from '../contract/helpers.js'

const headers = { authorization: AUTHORIZATION }

interface Deviation {
  deviation: string
  breakage: Breakage
  /** What the client asks: paths, or a function of the proxy's URL that asks itself. */
  ask: (url: string) => Promise<void>
  rule: string
  limited?: boolean
}

/** A request and its whole answer; an answer cut short (as the deviation cut it) ends the request all the same. */
const get = async (url: string) => {
  try {
    await (await fetch(url, { headers })).arrayBuffer()
  } catch {
    // the proxy cut the client short as the upstream cut the proxy
  }
}
const paths = (...list: string[]) => async (url: string) => {
  for (const path of list) await get(`${url}${path}`)
}
/** The first file of a list's first page (a candidate's resume, an application's attachment, a timesheet's download). */
/** A list page as far as its file links go. */
type Files = { data: Array<{ resumes: Array<{ href: string }>; applicant: { attachment: { href: string } }; attachment: { href: string } }> }
const fileOf = (list: string, pick: (body: Files) => string | undefined) => async (url: string) => {
  const body = (await (await fetch(`${url}/api/v1/${list}/list`, { headers })).json()) as Files
  await get(`${url}${new URL(pick(body) ?? '').pathname}`)
}

const DEVIATIONS: Deviation[] = [
  { deviation: 'a list answer without status', breakage: changeJson(/^\/candidates\/list$/, (b) => void delete b.status), ask: paths('/api/v1/candidates/list'), rule: 'candidates/list: the first page fits the candidate list schema' },
  { deviation: 'total as a string', breakage: changeJson(/^\/applications\/list$/, (b) => {
      b.total = String(b.total)
    }), ask: paths('/api/v1/applications/list'), rule: 'applications/list: the first page fits the application list schema' },
  {
    deviation: 'a timestamp in ISO 8601',
    breakage: changeJson(/^\/candidates\/list$/, (b) => {
      for (const c of (b.data as Array<{ created_at: string }>).slice(0, 1)) c.created_at = `${c.created_at.replace(' ', 'T')}Z`
    }),
    ask: paths('/api/v1/candidates/list'),
    rule: 'candidates/list: the first page fits the candidate list schema',
  },
  {
    deviation: 'next_page without page',
    breakage: changeJson(/^\/timesheets\/list$/, (b) => {
      if (typeof b.next_page === 'string') b.next_page = b.next_page.replace(/[?&]page=[0-9]+/, '')
    }),
    ask: paths('/api/v1/timesheets/list'),
    rule: 'timesheets/list: next_page of the first page is an absolute URL on the same origin carrying page',
  },
  {
    deviation: 'a download whose Content-Length is more than the bytes sent',
    breakage: changeAnswer(/^\/candidates\/resume\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-length': String(r.body.length + 7) }, keepLength: true, cut: true })),
    ask: fileOf('candidates', (b) => b.data.find((c) => c.resumes.length > 0)?.resumes[0]?.href),
    rule: 'candidates/resume/{id}: Content-Length equals the bytes received',
  },
  { deviation: 'a download without Content-Disposition', breakage: dropHeader('content-disposition', /^\/applications\/attachment\/[0-9]+$/), ask: fileOf('applications', (b) => b.data[0]?.applicant.attachment.href), rule: 'applications/attachment/{id}: Content-Disposition is attachment with the listed filename' },
  { deviation: 'a 429 without Retry-after', breakage: dropHeader('retry-after'), ask: paths('/api/v1/metrics/list', '/api/v1/metrics/list'), rule: 'every answer: each 429 carries Retry-after as a number of seconds', limited: true },
  {
    deviation: 'a JSON list said to be text/html',
    breakage: changeAnswer(/^\/marketing\/list$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/html; charset=utf-8' } })),
    ask: paths('/api/v1/marketing/list'),
    rule: 'every answer: each JSON answer says Content-Type application/json',
  },
  {
    deviation: 'a timesheet sent as text/plain',
    breakage: changeAnswer(/^\/candidates\/timesheet\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/plain' } })),
    ask: fileOf('timesheets', (b) => b.data[0]?.attachment.href),
    rule: 'candidates/timesheet/{id}: the listed link answers 200 with an octet-stream Content-Type',
  },
  {
    // "a timesheet-specific octet-stream type for timesheets": the attachments' plain type is not one
    deviation: 'a timesheet sent as plain application/octet-stream',
    breakage: changeAnswer(/^\/candidates\/timesheet\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/octet-stream' } })),
    ask: fileOf('timesheets', (b) => b.data[0]?.attachment.href),
    rule: 'candidates/timesheet/{id}: the listed link answers 200 with an octet-stream Content-Type',
  },
  {
    deviation: 'an attachment sent as application/pdf',
    breakage: changeAnswer(/^\/applications\/attachment\/[0-9]+$/, (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/pdf' } })),
    ask: fileOf('applications', (b) => b.data[0]?.applicant.attachment.href),
    rule: 'applications/attachment/{id}: the listed link answers 200 with Content-Type application/octet-stream',
  },
  {
    deviation: 'a download without Content-Transfer-Encoding',
    breakage: dropHeader('content-transfer-encoding', /^\/candidates\/resume\/[0-9]+$/),
    ask: fileOf('candidates', (b) => b.data.find((c) => c.resumes.length > 0)?.resumes[0]?.href),
    rule: 'candidates/resume/{id}: Content-Transfer-Encoding is binary',
  },
]

for (const { deviation, breakage, ask, rule, limited } of DEVIATIONS) {
  t.test(`${deviation}: a violation of "${rule}" with the spec's words`, async (t) => {
    const { url } = await board(t, breakage, limited ? {} : { rateLimitWindow: 0 })
    const proxy = createProxy({ to: url, port: 0 })
    await proxy.listen()
    t.teardown(() => proxy.close())
    await ask(proxy.url)
    // an answer cut short is journaled (and checked) when its connection closes
    let violations: Violation[] = []
    for (let i = 0; i < 100 && !violations.some((v) => v.rule === rule); i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20))
      violations = ((await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { violations: Violation[] }).violations
    }
    const found = violations.find((v) => v.rule === rule)
    t.ok(found, `${rule} (found: ${violations.map((v) => v.rule).join('; ') || 'none'})`)
    t.ok((found?.spec.length ?? 0) > 0, 'with the spec\'s words')
    // the words the kit cites for that check, those the finding contradicts first (as the kit's own outputs show them)
    const cited = orderedCitation(rule, citationOf(rule), [found?.message ?? ''])
    t.same(found?.spec, (cited as { words?: readonly string[] }).words, 'the words the kit cites for that check, the contradicted first')
    t.same([...(found?.spec ?? [])].filter((w) => ((citationOf(rule) as { words?: readonly string[] }).words ?? []).includes(w)).sort(), [...((citationOf(rule) as { words?: readonly string[] }).words ?? [])].sort(), 'every one of them')
  })
}
