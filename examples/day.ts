// How the example clients live through time against a fake under the virtual clock:
// rounds of a client with the clock moved between them (POST /__mock/clock/advance), and
// what happens on the board meanwhile. A Day says what happens: the small one below adds
// a candidate and an application between rounds, and an application while the first
// round walks (so a client that takes `since` from the end of its sync loses it);
// retiringDay also retires the industry clients pick first. A fake started with an
// activity (`activity: 'bad-day'`, docs/activity.md) plays its day itself as the clock
// moves: a Day of rounds alone then does (test/examples/clients.test.ts).
import type { SyncClient } from './sync-client.js'

export interface Board {
  /** The fake's origin. */
  url: string
  /** Adds records through the control API. */
  add(kind: 'candidates' | 'applications', record?: object): Promise<void>
  /** Retires constrained values (POST /__mock/job-fields), as the board does when an industry goes. */
  retire(list: string, values: string[]): Promise<void>
}

export interface Day {
  /** Rounds the client makes. */
  readonly rounds: number
  /** Seconds between two rounds: at least the 15-minute window. */
  readonly gapSeconds: number
  /** Seconds each request takes on the board's clock. */
  readonly requestSeconds: number
  /** Called before the n-th request (1, 2, ...) the client makes. */
  during?(board: Board, request: number): Promise<void>
  /** Called before each round after the first. */
  between?(board: Board, round: number): Promise<void>
}

export const smallDay: Day = {
  rounds: 3,
  gapSeconds: 16 * 60,
  requestSeconds: 5,
  async during(board, request) {
    if (request === 5) await board.add('applications')
  },
  async between(board) {
    await board.add('candidates')
    await board.add('applications')
  },
}

const control = async (url: string, path: string, body: object) => {
  const answer = await fetch(`${url}/__mock${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!answer.ok) throw new Error(`POST /__mock${path} answered ${answer.status}: ${await answer.text()}`)
  return answer.json()
}

/** A fetch for the client that moves the virtual clock by each request's time and lets the day act first. */
export function dayFetch(board: Board, day: Day): typeof fetch {
  let count = 0
  return async (input, init) => {
    count += 1
    await control(board.url, '/clock/advance', { seconds: day.requestSeconds })
    await day.during?.(board, count)
    return fetch(input, init)
  }
}

/** Runs the client's rounds through the day. */
export async function live(client: SyncClient, board: Board, day: Day): Promise<void> {
  for (let round = 0; round < day.rounds; round++) {
    if (round > 0) {
      await control(board.url, '/clock/advance', { seconds: day.gapSeconds })
      await day.between?.(board, round)
    }
    await client.round()
  }
}

/** The board of a fake listening at `url`, through its control API. */
export const boardAt = (url: string): Board => ({
  url,
  add: async (kind, record = {}) => {
    await control(url, `/${kind}`, record)
  },
  retire: async (list, values) => {
    await control(url, '/job-fields', { retire: { [list]: values } })
  },
})

/** The small day, and before the third round the industry the clients pick first is retired. */
export const retiringDay: Day = {
  ...smallDay,
  async between(board, round) {
    await smallDay.between?.(board, round)
    if (round === 2) await board.retire('job_industry', ['Veterinary Surgeon'])
  },
}
