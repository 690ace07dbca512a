// A sample of the deviation engine (issue 43 item 3) that npm test runs: in front of the fake
// and of the second server, the read-only run recorded and, of each operator family, the
// first pair the engine makes that one group's run asks (else its first), run and ended;
// each must end caught, legal with words, or a known finding, as in the whole engine (npm
// run test:engine). Deterministic: the same pairs every time, a second or two of kit runs.
import t from 'tap'
import { nameOf, pairsOf, runPairs } from './engine.js'
import { findingOf } from './known.js'
import { readSession, SERVERS } from './sessions.js'

for (const server of SERVERS) {
  t.test(`in front of ${server}, a pair of each operator family ends caught, legal with words or a known finding`, async (t) => {
    const session = await readSession(t, server)
    const { pairs } = pairsOf(session)
    const families = [...new Set(pairs.map((p) => p.op.family))]
    // of each family the first pair a run of one group asks, else its first: a pair the whole
    // read-only run alone asks costs that run twice (its baseline and the deviated run), as
    // much as the seven groups' runs together, and proves of its family what another pair does
    const byGroup = (p: (typeof pairs)[number]) => session.specOf.get(p.x.id)?.key !== ''
    const sample = families.map((family) => (pairs.find((p) => p.op.family === family && byGroup(p)) ?? pairs.find((p) => p.op.family === family)) as (typeof pairs)[number])
    t.ok(families.length >= 7, `the read-only run fits ${families.length} families of operators`)
    for (const result of await runPairs(session, sample)) {
      const known = result.outcome === 'unexplained' ? findingOf(nameOf(result.pair), result.why) : undefined
      t.ok(result.outcome !== 'unexplained' || known !== undefined, `${nameOf(result.pair)}: ${result.outcome}${known ? ` (known: ${known.why.slice(0, 80)}…)` : ''}: ${result.why}`)
    }
  })
}
