// The spec decides what fails. A server that differs from the fake only in choices the
// spec leaves open (what an unknown id and a malformed since answer, error bodies, month
// name style, a metric label more, a sector job/fields no longer lists, extra fields,
// page size, the last page's next_page, a resume's content type) passes: exit 0, each
// choice reported as a warning with what was seen.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import t from 'tap'
import { board, contract, json, on, type Reply } from './helpers.js'

const NOT_FOUND: Reply = { status: 404, headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>Not Found</h1>') }
const SHORT = (month: string) => month.slice(0, 3)

/** One candidate as this server writes it, wherever it appears (list or detail). */
function candidate(c: Record<string, unknown>): void {
  if (typeof c.available_from_month === 'string') c.available_from_month = SHORT(c.available_from_month)
  // told in both places, as the spec's two fields tell one candidate's sectors
  c.sector_disciplines = [...(c.sector_disciplines as string[]), 'Zoo Medicine::Reptiles']
  c.sectors = [...(c.sectors as string[]), 'Zoo Medicine']
  c.source = 'job board'
}

t.test('a server that differs only in observation-level choices exits 0 with warnings', async (t) => {
  const deleted = new Set<number>()
  const { url } = await board(
    t,
    {
      request: (x) => ({ ...x, url: x.url.replace(/([?&])since=not-a-time&?/, '$1').replace(/[?&]$/, '') }),
      answer: (x) => {
        if (on(x, /\/2147483647$/)) return NOT_FOUND
        const id = x.method === 'POST' && x.body.length > 0 ? (JSON.parse(x.body.toString('utf8')) as { id?: number }).id : undefined
        if (on(x, /^\/job\/(close|expire|repost|delete)$/) && id !== undefined && deleted.has(id)) return NOT_FOUND
        return undefined
      },
      reply: (x, r) => {
        if (on(x, /^\/job\/delete$/) && r.status === 200) deleted.add((JSON.parse(x.body.toString('utf8')) as { id: number }).id)
        if (on(x, /^\/candidates\/(list|details\/[0-9]+)$/)) return json(r, (b) => b.data.forEach(candidate))
        if (on(x, /^\/metrics\/list$/)) {
          return json(r, (b) => {
            for (const m of b.metrics) for (const a of m.aggregations) a.month = SHORT(a.month)
            b.metrics.push({ label: 'Job views', total: 0, aggregations: [{ ...b.metrics[0].aggregations[0], total: 0 }] })
          })
        }
        if (on(x, /^\/candidates\/(resume|document)\/[0-9]+$/) && r.status === 200) return { ...r, headers: { ...r.headers, 'content-type': 'application/pdf' } }
        return r
      },
    },
    { rateLimitWindow: 0, pageSize: 40, lastPageNextPage: 'null' },
  )
  const junit = join(t.testdir(), 'contract.xml')
  const run = await contract({ baseUrl: url, writes: true, rateLimitWindow: 0, junit })
  t.same(run.failed(), [], 'no check failed')
  t.equal(run.exitCode, 0, run.reason ?? 'exit 0')
  t.equal(run.report.summary.checked, run.report.summary.planned, 'every planned check was made')
  const seen = (topic: string, pattern: RegExp) =>
    t.ok(run.report.observations.some((o) => o.topic === topic && pattern.test(o.summary)), `warns: ${topic} ${pattern.source}`)
  seen('month-style', /aggregations\[\]\.month is written "[A-Z][a-z]{2}" \(the fake writes [A-Z][a-z]+\)/)
  seen('month-style', /available_from_month is written/)
  seen('metric-label', /a label the spec does not name: "Job views"/)
  seen('field-values', /sector_disciplines\[\] holds "Zoo Medicine::Reptiles", which today's job\/fields does not list/)
  seen('drift', /data\[\]\.source/)
  seen('unknown-id', /an unknown id answers HTTP 404 \(text\/html\)/)
  seen('error-body', /a malformed since \(since=not-a-time\) answers HTTP 200/)
  seen('error-body', /of a deleted job answers HTTP 404: \(not JSON\)/)
  seen('page-size', /a full page holds 40 records/)
  seen('last-page', /the last page's next_page(, for one vacancy)?: null/)
  seen('download', /Content-Type: application\/pdf/)
  t.match(run.output, /Observations \(\d+; they warn, they do not fail\):\n(.*\n)* {2}\[month-style\] metrics\/list: /, 'the warnings are on screen')
  const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'property' }).parse(readFileSync(junit, 'utf8')) as {
    testsuites: { testsuite: Array<{ '@_name': string; properties?: { property: Array<{ '@_name': string; '@_value': string }> } }> }
  }
  const metrics = xml.testsuites.testsuite.find((s) => s['@_name'] === 'metrics/list')
  t.ok(metrics?.properties?.property.some((p) => p['@_name'] === 'warning.metric-label' && /Job views/.test(p['@_value'])), 'JUnit carries the warnings as properties of their suite')
})
