// How the example clients live through time against a fake under the virtual clock:
// rounds of a client with the clock moved between them (POST /__mock/clock/advance), and
// what happens on the board meanwhile. A Day says what happens: the small one below adds
// a candidate and an application between rounds, and an application while the first
// round walks (so a client that takes `since` from the end of its sync loses it);
// retiringDay also retires the industry clients pick first; resumedDay cuts the first
// walk of the candidates list short and changes the board while it waits. A fake started
// with an activity (`activity: 'bad-day'`, docs/activity.md, or a Day's own `activity`)
// plays its day itself as the clock moves: a Day of rounds alone then does
// (test/examples/clients.test.ts).
import type { SyncClient } from './sync-client.js'

export interface Board {
  /** The fake's origin. */
  url: string
  /** Adds records through the control API. */
  add(kind: 'candidates' | 'applications', record?: object): Promise<void>
  /** Retires constrained values (POST /__mock/job-fields), as the board does when an industry goes. */
  retire(list: string, values: string[]): Promise<void>
  /** Arms an outage for the next request to a path (POST /__mock/faults): it answers `status`. */
  fail(path: string, status: number): Promise<void>
}

export interface Day {
  /** Rounds the client makes. */
  readonly rounds: number
  /** Seconds between two rounds: at least the 15-minute window. */
  readonly gapSeconds: number
  /** Seconds each request takes on the board's clock. */
  readonly requestSeconds: number
  /** Called before the n-th request (1, 2, ...) the client makes, with its URL. */
  during?(board: Board, request: number, url: string): Promise<void>
  /** Called before each round after the first. */
  between?(board: Board, round: number): Promise<void>
  /** What the board plays as its clock passes (an activity file as docs/activity.md has it), for the fake to be started with. */
  readonly activity?: { readonly name: string; readonly events: readonly object[] }
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
    await day.during?.(board, count, typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
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
  fail: async (path, status) => {
    await control(url, '/faults', { path, status, times: 1 })
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

/**
 * A walk resumed across windows: the first walk of the candidates list meets an outage on
 * its second page (after its first page was read) and resumes a round later. While it
 * waits, a candidate signs up (five minutes in: it lands on the first page, which the walk
 * has read) and an older candidate changes (ten minutes in: on the second page, which the
 * walk reads when it resumes). The resumed walk returns a change made after it began, so
 * a client that takes `since` from the newest time its walk returned skips the sign-up;
 * one that takes it from the walk's first page does not. The third round walks `since`.
 * A function, as the day remembers that it cut the walk: each client lives its own.
 */
export function resumedDay(): Day {
  let cut = false
  return {
    rounds: 3,
    gapSeconds: 16 * 60,
    requestSeconds: 5,
    async during(board, _request, url) {
      const { pathname, searchParams } = new URL(url)
      if (cut || pathname !== '/api/v1/candidates/list' || searchParams.get('page') !== '2') return
      cut = true
      await board.fail(pathname, 503)
    },
    activity: {
      name: 'a-walk-resumed',
      events: [
        { at: '+00:05', event: 'new-candidate', note: 'on the first page, which the cut walk has read' },
        { at: '+00:10', event: 'update-candidate', id: 1, changes: { hot: 1 }, note: 'on the second page, which the walk reads when it resumes' },
      ],
    },
  }
}
