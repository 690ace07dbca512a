// The applications drawn when asked (src/fake/store/application-draw.ts), for many seeds
// and counts: each is drawn by the board's rules (a candidate registered by then, a job
// posted in the two months before, ids in time order), the backward answers (a
// candidate's, a job's applications, each candidate's latest, who applied since a time) are exactly what the
// forward ones say, and an answer is the same whatever was asked before it.
import fc from 'fast-check'
import t from 'tap'
import { loadScenario, type LoadedScenario } from '../../../src/fake/scenario.js'
import type { Relations } from '../../../src/fake/store/relation-arrays.js'
import { drawRelations } from '../../../src/fake/store/relations.js'
import { PROPERTY_SEED } from '../../helpers/hostile.js'
import { runs } from '../../helpers/deep.js'

const DAY = 86_400_000
const base = loadScenario('default')

const boards = fc.record({
  seed: fc.integer({ min: 0, max: 4294967295 }),
  jobs: fc.integer({ min: 1, max: 30 }),
  candidates: fc.integer({ min: 1, max: 80 }),
  applications: fc.integer({ min: 0, max: 3000 }),
  guestApplicants: fc.constantFrom(0, 0.1, 0.5),
  withoutApplications: fc.constantFrom(0, 0.15, 1),
})

type Board = typeof boards extends fc.Arbitrary<infer B> ? B : never

function draw({ seed, jobs, candidates, applications, guestApplicants, withoutApplications }: Board): Relations {
  const scenario = {
    ...base,
    seed,
    counts: { ...base.counts, jobs, candidates, applications },
    mix: { ...base.mix, withoutApplications },
    behaviour: { ...base.behaviour, guestApplicants },
  } as LoadedScenario
  return drawRelations(scenario, { emailOwner: () => undefined })
}

t.test('every drawn application follows the rules: in time order, by a candidate registered by then, for a job posted in the two months before', async (t) => {
  let checked = 0
  fc.assert(
    fc.property(boards, (board) => {
      const { applications: a, candidates, jobs } = draw(board)
      for (let id = 1; id <= a.count; id++) {
        const ms = a.at(id - 1)
        if (id > 1 && ms < a.at(id - 2)) throw new Error(`application ${id} is older than ${id - 1}`)
        const c = a.candidateOf(id)
        if (c !== 0 && (candidates.created[c - 1] as number) > ms) throw new Error(`application ${id}: candidate ${c} registered after it`)
        const job = a.jobOf(id)
        const posted = jobs.created[job - 1] as number
        if (job < 1 || job > jobs.count || posted > ms) throw new Error(`application ${id}: job ${job} posted after it`)
        // the job is from the two months before, or none was posted then and it is the latest posted before them
        const recent = posted >= ms - 60 * DAY || !Array.from(jobs.created).some((other) => other > posted && other <= ms - 60 * DAY)
        if (!recent) throw new Error(`application ${id}: job ${job} is older than two months and not the latest before them`)
        checked += 1
      }
    }),
    { seed: PROPERTY_SEED, numRuns: runs(60) },
  )
  t.ok(checked > 0, `${checked} applications checked`)
})

t.test("a candidate's and a job's applications, found backwards, are exactly the applications that name them", async (t) => {
  fc.assert(
    fc.property(boards, (board) => {
      const { applications: a, candidates, jobs } = draw(board)
      const byCandidate = new Map<number, number[]>()
      const byJob = new Map<number, number[]>()
      for (let id = 1; id <= a.count; id++) {
        byCandidate.set(a.candidateOf(id), [...(byCandidate.get(a.candidateOf(id)) ?? []), id])
        byJob.set(a.jobOf(id), [...(byJob.get(a.jobOf(id)) ?? []), id])
      }
      // who applied since three times: the first application's, the middle one's, the last one's
      const times = a.count === 0 ? [] : [a.at(0), a.at(a.count >> 1), a.at(a.count - 1)]
      const since = times.map((ms) => a.candidatesSince(ms))
      for (let c = 1; c <= candidates.count; c++) {
        const mine = byCandidate.get(c) ?? []
        if (JSON.stringify(a.ofCandidate(c)) !== JSON.stringify(mine)) throw new Error(`candidate ${c}: ${a.ofCandidate(c)} listed, ${mine} drawn`)
        const newest = Math.max(0, ...mine.map((id) => a.at(id - 1)))
        if (a.latestOf(c) !== newest) throw new Error(`candidate ${c}: latest ${a.latestOf(c)}, drawn ${newest}`)
        times.forEach((ms, k) => {
          if ((since[k]?.[c] === 1) !== newest >= ms) throw new Error(`candidate ${c}: applied since ${ms} ${since[k]?.[c] === 1}, its latest ${newest}`)
        })
      }
      for (let j = 1; j <= jobs.count; j++) {
        const mine = byJob.get(j) ?? []
        if (JSON.stringify(a.ofJob(j)) !== JSON.stringify(mine)) throw new Error(`job ${j}: ${a.ofJob(j)} listed, ${mine} drawn`)
      }
    }),
    { seed: PROPERTY_SEED, numRuns: runs(60) },
  )
  t.pass('backward and forward agree')
})

t.test('an application is the same whatever was asked before it, and its guests are the share asked for', async (t) => {
  fc.assert(
    fc.property(boards, fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 20 }), (board, ids) => {
      const one = draw(board).applications
      const two = draw(board).applications
      const seen = (a: Relations['applications'], id: number) => [a.at(id - 1), a.candidateOf(id), a.jobOf(id), a.lateMs(id)]
      // the second board is asked backwards about its candidates first, then about the ids in the opposite order
      two.ofCandidate(1)
      const first = ids.filter((id) => id <= one.count).map((id) => seen(one, id))
      const second = ids
        .filter((id) => id <= two.count)
        .reverse()
        .map((id) => seen(two, id))
        .reverse()
      if (JSON.stringify(first) !== JSON.stringify(second)) throw new Error('the answers differ by the order they were asked in')
      let guests = 0
      for (let id = 1; id <= one.count; id++) if (one.candidateOf(id) === 0) guests += 1
      if (Math.abs(guests - one.count * board.guestApplicants) > 1) throw new Error(`${guests} guests of ${one.count}`)
    }),
    { seed: PROPERTY_SEED, numRuns: runs(60) },
  )
  t.pass('the same answers in any order')
})
