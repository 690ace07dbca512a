// Links read in turn (src/contract/in-turn.ts): a file listed, or an application a
// candidate's entry links, is told from another only by reading it; a run reads a share of
// them beyond those it asks anyway, the next run the share after (the ledger's), so that
// across a lap of runs every link listed is read — and a listing that names its file in
// another case, or links another file, fails on the run that reads it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { IN_TURN, takeInTurn } from '../../src/contract/in-turn.js'
import { board, type Breakage, changeJson, contract, type Exchange } from './helpers.js'

const DAY_MS = 86_400_000

t.test('a rotation takes its budget after the last link taken, in one order, round again from the first', async (t) => {
  const links = ['/f/10', '/f/9', '/f/2', '/f/1', '/f/11']
  t.same(takeInTurn(links, 10, undefined, 3), ['/f/1', '/f/2', '/f/9', '/f/10', '/f/11'], 'all of them when they fit, numbers compared as numbers')
  t.same(takeInTurn(links, 2, '/f/2', 0), ['/f/9', '/f/10'], 'the ones after the last taken')
  t.same(takeInTurn(links, 2, '/f/10', 0), ['/f/11', '/f/1'], 'round again from the first')
  t.same(takeInTurn(links, 2, '/f/99', 0), ['/f/1', '/f/2'], 'a last link past every one listed starts a new lap')
  t.same(takeInTurn([...links, '/f/2'], 2, undefined, 1), ['/f/9', '/f/10'], "with no run remembered, the night's share (a link listed twice counted once)")
  t.same(takeInTurn(links, 2, undefined, 3), ['/f/1', '/f/2'], 'the nights go round in laps')
})

/** The candidate files a run downloaded, from the requests the deployment saw, and those its answers listed. */
function downloads(): { seen: Set<string>; listed: Set<string>; breakage: Breakage } {
  const seen = new Set<string>()
  const listed = new Set<string>()
  const list = changeJson(/^\/candidates\/(list|details\/[0-9]+)$/, (b) => {
    for (const candidate of b.data) for (const file of [...candidate.timesheets, ...candidate.resumes, ...candidate.documents]) listed.add(new URL(file.href).pathname)
  })
  const request = (x: Exchange) => {
    // the files listed (an id no board has, which the kit also asks, is not one)
    if (/\/candidates\/(timesheet|resume|document)\/[0-9]+$/.test(x.url) && !x.url.endsWith('/2147483647')) seen.add(x.url)
    return x
  }
  return { seen, listed, breakage: { ...list, request } }
}

t.test('runs sharing a ledger read every candidate file listed within a lap, each run a share of them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-in-turn-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { seen, listed, breakage } = downloads()
  const { url } = await board(t, breakage, { rateLimitWindow: 0 })
  const budget = IN_TURN['candidate files']
  const after: number[] = []
  for (let run = 0; run === 0 || run < Math.ceil(listed.size / budget) + 1; run++) {
    const kit = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates', ledger: join(dir, 'ledger.json') })
    t.equal(kit.exitCode, 0, `run ${run + 1} passes`)
    after.push(seen.size)
  }
  t.ok(listed.size > budget * 2, `the board lists more files (${listed.size}) than two runs' share`)
  t.ok((after[0] ?? 0) <= budget + 3, `the first run downloads its share and the plan's picks (${after[0]}), not all ${listed.size} files`)
  t.same([...seen].sort(), [...listed].sort(), `within ${after.length} runs every file listed was downloaded`)
})

t.test('a listing naming its file in another case fails on the night its download is read, citing the file name', async (t) => {
  // one resume (an old one: not the one the plan picks, on the first page) listed with its name in capitals, wherever a candidate is answered
  const { url } = await board(
    t,
    changeJson(/^\/candidates\/(list|details\/[0-9]+)$/, (b) => {
      for (const candidate of b.data) for (const file of candidate.resumes) if (file.href.endsWith('/resume/2')) file.filename = String(file.filename).toUpperCase()
    }),
    { rateLimitWindow: 0 },
  )
  const outcomes: number[] = []
  let failure: string[] = []
  for (let night = 0; night < 12 && !outcomes.includes(1); night++) {
    const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates' }, { clock: { now: () => Date.UTC(2026, 10, 22) + night * DAY_MS, sleep: async () => {} } })
    outcomes.push(run.exitCode)
    failure = run.check('candidates/resume/{id}', 'Content-Disposition is attachment with the listed filename')?.failures ?? []
  }
  t.equal(outcomes.at(-1), 1, `caught on night ${outcomes.length}`)
  t.ok(outcomes.slice(0, -1).every((code) => code === 0), 'the nights before pass: their share did not read it')
  t.match(failure, [/\/candidates\/resume\/2: the filename is "[^"]+" but candidate [0-9]+'s resumes on .* gives "[^"]+"/])
})

t.test("a candidate's application entry linking an application of another job fails", async (t) => {
  // candidate 1's entries name another job than the one their href's application is for
  const { url } = await board(
    t,
    changeJson(/^\/candidates\/(list|details\/[0-9]+)$/, (b) => {
      for (const candidate of b.data) for (const entry of candidate.applications) if (candidate.id === 1) entry.job.id += 1000
    }),
    { rateLimitWindow: 0 },
  )
  const run = await contract({ baseUrl: url, rateLimitWindow: 0, only: 'candidates,applications' })
  t.equal(run.exitCode, 1)
  t.match(run.check('candidates/details/{id}', "each application entry links an application of the entry's job (a share a run, in turn)")?.failures, [/candidate 1's application entry on .* is for job [0-9]+, but its href \/applications\/details\/[0-9]+ names an application for vacancy [0-9]+/])
})
