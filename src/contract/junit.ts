// The --junit file: one <testsuite> per endpoint, one <testcase> per check, written
// with junit-report-builder (tap's own junit reporter also lists each assertion inside
// a check as a test case, and counts suites as tests).
import junit, { type Builder } from 'junit-report-builder'
import type { CheckResult } from './suite.js'

// the package is CommonJS: its module.exports is the builder its types call the default export
const root = ((junit as unknown as { default?: Builder }).default ?? junit) as Builder

export function junitXml(results: readonly CheckResult[], name: string): string {
  const builder = root.newBuilder().name(name)
  const suites = new Map<string, ReturnType<Builder['testSuite']>>()
  for (const result of results) {
    let suite = suites.get(result.endpoint)
    if (!suite) {
      suite = builder.testSuite().name(result.endpoint)
      suites.set(result.endpoint, suite)
    }
    const testCase = suite.testCase().className(`contract.${result.endpoint}`).name(result.name)
    if (result.status === 'fail') {
      testCase.failure(result.failures[0] ?? 'failed', 'contract').stacktrace(result.failures.join('\n'))
    } else if (result.status === 'skip') {
      testCase.skipped().standardOutput(`skipped: ${result.reason ?? ''}`)
    }
  }
  return builder.build()
}
