// The deviation engine's words (issue 43 item 3), without running it: every entry of the
// legal table and every request variant quotes the spec's own words or cites an RFC in the
// fixed form; every known finding says what gets through; docs/contract.md holds a block of
// counts per server whose total is the sum of its rows.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { RFC_CITATION } from '../../../src/contract/rules.js'
import { noSpec, SPEC_PATH } from '../../helpers/tools.js'
import { docBlock, rowsOf, totalOf } from './counts.js'
import { FINDINGS } from './known.js'
import { LEGAL } from './legal.js'
import { VARIANTS } from './requests.js'
import { SERVERS } from './sessions.js'

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim()
/** An RFC citation (`RFC 9110 §8.3.1`): the kit's fixed form, with any RFC's number (RFC 2045 and 3986 stand beside the kit's four). */
const isRfc = (words: string) => RFC_CITATION.test(words)

t.test('every legal entry and request variant quotes the spec or cites an RFC, and says why', { skip: noSpec() }, async (t) => {
  const spec = squeeze(readFileSync(SPEC_PATH, 'utf8'))
  const entries = [...LEGAL.map((l) => ({ name: String(l.operator), words: l.words, why: l.why })), ...VARIANTS.map((v) => ({ name: v.name, words: v.words, why: v.why }))]
  for (const entry of entries) {
    t.ok(entry.words.length > 0, `${entry.name}: has words`)
    for (const words of entry.words) t.ok(isRfc(words) || spec.includes(squeeze(words)), `${entry.name}: "${words.slice(0, 80)}" is the spec's or an RFC citation`)
    t.ok(entry.why.length > 20, `${entry.name}: says why`)
  }
})

t.test('every known finding says what gets through', async (t) => {
  for (const finding of FINDINGS) t.ok(finding.why.length > 40, finding.why.slice(0, 80))
  t.equal(new Set(FINDINGS.map((f) => f.why)).size, FINDINGS.length, 'no two findings say the same')
})

t.test("docs/contract.md holds the engine's counts in front of each server, each total the sum of its rows", async (t) => {
  for (const server of SERVERS) {
    const block = docBlock(server)
    if (!t.ok(block, `a block for ${server}`)) continue
    const { rows, total } = rowsOf(block as string)
    t.ok(rows.length >= 4, `${server}: a row per run and the request variants`)
    t.same(total, totalOf(rows), `${server}: the total is the sum of the rows`)
    for (const row of rows) t.equal(row.applied, row.caught + row.legal + row.unexplained, `${server}, ${row.run}: each pair applied ended one of three ways`)
  }
})
