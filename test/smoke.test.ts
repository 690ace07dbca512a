// The smoke set: the fake in-process, over a socket and through nock, and the contract
// kit's CLI against the CLI's `serve`, each once. Part of npm test (Node 24 and 22 in
// `.ci/run`), and what `.ci/run` runs on Node 20, past its end of life, with the files
// the SMOKE list there names. (The examples of README.md and docs/fake.md run in test/readme.test.ts.)
import t from 'tap'
import { installedNockVersion, interceptBoard, nockSupport } from '../src/fake/nock.js'
import { createMockServer } from '../src/fake/server.js'
import { runProcessToEnd, serveProcess } from './helpers/cli.js'

const auth = { authorization: `Basic ${Buffer.from('jobboard:jobboard').toString('base64')}` }

t.test(`in-process on Node ${process.versions.node}: a list, a detail and a download`, async (t) => {
  const board = await createMockServer({ clock: 'virtual' })
  t.teardown(() => board.close())
  const list = await board.inject({ url: '/api/v1/candidates/list', headers: auth })
  t.equal(list.statusCode, 200)
  const [first] = list.json().data as Array<{ id: number; resumes: Array<{ href: string; filesize: string }> }>
  t.equal((await board.inject({ url: `/api/v1/candidates/details/${first?.id}`, headers: auth })).json().data[0].id, first?.id)
  const resume = board.store.candidates({}).items.flatMap((c) => c.resumes)[0] as { href: string; filesize: string }
  const download = await board.inject({ url: new URL(resume.href).pathname, headers: auth })
  t.equal(download.rawPayload.length, Number(resume.filesize))
})

t.test(`over a socket on Node ${process.versions.node}: the rate limit, waited out with the virtual clock`, async (t) => {
  const board = await createMockServer({ clock: 'virtual' })
  const url = await board.listen(0)
  t.teardown(() => board.close())
  t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: auth })).status, 200)
  const again = await fetch(`${url}/api/v1/metrics/list`, { headers: auth })
  t.equal(again.status, 429)
  board.clock.advance(Number(again.headers.get('retry-after')))
  t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: auth })).status, 200)
})

const nock = installedNockVersion() ?? 'unknown'
const nockWorks = nockSupport(nock, process.versions.node) === undefined

t.test(`through nock ${nock} on Node ${process.versions.node}: fetch ${nockWorks ? 'reaches the fake' : 'is refused at once'}`, async (t) => {
  const board = await createMockServer()
  t.teardown(() => board.close())
  if (!nockWorks) {
    t.throws(() => interceptBoard('https://board.example.com', board), { name: 'NockVersionError' })
    return
  }
  const nocked = interceptBoard('https://board.example.com', board)
  t.teardown(() => nocked.stop())
  const list = (await (await fetch('https://board.example.com/api/v1/applications/list', { headers: auth })).json()) as { next_page: string }
  t.equal(list.next_page, 'https://board.example.com/api/v1/applications/list?page=2')
  t.equal((await fetch(list.next_page, { headers: auth })).status, 200)
})

t.test(`contract against serve on Node ${process.versions.node}: exits 0 with a tally`, async (t) => {
  // both as processes, as a user runs them on this Node
  const { url } = await serveProcess(t, ['--clock', 'virtual'])
  const run = await runProcessToEnd(['contract'], { JOBBOARD_BASE_URL: url, JOBBOARD_USERNAME: 'jobboard', JOBBOARD_PASSWORD: 'jobboard' })
  t.equal(run.code, 0, run.stderr)
  const tally = /\n(\d+) passed, 0 failed, \d+ skipped, 0 errored; checked (\d+) of (\d+) planned\n$/.exec(run.stdout)
  t.ok(tally, 'ends with the tally line')
  t.equal(tally?.[2], tally?.[3], 'every planned check was made')
})
