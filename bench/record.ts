// The bench's figure for `jobboard-kit record`: the requests each recorded record costs,
// recording the default board (and, with --large, the large one) from a fake in this
// process, as the record command's summary prints it. Rate limit on, as on a deployment:
// the recorder makes each full request once.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { realKitClock } from '../src/contract/kit-clock.js'
import { createMockServer } from '../src/fake/server.js'
import { Recorder } from '../src/record/recorder.js'
import { resolveRecordSettings } from '../src/record/record-settings.js'

export interface RecordFigures {
  scenario: string
  records: number
  requests: number
  requestsPerRecord: number
  seconds: number
}

export async function measureRecord(scenario = 'default'): Promise<RecordFigures> {
  const fake = await createMockServer({ scenario, clock: 'virtual' })
  const dir = mkdtempSync(join(tmpdir(), 'jobboard-kit-bench-record-'))
  try {
    const url = await fake.listen(0)
    const settings = resolveRecordSettings({ baseUrl: url, username: 'jobboard', password: 'jobboard', out: join(dir, 'recorded.json') })
    const started = performance.now()
    const result = await new Recorder(settings, { stderr: { write: () => true }, clock: realKitClock() }).run()
    if (!result.complete) throw new Error(`recording the ${scenario} board stopped: ${result.reason ?? ''}`)
    return {
      scenario,
      records: result.records,
      requests: result.requests,
      requestsPerRecord: result.records === 0 ? 0 : result.requests / result.records,
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    await fake.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export const renderRecord = (f: RecordFigures) =>
  `record of the ${f.scenario} board: ${f.records} records in ${f.requests} requests (${f.requestsPerRecord.toFixed(3)} requests per record), ${f.seconds.toFixed(1)} s`
