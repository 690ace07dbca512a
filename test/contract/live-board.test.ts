// A live board is never a broken one. Staging receives records while the kit runs: the
// whole kit, reads and writes, runs against a fake playing a day of arrivals (candidates,
// applications, timesheets, consents and updates), its clock moved on before every
// request the kit makes, so records arrive between any two answers. Over ten seeds the
// run exits 0 (conforming) or 3 (it could not tell an arrival from a fault), never 1.
import t from 'tap'
import { contract } from './helpers.js'
import { liveBoard } from '../helpers/live-board.js'

// whole kit runs, ten a kind: a run with --writes makes every request case (about 200 requests), past tap's 120 s a file
t.setTimeout(480_000)

const SEEDS = 10

const RUNS = [
  { name: 'reads', flags: {}, fake: {} },
  { name: 'reads and writes', flags: { writes: true, rateLimitWindow: 0 }, fake: { rateLimitWindow: 0 } },
] as const

for (const run of RUNS) {
  t.test(`the kit's ${run.name} on a board receiving records never fail a run, over ${SEEDS} seeds`, async (t) => {
    const exits: number[] = []
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { fake, url } = await liveBoard(t, { seed, ...run.fake })
      const result = await contract({ baseUrl: url, ...run.flags })
      exits.push(result.exitCode)
      t.not(result.exitCode, 1, `seed ${seed}: exit ${result.exitCode}${result.reason ? ` (${result.reason})` : ""}${result.failed().length > 0 ? `; failed: ${result.failed().join('; ')}` : ''}`)
      const played = fake.activity.status()?.played ?? 0
      t.ok(played > 5, `seed ${seed}: records arrived during the run (${played} events played)`)
    }
    t.ok(exits.filter((code) => code === 0).length >= SEEDS / 2, `most runs are conforming and complete (exits ${exits.join(', ')})`)
  })
}
