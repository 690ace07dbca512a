// The --junit file: one <testsuite> per endpoint, one <testcase> per check, written
// with junit-report-builder (tap's own junit reporter also lists each assertion inside
// a check as a test case, and counts suites as tests). A failed check is a <failure>; a
// check the service erred on (5xx, no answer, timeout) an <error> holding the status and
// the start of the body; a failure's text names the spec's words the check fails for
// (`spec: "…"`, src/contract/rules.ts), then every problem it found; a check not made a
// <skipped message="why">; every test case and suite has a `time`; the observations
// (warnings) are properties of their endpoint's suite (a suite without test cases when
// no check is grouped under that endpoint).
import junit, { type Builder } from 'junit-report-builder'
import type { Observation } from './observations.js'
import { citationLines } from './citations.js'
import type { CheckResult } from './suite.js'
import type { MatrixEntry } from './matrix.js'

// the package is CommonJS: its module.exports is the builder its types call the default export
const root = ((junit as unknown as { default?: Builder }).default ?? junit) as Builder

type TestCase = ReturnType<ReturnType<Builder['testSuite']>['testCase']>

/** The element the library builds, as far as giving <skipped> its message needs. */
interface Element {
  children?: Array<{ name?: string; att(name: string, value: string): unknown }>
}

/** junit-report-builder writes a bare <skipped/>: this gives it the reason CI shows. */
function skippedWith(testCase: TestCase, reason: string): void {
  testCase.skipped()
  const node = testCase as unknown as { build(parent: unknown): Element }
  const build = node.build.bind(testCase)
  node.build = (parent) => {
    const element = build(parent)
    element.children?.find((child) => child.name === 'skipped')?.att('message', reason)
    return element
  }
}

const seconds = (ms: number) => Math.round(ms) / 1000

export function junitXml(results: readonly CheckResult[], name: string, observations: readonly Observation[] = [], matrix: readonly MatrixEntry[] = []): string {
  const builder = root.newBuilder().name(name)
  const suites = new Map<string, { suite: ReturnType<Builder['testSuite']>; ms: number }>()
  const suiteOf = (endpoint: string) => {
    let entry = suites.get(endpoint)
    if (!entry) {
      entry = { suite: builder.testSuite().name(endpoint), ms: 0 }
      suites.set(endpoint, entry)
    }
    return entry
  }
  for (const result of results) {
    const entry = suiteOf(result.endpoint)
    entry.ms += result.ms
    const testCase = entry.suite.testCase().className(`contract.${result.endpoint}`).name(result.name).time(seconds(result.ms))
    if (result.status === 'fail') {
      const cited = citationLines(`${result.endpoint}: ${result.name}`, undefined, result.failures)
      testCase.failure(result.failures[0] ?? 'failed', 'contract').stacktrace([...cited, ...result.failures].join('\n'))
    } else if (result.status === 'error') {
      testCase.error(result.reason ?? 'the service erred', 'service', result.reason)
    } else if (result.status === 'skip') {
      // a write check's reason starts "not due this run" already
      const why = result.skip === 'not-due' ? '' : result.skip === 'unavailable' ? 'not made: ' : 'does not apply: '
      skippedWith(testCase, `${why}${result.reason ?? ''}`)
    }
  }
  for (const o of observations) suiteOf(o.endpoint).suite.property(`warning.${o.topic}`, o.summary)
  // the request matrix: a case per cell, passed when checked, skipped with why, an error when not reached
  if (matrix.length > 0) {
    const suite = builder.testSuite().name('request matrix').time(0)
    for (const cell of matrix) {
      const testCase = suite.testCase().className(`contract.matrix.${cell.family}`).name(cell.id).time(0)
      if (cell.status === 'skipped') skippedWith(testCase, `${cell.why}${cell.reason ? `: ${cell.reason}` : ''}`)
      else if (cell.status === 'not reached') testCase.error(`not reached: ${cell.reason ?? 'no check read this cell'}`, 'matrix')
    }
  }
  for (const { suite, ms } of suites.values()) suite.time(seconds(ms))
  return builder.build()
}
