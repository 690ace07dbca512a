// How the bench reads the Nodes it is asked to run on (bench/nodes.ts): majors from
// --nodes, binaries from JOBBOARD_KIT_BENCH_NODES, a version's major. Nothing is run or
// installed here.
import { delimiter } from 'node:path'
import t from 'tap'
import { DEFAULT_MAJORS, majorOf, parseMajors, pathsFromEnv } from '../../bench/nodes.js'

t.test('the bench runs on Node 24, 22 and 20 unless told otherwise, 24 first', async (t) => {
  t.same(DEFAULT_MAJORS, [24, 22, 20])
})

t.test('--nodes takes majors separated by commas, in order, once each', async (t) => {
  t.same(parseMajors('22,24'), [22, 24])
  t.same(parseMajors('24, 20,24'), [24, 20])
  t.throws(() => parseMajors('24,lts'), /--nodes takes Node majors/)
  t.throws(() => parseMajors(''), /--nodes takes Node majors/)
})

t.test('a version string gives its major; anything else gives none', async (t) => {
  t.equal(majorOf('v24.21.0'), 24)
  t.equal(majorOf('22.1.0\n'), 22)
  t.ok(Number.isNaN(majorOf('node')))
})

t.test('JOBBOARD_KIT_BENCH_NODES lists binaries as PATH lists folders', async (t) => {
  t.same(pathsFromEnv(['/opt/node24/bin/node', '', '/opt/node22/bin/node'].join(delimiter)), ['/opt/node24/bin/node', '/opt/node22/bin/node'])
  t.same(pathsFromEnv(undefined), [])
})
