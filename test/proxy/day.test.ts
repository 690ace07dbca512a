// The correct example client's day (examples/sync-client.ts, three rounds 16 minutes
// apart) through the proxy in front of the second server (test/helpers/other-board/),
// in both styles, with a one-letter password, one that occurs in the base URL and a long
// one: no violation, a passing verdict (copy-in-step not exercised: no copy was handed to
// the proxy, test/proxy/wrong-clients.test.ts hands one), the upstream sent exactly the requests the client made, and no output of the
// proxy (its /__mock routes, its log lines, its JSON and text report and JUnit file) holds a form of
// the credentials (test/helpers/proxy-day.ts lives the day).
import t from 'tap'
import { proxyJunit, proxyReport, proxyReportText } from '../../src/proxy/outputs.js'
import { proxiedDay } from '../helpers/proxy-day.js'

const SHAPES = [
  { shape: 'a one-letter password', username: 'u', password: 'p', basePath: '' },
  { shape: 'a password that occurs in the base URL', username: 'jobboard', password: 'secret-stage', basePath: '/secret-stage' },
  { shape: 'a long password', username: 'staging-sync', password: 'Tr0ub4dor:&"correct/horse"-battery-staple-2026', basePath: '' },
] as const

for (const style of ['a', 'b'] as const) {
  for (const { shape, username, password, basePath } of SHAPES) {
    t.test(`style ${style}, ${shape}: the correct client's day passes, no violation, the upstream got exactly the client's requests`, async (t) => {
      const { proxy, upstream, sent, lines } = await proxiedDay(t, { style, username, password, basePath })
      const { violations, total } = (await (await fetch(`${proxy.url}/__mock/violations`)).json()) as { total: number; violations: object[] }
      t.same(violations, [], 'no violation')
      t.equal(total, 0)
      const verdict = (await (await fetch(`${proxy.url}/__mock/verdict`)).json()) as { outcome: string; rules: Array<{ id: string; outcome: string; findings: Array<{ message: string }> }> }
      t.equal(verdict.outcome, 'pass', JSON.stringify(verdict.rules.filter((r) => r.outcome === 'fail')))
      t.equal(verdict.rules.find((r) => r.id === 'copy-in-step')?.outcome, 'not-exercised', 'no copy handed: not exercised, never a pass')
      t.ok(verdict.rules.filter((r) => r.outcome === 'pass').length >= 5, 'the day exercised the rules')
      t.ok(sent.length > 10, `the client made ${sent.length} requests`)
      t.same(upstream.requests.map((r) => r.line), sent.map((line) => line.replace(' ', ` ${basePath}`)), 'the upstream received exactly them, in order')
      t.equal(proxy.upstreamRequests, sent.length)

      // no output holds the credentials in any form; the password alone only where it is no word of the base URL (as the contract kit's test has it)
      const pair = `${username}:${password}`
      const forms = [Buffer.from(pair).toString('base64'), pair, encodeURIComponent(pair), ...(shape === 'a long password' ? [password, encodeURIComponent(password), JSON.stringify(password).slice(1, -1)] : [])]
      const listed = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as { data: Array<{ id: number }> }
      const outputs = [
        JSON.stringify(listed),
        ...(await Promise.all(listed.data.map(async (e) => (await fetch(`${proxy.url}/__mock/requests/${e.id}`)).text()))),
        await (await fetch(`${proxy.url}/__mock/violations`)).text(),
        await (await fetch(`${proxy.url}/__mock/verdict`)).text(),
        await (await fetch(`${proxy.url}/__mock/ui/journal`)).text(),
        await (await fetch(`${proxy.url}/__mock/ui/board`)).text(),
        JSON.stringify(proxyReport(proxy, '2026-11-28 15:09:23')),
        proxyReportText(proxy),
        proxyJunit(proxy),
        lines.join(''),
      ]
      t.ok(lines.length >= sent.length, 'a log line per request')
      for (const form of forms) t.notOk(outputs.some((text) => text.includes(form)), `no output holds ${form === pair ? 'user:password' : 'a form of the credentials'}`)
      t.match(JSON.parse(outputs[1] as string).entry.request.headers.authorization, /^Basic \[redacted\]$/, 'the request detail shows the scheme, not the credentials')
    })
  }
}
