// The bench's figure for `jobboard-kit contract`: the requests a read run and a --writes
// run make against the default fake (rate limit on, as on a deployment), and a --writes run
// with --rate-limit-window 0 (every request case in one run), with the request matrix's
// count line of each. Issue 34 holds a read run under 150 requests and a --writes run under
// 250; printed here, not asserted.
import { performance } from 'node:perf_hooks'
import { matrixCountLine } from '../src/contract/matrix.js'
import { runContract } from '../src/contract/run.js'
import { resolveSettings } from '../src/contract/settings.js'
import { createMockServer } from '../src/fake/server.js'

export interface ContractFigures {
  run: 'read-only' | '--writes' | '--writes --rate-limit-window 0'
  requests: number
  exitCode: number
  matrix: string
  seconds: number
}

async function measureOne(writes: boolean, windowZero = false): Promise<ContractFigures> {
  const fake = await createMockServer(windowZero ? { rateLimitWindow: 0 } : {})
  try {
    const url = await fake.listen(0)
    const settings = resolveSettings({ baseUrl: url, username: 'jobboard', password: 'jobboard', writes, ...(windowZero ? { rateLimitWindow: 0 } : {}) })
    const started = performance.now()
    const quiet = { write: () => true }
    const result = await runContract(settings, { stdout: quiet, stderr: quiet })
    const report = result.report
    return {
      run: windowZero ? '--writes --rate-limit-window 0' : writes ? '--writes' : 'read-only',
      requests: report?.requests.length ?? 0,
      exitCode: result.exitCode,
      matrix: report ? matrixCountLine(report.matrix) : '',
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    await fake.close()
  }
}

export async function measureContract(): Promise<ContractFigures[]> {
  return [await measureOne(false), await measureOne(true), await measureOne(true, true)]
}

export const renderContract = (f: ContractFigures) =>
  `contract ${f.run} against the default fake: ${f.requests} requests (exit ${f.exitCode}, ${f.seconds.toFixed(1)} s); ${f.matrix}`
