// interceptBoard and the nock/Node pair it runs on: nock 14 on Node 20+, nock 15 on
// Node 22.12+. On any other pair it throws at once, saying which versions work, instead of
// letting every request fail later with the cause hidden. `.ci/run` runs this file on
// nock 14 and 15 (test/helpers/use-nock.mjs) under Node 20, 22 and 24.
import t from 'tap'
import { installedNockVersion, interceptBoard, NockVersionError, nockSupport } from '../../src/fake/nock.js'
import { createMockServer } from '../../src/fake/server.js'

const WORKS = /nock 14 on Node 20 or later, and nock 15 on Node 22\.12 or later/

t.test('says which pairs of nock and Node work together', async (t) => {
  for (const [nock, node] of [['14.0.17', '20.20.2'], ['14.0.0', '22.23.3'], ['14.0.17', 'v24.9.0'], ['15.0.6', '22.23.3'], ['15.0.6', '22.12.0'], ['15.0.2', '24.9.0']]) {
    t.equal(nockSupport(nock as string, node as string), undefined, `nock ${nock} on Node ${node} works`)
  }
  const old = nockSupport('15.0.2', 'v20.20.2')
  t.match(old, WORKS, 'nock 15 on Node 20: names the pairs that work')
  t.match(old, /nock 15\.0\.2 cannot intercept fetch or http on Node 20\.20\.2 \(its interceptors need Node 22\)/, 'and why this one does not')
  t.match(old, /npm install --save-dev nock@14/, 'and what to do')
  t.match(nockSupport('15.0.2', '22.11.0'), WORKS, 'nock 15 on Node 22.11 (no require of ES modules yet): refused too')
  for (const nock of ['13.5.6', '16.0.0']) t.match(nockSupport(nock, '24.9.0'), new RegExp(`${WORKS.source}; nock ${nock.replace(/\./g, '\\.')} is installed`), `nock ${nock} is neither`)
})

const nock = installedNockVersion()
const node = process.versions.node
const supported = nock !== undefined && nockSupport(nock, node) === undefined

t.test(`reads the version of the nock it imports (${nock ?? 'unknown'})`, async (t) => {
  t.match(nock, /^\d+\.\d+\.\d+/)
})

t.test(
  supported ? `on nock ${nock} and Node ${node}, interceptBoard answers` : `on nock ${nock} and Node ${node}, interceptBoard throws at once naming the versions that work`,
  async (t) => {
    const board = await createMockServer({ scenario: 'empty' })
    t.teardown(() => board.close())
    if (!supported) {
      t.throws(() => interceptBoard('https://board.example.com', board), { name: 'NockVersionError', message: WORKS })
      t.throws(() => interceptBoard('https://board.example.com', board), NockVersionError)
      // nock was never loaded, so it patched nothing: sockets still work
      const url = await board.listen(0)
      t.equal((await fetch(`${url}/api/v1/metrics/list`, { headers: { authorization: `Basic ${btoa('jobboard:jobboard')}` } })).status, 200, 'and the network still works')
      return
    }
    const interception = interceptBoard('https://board.example.com', board)
    t.teardown(() => interception.stop())
    const answer = await fetch('https://board.example.com/api/v1/metrics/list', { headers: { authorization: `Basic ${btoa('jobboard:jobboard')}` } })
    t.equal(answer.status, 200)
    t.equal(interception.requests().length, 1)
  },
)
