// The whole deviation engine in front of one server (issue 43 item 3): the read-only run,
// the --writes turns and the rate-limit group recorded, every operator's pairs run and
// ended, every legal variant of the kit's requests sent; then each unexplained pair held
// to the known findings (known.ts), each finding held to still getting through, and the
// counts held to (or, with JOBBOARD_KIT_ENGINE_DOCS=1, written into) docs/contract.md.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Test } from 'tap'
import { docBlock, renderBlock, type Row, UPDATE, writeBlock } from './counts.js'
import { pairsOf, nameOf, runPairs, runVariants } from './engine.js'
import { FINDINGS, findingOf } from './known.js'
import { OPERATORS } from './operators.js'
import { VARIANTS } from './requests.js'
import { freshSession, readSession, type Server, type Session } from './sessions.js'
import type { Config } from './transcript.js'

/** Where the whole list of pairs is written, when set (a folder). */
const DUMP = 'JOBBOARD_KIT_ENGINE_DUMP'

/** A pair as the test sees it at the end: its name, how it ended and why. */
export interface Ended {
  name: string
  outcome: 'caught' | 'legal' | 'unexplained'
  why: string
}

const RUNS: ReadonlyArray<[Config, string]> = [
  ['read', 'read-only'],
  ['writes', '--writes (a turn a run)'],
  ['rate-limit', 'the rate-limit group'],
]

/** Every pair of every run in front of a server, ended; and a row of counts per run and for the request variants. */
export async function engineRun(t: Test, server: Server): Promise<{ rows: Row[]; ended: Ended[] }> {
  const read = await readSession(t, server)
  const held = new Set(read.exchanges.map((x) => x.id))
  const rows: Row[] = []
  const ended: Ended[] = []
  const variantRow: Row = { run: 'legal variants of the kit’s requests', exchanges: 0, applied: 0, skipped: 0, caught: 0, legal: 0, unexplained: 0 }
  for (const [config, run] of RUNS) {
    const session: Session = config === 'read' ? read : await freshSession(t, server, config, held)
    const { pairs, skipped } = pairsOf(session)
    const results = await runPairs(session, pairs)
    const n = (outcome: Ended['outcome']) => results.filter((r) => r.outcome === outcome).length
    rows.push({ run, exchanges: session.exchanges.length, applied: results.length, skipped, caught: n('caught'), legal: n('legal'), unexplained: n('unexplained') })
    ended.push(...results.map((r) => ({ name: nameOf(r.pair), outcome: r.outcome, why: r.why })))
    const variants = await runVariants(session)
    variantRow.exchanges += session.exchanges.length
    variantRow.applied += variants.results.length
    variantRow.skipped += variants.skipped
    variantRow.legal += variants.results.filter((r) => r.outcome === 'legal').length
    variantRow.unexplained += variants.results.filter((r) => r.outcome === 'unexplained').length
    ended.push(...variants.results.map((r) => ({ name: `${server} ${config}: ${r.variant.name} of ${r.x.id}`, outcome: r.outcome, why: r.why })))
  }
  return { rows: [...rows, variantRow], ended }
}

/** The engine's test in front of one server: 0 unexplained pairs but the known findings, and the counts as the docs show them. */
export function engineTest(t: Test, server: Server): void {
  // a few thousand kit runs, most of them answered from the record; minutes on a busy machine
  t.setTimeout(30 * 60_000)
  t.test(`in front of ${server}, every operator × exchange pair is caught, legal with words, or a known finding`, async (t) => {
    const cpu = process.cpuUsage()
    const { rows, ended } = await engineRun(t, server)
    const used = process.cpuUsage(cpu)
    t.comment(`${ended.length} pairs in ${Math.round((used.user + used.system) / 1e6)} s of CPU`)
    // every pair and how it ended, for whoever looks into a finding: JOBBOARD_KIT_ENGINE_DUMP=<folder>
    const dump = process.env[DUMP]
    if (dump !== undefined) writeFileSync(join(dump, `engine-${server.replace(/ /g, '-')}.tsv`), ended.map((e) => `${e.outcome}\t${e.name}\t${e.why}`).join('\n'))
    for (const row of rows) t.comment(`${row.run}: ${row.exchanges} exchanges, ${row.applied} pairs applied, ${row.skipped} skipped as not fitting; ${row.caught} caught, ${row.legal} legal with words, ${row.unexplained} unexplained`)
    const unexplained = ended.filter((e) => e.outcome === 'unexplained')
    const known = new Map<(typeof FINDINGS)[number], number>()
    const strays: Ended[] = []
    for (const e of unexplained) {
      const finding = findingOf(e.name, e.why)
      if (finding === undefined) strays.push(e)
      else known.set(finding, (known.get(finding) ?? 0) + 1)
    }
    if (strays.length > 0) t.comment(`unexplained, no known finding names them:\n${strays.map((e) => `${e.name}\n    ${e.why}`).join('\n')}`)
    t.equal(strays.length, 0, 'no pair is unexplained but the known findings')
    const stale = FINDINGS.filter((f) => (f.servers === undefined || f.servers.includes(server)) && !known.has(f))
    t.same(stale.map((f) => f.why), [], 'every known finding still gets through: one that no longer does comes off known.ts')
    // in the order of known.ts, whatever order the pairs ended in
    const byFinding = FINDINGS.filter((f) => known.has(f)).map((f): [string, number] => [f.why, known.get(f) as number])
    t.comment(`unexplained, by known finding:\n${byFinding.map(([why, n]) => `${n}: ${why}`).join('\n')}`)
    const operators = { answers: OPERATORS.length, requests: VARIANTS.length }
    t.comment(`${operators.answers} operators on answers, ${operators.requests} legal variants of the kit's requests`)
    const block = renderBlock(server, operators, rows, byFinding)
    if (process.env[UPDATE] === '1') writeBlock(server, block)
    t.equal(docBlock(server), block, `docs/contract.md shows these counts (${UPDATE}=1 npm run test:engine rewrites them)`)
  })
}
