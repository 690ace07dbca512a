// docs/proxy.md describes the proxy's JSON report (--report) field by field: its table keeps
// in step with the one source, schemas/proxy.ts's proxyReport, and --help says what the
// flag writes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { proxyOptions, proxyReport } from '../../schemas/proxy.js'
import { ROOT, runToEnd } from '../helpers/cli.js'

const doc = readFileSync(join(ROOT, 'docs', 'proxy.md'), 'utf8')
/** The rows of the table after "The JSON report's schema", by the fields their first cell names. */
const table = doc.slice(doc.indexOf("The JSON report's schema")).split('\n\n')[1] ?? ''
const rows = new Map(
  [...table.matchAll(/^\| ([^|]+) \| (.+) \|$/gm)].flatMap(([, cell, what]) => [...(cell as string).matchAll(/`([A-Za-z]+)`/g)].map(([, name]) => [name as string, what as string])),
)
/** Whether a row's text names a field: the word in code, alone or in a `{a, b}` list. */
const names = (row: string | undefined, name: string) => new RegExp(`\`[^\`]*\\b${name}\\b[^\`]*\``).test(row ?? '')

t.test("docs/proxy.md's table names every field of the JSON report, and every field of its two sections", async (t) => {
  for (const name of Object.keys(proxyReport.properties)) t.ok(rows.has(name), `a row for ${name}`)
  for (const section of ['staging', 'client'] as const) {
    for (const name of Object.keys(proxyReport.properties[section].properties)) t.ok(names(rows.get(section), name), `${section}'s row names ${name}`)
  }
  for (const name of Object.keys(proxyReport.properties.staging.properties.rules.items.properties)) t.ok(names(rows.get('staging'), name), `a broken rule's ${name}`)
  for (const name of Object.keys(proxyReport.properties.client.properties.rules.items.properties)) t.ok(names(rows.get('client'), name), `a client rule's ${name}`)
})

t.test('proxy --help says --report writes the JSON report and --report-text the text', async (t) => {
  const { stdout } = await runToEnd(['proxy', '--help'])
  const flat = stdout.replace(/\s+/g, ' ')
  t.match(flat, '--report <value> proxy: write the JSON report to this file at shutdown')
  t.match(flat, '--report-text <value> proxy: write the same report as plain text')
  t.match(proxyOptions.properties.report.description, 'docs/proxy.md')
})
