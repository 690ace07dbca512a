// A live board for the tests, as staging is one: the fake behind the test proxy playing
// arrivals (candidates, applications, timesheets, consents and updates, one every few
// board minutes), its clock moved on before every request a client makes, so records
// arrive between any two answers; `night()` moves it on by hours, as between two nightly
// runs, records arriving all the while.
import type { Test } from 'tap'
import type { BuildOptions } from '../../src/fake/app.js'
import type { MockServer } from '../../src/fake/server.js'
import { board, type Breakage } from '../contract/helpers.js'

const MINUTE = 60
/** Board seconds that pass before each request a client makes. */
export const STEP_SECONDS = 47
const KINDS = ['new-candidate', 'new-application', 'new-timesheet', 'marketing-approval', 'update-candidate', 'marketing-revocation', 'new-application']

/** Arrivals, one event every three board minutes, each kind in turn: 300 make a 15-hour day. */
export function arrivals(count = 300): { events: Array<Record<string, unknown>> } {
  const events = Array.from({ length: count }, (_, i) => {
    const seconds = (i + 1) * 3 * MINUTE
    const at = `+${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`
    const event = KINDS[i % KINDS.length] as string
    return event === 'update-candidate' ? { at, event, changes: { job_title: `Title ${i}` } } : { at, event }
  })
  return { events }
}

export interface LiveBoard {
  url: string
  fake: MockServer
  /** Moves the board's clock on by hours (records arrive as it goes), as between two nightly runs. */
  night(hours?: number): void
}

/**
 * The fake playing `count` arrivals from its start, through the test proxy (with `breakage`
 * besides), its clock moved on STEP_SECONDS before every request.
 */
export async function liveBoard(t: Test, options: BuildOptions & { seed: number; count?: number }, breakage: Breakage = {}): Promise<LiveBoard> {
  const { count, ...rest } = options
  const holder: { advance?: (seconds: number) => void } = {}
  const { fake, url } = await board(
    t,
    {
      ...breakage,
      request: async (exchange) => {
        holder.advance?.(STEP_SECONDS)
        return breakage.request ? breakage.request(exchange) : exchange
      },
    },
    { now: '2026-03-02 08:00:00', activityData: { name: 'arrivals', ...arrivals(count) } as BuildOptions['activityData'], ...rest },
  )
  holder.advance = (seconds) => fake.clock.advance(seconds)
  return { url, fake, night: (hours = 8) => fake.clock.advance(hours * 3600) }
}
